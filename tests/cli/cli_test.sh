#!/usr/bin/env bash
# The mty command line contract: --help, --version, usage errors exit 64 with
# a usage line, unreadable input exits 66, dump --bytecode / --ir, and
# `dump --ir` output runs with identical results.
set -u
mty="$1"
src="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
fib="$src/../examples/fib.mtyir"

"$mty" --help >"$tmp/o" 2>&1; check help 0 $?
contains help-text "$tmp/o" "run"
"$mty" --version >"$tmp/o" 2>&1; check version 0 $?
contains version-text "$tmp/o" "mty 0.1.0"
"$mty" >"$tmp/o" 2>&1; check no-subcommand 64 $?
contains no-subcommand-usage "$tmp/o" "usage: mty COMMAND"
"$mty" run --bogus "$fib" >"$tmp/o" 2>&1; check bad-flag 64 $?
contains bad-flag-usage "$tmp/o" "usage: mty run"
"$mty" run --steps notanumber "$fib" >"$tmp/o" 2>&1; check bad-steps 64 $?
"$mty" run --memory 12XB "$fib" >"$tmp/o" 2>&1; check bad-memory 64 $?
contains bad-memory-usage "$tmp/o" "usage: mty run"
"$mty" run "$tmp/does-not-exist.mtyir" >"$tmp/o" 2>&1; check missing-file 66 $?
contains missing-file-text "$tmp/o" "cannot read"
# Inputs that are not regular files, or too large, are never read (exit 66):
# `mty run /dev/zero` used to read until std::bad_alloc.
"$mty" run /dev/zero >"$tmp/o" 2>&1; check program-device 66 $?
contains program-device-text "$tmp/o" "error: cannot read /dev/zero: not a regular file"
mkdir "$tmp/adir.mty"
"$mty" run "$tmp/adir.mty" >"$tmp/o" 2>&1; check program-directory 66 $?
contains program-directory-text "$tmp/o" "adir.mty: Is a directory"
mkfifo "$tmp/fifo.mty"
timeout 5 "$mty" run "$tmp/fifo.mty" >"$tmp/o" 2>&1; check program-fifo 66 $?
truncate -s 17M "$tmp/huge.mty"
"$mty" run "$tmp/huge.mty" >"$tmp/o" 2>&1; check program-too-large 66 $?
contains program-too-large-text "$tmp/o" "huge.mty: larger than the limit of 16MiB"
"$mty" run --manifest "$tmp/adir.mty" "$fib" >"$tmp/o" 2>&1; check manifest-directory 66 $?
contains manifest-directory-text "$tmp/o" "cannot read manifest file: Is a directory"
# A dotted key of 50 000 parts overflowed toml++'s stack (SIGSEGV).
{ printf 'a'; for _ in $(seq 50000); do printf '.a'; done; echo ' = 1'; } >"$tmp/deep.toml"
"$mty" run --manifest "$tmp/deep.toml" "$fib" >"$tmp/o" 2>&1; check manifest-deep-key 65 $?
contains manifest-deep-key-text "$tmp/o" "deep.toml:1:128: error: a key of more than 64 dotted parts"
{ for _ in $(seq 100); do printf '['; done; echo; } >"$tmp/nest.toml"
"$mty" run --manifest "$tmp/nest.toml" "$fib" >"$tmp/o" 2>&1; check manifest-nesting 65 $?
contains manifest-nesting-text "$tmp/o" "nesting deeper than 64 levels"
"$mty" run "$fib" >"$tmp/o" 2>&1; check run-fib 0 $?
contains run-fib-output "$tmp/o" "fib(15) = 610"
"$mty" run --steps 50 "$fib" >"$tmp/o" 2>"$tmp/e"; check run-fib-steps 3 $?
contains run-fib-steps-text "$tmp/e" "trap MT5009: step budget exceeded: 50 steps"
"$mty" run --memory 100B --steps 1000000 "$fib" >"$tmp/o" 2>&1; check run-fib-mem 4 $?
"$mty" dump --bytecode "$fib" >"$tmp/o" 2>&1; check dump-bytecode 0 $?
contains dump-bytecode-text "$tmp/o" "call r"
"$mty" dump "$fib" >"$tmp/o" 2>&1; check dump-needs-kind 64 $?
# dump --ir round trip: the printed IR runs with identical output and exit code.
"$mty" dump --ir "$fib" >"$tmp/fib2.mtyir" 2>&1; check dump-ir 0 $?
"$mty" run "$fib" >"$tmp/a" 2>&1; a=$?
"$mty" run "$tmp/fib2.mtyir" >"$tmp/b" 2>&1; b=$?
check dump-ir-rerun "$a" "$b"
if cmp -s "$tmp/a" "$tmp/b"; then echo "ok   dump-ir-same-output"; else echo "FAIL dump-ir-same-output"; fails=$((fails + 1)); fi
"$mty" dump --ir "$tmp/fib2.mtyir" >"$tmp/fib3.mtyir"
if cmp -s "$tmp/fib2.mtyir" "$tmp/fib3.mtyir"; then echo "ok   dump-ir-fixpoint"; else echo "FAIL dump-ir-fixpoint"; fails=$((fails + 1)); fi
printf 'fn main() -> Unit {\nbb0:\n  goto bb4\n}\n' >"$tmp/bad.mtyir"
(cd "$tmp" && "$mty" run bad.mtyir >o 2>&1); check verify-error 1 $?
contains verify-error-text "$tmp/o" "bad.mtyir:3:3: error: in fn main: block bb4 does not exist"
# ---- sandboxes and manifests: mty check --manifest, mty caps, budget flags ----
cat >"$tmp/readenv.mty" <<'EOF'
fn main() {
    let a = std.fs.read("data/in.txt")
    let h = std.env.var("HOME")
    log(a)
    log(h)
}
EOF
printf '[sandbox]\nfs.read = ["data"]\n' >"$tmp/read_only.toml"
printf '[sandbox]\nfs.read = ["data"]\nenv = ["HOME"]\n' >"$tmp/read_env.toml"
printf '[sandbox]\nfs.read = ["elsewhere"]\nenv = ["HOME"]\n' >"$tmp/read_elsewhere.toml"
printf '[sandbox]\nfs.read = ["data"]\nwall = 5\n' >"$tmp/bad_wall.toml"
printf '[sandbox]\nstepz = 10\n' >"$tmp/bad_key.toml"
# Only fs.read granted: the env call is reported with its location, exit 1.
(cd "$tmp" && "$mty" check --manifest read_only.toml readenv.mty >o 2>e); check check-manifest-missing-env 1 $?
contains check-manifest-missing-env-text "$tmp/e" "readenv.mty:3:5: error: std.env.var needs env, which the manifest does not grant"
contains check-manifest-missing-env-count "$tmp/e" "error: 1 effect(s) not granted by read_only.toml"
lacks check-manifest-read-granted "$tmp/e" "std.fs.read"
empty check-manifest-missing-env-stdout "$tmp/o"
# Both granted: nothing to report.
(cd "$tmp" && "$mty" check --manifest read_env.toml readenv.mty >o 2>e); check check-manifest-granted 0 $?
empty check-manifest-granted-stderr "$tmp/e"
# A literal path outside the granted list.
(cd "$tmp" && "$mty" check --manifest read_elsewhere.toml readenv.mty >o 2>e); check check-manifest-outside 1 $?
contains check-manifest-outside-text "$tmp/e" "readenv.mty:2:5: error: std.fs.read(\"data/in.txt\"): data/in.txt is outside the manifest's fs.read list"
# Without --manifest, check only compiles.
(cd "$tmp" && "$mty" check readenv.mty >o 2>e); check check-no-manifest 0 $?
# Malformed manifests: exit 65 naming the file, position and key; unreadable: 66.
(cd "$tmp" && "$mty" check --manifest bad_wall.toml readenv.mty >o 2>e); check check-manifest-bad-wall 65 $?
contains check-manifest-bad-wall-text "$tmp/e" 'bad_wall.toml:3:8: error: manifest key `sandbox.wall`'
(cd "$tmp" && "$mty" check --manifest bad_key.toml readenv.mty >o 2>e); check check-manifest-bad-key 65 $?
contains check-manifest-bad-key-text "$tmp/e" 'bad_key.toml:2:1: error: unknown manifest key `sandbox.stepz`'
(cd "$tmp" && "$mty" check --manifest nothere.toml readenv.mty >o 2>e); check check-manifest-missing-file 66 $?
(cd "$tmp" && "$mty" run --manifest bad_wall.toml readenv.mty >o 2>e); check run-manifest-bad-wall 65 $?
empty run-manifest-bad-wall-nothing-runs "$tmp/o"

# mty caps: each family with its literals, or (computed at run time).
cat >"$tmp/caps.mty" <<'EOF'
fn main() {
    let a = std.fs.read("data/in.txt")
    let p = "data/" + "x.txt"
    let _b = std.fs.read(p)
    let _c = std.net.get("https://api.example.com/v1")
    let _d = std.env.var("HOME")
    let _t = std.time.now()
    log(a)
}
EOF
cat >"$tmp/caps.want" <<'EOF'
fs.read:
  data/in.txt  std.fs.read at caps.mty:2:5
  (computed at run time)  std.fs.read at caps.mty:4:5
net:
  https://api.example.com/v1  std.net.get at caps.mty:5:5
env:
  HOME  std.env.var at caps.mty:6:5
EOF
(cd "$tmp" && "$mty" caps caps.mty >o 2>e); check caps 0 $?
identical caps-output "$tmp/caps.want" "$tmp/o"
empty caps-stderr "$tmp/e"
printf 'fn main() {\n    log(std.time.now().is_ok())\n}\n' >"$tmp/pure.mty"
(cd "$tmp" && "$mty" caps pure.mty >o 2>e); check caps-none 0 $?
echo "no effects: this program touches no file, host or environment variable" >"$tmp/pure.want"
identical caps-none-output "$tmp/pure.want" "$tmp/o"
"$mty" caps >"$tmp/o" 2>&1; check caps-needs-file 64 $?
"$mty" caps "$tmp/does-not-exist.mty" >"$tmp/o" 2>&1; check caps-missing-file 66 $?

# Budget flags: bad values are usage errors (exit 64) and nothing runs. A
# limit of 0 is a limit (it allows nothing), written as everywhere else.
"$mty" run --cpu 0s "$fib" >"$tmp/o" 2>&1; check cpu-zero 6 $?
contains cpu-zero-text "$tmp/o" "trap MT5009: cpu budget exceeded: 0ns"
"$mty" run --steps 0 "$fib" >"$tmp/o" 2>&1; check steps-zero 3 $?
contains steps-zero-text "$tmp/o" "trap MT5009: step budget exceeded: 0 steps"
lacks steps-zero-nothing-runs "$tmp/o" "fib(15)"
# Counts take the decimal multipliers everywhere (flags, manifests, source).
"$mty" run --steps 1k "$fib" >"$tmp/o" 2>&1; check steps-1k 3 $?
contains steps-1k-text "$tmp/o" "step budget exceeded: 1000 steps"
"$mty" run --mailbox 1KiB "$fib" >"$tmp/o" 2>&1; check mailbox-kib 64 $?
contains mailbox-kib-text "$tmp/o" 'error: --mailbox: `mailbox`: malformed quantity '"'"'1KiB'"'"': a count such as 1000 or 10k takes k M G'
"$mty" run --cpu bogus "$fib" >"$tmp/o" 2>&1; check cpu-bogus 64 $?
contains cpu-bogus-text "$tmp/o" "error: --cpu:"
lacks cpu-bogus-nothing-runs "$tmp/o" "fib(15)"
"$mty" run --wall 0s "$fib" >"$tmp/o" 2>&1; check wall-zero 5 $?
"$mty" run --mailbox 0 "$fib" >"$tmp/o" 2>&1; check mailbox-zero 64 $?
contains mailbox-zero-text "$tmp/o" 'error: --mailbox: `mailbox` must be at least 1'
"$mty" run --mailbox lots "$fib" >"$tmp/o" 2>&1; check mailbox-bogus 64 $?
"$mty" run --mb-policy maybe "$fib" >"$tmp/o" 2>&1; check mb-policy-bad 64 $?
contains mb-policy-bad-usage "$tmp/o" "usage: mty run"
lacks mb-policy-bad-nothing-runs "$tmp/o" "fib(15)"
# Numbers beyond their range are usage errors naming the flag, for every
# unit (2^62 is the largest limit; 2^64 + 1 must not wrap to 1).
for spec in "steps 99999999999999999999" "steps 18446744073709551617" "steps 4611686018427387905" \
            "spawned 99999999999999999999k" "mailbox 9999999999999G" "depth 18446744073709551616" \
            "memory 99999999999TiB" "memory 16777216TiB" "output 18446744073709551617B" \
            "wall 999999999999h" "cpu 18446744073709551615ns" "wall 5124096h"; do
  flag="${spec%% *}"; value="${spec#* }"
  "$mty" run "--$flag" "$value" "$fib" >"$tmp/o" 2>&1; check "range-$flag-$value" 64 $?
  contains "range-$flag-$value-text" "$tmp/o" "error: --$flag: \`$flag\`: "
  contains "range-$flag-$value-why" "$tmp/o" "'$value' is out of range"
  lacks "range-$flag-$value-nothing-runs" "$tmp/o" "fib(15)"
done
"$mty" run --steps=99999999999999999999 "$fib" >"$tmp/o" 2>&1; check range-steps-equals 64 $?
contains range-steps-equals-text "$tmp/o" "error: --steps:"
"$mty" run --steps 4611686018427387904 "$fib" >"$tmp/o" 2>&1; check range-steps-max 0 $?
# A manifest integer TOML cannot hold names its key.
printf '[sandbox]\nsteps = 99999999999999999999\n' >"$tmp/big.toml"
"$mty" run --manifest "$tmp/big.toml" "$fib" >"$tmp/o" 2>&1; check manifest-int-range 65 $?
contains manifest-int-range-text "$tmp/o" "big.toml:2:9: error: manifest key \`sandbox.steps\`: \`steps\` is out of range"
# Good values run normally.
"$mty" run --cpu 10s --wall 10s --mailbox 16 --spawned 2 --mb-policy fail "$fib" >"$tmp/o" 2>&1; check budget-flags-ok 0 $?
contains budget-flags-ok-output "$tmp/o" "fib(15) = 610"
# libcurl is loaded at the first network use, not at start-up: a program
# without one never loads it; one that parses a URL does (LD_DEBUG=files
# lists every library the dynamic loader opens).
printf 'fn main() {\n    log("hi")\n}\n' >"$tmp/nonet.mty"
LD_DEBUG=files "$mty" run "$tmp/nonet.mty" >"$tmp/o" 2>&1; check lazy-curl-none 0 $?
lacks lazy-curl-none-not-loaded "$tmp/o" "libcurl"
printf 'fn main() {\n    log(std.net.get("http://127.0.0.1:9/").is_ok())\n}\n' >"$tmp/net.mty"
LD_DEBUG=files "$mty" run --allow-net 127.0.0.1 --wall 5s "$tmp/net.mty" >"$tmp/o" 2>&1
check lazy-curl-used 0 $?
contains lazy-curl-used-loaded "$tmp/o" "libcurl.so.4"
contains lazy-curl-used-result "$tmp/o" "false"
echo "$fails failed"
[ "$fails" -eq 0 ]
