#!/usr/bin/env bash
# Runs one golden program through the real `mty` binary and compares its
# stdout, stderr and exit code with the files beside it:
#   NAME.mtyir  the program; a line `// mty-args: ...` adds flags to `mty run`
#   NAME.out    expected stdout (absent = empty)
#   NAME.err    expected stderr (absent = empty)
#   NAME.code   expected exit code (absent = 0)
# The run must also end in time: within `// mty-time-limit: D` when the
# program has that line, else within 2 x its `--wall` budget (plus 300ms for
# starting the process), else within 60s. D is a duration: 500ms, 2s, 1m;
# MTY_TIME_FACTOR (an integer, default 1) multiplies it, for sanitizer builds.
# Real bytes: with MTY_RSS_RUN set (tests/tools/rss_run), the run's peak RSS
# is measured and must stay within 2 x its `--memory` budget + 16 MiB
# (runtime.md §2), or within `// mty-rss-limit: SIZE` when the program has
# that line (KiB, MiB, GiB).
# Address space: with `// mty-as: SIZE` (B, KiB, MiB, GiB) the run is under
# `prlimit --as=SIZE`, so that a memory bomb meant to exhaust the host
# exhausts that limit and never the machine (with MTY_NO_AS_LIMIT set, as
# under AddressSanitizer, such a program is skipped: exit 77). `// mty-stderr-sed: EXPR`
# rewrites the run's stderr with `sed -E EXPR` before it is compared (for
# numbers that depend on the host, such as where it ran out of memory).
# Setup: each `// mty-setup: CMD` line is run by bash in a scratch copy of
# the program's folder, and the program runs there (for inputs too large or
# too odd to check in: a sparse 900 MB file, a link to /dev/zero).
# With MTY_GOLDEN_BLESS=1 (direct mode), the run's stderr replaces NAME.err
# (review the diff before committing it).
# A program with a line `// expect-error: LINE` must be rejected at compile
# time: `mty check` must exit 1 and the first diagnostic's location (the
# first ` --> FILE:LINE:COL` line of its stderr) must be on LINE; its stderr
# is compared with NAME.err only when NAME.err exists (NAME.out/.code are
# not read). Such programs are skipped in roundtrip mode.
# Usage: run_golden.sh MTY_BINARY PROGRAM [roundtrip]
# With `roundtrip`, the program is first printed as MtyIR (`mty dump --ir`)
# and that IR is run instead: it must give identical stdout, stderr and exit
# code. (Programs whose expected exit code is 1 because they do not compile
# are skipped in that mode.)
set -u
mty="$1"
prog="$2"
mode="${3:-direct}"
dir="$(dirname "$prog")"
base="${prog%.*}"
args="$(sed -n 's|^// mty-args: ||p' "$prog" | head -n1)"
expect_line="$(sed -n 's|^// expect-error: *\([0-9][0-9]*\) *$|\1|p' "$prog" | head -n1)"
if [ -n "$expect_line" ]; then
  [ "$mode" = roundtrip ] && { echo "skipped: does not compile (an expect-error program)"; exit 0; }
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  (cd "$dir" && timeout 60 "$mty" check "$(basename "$prog")" >"$tmp/out" 2>"$tmp/err")
  code=$?
  fail=0
  if [ "$code" != 1 ]; then
    echo "exit code: got $code, want 1 (a compile error on line $expect_line)"; fail=1
  fi
  got_line="$(sed -n 's|^ *--> [^:]*:\([0-9][0-9]*\):[0-9][0-9]*$|\1|p' "$tmp/err" | head -n1)"
  if [ "$got_line" != "$expect_line" ]; then
    echo "first diagnostic on line ${got_line:-(none)}, want line $expect_line"; fail=1
  fi
  if [ -f "$base.err" ] && ! diff -u "$base.err" "$tmp/err" >"$tmp/d2"; then
    echo "stderr differs:"; cat "$tmp/d2"; fail=1
  fi
  if [ "$fail" != 0 ]; then echo "stderr was:"; cat "$tmp/err"; fi
  exit $fail
fi
# Duration text (ns us ms s m) to milliseconds; empty when it is not one.
to_ms() {
  local d="$1" n unit
  n="${d%%[a-z]*}"; unit="${d#"$n"}"
  [[ "$n" =~ ^[0-9]+$ ]] || return 0
  case "$unit" in
    ns) echo $((n / 1000000)) ;; us) echo $((n / 1000)) ;; ms) echo "$n" ;;
    s) echo $((n * 1000)) ;; m) echo $((n * 60000)) ;; *) ;;
  esac
}
limit_ms=60000
time_limit="$(sed -n 's|^// mty-time-limit: *||p' "$prog" | head -n1)"
wall="$(printf '%s\n' $args | sed -n '/^--wall$/{n;p;}' | head -n1)"
[ -z "$wall" ] && wall="$(printf '%s\n' $args | sed -n 's|^--wall=||p' | head -n1)"
if [ -n "$time_limit" ]; then
  limit_ms="$(to_ms "$time_limit")"
  [ -n "$limit_ms" ] || { echo "bad mty-time-limit: $time_limit"; exit 1; }
  # An instrumented build (scripts/sanitize.sh: ASan runs code about 3x
  # slower) scales the work-bound limits by MTY_TIME_FACTOR; the limits
  # derived from --wall, which check the wall budget itself, stay as they are.
  limit_ms=$((limit_ms * ${MTY_TIME_FACTOR:-1}))
elif [ -n "$wall" ] && [ -n "$(to_ms "$wall")" ]; then
  limit_ms=$(($(to_ms "$wall") * 2 + 300))
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if grep -q '^// mty-setup: ' "$prog"; then
  mkdir "$tmp/work"
  cp -r "$dir"/. "$tmp/work/" 2>/dev/null
  dir="$tmp/work"
  while IFS= read -r cmd; do
    (cd "$dir" && bash -c "$cmd") || { echo "setup failed: $cmd"; exit 1; }
  done < <(sed -n 's|^// mty-setup: ||p' "$prog")
fi
# The real-bytes bound in KiB (empty: none).
size_kib() {
  local t="$1" n unit
  n="${t%%[A-Za-z]*}"; unit="${t#"$n"}"
  [[ "$n" =~ ^[0-9]+$ ]] || return 0
  case "$unit" in
    B) echo $((n / 1024)) ;; KiB) echo "$n" ;; MiB) echo $((n * 1024)) ;; GiB) echo $((n * 1048576)) ;;
    *) ;;
  esac
}
rss_limit_kib=""
rss_text="$(sed -n 's|^// mty-rss-limit: *||p' "$prog" | head -n1)"
memory="$(printf '%s\n' $args | sed -n '/^--memory$/{n;p;}' | head -n1)"
if [ -n "$rss_text" ]; then
  rss_limit_kib="$(size_kib "$rss_text")"
elif [ -n "$memory" ] && [ -n "$(size_kib "$memory")" ]; then
  rss_limit_kib=$(($(size_kib "$memory") * 2 + 16384))
fi
as_limit=()
as_text="$(sed -n 's|^// mty-as: *||p' "$prog" | head -n1)"
if [ -n "$as_text" ] && [ -n "${MTY_NO_AS_LIMIT:-}" ]; then
  echo "skipped: address-space limits do not apply under AddressSanitizer"
  exit 77
fi
if [ -n "$as_text" ]; then
  as_kib="$(size_kib "$as_text")"
  [ -n "$as_kib" ] || { echo "bad mty-as: $as_text"; exit 1; }
  as_limit=(prlimit "--as=$((as_kib * 1024))")
fi
# Run from the program's folder so file names in messages are stable.
target="$(basename "$prog")"
if [ "$mode" = roundtrip ]; then
  if ! (cd "$dir" && "$mty" dump --ir "$target" >"$tmp/rt.mtyir" 2>"$tmp/dump_err"); then
    if [ -f "$base.code" ] && [ "$(tr -d '[:space:]' <"$base.code")" = 1 ] && [ ! -f "$base.out" ]; then
      echo "skipped: does not compile (a diagnostics test)"; exit 0
    fi
    echo "dump --ir failed:"; cat "$tmp/dump_err"; exit 1
  fi
  target="$tmp/rt.mtyir"
fi
start_ns=$(date +%s%N)
measure=()
[ -n "${MTY_RSS_RUN:-}" ] && measure=("$MTY_RSS_RUN" "$tmp/rss")
(cd "$dir" && "${measure[@]}" timeout 60 "${as_limit[@]}" "$mty" run $args "$target" >"$tmp/out" 2>"$tmp/err")
code=$?
stderr_sed="$(sed -n 's|^// mty-stderr-sed: ||p' "$prog" | head -n1)"
if [ -n "$stderr_sed" ]; then sed -E "$stderr_sed" "$tmp/err" >"$tmp/err2" && mv "$tmp/err2" "$tmp/err"; fi
# In roundtrip mode the compile's warnings come from `dump --ir`: they lead
# the run's stderr as `mty run` on the source would print them.
if [ "$mode" = roundtrip ]; then cat "$tmp/dump_err" "$tmp/err" >"$tmp/err2"; mv "$tmp/err2" "$tmp/err"; fi
elapsed_ms=$((($(date +%s%N) - start_ns) / 1000000))
want_code=0
[ -f "$base.code" ] && want_code="$(tr -d '[:space:]' <"$base.code")"
: >"$tmp/want_out"; [ -f "$base.out" ] && cp "$base.out" "$tmp/want_out"
: >"$tmp/want_err"; [ -f "$base.err" ] && cp "$base.err" "$tmp/want_err"
fail=0
if [ "$elapsed_ms" -gt "$limit_ms" ]; then
  echo "took ${elapsed_ms}ms, more than the ${limit_ms}ms it may take"; fail=1
fi
if [ -n "$rss_limit_kib" ] && [ -f "$tmp/rss" ]; then
  rss_kib="$(sed -n 's|^peak_rss_kb ||p' "$tmp/rss")"
  if [ "$rss_kib" -gt "$rss_limit_kib" ]; then
    echo "peak RSS ${rss_kib} KiB, more than the ${rss_limit_kib} KiB it may take"; fail=1
  fi
fi
if [ "$code" != "$want_code" ]; then
  echo "exit code: got $code, want $want_code"; fail=1
fi
if ! diff -u "$tmp/want_out" "$tmp/out" >"$tmp/d1"; then
  echo "stdout differs:"; cat "$tmp/d1"; fail=1
fi
if [ "${MTY_GOLDEN_BLESS:-}" = 1 ] && [ "$mode" = direct ]; then
  if [ -s "$tmp/err" ]; then cp "$tmp/err" "$base.err"; else rm -f "$base.err"; fi
  cp "$tmp/err" "$tmp/want_err"
fi
# A verbatim Rust program (NAME.rs, the Rust corpus) is held to its rustc
# twin's stdout and exit code; its stderr (mty's compile warnings, which
# rustc prints when compiling, not when running) only when NAME.err exists.
if [ "${prog##*.}" = rs ] && [ ! -f "$base.err" ]; then cp "$tmp/err" "$tmp/want_err"; fi
if ! diff -u "$tmp/want_err" "$tmp/err" >"$tmp/d2"; then
  echo "stderr differs:"; cat "$tmp/d2"; fail=1
fi
exit $fail
