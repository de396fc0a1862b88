#!/usr/bin/env bash
# mty worker, submit and result against real nats-server processes
# (docs/scaling.md). Usage: cluster_test.sh PHASE MTY LOAD_TOOL TESTS_DIR
#   many        1000 jobs over 3 workers: none lost, exactly one result each
#   sigkill     a worker SIGKILLed mid long job: the job completes on another
#               worker, attempt 2
#   limits      a job breaching each budget gets its typed result; a job asking
#               more than its worker allows is held to the worker's limits
#   malformed   malformed jobs get an error result and are never redelivered
#   submit      mty submit reproduces mty run (stdout, stderr, exit code) for
#               golden programs, with two workers; --detach, mty result
#   three_node  a three-node JetStream cluster, one node killed while jobs flow
#   redeliver   a job delivered again after its result was stored (its worker
#               died between storing and acking; the same id published
#               again): acked without running again, one result
#   drain       SIGTERM with a job in hand: it finishes, is stored, the worker
#               exits 0
# Every server and worker this script starts is killed on exit, pass or fail.
# MTY_TIME_FACTOR (an integer, default 1; 3 under scripts/sanitize.sh)
# multiplies every wait and timeout and the long jobs' sleeps, as
# instrumented mty is slower; `t N` is N seconds scaled.
set -u
phase="$1"
mty="$2"
load="$3"
tests="$4"
tf="${MTY_TIME_FACTOR:-1}"
t() { echo $(($1 * tf)); }
tmp="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  wait 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
  echo "FAIL [$phase]: $*"
  for f in "$tmp"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }; done
  exit 1
}
command -v nats-server >/dev/null || fail "nats-server is not installed (scripts/setup.sh)"
command -v openssl >/dev/null || fail "openssl is not installed (scripts/setup.sh)"

# The workers' result key (docs/scaling.md, Result integrity): they sign
# with worker.key, clients check with worker.pub; the load tool too.
new_key() {
  openssl genpkey -algorithm ed25519 -out "$tmp/$1.key" 2>/dev/null &&
    openssl pkey -in "$tmp/$1.key" -pubout -out "$tmp/$1.pub" || fail "openssl: no key $1"
}
new_key worker
export MTY_LOAD_VERIFY_KEY="$tmp/worker.pub"
# Every worker makes its scratch directory here.
mkdir -p "$tmp/scratch"

# N free loopback ports, one per line.
free_ports() {
  python3 -c '
import socket, sys
socks = []
for _ in range(int(sys.argv[1])):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); socks.append(s)
print("\n".join(str(s.getsockname()[1]) for s in socks))' "$1"
}

# Waits until a TCP port accepts connections.
wait_port() {
  for _ in $(seq $((100 * tf))); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  fail "nothing listens on port $1"
}

# start_server NAME PORT [ARGS...]: one nats-server with JetStream.
start_server() {
  local name="$1" port="$2"
  shift 2
  nats-server -js -a 127.0.0.1 -p "$port" -sd "$tmp/$name.store" -n "$name" "$@" \
    >"$tmp/$name.log" 2>&1 &
  pids+=($!)
  eval "pid_$name=$!"
  wait_port "$port"
}

# start_worker NAME ARGS...: an mty worker signing with worker.key, its
# scratch directory under $tmp/scratch (ARGS may override both); its pid in
# pid_NAME.
start_worker() {
  local name="$1"
  shift
  "$mty" worker --name "$name" --sign-key "$tmp/worker.key" --scratch "$tmp/scratch" "$@" \
    >"$tmp/$name.log" 2>&1 &
  pids+=($!)
  eval "pid_$name=$!"
}

# Waits for a line in a log file: wait_log FILE TEXT [SECONDS, 10].
wait_log() {
  for _ in $(seq $((${3:-10} * 20 * tf))); do
    grep -q -- "$2" "$1" 2>/dev/null && return 0
    sleep 0.05
  done
  fail "no '$2' in $1"
}

# The value of key KEY in load tool output.
field() { sed -n "s/^$1 //p" <<<"$2" | head -n1; }

# The JSON field of a result document (python3 reads it).
json_field() {
  python3 -c 'import json,sys; v=json.loads(sys.stdin.read()); exec("for k in sys.argv[1].split(\".\"): v=v[k]"); print(v)' "$1"
}

case "$phase" in
many)
  port="$(free_ports 1)"
  url="nats://127.0.0.1:$port"
  start_server n1 "$port"
  for w in w1 w2 w3; do start_worker "$w" --nats "$url" --concurrency 2; done
  for w in w1 w2 w3; do wait_log "$tmp/$w.log" "pulling from"; done
  printf 'fn main() -> Int {\n    let mut s = 0\n    for i in 0..100 {\n        s = s + i\n    }\n    s - 4950\n}\n' >"$tmp/tiny.mty"
  out="$("$load" "$url" "$tmp/tiny.mty" 1000)" || fail "load tool: $out"
  echo "$out"
  [ "$(field results "$out")" = 1000 ] || fail "results: $out"
  [ "$(field distinct "$out")" = 1000 ] || fail "not one result per id: $out"
  [ "$(field 'outcome ok' "$out")" = 1000 ] || fail "outcomes: $out"
  for w in w1 w2 w3; do
    n="$(field "worker $w" "$out")"
    [ -n "$n" ] && [ "$n" -gt 0 ] || fail "worker $w ran no job: $out"
  done
  # Exactly one run stored per job: 1000 completions over the three logs.
  runs="$(cat "$tmp"/w?.log | grep -c ': ok, exit 0')"
  [ "$runs" = 1000 ] || fail "$runs completed runs for 1000 jobs"
  # SIGTERM drains: each worker stops and says how many jobs it did.
  for w in w1 w2 w3; do eval "kill -TERM \$pid_$w"; done
  for w in w1 w2 w3; do wait_log "$tmp/$w.log" "stopped after"; done
  ;;
sigkill)
  port="$(free_ports 1)"
  url="nats://127.0.0.1:$port"
  start_server n1 "$port"
  # A short ack wait: the job is delivered again 2s after its worker died.
  start_worker a --nats "$url" --ack-wait 2s
  wait_log "$tmp/a.log" "pulling from"
  printf 'fn main() -> Int {\n    log("begin")\n    std.time.sleep(%ss)\n    log("done")\n    7\n}\n' "$(t 3)" >"$tmp/long.mty"
  id="$("$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --detach "$tmp/long.mty")" || fail "submit --detach"
  wait_log "$tmp/a.log" "job $id attempt 1: started"
  # In-progress acks keep the job with a for longer than its ack wait.
  start_worker b --nats "$url"
  wait_log "$tmp/b.log" "pulling from"
  sleep 2.5
  grep -q "job $id" "$tmp/b.log" && fail "the job was redelivered while its worker ran it"
  kill -9 "$pid_a"
  # nats-server 2.9.10 redelivers a job that had in-progress acks about 30s
  # after the last one, whatever the ack wait (docs/scaling.md, Failures).
  out="$("$mty" result --verify-key "$tmp/worker.pub" --nats "$url" --wait --timeout "$(t 50)s" --json "$id")" || fail "no result: $out"
  [ "$(json_field worker <<<"$out")" = b ] || fail "not run by b: $out"
  [ "$(json_field attempt <<<"$out")" = 2 ] || fail "not attempt 2: $out"
  [ "$(json_field exit_code <<<"$out")" = 7 ] || fail "exit code: $out"
  [ "$(json_field stdout <<<"$out")" = "$(printf 'begin\ndone')" ] || fail "stdout: $out"
  "$mty" result --verify-key "$tmp/worker.pub" --nats "$url" "$id" >"$tmp/r.out" 2>"$tmp/r.err"
  [ $? = 7 ] || fail "mty result exit code"
  ;;
limits)
  port="$(free_ports 1)"
  url="nats://127.0.0.1:$port"
  start_server n1 "$port"
  # The worker allows at most 100k steps, 1 MiB, 1s wall (scaled), 2 agents, 100 B
  # output, reading files under $tmp/data only.
  mkdir -p "$tmp/data"
  echo secret >"$tmp/secret.txt"
  echo public >"$tmp/data/public.txt"
  cat >"$tmp/worker.toml" <<TOML
[sandbox]
steps = "100k"
memory = "1MiB"
wall = "$(t 1)s"
spawned = 2
output = "100B"
fs.read = ["$tmp/data"]
TOML
  start_worker w1 --nats "$url" --manifest "$tmp/worker.toml" --concurrency 2
  wait_log "$tmp/w1.log" "pulling from"
  submit() { "$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --timeout "$(t 20)s" "$@"; }
  # One program per budget kind, each breaching its limit; the exit code is
  # the limit's (docs/sandboxing.md).
  printf 'fn main() {\n    let mut i = 0\n    loop {\n        i = i + 1\n    }\n}\n' >"$tmp/spin.mty"
  printf 'fn main() {\n    let mut v = []\n    loop {\n        v.push("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx")\n    }\n}\n' >"$tmp/grow.mty"
  printf 'fn main() {\n    std.time.sleep(10s)\n}\n' >"$tmp/sleep.mty"
  printf 'fn main() {\n    loop {\n        print("0123456789")\n    }\n}\n' >"$tmp/chatty.mty"
  printf 'fn f(n: Int) -> Int {\n    f(n + 1)\n}\nfn main() {\n    f(0)\n}\n' >"$tmp/deep.mty"
  printf '[sandbox]\ndepth = 100\n' >"$tmp/depth.toml"
  check() {  # check NAME EXPECTED_EXIT EXPECTED_STDERR_PART ARGS...
    local name="$1" want="$2" part="$3"
    shift 3
    submit "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    [ "$rc" = "$want" ] || fail "$name: exit $rc, wanted $want: $(cat "$tmp/$name.err")"
    grep -q -- "$part" "$tmp/$name.err" || fail "$name: no '$part' in $(cat "$tmp/$name.err")"
  }
  check steps 3 "step budget exceeded" "$tmp/spin.mty"
  check memory 4 "memory budget exceeded" "$tmp/grow.mty"
  check wall 5 "wall-clock budget exceeded" "$tmp/sleep.mty"
  check output 9 "output budget exceeded" "$tmp/chatty.mty"
  check depth 1 "call depth exceeded" --manifest "$tmp/depth.toml" "$tmp/deep.mty"
  # Agents: the worker allows 2 spawns, the third traps; a job's own mailbox
  # limit under `fail` traps the send that finds it full.
  printf 'agent W(id) {\n    on Id() -> id\n}\nfn main() {\n    for i in 1..=3 {\n        let w = spawn W(i)\n        print(w?Id())\n    }\n}\n' >"$tmp/spawn.mty"
  check spawned 7 "spawn budget exceeded: 2 agents" "$tmp/spawn.mty"
  printf 'agent S {\n    on Put(i) -> i\n}\nfn main() {\n    let s = spawn S()\n    for i in 0..6 {\n        s!Put(i)\n    }\n}\n' >"$tmp/flood.mty"
  printf '[sandbox]\nmailbox = 2\nmb_policy = "fail"\n' >"$tmp/mailbox.toml"
  check mailbox 7 "mailbox full" --manifest "$tmp/mailbox.toml" "$tmp/flood.mty"
  [ "$(wc -c <"$tmp/output.out")" -le 100 ] || fail "more output than the budget"
  # A job asking for more than the worker allows is held to the worker's
  # limits: 10M steps asked, 100k given.
  printf '[sandbox]\nsteps = "10M"\nwall = "1m"\nfs.read = ["/"]\n' >"$tmp/greedy.toml"
  check greedy_steps 3 "step budget exceeded: 100000 steps" --manifest "$tmp/greedy.toml" "$tmp/spin.mty"
  # ... and to its file roots: / asked, $tmp/data given.
  printf 'fn main() {\n    match std.fs.read("%s") {\n        Ok(s) => print(s),\n        Err(e) => print("denied"),\n    }\n    match std.fs.read("%s") {\n        Ok(s) => print(s),\n        Err(e) => print("denied"),\n    }\n}\n' "$tmp/secret.txt" "$tmp/data/public.txt" >"$tmp/read.mty"
  check greedy_fs 0 "" --manifest "$tmp/greedy.toml" "$tmp/read.mty"
  [ "$(cat "$tmp/greedy_fs.out")" = "deniedpublic" ] || fail "file roots: $(cat "$tmp/greedy_fs.out")"
  # The typed result: outcome and breached limit in the document.
  id="$("$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --detach "$tmp/spin.mty")"
  out="$("$mty" result --verify-key "$tmp/worker.pub" --nats "$url" --wait --timeout "$(t 20)s" --json "$id")"
  [ "$(json_field outcome <<<"$out")" = "budget exceeded" ] || fail "outcome: $out"
  [ "$(json_field breach <<<"$out")" = steps ] || fail "breach: $out"
  [ "$(json_field usage.steps <<<"$out")" -ge 100000 ] || fail "usage: $out"
  ;;
malformed)
  port="$(free_ports 1)"
  url="nats://127.0.0.1:$port"
  start_server n1 "$port"
  start_worker w1 --nats "$url" --ack-wait 1s --max-deliver 3
  wait_log "$tmp/w1.log" "pulling from"
  printf 'fn main( {\n' >"$tmp/broken.mty"
  id="$("$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --detach "$tmp/broken.mty")" || fail "submit"
  out="$("$mty" result --verify-key "$tmp/worker.pub" --nats "$url" --wait --timeout "$(t 20)s" --json "$id")" || fail "no result"
  [ "$(json_field outcome <<<"$out")" = compile_error ] || fail "outcome: $out"
  [ "$(json_field exit_code <<<"$out")" = 1 ] || fail "exit: $out"
  # Jobs published as they are (mty submit checks what it sends), each
  # claimed under its id first: a bad manifest, a program hash nothing is
  # stored under, a bad field, text that is no JSON. Each with an id gets an
  # error result; none is retried.
  "$load" raw "$url" '{"id":"badmanifest","program":"fn main() {}","manifest":"[sandbox]\nstepz = 5\n"}' badmanifest || fail "raw"
  "$load" raw "$url" '{"id":"nohash","program_hash":"00ff"}' nohash || fail "raw"
  "$load" raw "$url" '{"id":"badargs","program":"fn main() {}","args":[1]}' badargs || fail "raw"
  "$load" raw "$url" 'not json at all' || fail "raw"
  for j in badmanifest nohash badargs; do
    out="$("$mty" result --verify-key "$tmp/worker.pub" --nats "$url" --wait --timeout "$(t 20)s" --json "$j")" || fail "no result for $j"
    [ "$(json_field outcome <<<"$out")" = invalid_job ] || fail "$j: $out"
    echo "$j: $(json_field message <<<"$out")"
  done
  [ "$(json_field exit_code <<<"$("$mty" result --verify-key "$tmp/worker.pub" --nats "$url" --json badmanifest)")" = 65 ] || fail "manifest exit"
  wait_log "$tmp/w1.log" "a job without a usable id"
  printf 'fn main() {\n}\n' >"$tmp/ok.mty"
  printf '[sandbox]\nstepz = 5\n' >"$tmp/bad.toml"
  "$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --manifest "$tmp/bad.toml" "$tmp/ok.mty" 2>"$tmp/bad.err"
  [ $? = 65 ] || fail "a malformed manifest is not refused before submitting"
  # Wait past three ack waits: neither job was delivered again.
  sleep 3.5
  [ "$(grep -c "job $id attempt" "$tmp/w1.log")" = 2 ] || fail "redelivered: $(grep "job $id" "$tmp/w1.log")"
  grep -q "attempt 2" "$tmp/w1.log" && fail "a malformed job was delivered twice"
  [ "$(grep -c "a job without a usable id" "$tmp/w1.log")" = 1 ] || fail "the id-less job was delivered again"
  "$mty" result --verify-key "$tmp/worker.pub" --nats "$url" "$id" >"$tmp/r.out" 2>"$tmp/r.err"
  [ $? = 1 ] || fail "mty result exit"
  grep -q "error" "$tmp/r.err" || fail "no diagnostics: $(cat "$tmp/r.err")"
  ;;
submit)
  port="$(free_ports 1)"
  url="nats://127.0.0.1:$port"
  start_server n1 "$port"
  start_worker w1 --nats "$url" --concurrency 2
  start_worker w2 --nats "$url" --concurrency 2
  wait_log "$tmp/w1.log" "pulling from"
  wait_log "$tmp/w2.log" "pulling from"
  # Golden programs without flags or setup, whose run needs no grant: every
  # fifth of them, across the alphabet.
  n=0
  seen=0
  denials=0
  cd "$tests/conformance/mty" || fail "no goldens"
  for prog in *.mty; do
    grep -q '^// mty-\(args\|setup\|time-limit\)' "$prog" && continue
    seen=$((seen + 1))
    [ $((seen % 5)) = 0 ] || continue
    "$mty" run "$prog" >"$tmp/run.out" 2>"$tmp/run.err" </dev/null
    run_rc=$?
    grep -q '^mty: denied' "$tmp/run.err" && denials=$((denials + 1))
    "$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --timeout "$(t 20)s" "$prog" >"$tmp/sub.out" 2>"$tmp/sub.err"
    sub_rc=$?
    [ "$sub_rc" = "$run_rc" ] || fail "$prog: submit exits $sub_rc, run $run_rc: $(cat "$tmp/sub.err")"
    cmp -s "$tmp/run.out" "$tmp/sub.out" || fail "$prog: stdout differs: $(diff "$tmp/run.out" "$tmp/sub.out" | head)"
    cmp -s "$tmp/run.err" "$tmp/sub.err" || fail "$prog: stderr differs: $(diff "$tmp/run.err" "$tmp/sub.err" | head)"
    n=$((n + 1))
    [ "$n" -ge 40 ] && break
  done
  [ "$n" -ge 40 ] || fail "only $n goldens compared"
  echo "$n golden programs ($denials with denial hints): mty submit = mty run"
  # Programs with denials: the same `mty: denied` hints on stderr.
  m=0
  for prog in *.mty; do
    grep -q '^// mty-\(args\|setup\|time-limit\)' "$prog" && continue
    grep -q '^mty: denied' "${prog%.mty}.err" 2>/dev/null || continue
    "$mty" run "$prog" >"$tmp/run.out" 2>"$tmp/run.err" </dev/null
    run_rc=$?
    "$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --timeout "$(t 20)s" "$prog" >"$tmp/sub.out" 2>"$tmp/sub.err"
    sub_rc=$?
    [ "$sub_rc" = "$run_rc" ] || fail "$prog: submit exits $sub_rc, run $run_rc: $(cat "$tmp/sub.err")"
    cmp -s "$tmp/run.out" "$tmp/sub.out" || fail "$prog: stdout differs: $(diff "$tmp/run.out" "$tmp/sub.out" | head)"
    cmp -s "$tmp/run.err" "$tmp/sub.err" || fail "$prog: stderr differs: $(diff "$tmp/run.err" "$tmp/sub.err" | head)"
    m=$((m + 1))
  done
  [ "$m" -ge 3 ] || fail "only $m golden programs with denials compared"
  echo "$m golden programs with denial hints: mty submit = mty run"
  cd "$tmp"
  # A compile error and a warning: the same diagnostics and exit code.
  printf 'fn main() {\n    let x = \n}\n' >"$tmp/bad.mty"
  printf 'fn main() {\n    let unused = 1\n}\n' >"$tmp/warn.mty"
  for prog in bad.mty warn.mty; do
    want="$("$mty" run "$prog" 2>&1; echo "rc=$?")"
    got="$("$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" "$prog" 2>&1; echo "rc=$?")"
    [ "$want" = "$got" ] || fail "$prog: run '$want', submit '$got'"
  done
  # Args, --by-hash, --detach and mty result.
  printf 'fn main() -> Int {\n    let a = std.env.args()\n    print("{:?}", a)\n    a.len()\n}\n' >"$tmp/args.mty"
  want="$("$mty" run "$tmp/args.mty" x "y z" 2>&1; echo "rc=$?")"
  got="$("$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --by-hash "$tmp/args.mty" x "y z" 2>&1; echo "rc=$?")"
  [ "$want" = "$got" ] || fail "args: run '$want', submit '$got'"
  id="$("$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --detach --id job-1 "$tmp/args.mty" a)"
  [ "$id" = job-1 ] || fail "--id: $id"
  got="$("$mty" result --verify-key "$tmp/worker.pub" --nats "$url" --wait job-1 2>&1; echo "rc=$?")"
  [ "$got" = "$("$mty" run "$tmp/args.mty" a 2>&1; echo "rc=$?")" ] || fail "mty result: $got"
  "$mty" result --verify-key "$tmp/worker.pub" --nats "$url" no-such-job 2>/dev/null
  [ $? = 75 ] || fail "a missing result is not exit 75"
  "$mty" result --verify-key "$tmp/worker.pub" --nats "$url" 'bad id!' 2>/dev/null
  [ $? = 64 ] || fail "a bad id is not a usage error"
  "$mty" submit --verify-key "$tmp/worker.pub" "$tmp/args.mty" 2>/dev/null
  [ $? = 64 ] || fail "submit without --nats is not a usage error"
  dead="$(free_ports 1)"
  "$mty" submit --verify-key "$tmp/worker.pub" --nats "nats://127.0.0.1:$dead" "$tmp/args.mty" 2>/dev/null
  [ $? = 69 ] || fail "no server is not exit 69"
  ;;
drain)
  port="$(free_ports 1)"
  url="nats://127.0.0.1:$port"
  start_server n1 "$port"
  start_worker w1 --nats "$url"
  wait_log "$tmp/w1.log" "pulling from"
  printf 'fn main() -> Int {\n    std.time.sleep(%sms)\n    log("slept")\n    4\n}\n' "$((1500 * tf))" >"$tmp/nap.mty"
  id="$("$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --detach "$tmp/nap.mty")"
  wait_log "$tmp/w1.log" "job $id attempt 1: started"
  kill -TERM "$pid_w1"
  wait_log "$tmp/w1.log" "draining"
  wait "$pid_w1"
  rc=$?
  [ "$rc" = 0 ] || fail "the drained worker exited $rc"
  grep -q "stopped after 1 job" "$tmp/w1.log" || fail "the job in hand was not finished"
  out="$("$mty" result --verify-key "$tmp/worker.pub" --nats "$url" --json "$id")" || fail "no stored result"
  [ "$(json_field exit_code <<<"$out")" = 4 ] || fail "result: $out"
  # Nothing was left to redeliver: a new worker gets no job.
  start_worker w2 --nats "$url" --ack-wait 1s
  sleep 1.5
  grep -q "job $id" "$tmp/w2.log" && fail "the drained job ran again"
  ;;
redeliver)
  port="$(free_ports 1)"
  url="nats://127.0.0.1:$port"
  start_server n1 "$port"
  # Each run logs `started` first: the count of those lines is the number of
  # runs (a job can leave no trace on disk past its scratch directory).
  printf 'fn main() -> Int {\n    print("counted")\n    3\n}\n' >"$tmp/count.mty"
  runs() { cat "$tmp"/[ab].log | grep -c "job $id attempt [0-9]*: started"; }
  # Worker a stores the result, then dies before acking (the test hook).
  MTY_WORKER_TEST_EXIT_AFTER_STORE=1 start_worker a --nats "$url" --ack-wait 1s
  wait_log "$tmp/a.log" "pulling from"
  id="$("$mty" submit --nats "$url" --detach "$tmp/count.mty")" || fail "submit --detach"
  wait "$pid_a"
  rc=$?
  [ "$rc" = 99 ] || fail "worker a exited $rc, not by the hook"
  grep -q "job $id attempt 1: stored, exiting before the ack" "$tmp/a.log" || fail "no store before the exit"
  [ "$(runs)" = 1 ] || fail "runs: $(runs)"
  # The unacked job is delivered again, to b: acked without running.
  start_worker b --nats "$url" --ack-wait 1s
  wait_log "$tmp/b.log" "pulling from"
  wait_log "$tmp/b.log" "job $id attempt 2: a result was stored already" 50
  # The same job published again under its id (the same document, without
  # a message id, so the stream's duplicate window keeps it): acked without
  # running.
  "$load" again "$url" "$id" "$tmp/count.mty" || fail "again"
  wait_log "$tmp/b.log" "job $id attempt 1: a result was stored already"
  grep -q "job $id attempt [0-9]*: started" "$tmp/b.log" && fail "b ran the job again"
  [ "$(runs)" = 1 ] || fail "the program ran $(runs) times"
  # The one result is a's, attempt 1.
  out="$("$mty" result --verify-key "$tmp/worker.pub" --nats "$url" --json "$id")" || fail "no result"
  [ "$(json_field worker <<<"$out")" = a ] || fail "not a's result: $out"
  [ "$(json_field attempt <<<"$out")" = 1 ] || fail "not attempt 1: $out"
  [ "$(json_field exit_code <<<"$out")" = 3 ] || fail "exit code: $out"
  [ "$(json_field stdout <<<"$out")" = counted ] || fail "stdout: $out"
  ;;
three_node)
  read -r c1 c2 c3 p1 p2 p3 <<<"$(free_ports 6 | tr '\n' ' ')"
  routes="nats-route://127.0.0.1:$c1,nats-route://127.0.0.1:$c2,nats-route://127.0.0.1:$c3"
  start_server n1 "$p1" --cluster_name mty --cluster "nats://127.0.0.1:$c1" --routes "$routes"
  start_server n2 "$p2" --cluster_name mty --cluster "nats://127.0.0.1:$c2" --routes "$routes"
  start_server n3 "$p3" --cluster_name mty --cluster "nats://127.0.0.1:$c3" --routes "$routes"
  url="nats://127.0.0.1:$p1,nats://127.0.0.1:$p2,nats://127.0.0.1:$p3"
  # JetStream needs its meta leader elected before streams can be made.
  for _ in $(seq 100); do
    "$mty" result --verify-key "$tmp/worker.pub" --nats "$url" probe --replicas 3 2>/dev/null; [ $? = 75 ] && break
    sleep 0.2
  done
  start_worker w1 --nats "nats://127.0.0.1:$p1,nats://127.0.0.1:$p2" --replicas 3 --concurrency 2
  start_worker w2 --nats "nats://127.0.0.1:$p2,nats://127.0.0.1:$p3" --replicas 3 --concurrency 2
  wait_log "$tmp/w1.log" "pulling from"
  wait_log "$tmp/w2.log" "pulling from"
  printf 'fn main() -> Int {\n    0\n}\n' >"$tmp/tiny.mty"
  "$load" "$url" "$tmp/tiny.mty" 300 0 3 >"$tmp/load.txt" 2>&1 &
  loader=$!
  sleep 1
  kill -9 "$pid_n2"
  echo "killed n2"
  wait "$loader" || fail "load tool: $(cat "$tmp/load.txt")"
  out="$(cat "$tmp/load.txt")"
  echo "$out"
  [ "$(field results "$out")" = 300 ] || fail "results: $out"
  [ "$(field distinct "$out")" = 300 ] || fail "distinct: $out"
  [ "$(field 'outcome ok' "$out")" = 300 ] || fail "outcomes: $out"
  ;;
*)
  fail "unknown phase $phase"
  ;;
esac
echo "PASS [$phase]"
