#!/usr/bin/env bash
# Run events and record/replay through the real binary (docs/cli.md):
# --trace=json lists every effect call (allowed or denied), spawns and
# sandbox entries, exits and breaches; --trace text too. `mty run --record`
# writes every nondeterministic input; `mty replay` reproduces the output,
# exit code and step count with the files gone or changed, the variables
# unset and the clock elsewhere, and reports the first divergence (exit 10).
set -u
mty="$1"
tmp="$(mktemp -d)"
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$tmp"

# ---- Events ------------------------------------------------------------------

cat >ev.mty <<'MTY'
agent Echo {
    on Say(s) -> s
}
fn main() {
    let a = std.fs.read("data/a.txt")
    let b = std.fs.read("/etc/hostname")
    let e = spawn Echo()
    log(e?Say("hi"))
    sandbox Tool with { fs.read = [] } {
        let c = std.fs.exists("data/a.txt")
    }
    sandbox Tight with { steps = 100 } {
        let mut i = 0
        while true { i += 1 }
    }
}
MTY
mkdir data && echo a >data/a.txt
"$mty" run --allow-read=data --trace=json --trace-file tr.jsonl -q ev.mty >o 2>e
check trace-breach-exit 3 $?
python3 - tr.jsonl <<'PY' && ok trace-json-every-event || { bad trace-json-every-event; cat tr.jsonl; }
import json, sys
evs = [json.loads(l) for l in open(sys.argv[1])]
kinds = [e["event"] for e in evs]
want = ["effect", "denied", "effect", "spawned", "sandbox_entered", "denied", "effect",
        "sandbox_left", "sandbox_entered", "sandbox_breach", "end"]
assert kinds == want, kinds
a, _, b, sp, ent, _, c, left, ent2, br, end = evs
assert (a["effect"], a["target"], a["allowed"], a["family"], a["line"], a["file"]) == (
    "std.fs.read", "data/a.txt", True, "fs.read", 5, "ev.mty"), a
assert (b["target"], b["allowed"]) == ("/etc/hostname", False), b
assert sp["agent"] == "Echo#1", sp
assert (ent["sandbox"], ent["line"]) == ("Tool", 9), ent
assert (c["effect"], c["allowed"], c["sandbox"]) == ("std.fs.exists", False, "Tool"), c
assert left["sandbox"] == "Tool", left
assert (br["sandbox"], br["limit"], br["code"]) == ("Tight", "steps", "MT5009"), br
assert "step budget exceeded" in br["message"], br
assert end["exit_code"] == 3, end
PY
"$mty" run --allow-read=data --trace -q ev.mty >o 2>e
contains trace-text-effect e "trace: effect std.fs.read data/a.txt allowed (fs.read) at ev.mty:5:"
contains trace-text-denied e "trace: MT5015 denied std.fs.read /etc/hostname (fs.read)"
lacks trace-text-denied-once e "trace: effect std.fs.read /etc/hostname"
contains trace-text-spawned e "trace: spawned Echo#1"
contains trace-text-sandbox e "trace: sandbox Tool entered at ev.mty:9:"
contains trace-text-left e "trace: sandbox Tool left"
contains trace-text-breach e "trace: sandbox Tight breached steps: MT5009"

# ---- Record and replay: files, time, environment and agents -----------------

# What it prints depends on the files, the clock (a loop that spins until
# 20 ms have passed, sleeping 1 ms each time, counts its iterations), a variable, and the scheduler's
# timers (a worker that sleeps against an ask deadline).
cat >job.mty <<'MTY'
agent Worker {
    seen = 0
    on Work(line) -> {
        seen += 1
        let _ = std.time.sleep(3ms)
        format!("{} {} ({} chars)", seen, line.to_upper(), line.len())
    }
}
fn main() -> I64 {
    let text = std.fs.read("in/lines.txt").unwrap()
    let w = spawn Worker()
    for line in text.lines() {
        log(w?Work(line))
    }
    let t0 = std.time.now().unwrap()
    let mut spins = 0
    while std.time.now().unwrap() - t0 < 20000000 {
        let _ = std.time.sleep(1ms)
        spins += 1
    }
    log(format!("spun {} times; t0 = {}", spins, t0))
    match w?Work("late") @2ms {
        Ok(s) => log(format!("in time: {}", s)),
        Err(e) => log(format!("too late: {:?}", e)),
    }
    log(format!("var = {:?}", std.env.var("MTY_RECORD_TEST")))
    let _ = std.fs.write("out/result.txt", text)
    log(std.fs.read_dir("in"))
    spins % 7
}
MTY
mkdir in out && printf 'alpha\nbeta\ngamma\n' >in/lines.txt && echo x >in/other.txt
MTY_RECORD_TEST=set "$mty" run --allow-read=in --allow-write=out --allow-env --record run.jsonl \
  --stats=json job.mty >o1 2>e1
rc1=$?
[ "$rc1" -lt 7 ] && ok record-ran || { bad "record-ran: exit $rc1"; cat e1; }
contains record-wrote-file out/result.txt "gamma"
contains record-saw-var o1 'var = Ok(Some("set"))'
python3 - run.jsonl <<'PY' && ok recording-shape || { bad recording-shape; head -5 run.jsonl; }
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
h, inputs, end = lines[0], lines[1:-1], lines[-1]
assert h["mty_recording"] == 1 and h["file"] == "job.mty" and len(h["program"]) == 16, h
assert h["policy"]["grants"]["fs.read"] == ["in"], h
effects = [i["effect"] for i in inputs if "effect" in i]
assert effects[0] == "std.fs.read" and "std.env.var" in effects and "std.fs.write" in effects, effects
assert effects.count("std.time.sleep") >= 3, effects
assert any("clock" in i for i in inputs), "no clock readings"
assert "end" in end and end["end"]["steps"] > 0, end
PY
steps1=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1])["steps"])' e1)

# Change and delete what the run read, unset the variable, and make the
# output directory unwritable: the replay touches none of it.
rm -rf in/other.txt out/result.txt
printf 'changed\n' >in/lines.txt
chmod a-w out
sleep 0.05
"$mty" replay --stats=json run.jsonl >o2 2>e2
check replay-exit "$rc1" $?
identical replay-same-output o1 o2
steps2=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().splitlines()[-1])["steps"])' e2)
[ "$steps1" = "$steps2" ] && ok replay-same-steps || bad "replay-same-steps: $steps1 vs $steps2"
[ ! -e out/result.txt ] && ok replay-wrote-nothing || bad replay-wrote-nothing
contains replay-files-unchanged in/lines.txt "changed"
lacks replay-no-divergence e2 "diverged"
# Replayed again, the same again (and with the program named).
"$mty" replay run.jsonl job.mty >o3 2>e3
check replay-again-exit "$rc1" $?
identical replay-again-same-output o1 o3
chmod u+w out

# A changed program: the first divergence, located, exit 10.
sed 's/std.fs.read("in\/lines.txt")/std.fs.read("in\/other.txt")/' job.mty >job2.mty
"$mty" replay run.jsonl job2.mty >o 2>e; check replay-diverged 10 $?
contains replay-diverged-where e 'mty: replay diverged: input 1 (line 2) of the recording is std.fs.read("in/lines.txt") at job.mty:10:5; the run asked for std.fs.read("in/other.txt") at job2.mty:10:5 (the program changed since the recording)'
lacks replay-diverged-no-trap-report e "trap MT5022"
# A shorter recording: the run asks for more than it holds.
head -n 4 run.jsonl >short.jsonl
"$mty" replay short.jsonl job.mty >o 2>e; check replay-short 10 $?
contains replay-short-text e "the recording ends after 3 inputs; the run asked for"
# A program that stops before the recording's last input, and a recording
# whose end says otherwise.
grep -v 'read_dir' job.mty >job3.mty
"$mty" replay run.jsonl job3.mty >o 2>e; check replay-ended-early 10 $?
# (its last input is the read_dir it no longer makes; the late worker was
# cancelled at its ask's deadline, so nothing reads the clock after main)
contains replay-ended-early-text e 'the run ended without asking for input'
contains replay-ended-early-what e 'of the recording, std.fs.read_dir("in") at job.mty:28:5'
printf 'fn main() {\n    log(std.fs.exists("in"))\n    log(std.fs.exists("out"))\n}\n' >two.mty
printf 'fn main() {\n    log(std.fs.exists("in"))\n}\n' >one.mty
"$mty" run --allow-read=. --record two.jsonl two.mty >o 2>e; check record-two 0 $?
"$mty" replay two.jsonl one.mty >o 2>e; check replay-fewer-inputs 10 $?
contains replay-fewer-inputs-text e 'the run ended without asking for input 2 (line 3) of the recording, std.fs.exists("out") at two.mty:3:5 (the program changed since the recording)'
python3 - run.jsonl >edited.jsonl <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
end = json.loads(lines[-1])
end["end"]["steps"] += 1
print("\n".join(lines[:-1] + [json.dumps(end)]))
PY
"$mty" replay edited.jsonl job.mty >o 2>e; check replay-end-differs 10 $?
contains replay-end-differs-text e "the run ended differently: steps $((steps1 + 1)) in the recording, $steps1 now"

# The run's wall deadline passing while every task sleeps: the replay ends
# with the same breach at the same place, without waiting for it.
cat >wall.mty <<'MTY'
agent A {
    on Hi(n) -> {
        let _ = std.time.sleep(10ms)
        n
    }
}
fn main() {
    let a = spawn A()
    log(a?Hi(1))
    let _ = std.time.sleep(10s)
    log("never")
}
MTY
"$mty" run --wall 2s --record wall.jsonl wall.mty >o1 2>e1; check record-wall 5 $?
start=$(date +%s%N)
"$mty" replay wall.jsonl >o2 2>e2; check replay-wall 5 $?
took=$(( ($(date +%s%N) - start) / 1000000 ))
identical replay-wall-output o1 o2
identical replay-wall-report e1 e2
# The deadline is 2 s; a replay that waited for it would take at least
# that, one that does not takes well under it even on a loaded sanitizer run.
[ "$took" -lt 1200 ] && ok replay-wall-does-not-wait || bad "replay-wall-does-not-wait: ${took} ms"

# A supervisor's restart window (restart up_to 2 in 40ms against 15 ms
# sleeps): whether and when it escalates is the clock's choice, and the
# replay makes the same one.
cat >sup.mty <<'MTY'
agent W {
    on Boom() -> {
        let zero = 0
        1 / zero
    }
    on Ping() -> 1
}
supervisor S(strategy: one_for_one) {
    child w = spawn W()
    on_fail(w) { restart up_to 2 in 40ms }
}
fn main() {
    let s = spawn S()
    let w = s.w
    for i in 0..6 {
        w!Boom()
        let _ = std.time.sleep(15ms)
        log(format!("round {}: {:?}", i, w?Ping() @5ms))
    }
}
MTY
"$mty" run --record sup.jsonl sup.mty >o1 2>&1
rc1=$?
"$mty" replay sup.jsonl >o2 2>&1; check replay-supervisor-exit "$rc1" $?
identical replay-supervisor-output o1 o2
contains replay-supervisor-restarts o2 "agent W#2 failed: trap MT5003"

# Malformed and missing recordings, an unwritable --record.
echo '{"not": "a recording"}' >bad.jsonl
"$mty" replay bad.jsonl job.mty >o 2>e; check replay-malformed 65 $?
contains replay-malformed-text e "bad.jsonl: line 1: not a recording"
# Edited inputs of every shape a replay reads are refused up front, located.
head -n 1 two.jsonl >hdr.jsonl
n=0
for line in '{"clock":"soon"}' '{"effect":"std.fs.exists","args":[],"error":"no"}' \
    '{"effect":"std.fs.exists","args":[],"value":true,"output":-1}' \
    '{"effect":"std.fs.exists","args":[],"error":{"sleep_ns":"1ms"}}' \
    '{"effect":"std.fs.exists","args":[],"error":{"breach":{"key":"nope"}}}' \
    '{"end":{"stdout":7}}' '[1,2]' 'not json'; do
  n=$((n + 1))
  { cat hdr.jsonl; echo "$line"; } >edit$n.jsonl
  "$mty" replay edit$n.jsonl two.mty >o 2>e; check "replay-edited-$n" 65 $?
  contains "replay-edited-$n-located" e "edit$n.jsonl: line 2: "
done
# A value nested deeper than a replay rebuilds: refused, not a crash.
python3 -c 'import sys; d=600; print(open("hdr.jsonl").read().strip()); print("{\"effect\":\"std.fs.exists\",\"args\":[\"in\"],\"value\":" + "["*d + "]"*d + "}")' >deep.jsonl
"$mty" replay deep.jsonl two.mty >o 2>e; check replay-deep-value 10 $?
contains replay-deep-value-text e "cannot be rebuilt: value nested deeper than 512 levels"
"$mty" replay no-such.jsonl job.mty >o 2>e; check replay-missing 66 $?
"$mty" run --record "$tmp/no/such/dir/r.jsonl" job.mty >o 2>e; check record-unwritable 73 $?
contains record-unwritable-text e "error: cannot write"
"$mty" replay run.jsonl job.mty extra >o 2>e; check replay-extra-operand 64 $?
"$mty" help replay >o 2>e; check replay-help 0 $?
contains replay-usage o "usage: mty replay [OPTIONS] RECORDING [PROGRAM]"

echo "$fails failure(s)"
[ "$fails" = 0 ]
