-- method: 10000000 method calls c:bump(i) on one object; prints
-- 50000005000000 (bench/mty/method.mty).
local Counter = {}
Counter.__index = Counter
function Counter.new() return setmetatable({count = 0}, Counter) end
function Counter:bump(k) self.count = self.count + k end
local c = Counter.new()
for i = 1, 10000000 do
  c:bump(i)
end
print(c.count)
