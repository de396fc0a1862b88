-- map: 200000 inserts of string keys "k<i>" into a table, then 200000
-- lookups of the same keys; prints "200000 keys, sum 19999900000"
-- (bench/mty/map.mty).
local n = 200000
local m, len = {}, 0
for i = 0, n - 1 do
  local k = string.format("k%d", i)
  if m[k] == nil then len = len + 1 end
  m[k] = i
end
local sum = 0
for i = 0, n - 1 do
  sum = sum + m[string.format("k%d", i)]
end
print(string.format("%d keys, sum %d", len, sum))
