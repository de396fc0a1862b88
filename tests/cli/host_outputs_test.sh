#!/usr/bin/env bash
# What mty itself writes, through the real binary (docs/cli.md, "Host
# outputs"; issue 31 items 4-6): --trace-file and --record are opened
# without waiting and only as regular files, before anything runs (exit
# 73); every write and the final flush are checked (exit 74, the file
# named); stdout that cannot be written ends the run (MT5023, exit 74); a
# reader that goes away ends it quietly (MT5024, exit 141, never SIGPIPE);
# a file-size limit is an Err for the program and exit 74 for mty's own
# files, never SIGXFSZ; and a forged recording cannot make `mty replay`
# show a file it names.
set -u
mty="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$tmp"

# A program whose run leaves a trace: a file and a line on stdout.
cat >w.mty <<'MTY'
fn main() {
    let _ = std.fs.write("ran.txt", "x")
    log("ran")
}
MTY
# Runs mty with a 5 s bound (a FIFO used to block open() forever).
run() { timeout 5 "$mty" "$@"; }
# nothing-ran NAME: neither the file nor the line of w.mty.
nothing_ran() {
  if [ ! -e ran.txt ] && [ ! -s o ]; then ok "$1"; else bad "$1: the program ran"; rm -f ran.txt; fi
}

# ---- Files that are not regular files: refused at once, nothing runs ---------

mkfifo fifo
run run --allow-write --trace-file fifo w.mty >o 2>e; check trace-file-fifo 73 $?
contains trace-file-fifo-says e "error: cannot write fifo: a FIFO, not a regular file"
nothing_ran trace-file-fifo-nothing-ran
run run --allow-write --record fifo w.mty >o 2>e; check record-fifo 73 $?
contains record-fifo-says e "error: cannot write fifo: a FIFO, not a regular file"
nothing_ran record-fifo-nothing-ran
run run --allow-write --trace --trace-file /dev/full w.mty >o 2>e; check trace-file-dev-full 73 $?
contains trace-file-dev-full-says e "error: cannot write /dev/full: a character device, not a regular file"
nothing_ran trace-file-dev-full-nothing-ran
run run --allow-write --record /dev/full w.mty >o 2>e; check record-dev-full 73 $?
nothing_ran record-dev-full-nothing-ran
# Not in the issue's list: a symlink to /dev/full, a directory, /dev/null,
# the program itself, the manifest, one file for both.
ln -s /dev/full full.jsonl
run run --allow-write --record full.jsonl w.mty >o 2>e; check record-symlink-to-dev-full 73 $?
contains record-symlink-says e "error: cannot write full.jsonl: a character device, not a regular file"
nothing_ran record-symlink-nothing-ran
mkdir adir
run run --allow-write --trace-file adir w.mty >o 2>e; check trace-file-directory 73 $?
contains trace-file-directory-says e "error: cannot write adir: a directory, not a regular file"
nothing_ran trace-file-directory-nothing-ran
run run --allow-write --record /dev/null w.mty >o 2>e; check record-dev-null 73 $?
cp w.mty keep.mty
run run --allow-write --record w.mty w.mty >o 2>e; check record-over-program 73 $?
contains record-over-program-says e "error: cannot write w.mty: the same file as w.mty (the program)"
identical record-over-program-intact keep.mty w.mty
nothing_ran record-over-program-nothing-ran
printf '[sandbox]\nfs.write = ["."]\n' >app.toml
run run --allow-write --manifest app.toml --trace-file app.toml w.mty >o 2>e
check trace-file-over-manifest 73 $?
contains trace-file-over-manifest-says e "the same file as app.toml (the manifest)"
run run --allow-write --trace --trace-file both.txt --record both.txt w.mty >o 2>e
check trace-and-record-one-file 73 $?
contains trace-and-record-one-file-says e "the same file as both.txt (the trace file)"
nothing_ran trace-and-record-one-file-nothing-ran

# ---- The run's stdout ---------------------------------------------------------

cat >loop.mty <<'MTY'
fn main() {
    let mut i = 0
    while i < 200000 {
        log(i)
        i += 1
    }
    eprint("finished\n")
}
MTY
run run loop.mty >/dev/full 2>e; check stdout-dev-full 74 $?
contains stdout-dev-full-says e "trap MT5023: cannot write stdout: No space left on device"
lacks stdout-dev-full-stopped e "finished"
# A short output fails at the final flush: still not exit 0.
echo 'fn main() { log("hi") }' >hi.mty
run run hi.mty >/dev/full 2>e; check stdout-dev-full-final-flush 74 $?
contains stdout-dev-full-final-flush-says e "trap MT5023: cannot write stdout: No space left on device"
# stderr too (eprint).
echo 'fn main() { eprint("oops\n") }' >ehi.mty
run run ehi.mty 2>/dev/full; check stderr-dev-full 74 $?
# Not in the list: stdout closed. The trace file (opened later) used to
# become descriptor 1 and take the program's output; now every write to
# the closed stdout fails.
run run --trace=json --trace-file tr.jsonl hi.mty >&- 2>e; check stdout-closed 74 $?
contains stdout-closed-says e "trap MT5023: cannot write stdout: Bad file descriptor"
lacks stdout-closed-trace-clean tr.jsonl "hi"
# A reader that goes away (`| head -1`): exit 141 and no report, by a clean
# exit, not by SIGPIPE (the trace's end line is written).
python3 - "$mty" <<'PY' && ok stdout-epipe || bad stdout-epipe
import json, subprocess, sys
p = subprocess.Popen([sys.argv[1], "run", "--trace=json", "--trace-file", "ep.jsonl", "loop.mty"],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
p.stdout.readline()
p.stdout.close()
err = p.stderr.read()
rc = p.wait(timeout=10)
assert rc == 141, rc  # -13 would be death by SIGPIPE
assert err == b"", err
end = json.loads(open("ep.jsonl").read().splitlines()[-1])
assert (end["event"], end["exit_code"], end["code"]) == ("end", 141, "MT5024"), end
PY
(set -o pipefail; run run loop.mty 2>e | head -1 >/dev/null); check stdout-epipe-pipefail 141 $?
empty stdout-epipe-quiet e
# mty's own stdout (help, dump): its final flush is checked too.
run dump --ir hi.mty >/dev/full 2>e; check dump-dev-full 74 $?
contains dump-dev-full-says e "error: cannot write stdout: No space left on device"
run --help >/dev/full 2>e; check help-dev-full 74 $?
# A pipe whose reader is gone before mty writes: EPIPE for certain.
python3 - "$mty" <<'PY' && ok man-epipe || bad man-epipe
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run([sys.argv[1], "man"], stdout=w, stderr=subprocess.PIPE, timeout=10)
assert p.returncode == 141, p.returncode
assert p.stderr == b"", p.stderr
PY

# ---- The trace on stderr, and write failures in the middle -------------------

cat >eff.mty <<'MTY'
fn main() {
    let mut i = 0
    while i < 3000 {
        let _ = std.env.var("HOME")
        i += 1
    }
    log("finished")
}
MTY
run run --allow-env --trace eff.mty >o 2>/dev/full; check trace-stderr-dev-full 74 $?
lacks trace-stderr-dev-full-stopped o "finished"
# A file-size limit (8 KiB): the trace and the recording fail in the middle,
# named; the trace failure stops the run where it was.
(ulimit -f 8; run run --allow-env --trace=json --trace-file big.jsonl eff.mty >o 2>e)
check trace-file-too-large 74 $?
contains trace-file-too-large-says e "error: cannot write big.jsonl: File too large"
contains trace-file-too-large-where e "  at main (eff.mty:"
lacks trace-file-too-large-stopped o "finished"
(ulimit -f 8; run run --allow-env --record big2.jsonl eff.mty >o 2>e)
check record-too-large 74 $?
contains record-too-large-says e "error: cannot write big2.jsonl: File too large"
(ulimit -f 8; run run loop.mty >big.out 2>e); check stdout-too-large 74 $?
contains stdout-too-large-says e "trap MT5023: cannot write stdout: File too large"

# ---- SIGXFSZ: the program's write past the limit is an Err -------------------

cat >xfsz.mty <<'MTY'
fn main() {
    log(std.fs.write("big.txt", "x".repeat(100000)))
    log("still here")
}
MTY
(ulimit -f 8; run run --allow-write xfsz.mty >o 2>e); check xfsz-exit 0 $?
same xfsz-err o 'Err("io: big.txt: File too large")
still here'

# ---- mty replay: a forged recording quotes nothing ---------------------------

cat >p.mty <<'MTY'
fn main() {
    log(std.fs.read("in.txt"))
}
MTY
echo hi >in.txt
run run --allow-read=in.txt --record rec.jsonl p.mty >o 2>e; check replay-record 0 $?
mkdir secret
printf 'TOPSECRET password=hunter2\n' >secret/s.txt
sed 's|"file":"p.mty"|"file":"secret/s.txt"|' rec.jsonl >forged.jsonl
run replay forged.jsonl >o 2>e; check replay-forged-secret 65 $?
lacks replay-forged-secret-quotes-nothing e "TOPSECRET"
lacks replay-forged-secret-no-password e "hunter2"
contains replay-forged-secret-says e "error: forged.jsonl names the program secret/s.txt, which does not compile"
run replay --error-format=json forged.jsonl >o 2>e; check replay-forged-json 65 $?
lacks replay-forged-json-quotes-nothing e "TOPSECRET"
sed 's|"file":"p.mty"|"file":"/etc/passwd"|' rec.jsonl >forged2.jsonl
run replay forged2.jsonl >o 2>e; check replay-forged-etc-passwd 65 $?
lacks replay-forged-etc-passwd-quotes-nothing e "root"
# Not in the list: a Mighty program that is not the recorded one (it would
# print its own secret), and a name with terminal escapes.
printf 'fn main() {\n    log("the other program ran")\n}\n' >other.mty
sed 's|"file":"p.mty"|"file":"other.mty"|' rec.jsonl >forged3.jsonl
run replay forged3.jsonl >o 2>e; check replay-forged-other-program 65 $?
contains replay-forged-other-program-says e "which is not the recorded program (it changed since the recording)"
empty replay-forged-other-program-ran-nothing o
sed 's|"file":"p.mty"|"file":"\\u001b[2Jx.mty"|' rec.jsonl >forged4.jsonl
run replay forged4.jsonl >o 2>e; check replay-forged-escape 66 $?
contains replay-forged-escape-printable e 'names the program \x1b[2Jx.mty, which cannot be read'
# The recorded program itself still replays alone; a program named still
# runs (and diverges where it differs).
run replay rec.jsonl >o 2>e; check replay-recorded-program 0 $?
same replay-recorded-program-output o 'Ok("hi\n")'
run replay forged.jsonl p.mty >o 2>e; check replay-named-program 0 $?
# A replay whose stdout refuses a write: the output failure, not a divergence.
run replay rec.jsonl >/dev/full 2>e; check replay-stdout-dev-full 74 $?
contains replay-stdout-dev-full-says e "trap MT5023: cannot write stdout: No space left on device"
lacks replay-stdout-dev-full-no-divergence e "diverged"
finish
