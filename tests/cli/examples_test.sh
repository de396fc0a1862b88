#!/usr/bin/env bash
# Runs every example program (examples/**/*.mty and *.mtyir) with the mty
# binary and checks that it exits 0 and prints something on stdout.
# A line `// mty-args: ...` in an example adds flags to `mty run`, as in the
# conformance goldens.
# Usage: examples_test.sh MTY_BINARY REPO_ROOT   (runs with cwd = REPO_ROOT)
set -u
mty="$1"
root="$2"
cd "$root" || { echo "cannot cd to $root"; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fails=0
count=0
while IFS= read -r prog; do
  count=$((count + 1))
  args="$(sed -n 's|^// mty-args: ||p' "$prog" | head -n1)"
  timeout 60 "$mty" run $args "$prog" >"$tmp/out" 2>"$tmp/err"
  code=$?
  if [ "$code" != 0 ]; then
    echo "FAIL $prog: exit $code"; sed 's/^/  /' "$tmp/err"; fails=$((fails + 1))
  elif [ ! -s "$tmp/out" ]; then
    echo "FAIL $prog: no output on stdout"; fails=$((fails + 1))
  else
    echo "ok   $prog"
  fi
done < <(find examples -type f \( -name '*.mty' -o -name '*.mtyir' \) | LC_ALL=C sort)
if [ "$count" = 0 ]; then echo "FAIL: no examples found under $root/examples"; exit 1; fi
echo "$((count - fails))/$count examples passed"
[ "$fails" = 0 ]
