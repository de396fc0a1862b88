-- eval: a recursive expression tree of depth 14 (32767 nodes) built once
-- and evaluated 300 times, for x = 0..299, modulo 1000003; prints the sum
-- of the results (bench/mty/eval.mty). Nodes are tables {tag, a, b}.
local M = 1000003
local NUM, VAR, ADD, SUB, MUL = 1, 2, 3, 4, 5

local function build(depth, seed)
  if depth == 0 then
    if seed % 3 == 0 then return {VAR} else return {NUM, seed % 100} end
  end
  local l = build(depth - 1, seed * 3 + 1)
  local r = build(depth - 1, seed * 7 + 2)
  local m = depth % 3
  if m == 0 then return {ADD, l, r}
  elseif m == 1 then return {MUL, l, r}
  else return {SUB, l, r} end
end

local function eval(e, x)
  local tag = e[1]
  if tag == NUM then return e[2]
  elseif tag == VAR then return x
  elseif tag == ADD then return (eval(e[2], x) + eval(e[3], x)) % M
  elseif tag == SUB then return (eval(e[2], x) - eval(e[3], x) + M) % M
  else return (eval(e[2], x) * eval(e[3], x)) % M end
end

local tree = build(14, 1)
local total = 0
for x = 0, 300 - 1 do
  total = total + eval(tree, x)
end
print(total)
