-- closure: 5 passes of map / filter / fold with closures over an array of
-- 1000000 integers; each pass captures its own k. Prints 3333336666667
-- (bench/mty/closure.mty). map, filter and fold are written out as the
-- plain higher-order functions a Lua user would write (Lua has none built
-- in).
local function map(t, f)
  local r = {}
  for i = 1, #t do r[i] = f(t[i]) end
  return r
end
local function filter(t, f)
  local r, n = {}, 0
  for i = 1, #t do
    local x = t[i]
    if f(x) then n = n + 1; r[n] = x end
  end
  return r
end
local function fold(t, init, f)
  local acc = init
  for i = 1, #t do acc = f(acc, t[i]) end
  return acc
end

local n = 1000000
local v = {}
for i = 0, n - 1 do v[#v + 1] = i end
local total = 0
for k = 0, 4 do
  local s = fold(filter(map(v, function(x) return x * 2 + k end),
                        function(x) return x % 3 ~= 0 end),
                 0, function(acc, x) return acc + x end)
  total = total + s
end
print(total)
