-- spawn: creates 10000 worker coroutines (the Lua stand-in for agents),
-- keeps them, then asks each once; prints the sum of the replies, 99990000
-- (bench/mty/spawn.mty).
local function worker(id)
  return coroutine.create(function()
    while true do coroutine.yield(id * 2) end
  end)
end
local n = 10000
local workers = {}
for i = 0, n - 1 do
  workers[#workers + 1] = worker(i)
end
local sum = 0
for i = 1, #workers do
  local _, r = coroutine.resume(workers[i])
  sum = sum + r
end
print(sum)
