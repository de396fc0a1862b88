#!/usr/bin/env bash
# Waits that end at the wall deadline or at Ctrl-C, through the real binary
# (runtime.md §2 "Every wait ends at the wall deadline"): a FIFO inside a
# granted root, a stdout and a stderr that nobody drains, and SIGINT during
# a spin, a sleep, an ask and a blocked write. Each case has a time limit;
# taking longer fails it.
set -u
mty="$1"
tmp="$(mktemp -d)"
cleanup() { exec 3>&- 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
. "$(dirname "$0")/lib.sh"
now_ms() { echo $(($(date +%s%N) / 1000000)); }
timed() {  # timed NAME WANT_CODE GOT_CODE ELAPSED_MS LIMIT_MS
  if [ "$2" != "$3" ]; then
    bad "$1: exit $3, want $2"
  elif [ "$4" -gt "$5" ]; then
    bad "$1: took ${4}ms, more than ${5}ms"
  else
    ok "$1 (${4}ms)"
  fi
}
cd "$tmp"

# ---- a FIFO inside a granted root: refused at once, reads and writes ----
mkdir data && mkfifo data/pipe
cat >fifo.mty <<'P'
fn main() {
    log(std.fs.read("data/pipe"))
    log(std.fs.write("data/pipe", "x"))
    log(std.fs.append("data/pipe", "x"))
}
P
t0=$(now_ms); "$mty" run --allow-read data --allow-write data --wall 500ms fifo.mty >o 2>e; c=$?
timed fifo-refused 0 $c $(($(now_ms) - t0)) 1000
contains fifo-read-text o 'Err("io: not a regular file: data/pipe")'
[ "$(grep -c 'not a regular file' o)" = 3 ] && echo "ok   fifo-all-three" || { echo "FAIL fifo-all-three"; cat o; fails=$((fails + 1)); }

# ---- a stdout / stderr nobody drains: the run ends at its wall deadline ----
cat >flood.mty <<'P'
fn main() {
    let mut i = 0
    loop {
        log(format!("line {i} of a flood nobody reads"))
        eprint(format!("err {i}\n"))
        i += 1
    }
}
P
mkfifo full
exec 3<>full  # a reader that never reads: the pipe fills and stays full
t0=$(now_ms); "$mty" run --wall 1s flood.mty >full 2>e; c=$?
timed stdout-undrained-wall 5 $c $(($(now_ms) - t0)) 2300
contains stdout-undrained-text e "wall-clock budget exceeded: 1s"
t0=$(now_ms); "$mty" run --wall 1s flood.mty >/dev/null 2>full; c=$?
timed stderr-undrained-wall 5 $c $(($(now_ms) - t0)) 2300
exec 3>&-

# ---- Ctrl-C: the run stops where it is, prints where, exits 130 ----
interrupt() {  # interrupt NAME PROGRAM [redirect-stdout-to]
  local out="${3:-o}"
  "$mty" run "$2" >"$out" 2>e &
  local pid=$!
  sleep 0.4
  local t0; t0=$(now_ms)
  kill -INT "$pid"
  wait "$pid"; local c=$?
  timed "$1" 130 $c $(($(now_ms) - t0)) 500
  contains "$1-text" e "error: interrupted (Ctrl-C)"
}
printf 'fn spin() {\n    loop {}\n}\nfn main() {\n    spin()\n}\n' >spin.mty
interrupt ctrl-c-spin spin.mty
contains ctrl-c-spin-where e "at spin (spin.mty:2:5)"
printf 'fn main() {\n    let _ = std.time.sleep(1h)\n}\n' >sleep.mty
interrupt ctrl-c-sleep sleep.mty
contains ctrl-c-sleep-where e "at main (sleep.mty:2:5)"
cat >ask.mty <<'P'
agent A {
    on Go() -> { std.time.sleep(1h) }
}
fn main() {
    let a = spawn A()
    log(a?Go())
}
P
interrupt ctrl-c-ask ask.mty
mkfifo full2
exec 3<>full2
interrupt ctrl-c-blocked-stdout flood.mty full2
exec 3>&-

# ---- nothing is written to a file after the wall deadline ----
# One long builtin call (far longer than the 100ms wall, no safepoint in
# it) and then a write, an append, a directory made and a file removed:
# none of them happens, the first is the wall breach (they all did, and
# the run exited 5 only after them).
mkdir -p out && echo keep >out/old.txt
cat >late_write.mty <<'P'
fn main() {
    let n = "é".repeat(8000000).to_upper().len()
    let _ = std.fs.write("out/new.txt", format!("{n}"))
    let _ = std.fs.append("out/old.txt", "more")
    let _ = std.fs.create_dir_all("out/dir")
    let _ = std.fs.remove_file("out/old.txt")
}
P
"$mty" run --allow-write out --wall 100ms late_write.mty >o 2>e; c=$?
check late-write-exit 5 $c
contains late-write-where e "at main (late_write.mty:3:"
[ ! -e out/new.txt ] && ok late-write-not-written || bad "late-write-not-written: out/new.txt exists"
same late-write-old-unchanged out/old.txt keep
# Each of the other three, first after the deadline, is refused too.
for call in 'std.fs.append("out/old.txt", "more")' 'std.fs.create_dir_all("out/dir")' \
    'std.fs.remove_file("out/old.txt")'; do
  printf 'fn main() {\n    let n = "é".repeat(8000000).to_upper().len()\n    let _ = %s\n    log(n)\n}\n' \
    "$call" >late_one.mty
  "$mty" run --allow-write out --wall 100ms late_one.mty >o 2>e; c=$?
  check "late-${call%%(*}-exit" 5 $c
done
[ ! -e out/dir ] && ok late-dir-not-made || bad "late-dir-not-made: out/dir exists"
same late-old-kept out/old.txt keep

echo "$fails failed"
[ "$fails" -eq 0 ]
