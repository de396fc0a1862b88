#!/usr/bin/env bash
# The MtyIR set (bench/programs/*.mtyir, peers in bench/peers/); reached as
# `SET=ir bench/peer.sh build/mty`, whose default is now the Mighty-source
# workloads (bench/mty/).
#
# Runs the bench workloads in mty and in whichever peer interpreters are
# installed, side by side on this machine, and prints wall time, max RSS and
# the mty/peer time ratios. Installs nothing; missing peers are skipped.
#
#   SET=ir bench/peer.sh build/mty          # standard sizes (fib(27), 1e7, 1e6, 1e5, 1e6)
#   SET=ir SIZE=big bench/peer.sh build/mty # ~10x (fib(32), 1e8, 3e6, 1e6, 1e7)
#   SET=ir RUNS=5 bench/peer.sh build/mty   # median of 5 instead of 3
#
# mty runs twice per workload: `mty run` (no budgets) and `mty run --steps N
# --memory SIZE` (every budget on, set far above what the workload needs).
# Peers: lua5.4, luajit -joff (interpreter only), python3, qjs, node (V8 JIT,
# reference only). Each cell is the median of RUNS runs of
# `/usr/bin/time -f "%e %M"` (wall seconds at 10 ms resolution, including
# process start; max RSS); without /usr/bin/time, bash's `time` (no RSS).
# A run whose last output line is not the expected result is marked BAD.
set -uo pipefail

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
  echo "usage: $0 PATH/TO/mty   (env: RUNS=3, SIZE=std|big)" >&2
  exit 2
fi
MTY=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
RUNS=${RUNS:-3}
SIZE=${SIZE:-std}
STEPS=${MTY_STEPS:-1000000000000}
MEMORY=${MTY_MEMORY:-16GiB}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

WORKLOADS=(fib loop alloc str method)
declare -A EXP
if [ "$SIZE" = big ]; then
  EXP=([fib]=2178309 [loop]=4999999950000000 [alloc]=4500001500000 [str]=3890000
       [method]=50000005000000)
else
  EXP=([fib]=196418 [loop]=49999995000000 [alloc]=500000500000 [str]=389000
       [method]=500000500000)
fi

# Copies the programs into $WORK, scaled up for SIZE=big. Each file holds its
# size as one literal, so a whole-word substitution is enough.
scale() {  # scale WORKLOAD < in > out
  if [ "$SIZE" != big ]; then cat; return; fi
  case $1 in
    fib)    sed -E 's/\bfib\(27\)/fib(32)/' ;;
    loop)   sed -E 's/\b10000000\b/100000000/g' ;;
    alloc)  sed -E 's/\b1000000\b/3000000/g' ;;
    str)    sed -E 's/\b100000\b/1000000/g' ;;
    method) sed -E 's/\b1000000\b/10000000/g' ;;
  esac
}
for w in "${WORKLOADS[@]}"; do
  scale "$w" < "$HERE/programs/$w.mtyir" > "$WORK/$w.mtyir"
  for ext in lua py js; do scale "$w" < "$HERE/peers/$w.$ext" > "$WORK/$w.$ext"; done
done

# ---- engines: label, then a command template where {} is the workload ----
LABELS=() CMDS=() SKIPPED=()
add() { LABELS+=("$1"); CMDS+=("$2"); }
add "mty" "$MTY run $WORK/{}.mtyir"
add "mty+budgets" "$MTY run --steps $STEPS --memory $MEMORY $WORK/{}.mtyir"
if command -v lua5.4 > /dev/null; then add "lua5.4" "lua5.4 $WORK/{}.lua"; else SKIPPED+=(lua5.4); fi
if command -v luajit > /dev/null; then add "luajit-joff" "luajit -joff $WORK/{}.lua"; else SKIPPED+=("luajit -joff"); fi
PY=""
if [ -x /usr/bin/python3 ]; then PY=/usr/bin/python3; elif command -v python3 > /dev/null; then PY=$(command -v python3); fi
if [ -n "$PY" ]; then add "python3" "$PY $WORK/{}.py"; else SKIPPED+=(python3); fi
if command -v qjs > /dev/null; then add "qjs" "qjs $WORK/{}.js"; else SKIPPED+=(qjs); fi
if command -v node > /dev/null; then add "node(JIT)" "node $WORK/{}.js"; else SKIPPED+=(node); fi

HAVE_TIME=0
[ -x /usr/bin/time ] && HAVE_TIME=1

median() { sort -g | awk '{a[NR]=$1} END{if (NR == 0) print "-"; else print a[int((NR+1)/2)]}'; }

# measure CMD EXPECTED -> sets M_T (median s), M_R (median RSS MB or -), M_OK
measure() {
  local cmd=$1 expect=$2 ts=() rs=() r t m
  M_OK=OK
  for ((r = 0; r < RUNS; r++)); do
    if [ $HAVE_TIME = 1 ]; then
      # shellcheck disable=SC2086  # $cmd is a command line, split on purpose
      /usr/bin/time -f "%e %M" -o "$WORK/time" $cmd > "$WORK/out" 2> "$WORK/err"
      read -r t m < <(tail -n1 "$WORK/time")
      rs+=("$(awk -v k="$m" 'BEGIN{printf "%.1f", k / 1024}')")
    else
      local TIMEFORMAT=%R
      { time $cmd > "$WORK/out" 2> "$WORK/err"; } 2> "$WORK/time"
      t=$(tail -n1 "$WORK/time")
    fi
    ts+=("$t")
    [ "$(tail -n1 "$WORK/out")" = "$expect" ] || M_OK=BAD
  done
  M_T=$(printf '%s\n' "${ts[@]}" | median)
  M_R=$( ((${#rs[@]})) && printf '%s\n' "${rs[@]}" | median || echo -)
}

ratio() {  # ratio A B: A/B with 2 decimals, "-" if B is 0
  awk -v a="$1" -v b="$2" 'BEGIN{ if (b + 0 == 0) print "-"; else printf "%.2f", a / b }'
}

echo "mty/peer benchmarks on $(uname -n), $(nproc) cpu(s); SIZE=$SIZE, median of $RUNS runs"
echo "mty: $MTY (budgets run: --steps $STEPS --memory $MEMORY)"
if ((${#SKIPPED[@]})); then echo "skipped (not installed): ${SKIPPED[*]}"; fi
[ $HAVE_TIME = 1 ] || echo "/usr/bin/time missing: bash time, no RSS"
echo
printf '| %-8s | %-12s | %7s | %8s | %9s | %9s | %s\n' workload engine "wall s" "RSS MB" "mty/peer" "mty+b/peer" check
printf '%s\n' "|----------|--------------|---------|----------|-----------|------------|-------"
declare -A T
for w in "${WORKLOADS[@]}"; do
  for i in "${!LABELS[@]}"; do
    measure "${CMDS[$i]//\{\}/$w}" "${EXP[$w]}"
    T[$w,${LABELS[$i]}]=$M_T
    if ((i < 2)); then r1=""; r2=""; else
      r1=$(ratio "${T[$w,mty]}" "$M_T"); r2=$(ratio "${T[$w,mty+budgets]}" "$M_T"); fi
    printf '| %-8s | %-12s | %7s | %8s | %9s | %9s | %s\n' "$w" "${LABELS[$i]}" "$M_T" "$M_R" "$r1" "$r2" "$M_OK"
  done
done
echo
echo "mty/peer and mty+b/peer are wall-time ratios (below 1.00: mty is faster)."
echo "Wall times include process start and have 10 ms resolution; cells under ~0.05 s are coarse."
