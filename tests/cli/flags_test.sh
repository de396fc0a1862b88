#!/usr/bin/env bash
# The `mty` command line's flag forms through the real binary (docs/cli.md):
# Deno-style --allow-* (=LIST, one spaced value, bare = all, -A), program
# arguments after the file, the denial hint on stderr (once per target,
# --quiet), manifest/flag intersections that grant nothing, `mty run -`,
# `dump --ast` of MtyIR, subcommand suggestions, `mty help CMD`, the
# generated completions and man page.
set -u
mty="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

mkdir -p "$tmp/inputs" "$tmp/outputs" "$tmp/other"
echo one >"$tmp/inputs/a.txt"
echo two >"$tmp/outputs/b.txt"
echo three >"$tmp/other/c.txt"
cat >"$tmp/args.mty" <<'MTY'
fn main() -> Result[I64, Str] {
    let a = std.env.args()?
    log(format!("{} args", a.len()))
    for x in a { log(x) }
    Ok(0)
}
MTY
# Reads each argument twice: one hint per target, not per call.
cat >"$tmp/read.mty" <<'MTY'
fn main() -> Result[I64, Str] {
    let a = std.env.args()?
    for p in a {
        for _ in 0..2 {
            match std.fs.read(p) {
                Ok(t) => log(format!("read {}", t.trim())),
                Err(e) => log(format!("no {}", e)),
            }
        }
    }
    Ok(0)
}
MTY
cd "$tmp"

# The synopsis of docs/cli.md: the arguments after `--` are the program's.
"$mty" run --allow-read=inputs args.mty -- x y >o 2>e; check synopsis 0 $?
same synopsis-args o "$(printf '2 args\nx\ny')"
# Without `--`, everything after the file is the program's, --help included.
"$mty" run --allow-read=inputs args.mty a b >o 2>e; check args-no-dashes 0 $?
same args-no-dashes-out o "$(printf '2 args\na\nb')"
"$mty" run args.mty hello --help --steps 1 >o 2>e; check args-help 0 $?
same args-help-out o "$(printf '4 args\nhello\n--help\n--steps\n1')"

# --allow-read=A,B, one spaced value, bare, repeated, -A.
"$mty" run --allow-read=inputs,outputs read.mty inputs/a.txt outputs/b.txt other/c.txt >o 2>e
check list 0 $?
contains list-a o "read one"
contains list-b o "read two"
contains list-c o "no forbidden:"
"$mty" run --allow-read inputs read.mty inputs/a.txt outputs/b.txt >o 2>e; check spaced 0 $?
contains spaced-a o "read one"
contains spaced-b o "no forbidden:"
"$mty" run --allow-read inputs --allow-read=outputs read.mty outputs/b.txt >o 2>e
contains repeated o "read two"
"$mty" run --allow-read read.mty other/c.txt >o 2>e; check bare 0 $?
contains bare-reads-all o "read three"
"$mty" run --allow-read --allow-write=outputs read.mty other/c.txt >o 2>e; check bare-then-flag 0 $?
contains bare-then-flag-reads o "read three"
"$mty" run -A read.mty other/c.txt >o 2>e; check allow-all-short 0 $?
contains allow-all-short-reads o "read three"
"$mty" run --allow-read= read.mty >o 2>e; check empty-list 64 $?
contains empty-list-text e "--allow-read=: an empty list"

# The denial hint: stderr, once per target, the flag that would allow it.
"$mty" run --allow-read=inputs read.mty other/c.txt inputs/a.txt >o 2>e; check hint-run 0 $?
contains hint e "mty: denied std.fs.read(\"other/c.txt\") at read.mty:5:13; to allow it, run with --allow-read=other/c.txt"
[ "$(grep -c 'mty: denied' e)" = 1 ] && ok hint-once || { bad "hint-once"; cat e; }
lacks hint-not-on-stdout o "mty: denied"
"$mty" run --quiet --allow-read=inputs read.mty other/c.txt >o 2>e
[ -s e ] && { bad "quiet: stderr not empty"; cat e; } || ok quiet
"$mty" run -q read.mty other/c.txt >o 2>e
[ -s e ] && { bad "quiet-short"; cat e; } || ok quiet-short
# A program denied 100 000 computed paths: at most 20 hint lines, then
# one line saying so; mty's own memory stays small (hints are not budgeted).
cat >many.mty <<'MTY'
fn main() -> I64 {
    let mut n = 0
    for i in 0..100000 {
        if std.fs.exists(format!("nope/{}", i)).is_err() { n += 1 }
    }
    log(format!("{}", n))
    0
}
MTY
# Peak RSS through tests/tools/rss_run (MTY_RSS_RUN; unset under ASan,
# whose shadow memory is RSS the program did not ask for).
measure=()
[ -n "${MTY_RSS_RUN:-}" ] && measure=("$MTY_RSS_RUN" rss)
"${measure[@]}" "$mty" run many.mty >o 2>e; check many-denials 0 $?
same many-denials-out o "100000"
[ "$(grep -c '^mty: denied' e)" = 20 ] && ok many-denials-capped || { bad many-denials-capped; head -3 e; }
contains many-denials-note e "mty: more than 20 denied targets: no more hints"
if [ -n "${MTY_RSS_RUN:-}" ]; then
  kb=$(awk '/peak_rss_kb/ {print $2}' rss)
  [ "$kb" -lt 32768 ] && ok many-denials-rss || bad "many-denials-rss: $kb KiB"
fi
# A grant naming one file allows that file and nothing beside it (the
# denial hint names `--allow-read=FILE`, so that flag must work).
"$mty" run --allow-read=inputs/a.txt read.mty inputs/a.txt outputs/b.txt >o 2>e
contains file-grant o "read one"
contains file-grant-beside o "no forbidden: outputs/b.txt"
# A target with control characters is escaped in the hint.
"$mty" run read.mty "$(printf 'x\033[2Jy')" >o 2>e
contains hint-escaped e 'std.fs.read("x\x1b[2Jy")'
# The manifest's key when the flags grant it but the manifest does not.
printf '[sandbox]\nfs.read = ["outputs"]\n' >m.toml
"$mty" run --manifest m.toml --allow-read read.mty inputs/a.txt outputs/b.txt >o 2>e
contains manifest-hint e "to allow it, add it to \`fs.read\` in m.toml"
contains manifest-reads o "read two"
# Flags and a manifest that share nothing: a warning.
"$mty" run --manifest m.toml --allow-read=inputs read.mty >o 2>e
contains empty-intersection e "mty: warning: --allow-read and \`fs.read\` in m.toml have nothing in common"
# A sandbox's own list: the hint names the sandbox.
cat >sb.mty <<'MTY'
fn main() -> Result[I64, Str] {
    sandbox Tool with { fs.read = ["inputs"] } {
        let r = std.fs.read("outputs/b.txt")
        log(format!("{}", r.is_ok()))
    }
    Ok(0)
}
MTY
"$mty" run -A sb.mty >o 2>e
contains sandbox-hint e "at sb.mty:3:9: sandbox Tool does not grant it (add it to its \`fs.read\` list)"
"$mty" run -A --deny-is-trap sb.mty >o 2>e; check deny-is-trap-sandbox 1 $?
contains deny-is-trap-sandbox-text e "trap MT5015: sandbox Tool does not grant it: std.fs.read: forbidden: outputs/b.txt"
"$mty" run --deny-is-trap read.mty other/c.txt >o 2>e; check deny-is-trap 1 $?
contains deny-is-trap-text e "trap MT5015: capability not granted: std.fs.read: forbidden: other/c.txt"

# Standard input.
echo 'fn main() { log("from stdin") }' | "$mty" run - >o 2>e; check stdin 0 $?
same stdin-out o "from stdin"
printf 'fn main() {\n  let x: = 1\n}\n' | "$mty" run - >o 2>e; check stdin-error 1 $?
contains stdin-error-name e "<stdin>:2:"

# log and eprint keep their order on one pipe (stdout is buffered, and
# flushed before each stderr write).
printf 'fn main() {\n  log("one")\n  eprint("two")\n  log("three")\n  eprint("four")\n}\n' >ord.mty
"$mty" run ord.mty 2>&1 | cat >o
same order-on-one-pipe o "$(printf 'one\ntwothree\nfour')"

# Usage: one line naming the word, then the command's usage line.
"$mty" rnu args.mty >o 2>e; check unknown-command 64 $?
contains unknown-command-text e "error: unknown command 'rnu'; did you mean 'run'?"
"$mty" run --alow-read=x args.mty >o 2>e; check unknown-flag 64 $?
same unknown-flag-text e "$(printf "error: unknown option '--alow-read'; did you mean '--allow-read'?\nusage: mty run [OPTIONS] FILE [--] [ARGS...]")"
for v in abc 1e3 -5 99999999999999999999999; do
  "$mty" run --steps "$v" args.mty >o 2>e; check "steps-$v" 64 $?
  [ "$(wc -l <e)" = 2 ] && ok "steps-$v-two-lines" || { bad "steps-$v-two-lines"; cat e; }
  contains "steps-$v-names-flag" e "error: --steps:"
done
"$mty" run --steps 1k --mailbox 1k args.mty >o 2>e; check units-both 0 $?
"$mty" dump --ast "$(dirname "$0")/../../examples/fib.mtyir" >o 2>e; check dump-ast-ir 64 $?
contains dump-ast-ir-text e "--ast needs Mighty source"
"$mty" help run >o 2>e; check help-run 0 $?
contains help-run-usage o "usage: mty run [OPTIONS] FILE [--] [ARGS...]"
contains help-run-allow o "--allow-read[=PATH,...]"
"$mty" run --help >o2 2>e; check run-help 0 $?
cmp -s o o2 && ok run-help-same || bad run-help-same
"$mty" help bogus >o 2>e; check help-bogus 64 $?

# --stats: one line of text, or one JSON object (parsed here) after the report.
cat >agents.mty <<'MTY'
agent Echo(id) {
    on Ping(n) -> n + id
}
fn main() -> I64 {
    let a = spawn Echo(1)
    let b = spawn Echo(2)
    log(format!("{}", a?Ping(1) + b?Ping(2)))
    0
}
MTY
"$mty" run --stats agents.mty >o 2>e; check stats-text 0 $?
same stats-text-out o "6"
contains stats-text-line e "mty: stats: "
contains stats-text-agents e " 2 agents"
"$mty" run --stats=json agents.mty >o 2>e; check stats-json 0 $?
python3 - e <<'PY' && ok stats-json-fields || bad stats-json-fields
import json, sys
j = json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])
assert j["outcome"] == "ok" and j["exit_code"] == 0, j
assert j["agents_spawned"] == 2 and j["steps"] > 0 and j["output_bytes"] == 2, j
assert j["heap_peak_bytes"] > 0 and j["memory_bytes"] > 0 and j["wall_ns"] > 0 and j["cpu_ns"] > 0, j
assert "breach" not in j, j
PY
"$mty" run --stats=json --steps 10 agents.mty >o 2>e; check stats-json-breach 3 $?
python3 - e <<'PY' && ok stats-json-breach-fields || bad stats-json-breach-fields
import json, sys
lines = open(sys.argv[1]).read().strip().splitlines()
assert lines[0].startswith("trap MT5009: step budget exceeded"), lines
j = json.loads(lines[-1])
assert j["outcome"] == "budget exceeded" and j["exit_code"] == 3, j
assert j["breach"] == {"limit": "steps", "sandbox": ""} and j["steps"] >= 10, j
PY
"$mty" run --stats=xml agents.mty >o 2>e; check stats-bad-format 64 $?
contains stats-bad-format-text e "error: --stats: expected text, json, got 'xml'"

# --error-format=json: one JSON object per diagnostic and line, with spans.
printf 'fn main() {\n    log(totl)\n    let s = foo(1)\n}\n' >bad.mty
"$mty" check --error-format=json bad.mty >o 2>e; check error-json 1 $?
python3 - e <<'PY' && ok error-json-fields || { bad error-json-fields; cat e; }
import json, sys
ds = [json.loads(l) for l in open(sys.argv[1]).read().splitlines()]
assert [d["code"] for d in ds] == ["MT1001", "MT1002"], ds
a = ds[0]
assert a["severity"] == "error" and a["file"] == "bad.mty" and (a["line"], a["column"]) == (2, 9), a
assert "totl" in a["message"], a
s = a["spans"][0]
assert s["primary"] and (s["line"], s["column"]) == (2, 9) and s["end_line"] >= 2, s
PY
"$mty" run --error-format json bad.mty >o 2>e; check error-json-run 1 $?
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' e && ok error-json-run-parses || bad error-json-run-parses
printf 'fn main() -> I64 {\n  ret 1\n}\n' >bad.mtyir
"$mty" check --error-format=json bad.mtyir >o 2>e; check error-json-ir 1 $?
python3 - e <<'PY' && ok error-json-ir-fields || { bad error-json-ir-fields; cat e; }
import json, sys
d = json.loads(open(sys.argv[1]).read())
assert d["file"] == "bad.mtyir" and d["line"] == 2 and d["code"] == "", d
PY
"$mty" check --error-format=xml bad.mty >o 2>e; check error-format-bad 64 $?

# --trace=json: one JSON line per event, parsed; --trace-file.
cat >ev.mty <<'MTY'
agent Worker(id) {
    n = 0
    on Boom() -> {
        let zero = 0
        n / zero
    }
    on Inc(by) -> {
        n += by
        n
    }
}
supervisor S(strategy: one_for_one) {
    child w = spawn Worker(1)
    on_fail(w) { restart up_to 3 in 30s }
}
fn main() -> I64 {
    let r = std.fs.read("/etc/hostname")
    let s = spawn S()
    let w = s.w
    w!Boom()
    w?Inc(2)
}
MTY
"$mty" run --trace=json -q ev.mty >o 2>e; check trace-json 2 $?
python3 - e <<'PY' && ok trace-json-events || { bad trace-json-events; cat e; }
import json, sys
evs = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
kinds = [e["event"] for e in evs]
assert kinds == ["denied", "effect", "spawned", "spawned", "agent_failed", "restarted",
                 "end"], kinds
d = evs[0]
assert (d["effect"], d["family"], d["target"], d["file"], d["line"]) == (
    "std.fs.read", "fs.read", "/etc/hostname", "ev.mty", 17), d
assert d["sandbox"] == "", d
# The call itself follows its denial (docs/cli.md, Trace).
c = evs[1]
assert (c["effect"], c["target"], c["allowed"], c["line"]) == (
    "std.fs.read", "/etc/hostname", False, 17), c
assert [e["agent"] for e in evs[2:4]] == ["S#1", "Worker#2"], evs[2:4]
f = evs[4]
assert f["agent"] == "Worker#2" and f["code"] == "MT5003", f
assert evs[-1] == {"event": "end", "outcome": "ok", "exit_code": 2}, evs[-1]
PY
"$mty" run --trace=json --trace-file tr.jsonl -q ev.mty >o 2>e; check trace-file 2 $?
python3 -c 'import json,sys; assert [json.loads(l)["event"] for l in open(sys.argv[1])][-1] == "end"' tr.jsonl \
  && ok trace-file-json || { bad trace-file-json; cat tr.jsonl; }
lacks trace-file-not-stderr e '"event"'
"$mty" run --trace --trace-file tr.txt -q ev.mty >o 2>e
contains trace-file-text tr.txt "trace: MT5015 denied std.fs.read /etc/hostname (fs.read)"
"$mty" run --trace=json --trace-file "$tmp/no/such/dir/t" ev.mty >o 2>e; check trace-file-unwritable 73 $?
contains trace-file-unwritable-text e "error: cannot write"

# Generated from the same table.
"$mty" completions bash >c.bash 2>e; check completions-bash 0 $?
bash -n c.bash && ok completions-bash-syntax || bad completions-bash-syntax
contains completions-bash-flag c.bash "--allow-read"
bash -c 'source c.bash; COMP_WORDS=(mty run --allow-r); COMP_CWORD=2; _mty; echo "${COMPREPLY[@]}"' >o 2>e
same completions-bash-complete o "--allow-read"
"$mty" completions zsh >c.zsh 2>e; check completions-zsh 0 $?
contains completions-zsh-flag c.zsh "#compdef mty"
if command -v zsh >/dev/null; then zsh -n c.zsh && ok completions-zsh-syntax || bad completions-zsh-syntax; fi
"$mty" completions fish >o 2>e; check completions-fish 64 $?
"$mty" man >mty.1 2>e; check man 0 $?
contains man-th mty.1 ".TH MTY 1"
contains man-flag mty.1 '\-\-allow\-read'
if command -v groff >/dev/null; then
  groff -man -Tutf8 -ww mty.1 >o 2>e && [ ! -s e ] && ok man-renders || { bad man-renders; cat e; }
fi

echo "$fails failure(s)"
[ "$fails" = 0 ]
