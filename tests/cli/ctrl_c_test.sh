#!/usr/bin/env bash
# Ctrl-C (SIGINT) through the real binary (docs/cli.md): the one handler
# (driver/src/ctrl_c.h) in its two modes. `mty run`: a Ctrl-C while the
# program still compiles stops the run as soon as it starts; a second
# Ctrl-C ends the process at once. `mty repl`: Ctrl-C never ends the
# session, however often it comes during one input; at the prompt it drops
# what was typed. (Ctrl-C during a run: waits_test.sh; in a terminal:
# repl_pty.py.)
set -u
mty="$1"
tmp="$(mktemp -d)"
trap 'exec 4>&- 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$tmp"
export MTY_HISTORY=
trap '' PIPE  # a session that died fails its checks, not the script
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# A program that takes seconds to compile (40 000 functions), then says so.
python3 -c "
out = [f'fn f{i}(x: I64) -> I64 {{ let y = x * {i} + 1\n    y - x }}' for i in range(40000)]
out.append('fn main() {\n    log(\"ran\")\n}')
open('big.mty', 'w').write('\n'.join(out) + '\n')"

# ---- mty run: Ctrl-C while compiling: the run stops before it runs ----
"$mty" run big.mty >o 2>e &
pid=$!
sleep 0.3
kill -INT $pid
wait $pid
check run-compiling-exit 130 $?
contains run-compiling-report e 'error: interrupted (Ctrl-C)'
empty run-compiling-never-ran o

# ---- mty run: a second Ctrl-C ends the process at once ----
"$mty" run big.mty >o 2>e &
pid=$!
sleep 0.3
kill -INT $pid
sleep 0.1
t0=$(now_ms)
kill -INT $pid
wait $pid
c=$?
ms=$(($(now_ms) - t0))
check run-second-exit 130 $c
[ $ms -lt 1000 ] && ok run-second-at-once || bad "run-second-at-once: ${ms} ms"
empty run-second-never-ran o

# ---- mty repl: Ctrl-Cs during one input end that input, not the session ----
mkfifo fin
"$mty" repl <fin >o 2>e &
pid=$!
exec 4>fin
echo 'loop { }' >&4
sleep 0.5
for i in 1 2 3; do kill -INT $pid; sleep 0.1; done  # apart: pending signals merge
sleep 0.2
echo '7' >&4
sleep 0.3
# ---- ... and at the prompt, one drops the unfinished input ----
echo '[1,' >&4
sleep 0.3
kill -INT $pid
sleep 0.3
echo '8' >&4
exec 4>&-
wait $pid
check repl-exit 0 $?
contains repl-interrupted e 'interrupted (Ctrl-C); the session goes on'
same repl-goes-on o '7
8'
lacks repl-no-error e 'error['

finish
