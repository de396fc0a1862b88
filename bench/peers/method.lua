-- 1000000 method calls c:bump(i) on one object; prints 500000500000.
local Counter = {}
Counter.__index = Counter
function Counter.new() return setmetatable({count = 0}, Counter) end
function Counter:bump(k) self.count = self.count + k end
local c = Counter.new()
for i = 1, 1000000 do c:bump(i) end
print(string.format("%d", c.count))
