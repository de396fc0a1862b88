#!/usr/bin/env bash
# Hostile inputs for the forms of issue #16 part 1 (loop labels, slice
# patterns, nested fn items, let-else, budgets): large or deep programs
# compile and run in time, or fail with a located error, never a crash or
# a quadratic blowup.
set -u
mty="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
# run NAME WANT_CODE WANT_STDOUT FILE: within 20s, the exit code and stdout.
run() {
  local start end out code
  start=$(date +%s%N)
  out="$(timeout 20 "$mty" run "$4" 2>"$tmp/err")"
  code=$?
  end=$(date +%s%N)
  if [ "$code" != "$2" ]; then bad "$1: exit $code, want $2"; head -5 "$tmp/err"; return; fi
  if [ -n "$3" ] && [ "$out" != "$3" ]; then bad "$1: stdout '$out', want '$3'"; return; fi
  ok "$1 ($(((end - start) / 1000000)) ms)"
}
cd "$tmp"

# 10 000 labelled loops one after another, each left by its label.
python3 - >many_labels.mty <<'PY'
print("fn main() {\n    let mut n = 0")
for i in range(10000):
    print(f"    'l{i}: loop {{ n += 1\n        break 'l{i} }}")
print("    log(n)\n}")
PY
run many-labels 0 10000 many_labels.mty

# 10 000 labelled loops and a misspelt label: one located error.
sed 's/break '"'"'l9999 }/break '"'"'l99999 }/' many_labels.mty >bad_label.mty
run bad-label 1 "" bad_label.mty
grep -q "error\[MT1030\]: use of undeclared label \`'l99999\`" "$tmp/err" && ok bad-label-message ||
  bad "bad-label-message: $(head -3 "$tmp/err")"

# 200 nested labelled loops, the innermost leaves the outermost.
python3 - >nested_labels.mty <<'PY'
d = 200
print("fn main() {")
for i in range(d):
    print("    " * (i + 1) + f"'l{i}: loop {{")
print("    " * (d + 1) + "break 'l0")
for i in reversed(range(d)):
    print("    " * (i + 1) + "}")
print("    log(\"out\")\n}")
PY
run nested-labels 0 out nested_labels.mty

# Labelled loops nested past the parser's depth limit: MT0007, no crash.
python3 - >deep_labels.mty <<'PY'
d = 2000
print("fn main() {" + "".join(f"'l{i}: loop {{ " for i in range(d)) + "break 'l0" + " }" * d + "\n}")
PY
run deep-labels 1 "" deep_labels.mty
grep -q "MT0007" "$tmp/err" && ok deep-labels-mt0007 || bad "deep-labels-mt0007: $(head -3 "$tmp/err")"

# A slice pattern of 10 000 elements with a rest in the middle.
python3 - >huge_slice.mty <<'PY'
n = 10000
arr = ", ".join(str(i) for i in range(n + 5))
pat = ", ".join(f"a{i}" for i in range(n // 2)) + ", mid @ .., " + ", ".join(f"b{i}" for i in range(n // 2))
print(f"fn main() {{\n    let [{pat}] = [{arr}] else {{ return }}\n    log(a0 + a4999 + b0 + b4999 + mid.len())\n}}")
PY
run huge-slice 0 20013 huge_slice.mty

# 5 000 nested fn items in one block, each calling the one before (5 000
# frames: under the default call depth of 10 000).
python3 - >many_fns.mty <<'PY'
n = 5000
print("fn main() {\n    fn f0(x: I64) -> I64 { x + 1 }")
for i in range(1, n):
    print(f"    fn f{i}(x: I64) -> I64 {{ f{i - 1}(x) }}")
print(f"    log(f{n - 1}(1))\n}}")
PY
run many-fns 0 2 many_fns.mty

# 10 000 let-else statements.
python3 - >many_let_else.mty <<'PY'
print("fn main() {\n    let mut t = 0")
for i in range(10000):
    print(f"    let Some(x{i}) = Some({i % 7}) else {{ return }}\n    t += x{i}")
print("    log(t)\n}")
PY
run many-let-else 0 "$(python3 -c 'print(sum(i % 7 for i in range(10000)))')" many_let_else.mty

# 2 000 nested budgets past the depth limit: MT0007, no crash.
python3 - >deep_budget.mty <<'PY'
d = 2000
print("fn main() {" + "budget { steps 1k } run { " * d + "1" + " }" * d + "\n}")
PY
run deep-budget 1 "" deep_budget.mty

if [ "$fails" -ne 0 ]; then echo "$fails failure(s)"; exit 1; fi
echo "all ok"
