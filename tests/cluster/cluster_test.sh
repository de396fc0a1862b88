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
#   isolation   two jobs on one worker: each runs in its own scratch directory,
#               the second cannot list, read or write the first's files; a
#               link planted in a scratch directory is removed, not followed
#   integrity   forged, altered, replayed and foreign-key results are refused
#               (exit 76); an id cannot be reused or taken over
#   permissions cluster/nats-permissions.conf on a real server, nkey users: a
#               submitter runs jobs but cannot write or delete a result or
#               take a job from the queue
#   credentials a password never in argv (MTY_NATS_URL), a log or an error;
#               TLS with a client certificate; a .creds file (operator mode)
#   oom         jobs that exhaust the worker's address space each end with
#               the memory breach (exit 4); the worker runs the next job
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
# pid_NAME. With worker_limit set (an array), the worker runs under that
# command (`prlimit --as=...`).
worker_limit=()
start_worker() {
  local name="$1"
  shift
  "${worker_limit[@]}" "$mty" worker --name "$name" --sign-key "$tmp/worker.key" \
    --scratch "$tmp/scratch" "$@" >"$tmp/$name.log" 2>&1 &
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
  printf 'fn main() {\n    std.time.sleep(10s);\n}\n' >"$tmp/sleep.mty"
  printf 'fn main() {\n    loop {\n        print("0123456789")\n    }\n}\n' >"$tmp/chatty.mty"
  printf 'fn f(n: Int) -> Int {\n    f(n + 1)\n}\nfn main() {\n    f(0);\n}\n' >"$tmp/deep.mty"
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
isolation)
  port="$(free_ports 1)"
  url="nats://127.0.0.1:$port"
  start_server n1 "$port"
  # A worker may grant a write root only inside each job's directory.
  printf '[sandbox]\nfs.write = ["%s"]\n' "$tmp/shared" >"$tmp/shared.toml"
  "$mty" worker --nats "$url" --sign-key "$tmp/worker.key" --manifest "$tmp/shared.toml" \
    >"$tmp/shared.out" 2>&1
  [ $? = 64 ] || fail "a worker with a shared write root started: $(cat "$tmp/shared.out")"
  grep -q 'fs.write root ".*shared" is outside' "$tmp/shared.out" || fail "$(cat "$tmp/shared.out")"
  "$mty" worker --nats "$url" >"$tmp/nokey.out" 2>&1
  [ $? = 64 ] && grep -q -- "--sign-key FILE is required" "$tmp/nokey.out" || fail "a worker without a key"
  printf '[sandbox]\nfs.read = ["."]\nfs.write = ["."]\n' >"$tmp/own.toml"
  start_worker w1 --nats "$url" --concurrency 2 --manifest "$tmp/own.toml"
  wait_log "$tmp/w1.log" "pulling from"
  # Job 1 writes a secret and a tree in its directory (its working
  # directory), sleeps, then reads its secret back and lists its directory.
  printf 'fn main() {\n    log(std.fs.write("secret.txt", "s3cret"))\n    log(std.fs.create_dir_all("sub/deeper"))\n    log(std.fs.write("sub/deeper/f.txt", "x"))\n    std.time.sleep(%ss)\n    log(std.fs.read("secret.txt"))\n    log(std.fs.list_dir("."))\n}\n' "$(t 3)" >"$tmp/one.mty"
  id1="$("$mty" submit --nats "$url" --detach "$tmp/one.mty")" || fail "submit job 1"
  wait_log "$tmp/w1.log" "job $id1 attempt 1: started"
  for _ in $(seq $((100 * tf))); do
    dir1="$(ls -d "$tmp"/scratch/mty-worker-*/job-* 2>/dev/null | head -n1)"
    [ -n "$dir1" ] && [ -f "$dir1/sub/deeper/f.txt" ] && break
    sleep 0.05
  done
  [ -f "$dir1/secret.txt" ] || fail "no job directory with job 1's files: $(ls -R "$tmp/scratch")"
  [ "$(stat -c %a "$dir1")" = 700 ] || fail "job directory mode $(stat -c %a "$dir1")"
  # Not in the list of attacks: a link planted in job 1's directory to a
  # directory outside (as a job that could make links would): removing the
  # job's directory must remove the link, not what it points to.
  mkdir -p "$tmp/victim"
  echo keep >"$tmp/victim/keep.txt"
  ln -s "$tmp/victim" "$dir1/escape"
  # Job 2, on the same worker while job 1 runs, is given job 1's directory
  # and asks for it in its manifest too: it can neither list, read nor
  # write it, by absolute path or through `..`, and its own directory is
  # empty.
  printf '[sandbox]\nfs.read = ["%s", "."]\nfs.write = ["%s", "."]\n' "$dir1" "$dir1" >"$tmp/greedy.toml"
  printf 'fn main() {\n    let a = std.env.args().unwrap()\n    let d = a[0]\n    let n = a[1]\n    log(std.fs.list_dir(d))\n    log(std.fs.read(d + "/secret.txt"))\n    log(std.fs.write(d + "/secret.txt", "owned"))\n    log(std.fs.read("../" + n + "/secret.txt"))\n    log(std.fs.list_dir(".."))\n    log(std.fs.read("escape/keep.txt"))\n    log(std.fs.list_dir("."))\n}\n' >"$tmp/two.mty"
  "$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --timeout "$(t 20)s" \
    --manifest "$tmp/greedy.toml" "$tmp/two.mty" "$dir1" "$(basename "$dir1")" >"$tmp/two.out" 2>"$tmp/two.err" ||
    fail "job 2: $(cat "$tmp/two.err")"
  cat "$tmp/two.out"
  [ "$(grep -c '^Err("forbidden: ' "$tmp/two.out")" = 5 ] || fail "job 2 reached job 1's files: $(cat "$tmp/two.out")"
  grep -q '^Err("not_found: escape/keep.txt")$' "$tmp/two.out" || fail "job 2 sees job 1's link: $(cat "$tmp/two.out")"
  [ "$(tail -n1 "$tmp/two.out")" = 'Ok([])' ] || fail "job 2's directory is not empty: $(cat "$tmp/two.out")"
  [ "$(cat "$dir1/secret.txt")" = s3cret ] || fail "job 1's secret was overwritten"
  out="$("$mty" result --verify-key "$tmp/worker.pub" --nats "$url" --wait --timeout "$(t 20)s" --json "$id1")" || fail "job 1: $out"
  stdout="$(json_field stdout <<<"$out")"
  grep -q '^Ok("s3cret")$' <<<"$stdout" || fail "job 1's secret: $stdout"
  grep -qF 'Ok(["escape", "secret.txt", "sub"])' <<<"$stdout" || fail "job 1's listing: $stdout"
  # Both directories are gone, the link removed and its target untouched.
  [ -e "$dir1" ] || [ -L "$dir1/escape" ] && fail "job 1's directory was not removed"
  [ -z "$(ls "$tmp"/scratch/mty-worker-*/)" ] || fail "left behind: $(ls -R "$tmp"/scratch)"
  [ "$(cat "$tmp/victim/keep.txt")" = keep ] || fail "the removal followed the link"
  # The worker removes its own directory when it stops.
  kill -TERM "$pid_w1"
  wait "$pid_w1"
  [ -z "$(ls "$tmp/scratch")" ] || fail "the worker left $(ls "$tmp/scratch")"
  # Where threads cannot have working directories of their own (unshare
  # refused; the test hook pretends so), jobs run one at a time in the
  # process's, each still in its own directory.
  MTY_WORKER_TEST_NO_UNSHARE=1 start_worker w2 --nats "$url" --concurrency 2 --manifest "$tmp/own.toml"
  wait_log "$tmp/w2.log" "pulling from"
  grep -q "they run one at a time (--concurrency 2 ignored)" "$tmp/w2.log" || fail "$(cat "$tmp/w2.log")"
  printf 'fn main() {\n    log(std.fs.list_dir("."))\n    log(std.fs.write("out.txt", "mine"))\n    log(std.fs.read("out.txt"))\n}\n' >"$tmp/three.mty"
  for _ in 1 2; do
    out="$("$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --timeout "$(t 20)s" "$tmp/three.mty")"
    [ "$out" = "$(printf 'Ok([])\nOk(())\nOk("mine")')" ] || fail "one at a time: $out"
  done
  [ -z "$(ls "$tmp"/scratch/mty-worker-*/)" ] || fail "left behind: $(ls -R "$tmp"/scratch)"
  kill -TERM "$pid_w2"
  wait "$pid_w2"
  # A job's manifest narrows the worker's roots: its paths are resolved
  # beneath them (docs/security.md), so a link inside a worker's read-only
  # root that points out of it grants the job nothing.
  mkdir -p "$tmp/ro/in"
  echo in >"$tmp/ro/in/x.txt"
  ln -s "$tmp/victim" "$tmp/ro/link"
  printf '[sandbox]\nfs.read = ["%s"]\n' "$tmp/ro" >"$tmp/ro.toml"
  start_worker w3 --nats "$url" --manifest "$tmp/ro.toml"
  wait_log "$tmp/w3.log" "pulling from"
  printf '[sandbox]\nfs.read = ["%s/link", "%s/in"]\n' "$tmp/ro" "$tmp/ro" >"$tmp/narrow.toml"
  printf 'fn main() {\n    let d = std.env.args().unwrap()[0]\n    log(std.fs.read(d + "/link/keep.txt"))\n    log(std.fs.read(d + "/in/x.txt"))\n}\n' >"$tmp/narrow.mty"
  out="$("$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --timeout "$(t 20)s" \
    --manifest "$tmp/narrow.toml" "$tmp/narrow.mty" "$tmp/ro")" || fail "narrow job: $out"
  [ "$out" = "$(printf 'Err("forbidden: %s/link/keep.txt")\nOk("in\\n")' "$tmp/ro")" ] ||
    fail "a job manifest reached through a worker root's link: $out"
  ;;
integrity)
  port="$(free_ports 1)"
  url="nats://127.0.0.1:$port"
  start_server n1 "$port"
  start_worker w1 --nats "$url" --concurrency 2
  wait_log "$tmp/w1.log" "pulling from"
  sub() { "$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --timeout "$(t 20)s" "$@"; }
  res() { "$mty" result --verify-key "$tmp/worker.pub" --nats "$url" "$@"; }
  printf 'fn main() {\n    print("real output")\n}\n' >"$tmp/real.mty"
  printf 'fn main() {\n    print("other program")\n}\n' >"$tmp/other.mty"
  # expect_rejected NAME WHAT COMMAND...: exit 76, WHAT on stderr, and no
  # output of anyone's program on stdout.
  expect_rejected() {
    local name="$1" what="$2"
    shift 2
    "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    [ "$rc" = 76 ] || fail "$name: exit $rc: $(cat "$tmp/$name.out" "$tmp/$name.err")"
    grep -q -- "$what" "$tmp/$name.err" || fail "$name: no '$what' in $(cat "$tmp/$name.err")"
    [ ! -s "$tmp/$name.out" ] || fail "$name printed $(cat "$tmp/$name.out")"
    echo "$name: $(cat "$tmp/$name.err")"
  }
  # The forgery of the issue: any client puts a result under victim-1 (this
  # server has no permissions); the victim's job is then answered by it.
  forged='{"id":"victim-1","outcome":"ok","exit_code":0,"stdout":"forged output","usage":{},"worker":"w1","attempt":1}'
  "$load" kvput "$url" mty_results victim-1 "$forged" >/dev/null || fail "kvput"
  expect_rejected forged "is not signed" sub --id victim-1 "$tmp/real.mty"
  # A real result altered where it is stored.
  [ "$(sub --id victim-2 "$tmp/real.mty")" = "real output" ] || fail "victim-2"
  altered="$(res --json victim-2 | sed 's/real output/forged output/')"
  "$load" kvput "$url" mty_results victim-2 "$altered" >/dev/null || fail "kvput"
  expect_rejected altered "signature does not match" res victim-2
  # An id used again by another program: refused, not the first's output.
  [ "$(sub --id reuse-1 "$tmp/real.mty")" = "real output" ] || fail "reuse-1"
  expect_rejected reused "is held by another job" sub --id reuse-1 "$tmp/other.mty"
  # The same job again is the same job: its result.
  [ "$(sub --id reuse-1 "$tmp/real.mty")" = "real output" ] || fail "the same job again"
  # Taking over an id: another document published under victim-3 while the
  # victim's job waits (its claim refused, published anyway) runs nowhere
  # and gets no result; the victim gets its own.
  printf 'fn main() {\n    std.time.sleep(1s)\n    print("victim 3")\n}\n' >"$tmp/slow.mty"
  "$mty" submit --nats "$url" --detach --id victim-3 "$tmp/slow.mty" >/dev/null || fail "victim-3"
  "$load" raw "$url" '{"id":"victim-3","program":"fn main() {\n    print(\"taken\")\n}\n"}' victim-3 || fail "raw"
  wait_log "$tmp/w1.log" "job victim-3 attempt 1: not the job claimed under its id"
  [ "$(res --wait --timeout "$(t 20)s" victim-3)" = "victim 3" ] || fail "victim-3 was taken over"
  # Not in the list of attacks: front-running the stream's duplicate window.
  # A document published first under front-1 with the message id a job
  # under that id once had (`front-1`), unclaimed, must not make the stream
  # drop the victim's job: it is terminated, and the victim's job runs.
  MTY_LOAD_MSG_ID=front-1 "$load" raw "$url" '{"id":"front-1","program":"fn main() {\n    print(\"first\")\n}\n"}' || fail "raw"
  wait_log "$tmp/w1.log" "job front-1 attempt 1: its id is not claimed"
  [ "$(sub --id front-1 "$tmp/real.mty")" = "real output" ] || fail "front-1 was dropped"
  # Not in the list of attacks: replaying a genuine signed result (reuse-1's)
  # under another job's id.
  [ "$(sub --id replay-1 "$tmp/other.mty")" = "other program" ] || fail "replay-1"
  "$load" kvput "$url" mty_results replay-1 "$(res --json reuse-1)" >/dev/null || fail "kvput"
  expect_rejected replayed 'written for job "reuse-1"' res replay-1
  # ... and a worker whose key the client does not trust.
  new_key rogue
  kill -TERM "$pid_w1"
  wait "$pid_w1"
  start_worker rogue --nats "$url" --sign-key "$tmp/rogue.key"
  wait_log "$tmp/rogue.log" "pulling from"
  expect_rejected rogue "not a --verify-key" sub --id rogue-1 "$tmp/real.mty"
  res rogue-1 --verify-key "$tmp/rogue.pub" >/dev/null || fail "the rogue key's own result"
  # Reading results needs a key.
  "$mty" result --nats "$url" victim-3 2>"$tmp/nokey.err"
  [ $? = 64 ] || fail "mty result without --verify-key"
  # Not in the list of attacks: on this server without permissions, a
  # client changes the claims stream so that claims can be overwritten.
  # Workers and clients then refuse to use it.
  "$load" weaken "$url" || fail "weaken"
  "$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --id late-1 "$tmp/real.mty" >"$tmp/weak.out" 2>&1
  rc=$?
  cat "$tmp/weak.out"
  [ "$rc" = 69 ] && grep -q "MTY_CLAIMS exists but is not create-only" "$tmp/weak.out" || fail "weakened claims used: $rc"
  ;;
permissions)
  port="$(free_ports 1)"
  url="nats://127.0.0.1:$port"
  wkey="$(python3 "$tests/cluster/nats_auth.py" nkey "$tmp/worker.seed")" || fail "nkey"
  skey="$(python3 "$tests/cluster/nats_auth.py" nkey "$tmp/submit.seed")" || fail "nkey"
  sed -e "s/WORKER_NKEY/$wkey/" -e "s/SUBMITTER_NKEY/$skey/" "$tests/../cluster/nats-permissions.conf" >"$tmp/perm.conf"
  start_server n1 "$port" -c "$tmp/perm.conf"
  as_worker=(--nkey "$tmp/worker.seed" --inbox-prefix _INBOX_worker)
  as_submitter=(--nkey "$tmp/submit.seed" --inbox-prefix _INBOX_submit)
  start_worker w1 --nats "$url" "${as_worker[@]}"
  wait_log "$tmp/w1.log" "pulling from"
  # Nobody without credentials.
  "$mty" result --verify-key "$tmp/worker.pub" --nats "$url" x 2>"$tmp/anon.err"
  [ $? = 69 ] && grep -q "Authentication Violation" "$tmp/anon.err" || fail "anonymous: $(cat "$tmp/anon.err")"
  # A submitter runs jobs: sent, by hash, detached.
  sub() { "$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" "${as_submitter[@]}" --timeout "$(t 20)s" "$@"; }
  printf 'fn main() {\n    print("real output")\n}\n' >"$tmp/real.mty"
  [ "$(sub --id victim-1 "$tmp/real.mty")" = "real output" ] || fail "submit as a submitter"
  [ "$(sub --by-hash "$tmp/real.mty")" = "real output" ] || fail "submit --by-hash as a submitter"
  # ... but cannot write or delete a result: the server refuses both.
  export MTY_LOAD_NKEY="$tmp/submit.seed" MTY_LOAD_INBOX_PREFIX=_INBOX_submit
  forged='{"id":"victim-1","outcome":"ok","exit_code":0,"stdout":"forged output","usage":{},"worker":"w1","attempt":1}'
  out="$("$load" kvput "$url" mty_results victim-1 "$forged")" && fail "a submitter stored a result: $out"
  echo "put: $out"
  grep -q 'Permissions Violation for Publish to "$KV.mty_results.victim-1"' <<<"$out" || fail "put: $out"
  out="$("$load" kvdel "$url" mty_results victim-1)" && fail "a submitter deleted a result: $out"
  echo "delete: $out"
  grep -q "Permissions Violation" <<<"$out" || fail "delete: $out"
  [ "$("$mty" result --verify-key "$tmp/worker.pub" --nats "$url" "${as_submitter[@]}" victim-1)" = "real output" ] ||
    fail "the stored result changed"
  # The worker user may write there (the refusal above is the permission's).
  MTY_LOAD_NKEY="$tmp/worker.seed" MTY_LOAD_INBOX_PREFIX=_INBOX_worker "$load" kvput "$url" mty_results control-1 '{}' >/dev/null ||
    fail "the worker user cannot write the results bucket"
  # Not in the list of attacks: a submitter taking a job off the queue
  # (reading another's program and making it vanish). With no worker
  # running, the job waits in the queue.
  kill -TERM "$pid_w1"
  wait "$pid_w1"
  id="$("$mty" submit --nats "$url" "${as_submitter[@]}" --detach "$tmp/real.mty")" || fail "submit --detach"
  out="$("$load" steal "$url")" && fail "a submitter took a job: $out"
  echo "steal: $out"
  grep -q "Permissions Violation" <<<"$out" || fail "steal: $out"
  unset MTY_LOAD_NKEY MTY_LOAD_INBOX_PREFIX
  start_worker w2 --nats "$url" "${as_worker[@]}"
  [ "$("$mty" result --verify-key "$tmp/worker.pub" --nats "$url" "${as_submitter[@]}" --wait --timeout "$(t 20)s" "$id")" = "real output" ] ||
    fail "the job left in the queue did not run"
  ;;
credentials)
  read -r port tls_port <<<"$(free_ports 2 | tr '\n' ' ')"
  pw='Pw-9f3K-secret'
  start_server n1 "$port" --user mty --pass "$pw"
  url="nats://mty:$pw@127.0.0.1:$port"
  # The URL with its password in the environment: not in the worker's argv
  # (ps), nor in its log, which shows the URL redacted.
  MTY_NATS_URL="$url" start_worker w1
  wait_log "$tmp/w1.log" "pulling from nats://\*\*\*@127.0.0.1:$port"
  tr '\0' ' ' <"/proc/$pid_w1/cmdline" | grep -q -- "$pw" && fail "the password is in the worker's argv"
  printf 'fn main() {\n    print("real output")\n}\n' >"$tmp/real.mty"
  [ "$(MTY_NATS_URL="$url" "$mty" submit --verify-key "$tmp/worker.pub" --timeout "$(t 20)s" "$tmp/real.mty")" = "real output" ] ||
    fail "submit with MTY_NATS_URL"
  # A wrong password given on the command line: the error shows the server,
  # not the password.
  "$mty" submit --verify-key "$tmp/worker.pub" --nats "nats://mty:WrongPw-77@127.0.0.1:$port" "$tmp/real.mty" \
    >"$tmp/wrong.out" 2>&1
  rc=$?
  cat "$tmp/wrong.out"
  [ "$rc" = 69 ] || fail "a wrong password: exit $rc"
  grep -q "WrongPw-77" "$tmp/wrong.out" && fail "the password is in the error"
  grep -q "nats://\*\*\*@127.0.0.1:$port" "$tmp/wrong.out" || fail "no redacted URL in the error"
  # Not in the list of attacks: a password holding `/` and `@` (a redaction
  # that stopped at the first `@` or at a `/` would show part of it).
  "$mty" worker --sign-key "$tmp/worker.key" --nats "nats://mty:Wr/ong@Pw-77@127.0.0.1:$port" >"$tmp/wrongw.out" 2>&1
  rc=$?
  cat "$tmp/wrongw.out"
  [ "$rc" = 69 ] && ! grep -q "Wr/ong\|Pw-77" "$tmp/wrongw.out" || fail "worker: $(cat "$tmp/wrongw.out")"
  grep -q -- "$pw" "$tmp/w1.log" && fail "the password is in the worker's log"
  # TLS with a client certificate: a CA, the server's certificate for
  # 127.0.0.1, a client certificate.
  ossl() { openssl "$@" >/dev/null 2>&1 || fail "openssl $1"; }
  ossl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj /CN=test-ca \
    -keyout "$tmp/ca.key" -out "$tmp/ca.pem"
  for who in server client; do
    ossl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$who" \
      -keyout "$tmp/$who.key" -out "$tmp/$who.csr"
    printf 'subjectAltName = IP:127.0.0.1\n' >"$tmp/$who.ext"
    ossl x509 -req -in "$tmp/$who.csr" -CA "$tmp/ca.pem" -CAkey "$tmp/ca.key" -CAcreateserial \
      -days 1 -extfile "$tmp/$who.ext" -out "$tmp/$who.pem"
  done
  start_server n2 "$tls_port" --tls --tlscert "$tmp/server.pem" --tlskey "$tmp/server.key" \
    --tlscacert "$tmp/ca.pem" --tlsverify
  tls_url="nats://127.0.0.1:$tls_port"
  tls=(--tls-ca "$tmp/ca.pem" --tls-cert "$tmp/client.pem" --tls-key "$tmp/client.key")
  start_worker w2 --nats "$tls_url" "${tls[@]}"
  wait_log "$tmp/w2.log" "pulling from"
  [ "$("$mty" submit --verify-key "$tmp/worker.pub" --nats "$tls_url" "${tls[@]}" --timeout "$(t 20)s" "$tmp/real.mty")" = "real output" ] ||
    fail "submit over TLS"
  # Without the client certificate, or without TLS: refused.
  "$mty" submit --verify-key "$tmp/worker.pub" --nats "$tls_url" --tls-ca "$tmp/ca.pem" "$tmp/real.mty" 2>"$tmp/nocert.err"
  [ $? = 69 ] || fail "no client certificate: $(cat "$tmp/nocert.err")"
  "$mty" submit --verify-key "$tmp/worker.pub" --nats "$tls_url" "$tmp/real.mty" 2>"$tmp/notls.err"
  [ $? = 69 ] || fail "no TLS: $(cat "$tmp/notls.err")"
  "$mty" submit --verify-key "$tmp/worker.pub" --nats "$tls_url" --tls-cert "$tmp/client.pem" "$tmp/real.mty" 2>"$tmp/half.err"
  [ $? = 64 ] && grep -q -- "--tls-cert and --tls-key go together" "$tmp/half.err" || fail "half a pair: $(cat "$tmp/half.err")"
  # A .creds file (a user JWT and its nkey seed) on a server in operator
  # mode; without it, refused.
  op_port="$(free_ports 1)"
  python3 "$tests/cluster/nats_auth.py" operator "$tmp" || fail "operator"
  printf 'include "auth.conf"\n' >"$tmp/operator.conf"
  start_server n3 "$op_port" -c "$tmp/operator.conf"
  op_url="nats://127.0.0.1:$op_port"
  start_worker w3 --nats "$op_url" --creds "$tmp/user.creds"
  wait_log "$tmp/w3.log" "pulling from"
  [ "$("$mty" submit --verify-key "$tmp/worker.pub" --nats "$op_url" --creds "$tmp/user.creds" --timeout "$(t 20)s" "$tmp/real.mty")" = "real output" ] ||
    fail "submit with --creds"
  "$mty" submit --verify-key "$tmp/worker.pub" --nats "$op_url" "$tmp/real.mty" 2>"$tmp/nocreds.err"
  [ $? = 69 ] || fail "no creds: $(cat "$tmp/nocreds.err")"
  "$mty" submit --verify-key "$tmp/worker.pub" --nats "$op_url" --creds "$tmp/missing.creds" "$tmp/real.mty" 2>"$tmp/missing.err"
  [ $? = 64 ] && grep -q "missing.creds" "$tmp/missing.err" || fail "a missing creds file: $(cat "$tmp/missing.err")"
  # No seed or JWT of any of these files is ever printed.
  seed="$(grep '^SU' "$tmp/user.creds")"
  cat "$tmp"/*.log "$tmp"/*.err | grep -q -- "$seed" && fail "a seed was printed"
  ;;
oom)
  if [ -n "${MTY_NO_AS_LIMIT:-}" ]; then
    echo "skipped: address-space limits do not apply under AddressSanitizer"
    exit 77
  fi
  # A worker whose address space cannot hold its jobs (docs/runtime.md, "When
  # the host runs out first"): three jobs at once, each allowed 1 GiB, in a
  # worker under `prlimit --as` 512 MiB. Each job ends with the memory breach
  # (exit 4, "real heap"), none is delivered again, and the worker lives on
  # to run the next job (it used to die with an uncaught std::bad_alloc, and
  # so did each worker the job went to next).
  port="$(free_ports 1)"
  url="nats://127.0.0.1:$port"
  start_server n1 "$port"
  worker_limit=(prlimit --as=$((512 << 20)))
  start_worker w1 --nats "$url" --concurrency 3
  worker_limit=()
  wait_log "$tmp/w1.log" "pulling from"
  printf 'fn main() {\n    let mut v = []\n    loop {\n        v.push([1, 2, 3, 4, 5, 6, 7, 8])\n    }\n}\n' >"$tmp/hog.mty"
  printf '[sandbox]\nmemory = "1GiB"\n' >"$tmp/hog.toml"
  hogs=()
  for i in 1 2 3; do
    "$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --timeout "$(t 60)s" \
      --manifest "$tmp/hog.toml" "$tmp/hog.mty" \
      >"$tmp/hog$i.out" 2>"$tmp/hog$i.err" &
    hogs+=($!)
  done
  for i in 1 2 3; do
    wait "${hogs[$((i - 1))]}"
    rc=$?
    [ "$rc" = 4 ] || fail "job $i: exit $rc, wanted 4: $(cat "$tmp/hog$i.err")"
    grep -q "memory budget exceeded: real heap" "$tmp/hog$i.err" ||
      fail "job $i: no real-heap breach in $(cat "$tmp/hog$i.err")"
  done
  kill -0 "$pid_w1" 2>/dev/null || fail "the worker died"
  grep -q "attempt 2" "$tmp/w1.log" && fail "a job was delivered again"
  printf 'fn main() {\n    print("next")\n}\n' >"$tmp/next.mty"
  out="$("$mty" submit --verify-key "$tmp/worker.pub" --nats "$url" --timeout "$(t 20)s" \
    "$tmp/next.mty")" || fail "the next job: $out"
  [ "$out" = next ] || fail "the next job printed '$out'"
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
  # Two workers making four replicated streams and a consumer at once on a
  # loaded machine can take a while (a worker waits up to 60 s for the
  # cluster's leaders, docs/scaling.md).
  wait_log "$tmp/w1.log" "pulling from" 70
  wait_log "$tmp/w2.log" "pulling from" 70
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
