-- fib(27), recursive; prints 196418. Runs under lua5.4 and luajit.
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end
print(string.format("%d", fib(27)))
