-- Sum of i for i in [0, 10000000); prints 49999995000000.
local s = 0
for i = 0, 10000000 - 1 do s = s + i end
print(string.format("%d", s))
