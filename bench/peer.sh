#!/usr/bin/env bash
# Runs the Mighty-source workloads (bench/mty/*.mty) in mty and the same
# programs in Lua 5.4 and Python 3 (bench/mty-peers/), side by side on this
# machine, and prints markdown tables of CPU time, peak RSS and their ratios.
# Installs nothing (docs/performance.md lists the packages); a missing peer
# gives "-" cells.
#
#   bench/peer.sh build/mty                     # MODE=table: CPU s and RSS, median of RUNS
#   RUNS=5 bench/peer.sh build/mty              # median of 5 runs instead of 3
#   SIZE=0.1 bench/peer.sh build/mty            # every workload at 1/10 size
#   WORKLOADS="fib ask" bench/peer.sh build/mty # a subset
#   MODE=callgrind bench/peer.sh build/mty      # instructions (Ir), SIZE=0.1 unless set
#   MODE=scale bench/peer.sh build/mty          # t(2n)/t(n), t(4n)/t(2n); n = SCALE_BASE (0.5) x size
#   SET=ir bench/peer.sh build/mty              # the older MtyIR set (bench/peer-ir.sh)
#
# Engines: "mty+b" is `mty run` with every budget on, far above what the
# workload needs (--steps 1000000000000 --memory 16GiB --wall 1h --cpu 1h);
# "mty" is `mty run` with no budgets; lua5.4; python3 (/usr/bin/python3 when
# present). Each timed cell is the median of RUNS runs of
# `/usr/bin/time -f "%U %S %M"`: CPU seconds (user + sys, 10 ms resolution,
# process start included) and peak RSS. Runs alternate between the engines
# (run 1 of every engine, then run 2, ...) to spread machine noise. The
# hello workload (start-up) is reported apart, as wall milliseconds (hyperfine
# when installed, else the median of 20 timed runs) and RSS.
#
# Sizes: each program holds its size as one literal, which SIZE (a factor,
# default 1) scales: linear workloads multiply it, fib(32) moves by
# log_phi(SIZE) (fib(27) at 0.1), eval's tree depth 14 by log2(SIZE) (depth
# 11 at 0.1). At SIZE=1 every run's last output line is checked against the
# expected value below; at other sizes against Lua's (else Python's) last
# line at that size (one untimed reference run). A mismatch or a failing
# exit status marks the row BAD and makes the script exit 1.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
if [ "${SET:-mty}" = ir ]; then
  exec "$HERE/peer-ir.sh" "$@"
fi
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 PATH/TO/mty   (env: MODE=table|callgrind|scale, RUNS=3, SIZE=1, WORKLOADS=..., SET=mty|ir)" >&2
  exit 2
fi
MODE=${MODE:-table}
RUNS=${RUNS:-3}
case $MODE in
  table | scale) SIZE=${SIZE:-1} ;;
  callgrind) SIZE=${SIZE:-0.1} ;;
  *) echo "$0: unknown MODE=$MODE (table, callgrind or scale)" >&2; exit 2 ;;
esac
SCALE_BASE=${SCALE_BASE:-0.5}
BUDGETS=(--steps 1000000000000 --memory 16GiB --wall 1h --cpu 1h)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# A private copy of the binary: a rebuild during the run cannot mix builds.
cp "$1" "$WORK/mty"
MTY=$WORK/mty
SRC=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")

ALL=(fib loop alloc str method closure map words eval ask spawn hello)
read -r -a LIST <<< "${WORKLOADS:-${ALL[*]}}"
declare -A EXP=(
  [fib]=2178309 [loop]=4999999950000000 [alloc]=13500004500000 [str]=3890000
  [method]=50000005000000 [closure]=3333336666667
  [map]="200000 keys, sum 19999900000"
  [words]="300000 words, 996 distinct, top kakaka x2649"
  [eval]=153551428 [ask]=5000050000 [spawn]=99990000 [hello]=hello
)
# The size literal of each workload (the same in all three languages).
declare -A LIT=(
  [fib]=32 [loop]=100000000 [alloc]=3000000 [str]=1000000 [method]=10000000
  [closure]=1000000 [map]=200000 [words]=300000 [eval]=14 [ask]=100000
  [spawn]=10000 [hello]=0
)
for w in "${LIST[@]}"; do
  if [ -z "${EXP[$w]+x}" ]; then echo "$0: unknown workload $w (${ALL[*]})" >&2; exit 2; fi
done

LUA=$(command -v lua5.4 || true)
PY=""
if [ -x /usr/bin/python3 ]; then PY=/usr/bin/python3; else PY=$(command -v python3 || true); fi
if [ ! -x /usr/bin/time ]; then echo "$0: needs /usr/bin/time (apt-get install time)" >&2; exit 2; fi

# size_of W FACTOR: the workload's literal at FACTOR times its default size.
size_of() {
  awk -v w="$1" -v f="$2" -v n="${LIT[$1]}" 'BEGIN {
    if (w == "hello") print 0
    else if (w == "fib") printf "%d\n", n + int(log(f) / log((1 + sqrt(5)) / 2) + (f >= 1 ? 0.5 : -0.5))
    else if (w == "eval") printf "%d\n", n + int(log(f) / log(2) + (f >= 1 ? 0.5 : -0.5))
    else printf "%d\n", n * f + 0.5 }'
}

# prep W FACTOR: writes $WORK/W.FACTOR.{mty,lua,py}; prints that base path.
prep() {
  local w=$1 f=$2 base=$WORK/$1.$2 new ext re
  new=$(size_of "$w" "$f")
  case $w in
    fib) re="s/\\bfib\\(${LIT[$w]}\\)/fib($new)/" ;;
    eval) re="s/\\bbuild\\(${LIT[$w]}, 1\\)/build($new, 1)/" ;;
    hello) re="" ;;
    *) re="s/\\b${LIT[$w]}\\b/$new/g" ;;
  esac
  for ext in mty lua py; do
    local in=$HERE/mty/$w.mty
    [ $ext = mty ] || in=$HERE/mty-peers/$w.$ext
    sed -E "$re" "$in" > "$base.$ext"
  done
  echo "$base"
}

# expected W FACTOR BASE: the line every engine must print last.
expected() {
  if [ "$2" = 1 ] || [ "$1" = hello ]; then echo "${EXP[$1]}"; return; fi
  if [ -n "$LUA" ]; then "$LUA" "$3.lua" 2> /dev/null | tail -n1
  elif [ -n "$PY" ]; then "$PY" "$3.py" 2> /dev/null | tail -n1
  else echo "?"; fi
}

# cmd_for ENGINE BASE: sets the array CMD ("" when the engine is missing).
cmd_for() {
  case $1 in
    mty+b) CMD=("$MTY" run "${BUDGETS[@]}" "$2.mty") ;;
    mty) CMD=("$MTY" run "$2.mty") ;;
    lua) if [ -n "$LUA" ]; then CMD=("$LUA" "$2.lua"); else CMD=(); fi ;;
    py) if [ -n "$PY" ]; then CMD=("$PY" "$2.py"); else CMD=(); fi ;;
  esac
}

median() { sort -g | awk 'NF { a[++n] = $1 } END { if (n == 0) print "-"; else print a[int((n + 1) / 2)] }'; }
ratio() {  # ratio A B [DECIMALS]: A/B, "-" when either is missing or B is 0
  awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN {
    if (a == "-" || b == "-" || b + 0 == 0) print "-"; else printf "%.*f\n", d, a / b }'
}
# cpu_ratio A B: A/B of two CPU times; when B rounds to 0.00 (under the 10 ms
# resolution) and A does not, the bound ">A/0.01".
cpu_ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN {
    if (a == "-" || b == "-") print "-"
    else if (b + 0 == 0) { if (a + 0 == 0) print "-"; else printf ">%.0f\n", a / 0.01 }
    else printf "%.2f\n", a / b }'
}

# run_once ENGINE BASE EXPECT: one timed run; appends to CPU[E], RSS[E] and
# sets BAD[E] on a wrong last line or a failing exit status.
declare -A CPU RSS BAD
run_once() {
  local e=$1 u s m rc
  cmd_for "$e" "$2"
  ((${#CMD[@]})) || return 0
  /usr/bin/time -f "%U %S %M" -o "$WORK/time" "${CMD[@]}" > "$WORK/out" 2> "$WORK/err"
  rc=$?
  read -r u s m < <(tail -n1 "$WORK/time")
  CPU[$e]+="$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }') "
  RSS[$e]+="$(awk -v k="$m" 'BEGIN { printf "%.1f", k / 1024 }') "
  if [ $rc != 0 ] || [ "$(tail -n1 "$WORK/out")" != "$3" ]; then
    BAD[$e]=1
    echo "BAD: $e on $(basename "$2"): exit $rc, last line '$(tail -n1 "$WORK/out")', expected '$3'" >&2
  fi
}

# measure BASE EXPECT ENGINE...: RUNS alternating runs of each engine; sets
# MED_CPU[E], MED_RSS[E] ("-" for a missing engine) and CHECK (OK or BAD).
declare -A MED_CPU MED_RSS
measure() {
  local base=$1 exp=$2 r e
  shift 2
  CPU=() RSS=() BAD=()
  for ((r = 0; r < RUNS; r++)); do
    for e in "$@"; do run_once "$e" "$base" "$exp"; done
  done
  CHECK=OK
  for e in "$@"; do
    [ -z "${BAD[$e]:-}" ] || ANY_BAD=1
    MED_CPU[$e]=$(tr ' ' '\n' <<< "${CPU[$e]:-}" | median)
    MED_RSS[$e]=$(tr ' ' '\n' <<< "${RSS[$e]:-}" | median)
    [ -z "${BAD[$e]:-}" ] || CHECK=BAD
  done
}

# wall_ms CMD...: median wall milliseconds of a short command.
wall_ms() {
  if command -v hyperfine > /dev/null; then
    hyperfine -N --warmup 3 --runs 30 --export-csv "$WORK/hf.csv" "$*" > /dev/null 2>&1 \
      && awk -F, 'NR == 2 { printf "%.1f\n", $4 * 1000 }' "$WORK/hf.csv" && return
  fi
  local i t0 t1 ts=()
  for ((i = 0; i < 20; i++)); do
    t0=$(date +%s%N); "$@" > /dev/null 2>&1; t1=$(date +%s%N)
    ts+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e6 }')")
  done
  printf '%s\n' "${ts[@]}" | median
}

header() {
  echo "Mighty-source workloads: MODE=$MODE SIZE=$SIZE$([ "$MODE" = callgrind ] || echo " RUNS=$RUNS")"
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cpu(s); $(lscpu 2> /dev/null | sed -n 's/^Model name: *//p' | head -n1)"
  echo "mty: $SRC (built $(date -u -r "$SRC" '+%Y-%m-%d %H:%M:%S UTC'); tree $(git -C "$HERE/.." describe --always --dirty 2> /dev/null || echo "not git"))"
  echo "budgets on: ${BUDGETS[*]}"
  echo "lua: ${LUA:-not installed} ($([ -n "$LUA" ] && "$LUA" -v 2>&1 | head -n1)); python: ${PY:-not installed} ($([ -n "$PY" ] && "$PY" --version 2>&1))"
  echo
}

# ---------------------------------------------------------------- table ----
mode_table() {
  local w base exp hello=0 geo_n=0 geo_s=0 r
  printf '| %-8s | %7s | %7s | %7s | %9s | %14s | %7s | %7s | %6s | %8s | %-5s |\n' \
    workload "mty+b s" "mty s" "lua s" "mty+b/lua" "budgets on/off" "mty MB" "lua MB" "RSS x" "python s" check
  echo "|----------|---------|---------|---------|-----------|----------------|---------|---------|--------|----------|-------|"
  for w in "${LIST[@]}"; do
    if [ "$w" = hello ]; then hello=1; continue; fi
    base=$(prep "$w" "$SIZE")
    exp=$(expected "$w" "$SIZE" "$base")
    measure "$base" "$exp" mty+b mty lua py
    r=$(cpu_ratio "${MED_CPU[mty+b]}" "${MED_CPU[lua]}")
    if [ "$CHECK" = OK ] && [ "$w" != ask ] && [ "$w" != spawn ] \
      && awk -v r="$r" 'BEGIN { exit !(r + 0 > 0 && r !~ /^[>-]/) }'; then geo_n=$((geo_n + 1)); geo_s=$(awk -v s="$geo_s" -v r="$r" 'BEGIN { print s + log(r) }'); fi
    printf '| %-8s | %7s | %7s | %7s | %9s | %14s | %7s | %7s | %6s | %8s | %-5s |\n' "$w" \
      "${MED_CPU[mty+b]}" "${MED_CPU[mty]}" "${MED_CPU[lua]}" "$r" \
      "$(cpu_ratio "${MED_CPU[mty+b]}" "${MED_CPU[mty]}")" "${MED_RSS[mty+b]}" "${MED_RSS[lua]}" \
      "$(ratio "${MED_RSS[mty+b]}" "${MED_RSS[lua]}" 1)" "${MED_CPU[py]}" "$CHECK"
  done
  if ((geo_n)); then
    echo
    echo "Geometric mean of mty+b/lua over the $geo_n compute workloads (not ask and spawn, whose Lua stand-ins are coroutine switches): $(awk -v s="$geo_s" -v n="$geo_n" 'BEGIN { printf "%.2f", exp(s / n) }')"
  fi
  echo
  echo "CPU seconds (user + sys) and peak RSS, medians of $RUNS; ratios above 1.00: mty is slower / larger;"
  echo "\">N\": the peer's time is under the 10 ms resolution, so the ratio is at least N."
  if ((hello)); then
    base=$(prep hello 1)
    measure "$base" hello mty+b mty lua py
    echo
    echo "Start-up (hello): wall ms (median, $(command -v hyperfine > /dev/null && echo "hyperfine, 30 runs" || echo "20 runs")) and peak RSS; check $CHECK"
    echo
    echo "| engine | wall ms | RSS MB |"
    echo "|--------|---------|--------|"
    local e
    for e in mty+b mty lua py; do
      cmd_for "$e" "$base"
      if ((${#CMD[@]})); then
        printf '| %-6s | %7s | %6s |\n' "$e" "$(wall_ms "${CMD[@]}")" "${MED_RSS[$e]}"
      fi
    done
  fi
}

# ------------------------------------------------------------ callgrind ----
# ir_of ENGINE BASE EXPECT: sets IR to the instructions of one run under
# callgrind ("-" for a missing engine); sets CHECK=BAD on a wrong result.
ir_of() {
  IR=-
  cmd_for "$1" "$2"
  ((${#CMD[@]})) || return 0
  rm -f "$WORK/cg.out"
  valgrind --tool=callgrind --callgrind-out-file="$WORK/cg.out" "${CMD[@]}" > "$WORK/out" 2> "$WORK/err"
  local rc=$?
  if [ $rc != 0 ] || [ "$(tail -n1 "$WORK/out")" != "$3" ]; then
    CHECK=BAD ANY_BAD=1
    echo "BAD: $1 on $(basename "$2") under callgrind: exit $rc, last line '$(tail -n1 "$WORK/out")'" >&2
  fi
  IR=$(awk '/^(summary|totals):/ { print $2; exit }' "$WORK/cg.out" 2> /dev/null)
  [ -n "$IR" ] || IR=-
}

mode_callgrind() {
  if ! command -v valgrind > /dev/null; then echo "$0: MODE=callgrind needs valgrind" >&2; exit 2; fi
  local w base exp a b c net h_mty h_lua
  # Start-up (hello) instructions, subtracted in the "net" column.
  base=$(prep hello 1)
  ir_of mty+b "$base" hello; h_mty=$IR
  ir_of lua "$base" hello; h_lua=$IR
  echo "Instructions (Ir, whole process) under valgrind --tool=callgrind at SIZE=$SIZE"
  echo "(fib($(size_of fib "$SIZE")), eval depth $(size_of eval "$SIZE"), other sizes x$SIZE); \"net\" subtracts"
  echo "each engine's start-up (hello: mty+b $(mega "$h_mty"), lua $(mega "$h_lua"))."
  echo
  echo "| workload | mty+b Ir | mty Ir | lua Ir | mty+b/lua | net mty+b/lua | budgets on/off | check |"
  echo "|----------|----------|--------|--------|-----------|---------------|----------------|-------|"
  for w in "${LIST[@]}"; do
    base=$(prep "$w" "$SIZE")
    exp=$(expected "$w" "$SIZE" "$base")
    CHECK=OK
    ir_of mty+b "$base" "$exp"; a=$IR
    ir_of mty "$base" "$exp"; b=$IR
    ir_of lua "$base" "$exp"; c=$IR
    net=-
    if [ "$w" != hello ] && [ "$a" != - ] && [ "$c" != - ] && [ "$h_mty" != - ] && [ "$h_lua" != - ]; then
      net=$(ratio "$((a - h_mty))" "$((c - h_lua))")
    fi
    printf '| %-8s | %s | %s | %s | %s | %s | %s | %s |\n' "$w" "$(mega "$a")" "$(mega "$b")" "$(mega "$c")" \
      "$(ratio "$a" "$c")" "$net" "$(ratio "$a" "$b" 3)" "$CHECK"
  done
}
mega() { awk -v n="$1" 'BEGIN { if (n == "-") print "-"; else printf "%.1f M\n", n / 1e6 }'; }

# ---------------------------------------------------------------- scale ----
mode_scale() {
  local w f base exp e i check sizes ideal
  local -A T
  local fs=("$(awk -v s="$SIZE" -v b="$SCALE_BASE" 'BEGIN { print s * b }')")
  fs+=("$(awk -v f="${fs[0]}" 'BEGIN { print f * 2 }')" "$(awk -v f="${fs[0]}" 'BEGIN { print f * 4 }')")
  echo "CPU seconds (user + sys, median of $RUNS) at n, 2n and 4n, n = ${fs[0]} x the default size;"
  echo "linear work gives ratios of 2.00 (fib: phi = 1.62, one more level of recursion)."
  echo
  echo "| workload | n | mty+b t(n) | t(2n)/t(n) | t(4n)/t(2n) | lua t(n) | t(2n)/t(n) | t(4n)/t(2n) | ideal | check |"
  echo "|----------|---|------------|------------|-------------|----------|------------|-------------|-------|-------|"
  for w in "${LIST[@]}"; do
    [ "$w" != hello ] || continue
    T=()
    check=OK
    for i in 0 1 2; do
      f=${fs[$i]}
      base=$(prep "$w" "$f")
      exp=$(expected "$w" "$f" "$base")
      measure "$base" "$exp" mty+b lua
      [ "$CHECK" = OK ] || check=BAD
      for e in mty+b lua; do T[$e,$i]=${MED_CPU[$e]}; done
    done
    sizes=$(size_of "$w" "${fs[0]}")
    ideal=2.00
    [ "$w" != fib ] || ideal=1.62
    printf '| %-8s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$w" "$sizes" \
      "${T[mty+b,0]}" "$(cpu_ratio "${T[mty+b,1]}" "${T[mty+b,0]}")" "$(cpu_ratio "${T[mty+b,2]}" "${T[mty+b,1]}")" \
      "${T[lua,0]}" "$(cpu_ratio "${T[lua,1]}" "${T[lua,0]}")" "$(cpu_ratio "${T[lua,2]}" "${T[lua,1]}")" "$ideal" "$check"
  done
}

START=$(date +%s)
ANY_BAD=0
header
"mode_$MODE"
echo
echo "total wall time: $(($(date +%s) - START)) s"
if [ $ANY_BAD = 1 ]; then
  echo "some outputs were wrong (BAD above)" >&2
  exit 1
fi
