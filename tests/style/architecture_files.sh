#!/usr/bin/env bash
# docs/architecture.md names only files that exist: every path it writes
# from a top-level folder (`interp/src/loop.cc`, `ir/include/mty/ir/`) is in
# the tree, and every bare file name (`loop.cc`, `kinds.def`) is the name of
# a file somewhere in it. A recipe that points at a file that was renamed or
# split fails here.
set -u
root="$1"
cd "$root" || exit 1
doc=docs/architecture.md
fail=0
top='(vocab|ir|frontend|interp|runtime|stdlib|src|include|cluster|driver|tests|bench|cmake|examples|docs|scripts)'
# Paths from a top-level folder (a trailing `/` names a folder).
while read -r p; do
  [ -e "$p" ] || { echo "$doc names $p, which does not exist"; fail=1; }
done < <(grep -oE "(^|[^A-Za-z0-9_./-])$top/[A-Za-z0-9_./*-]*" "$doc" | sed -E 's/^[^a-z]//; s/[.]$//' | grep -v '\*' | sort -u)
# Bare file names: some file in the tree has that name.
names=$(find . -path ./build -prune -o -path ./.git -prune -o -type f -printf '%f\n' | sort -u)
while read -r f; do
  grep -qxF "$f" <<< "$names" || { echo "$doc names $f, which is no file in the tree"; fail=1; }
done < <(grep -oP "(?<![A-Za-z0-9_./-])[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*\.(cc|h|def|sh|md|cmake|in|conf)(?![A-Za-z0-9_./-]*[A-Za-z0-9_/-])" "$doc" | sort -u)
[ "$fail" = 0 ] && echo "architecture.md: every file it names exists"
exit $fail
