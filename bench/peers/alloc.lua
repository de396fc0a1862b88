-- 1000000 three-int records {i, i+1, i+2} kept live in an array, then the
-- sum of the middle field; prints 500000500000.
local n = 1000000
local recs = {}
for i = 0, n - 1 do recs[#recs + 1] = {i, i + 1, i + 2} end
local s = 0
for j = 1, #recs do s = s + recs[j][2] end
print(string.format("%d", s))
