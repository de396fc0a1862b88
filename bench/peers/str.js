// 100000 short strings "x" + (i % 1000) collected and joined; prints the
// joined length, 389000.
function run(n) {
  var buf = [];
  for (var i = 0; i < n; i++) buf.push("x" + (i % 1000));
  return buf.join("").length;
}
console.log(String(run(100000)));
