-- words: word frequencies over a generated text of 300000 words (the same
-- vocabulary and generator as bench/mty/words.mty), sorted by count
-- (descending, ties alphabetical); prints the top 5 and a summary line.
local syl = {"ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "pe", "su"}
local vocab = {}
for k = 0, 999 do
  vocab[#vocab + 1] = syl[k % 10 + 1] .. syl[k // 10 % 10 + 1] .. syl[k // 100 + 1]
end
local seed = 42
local picked = {}
for _ = 1, 300000 do
  seed = (seed * 1103515245 + 12345) % 2147483648
  local a = seed % 1000
  local b = seed // 1000 % 1000
  picked[#picked + 1] = vocab[a * b // 1000 + 1]
end
local text = table.concat(picked, " ")

local counts, words, total = {}, {}, 0
for w in string.gmatch(text, "[^ ]+") do
  total = total + 1
  local c = counts[w]
  if c then
    counts[w] = c + 1
  else
    counts[w] = 1
    words[#words + 1] = w
  end
end
table.sort(words, function(a, b)
  local ca, cb = counts[a], counts[b]
  if ca ~= cb then return ca > cb end
  return a < b
end)
for i = 1, 5 do
  local w = words[i]
  print(string.format("%-8s %6d", w, counts[w]))
end
local top = words[1]
print(string.format("%d words, %d distinct, top %s x%d", total, #words, top, counts[top]))
