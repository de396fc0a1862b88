-- loop: sums 0..100000000 with a numeric for; prints 4999999950000000
-- (bench/mty/loop.mty).
local sum = 0
for i = 0, 100000000 - 1 do
  sum = sum + i
end
print(sum)
