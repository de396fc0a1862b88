-- fib: recursive fib(32); prints 2178309 (bench/mty/fib.mty).
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end
print(fib(32))
