// Sum of i for i in [0, 10000000); prints 49999995000000 (leaves int32, so
// the sum is a double; exact below 2^53).
function run() {
  var total = 0;
  for (var i = 0; i < 10000000; i++) total += i;
  return total;
}
console.log(String(run()));
