-- 100000 short strings "x" .. (i % 1000) collected and joined; prints the
-- joined length, 389000.
local buf = {}
for i = 0, 100000 - 1 do buf[#buf + 1] = "x" .. (i % 1000) end
print(string.format("%d", #table.concat(buf, "")))
