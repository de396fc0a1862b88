// 1000000 three-int arrays [i, i+1, i+2] kept live, then the sum of the
// middle element; prints 500000500000.
function run(n) {
  var recs = [];
  for (var i = 0; i < n; i++) recs.push([i, i + 1, i + 2]);
  var total = 0;
  for (var j = 0; j < recs.length; j++) total += recs[j][1];
  return total;
}
console.log(String(run(1000000)));
