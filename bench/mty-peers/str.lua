-- str: 1000000 short strings "x<i % 1000>" built with string.format, joined;
-- prints the joined length, 3890000 (bench/mty/str.mty).
local n = 1000000
local parts = {}
for i = 0, n - 1 do
  parts[#parts + 1] = string.format("x%d", i % 1000)
end
local s = table.concat(parts, "")
print(#s)
