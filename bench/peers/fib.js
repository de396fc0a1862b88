// fib(27), recursive; prints 196418. ES5, for qjs and node.
function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}
console.log(String(fib(27)));
