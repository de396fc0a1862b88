// 1000000 method calls c.bump(i) on one object; prints 500000500000.
function Counter() { this.count = 0; }
Counter.prototype.bump = function (k) { this.count += k; };
function run(n) {
  var c = new Counter();
  for (var i = 1; i <= n; i++) c.bump(i);
  return c.count;
}
console.log(String(run(1000000)));
