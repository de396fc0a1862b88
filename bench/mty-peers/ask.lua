-- ask: 100000 request/reply round trips to a counter coroutine (the Lua
-- stand-in for an agent: resume sends, yield replies); prints the sum of
-- the replies, 5000050000 (bench/mty/ask.mty).
local counter = coroutine.wrap(function(by)
  local n = 0
  while true do
    n = n + by
    by = coroutine.yield(n)
  end
end)
local sum = 0
for _ = 1, 100000 do
  sum = sum + counter(1)
end
print(sum)
