#!/usr/bin/env bash
# The mty command line contract: --help, --version, usage errors exit 64 with
# a usage line, unreadable input exits 66, dump --bytecode / --ir, and
# `dump --ir` output runs with identical results.
set -u
mty="$1"
src="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fails=0
check() {  # check NAME WANT_CODE GOT_CODE
  if [ "$2" != "$3" ]; then echo "FAIL $1: exit $3, want $2"; fails=$((fails + 1)); else echo "ok   $1"; fi
}
contains() {  # contains NAME FILE TEXT
  if grep -qF -- "$3" "$2"; then echo "ok   $1"; else echo "FAIL $1: '$3' not in output:"; cat "$2"; fails=$((fails + 1)); fi
}
fib="$src/../examples/fib.mtyir"

"$mty" --help >"$tmp/o" 2>&1; check help 0 $?
contains help-text "$tmp/o" "run"
"$mty" --version >"$tmp/o" 2>&1; check version 0 $?
contains version-text "$tmp/o" "mty 0.1.0"
"$mty" >"$tmp/o" 2>&1; check no-subcommand 64 $?
contains no-subcommand-usage "$tmp/o" "usage: mty run"
"$mty" run --bogus "$fib" >"$tmp/o" 2>&1; check bad-flag 64 $?
contains bad-flag-usage "$tmp/o" "usage: mty run"
"$mty" run --steps notanumber "$fib" >"$tmp/o" 2>&1; check bad-steps 64 $?
"$mty" run --memory 12XB "$fib" >"$tmp/o" 2>&1; check bad-memory 64 $?
contains bad-memory-usage "$tmp/o" "usage: mty run"
"$mty" run "$tmp/does-not-exist.mtyir" >"$tmp/o" 2>&1; check missing-file 66 $?
contains missing-file-text "$tmp/o" "cannot read"
"$mty" run "$fib" >"$tmp/o" 2>&1; check run-fib 0 $?
contains run-fib-output "$tmp/o" "fib(15) = 610"
"$mty" run --steps 50 "$fib" >"$tmp/o" 2>"$tmp/e"; check run-fib-steps 3 $?
contains run-fib-steps-text "$tmp/e" "trap MT5009: step budget exceeded: 50 steps"
"$mty" run --memory 100B --steps 1000000 "$fib" >"$tmp/o" 2>&1; check run-fib-mem 4 $?
"$mty" dump --bytecode "$fib" >"$tmp/o" 2>&1; check dump-bytecode 0 $?
contains dump-bytecode-text "$tmp/o" "call r"
"$mty" dump "$fib" >"$tmp/o" 2>&1; check dump-needs-kind 64 $?
# dump --ir round trip: the printed IR runs with identical output and exit code.
"$mty" dump --ir "$fib" >"$tmp/fib2.mtyir" 2>&1; check dump-ir 0 $?
"$mty" run "$fib" >"$tmp/a" 2>&1; a=$?
"$mty" run "$tmp/fib2.mtyir" >"$tmp/b" 2>&1; b=$?
check dump-ir-rerun "$a" "$b"
if cmp -s "$tmp/a" "$tmp/b"; then echo "ok   dump-ir-same-output"; else echo "FAIL dump-ir-same-output"; fails=$((fails + 1)); fi
"$mty" dump --ir "$tmp/fib2.mtyir" >"$tmp/fib3.mtyir"
if cmp -s "$tmp/fib2.mtyir" "$tmp/fib3.mtyir"; then echo "ok   dump-ir-fixpoint"; else echo "FAIL dump-ir-fixpoint"; fails=$((fails + 1)); fi
printf 'fn main() -> Unit {\nbb0:\n  goto bb4\n}\n' >"$tmp/bad.mtyir"
(cd "$tmp" && "$mty" run bad.mtyir >o 2>&1); check verify-error 1 $?
contains verify-error-text "$tmp/o" "bad.mtyir:3:3: error: in fn main: block bb4 does not exist"
echo "$fails failed"
[ "$fails" -eq 0 ]
