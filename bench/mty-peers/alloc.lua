-- alloc: 3000000 three-element tuples {i, i + 1, i + 2} appended to an array,
-- kept live, then every field summed; prints 13500004500000
-- (bench/mty/alloc.mty).
local n = 3000000
local v = {}
for i = 0, n - 1 do
  v[#v + 1] = {i, i + 1, i + 2}
end
local sum = 0
for j = 1, #v do
  local t = v[j]
  sum = sum + t[1] + t[2] + t[3]
end
print(sum)
