#!/usr/bin/env bash
# Narrower grants are resolved beneath the grant they narrow (runtime.md §3,
# docs/security.md "Resolution"), through the real binary: a sandbox, a
# nested sandbox, a budget block, an agent spawned in a sandbox, capability
# values (fs.ro, fs.path, an MtyIR `cap` literal) and a manifest under the
# command line's flags never reach what a symlink inside the parent's root
# points to outside it; a host root that is itself a symlink is followed
# once; a symlink loop is an io error, not a denial.
#
# usage: grants_test.sh path/to/mty
set -u
MTY="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
. "$(dirname "$0")/lib.sh"
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
cd "$W"

mkdir -p inputs/sub secret elsewhere out
echo ok >inputs/ok.txt
echo in >inputs/sub/in.txt
echo SECRET >secret/s.txt
echo ELSE >elsewhere/a.txt
ln -s ../secret/s.txt inputs/link.txt # a file link out of inputs
ln -s ../secret inputs/dirlink        # a directory link out of inputs
ln -s sub inputs/inlink               # a link that stays inside
ln -s loop inputs/loop                # a link to itself
ln -s elsewhere data                  # a host root that is a link
ln -s ../secret out/escape            # a directory link out of out
ln secret/s.txt inputs/hard           # a hard link: the same file, inside
ln -s hard inputs/tohard              # and an in-root symlink to it

run() { # run NAME FLAGS... -- PROGRAM_TEXT: stdout+stderr in $W/NAME.out, exit in $code
  local name="$1"
  shift
  local flags=()
  while [ "$1" != "--" ]; do
    flags+=("$1")
    shift
  done
  printf '%s\n' "$2" >"$name.mty"
  "$MTY" run -q "${flags[@]}" "$name.mty" >"$name.out" 2>&1
  code=$?
}

# 1. The issue's case: the sandbox names the link; outside the block the
# same read is forbidden, and inside it now too.
run file_link --allow-read inputs -- 'fn main() {
    log(std.fs.read("inputs/link.txt"));
    sandbox S with { fs.read = ["inputs/link.txt"] } { log(std.fs.read("inputs/link.txt")) }
}'
check file_link.exit 0 "$code"
same file_link.out file_link.out 'Err("forbidden: inputs/link.txt")
Err("forbidden: inputs/link.txt")'

# 2. A directory link: neither listed nor read through.
run dir_link --allow-read inputs -- 'fn main() {
    sandbox D with { fs.read = ["inputs/dirlink"] } {
        log(std.fs.list_dir("inputs/dirlink"));
        log(std.fs.read("inputs/dirlink/s.txt"));
        log(std.fs.exists("inputs/dirlink/s.txt"))
    }
}'
same dir_link.out dir_link.out 'Err("forbidden: inputs/dirlink")
Err("forbidden: inputs/dirlink/s.txt")
Err("forbidden: inputs/dirlink/s.txt")'

# 3. An agent spawned in the block reads with the block's grant.
run agent --allow-read inputs -- 'agent Reader {
    on Read(p: Str) -> Str { format!("{:?}", std.fs.read(p)) }
}
fn main() {
    sandbox D with { fs.read = ["inputs/dirlink"] } {
        let r = spawn Reader();
        log(r?Read("inputs/dirlink/s.txt"))
    }
}'
same agent.out agent.out 'Err("forbidden: inputs/dirlink/s.txt")'

# 4. Nested sandboxes and a budget block inside one.
run nested --allow-read inputs -- 'fn main() {
    sandbox Outer with { fs.read = ["inputs"] } {
        sandbox Inner with { fs.read = ["inputs/link.txt", "inputs/dirlink"] } {
            log(std.fs.read("inputs/link.txt"));
            log(std.fs.read("inputs/dirlink/s.txt"));
            budget { steps 100000 } run { log(std.fs.read("inputs/dirlink/s.txt")) }
        }
    }
}'
same nested.out nested.out 'Err("forbidden: inputs/link.txt")
Err("forbidden: inputs/dirlink/s.txt")
Err("forbidden: inputs/dirlink/s.txt")'

# 5. Capability values: narrowed beneath the run's grant when made.
run cap_values --allow-read inputs -- 'fn main(fs: Fs) {
    let a = fs.ro("inputs/link.txt");
    log(std.fs.read(a, "inputs/link.txt"));
    let b = fs.path("inputs/dirlink");
    log(std.fs.read(b, "inputs/dirlink/s.txt"));
    let c = fs.ro("inputs/sub");
    log(std.fs.read(c, "inputs/sub/in.txt"));
    log(std.fs.read(c, "inputs/ok.txt"))
}'
same cap_values.out cap_values.out 'Err("forbidden: inputs/link.txt")
Err("forbidden: inputs/dirlink/s.txt")
Ok("in\n")
Err("forbidden: inputs/ok.txt")'

# 6. The same through MtyIR: a `cap` literal is resolved when it is made.
cat >cap_literal.mtyir <<'EOF'
mtyir 1

fn main() -> Unit {
  let _1: Any
  let _2: Any
bb0:
  _1 = cap fs.read "inputs/link.txt"
  _2 = effect std.fs.read(copy _1, "inputs/link.txt")
  _0 = call @log(copy _2)
  _1 = cap fs.read "inputs/sub"
  _2 = effect std.fs.read(copy _1, "inputs/sub/in.txt")
  _0 = call @log(copy _2)
  return
}
EOF
"$MTY" run -q --allow-read inputs cap_literal.mtyir >cap_literal.out 2>&1
code=$?
check cap_literal.exit 0 "$code"
same cap_literal.out cap_literal.out 'Err("forbidden: inputs/link.txt")
Ok("in\n")'

# 7. A manifest narrows the command line's grant: resolved beneath it.
cat >m.toml <<'EOF'
[sandbox]
fs.read = ["inputs/link.txt", "inputs/dirlink", "inputs/sub"]
EOF
run manifest --allow-read inputs --manifest m.toml -- 'fn main() {
    log(std.fs.read("inputs/link.txt"));
    log(std.fs.read("inputs/dirlink/s.txt"));
    log(std.fs.read("inputs/sub/in.txt"))
}'
same manifest.out manifest.out 'Err("forbidden: inputs/link.txt")
Err("forbidden: inputs/dirlink/s.txt")
Ok("in\n")'

# 8. A host root that is itself a link is resolved once, when granted.
run host_link --allow-read=data -- 'fn main() {
    log(std.fs.read("data/a.txt"));
    log(std.fs.list_dir("data"));
    sandbox S with { fs.read = ["data"] } { log(std.fs.read("data/a.txt")) }
    log(std.fs.read("secret/s.txt"))
}'
same host_link.out host_link.out 'Ok("ELSE\n")
Ok(["a.txt"])
Ok("ELSE\n")
Err("forbidden: secret/s.txt")'

# 9. A link that stays inside still works beneath a sandbox; a loop is io.
run inside --allow-read inputs -- 'fn main() {
    sandbox S with { fs.read = ["inputs/inlink"] } {
        log(std.fs.read("inputs/inlink/in.txt"));
        log(std.fs.read("inputs/sub/in.txt"));
        log(std.fs.read("inputs/ok.txt"))
    }
    log(std.fs.read("inputs/loop"))
}'
same inside.out inside.out 'Ok("in\n")
Ok("in\n")
Err("forbidden: inputs/ok.txt")
Err("io: inputs/loop: Too many levels of symbolic links")'

# 10. Writing, appending and creating directories through a link: nothing
# is made outside.
run write_link --allow-write out -- 'fn main() {
    sandbox W with { fs.write = ["out/escape"] } {
        log(std.fs.write("out/escape/x.txt", "pwn"));
        log(std.fs.append("out/escape/s.txt", "pwn"));
        log(std.fs.create_dir_all("out/escape/d"))
    }
    log(std.fs.write("out/escape/y.txt", "pwn"));
    log(std.fs.create_dir_all("out/escape/e"))
}'
same write_link.out write_link.out 'Err("forbidden: out/escape/x.txt")
Err("forbidden: out/escape/s.txt")
Err("forbidden: out/escape/d")
Err("forbidden: out/escape/y.txt")
Err("forbidden: out/escape/e")'
if [ "$(ls secret)" = "s.txt" ] && [ "$(cat secret/s.txt)" = SECRET ]; then
  ok write_link.nothing_outside
else
  bad "write_link.nothing_outside: $(ls secret)"
fi

# 11. A hard link inside the root is the same file, inside the root (as
# documented), whether named directly or through an in-root symlink.
run hard_link --allow-read inputs -- 'fn main() {
    sandbox H with { fs.read = ["inputs/tohard"] } { log(std.fs.read("inputs/tohard")) }
}'
same hard_link.out hard_link.out 'Ok("SECRET\n")'

# 12. A directory swapped for a link out while a sandbox over it is open:
# the sandbox's root was resolved at entry and is opened with no symlink
# since, so the outside file is never read.
mkdir -p inputs/sw
echo inner >inputs/sw/s.txt
run swap --allow-read inputs -- 'fn main() {
    sandbox S with { fs.read = ["inputs/sw"] } {
        let mut seen = 0;
        let mut i = 0;
        while i < 3000 {
            match std.fs.read("inputs/sw/s.txt") {
                Ok(t) => { if t == "SECRET\n" { seen += 1 } }
                Err(_) => {}
            }
            i += 1
        }
        log(seen)
    }
}' &
pid=$!
(for _ in $(seq 1 400); do
  mv inputs/sw inputs/sw.real 2>/dev/null && ln -s ../secret inputs/sw
  rm -f inputs/sw && mv inputs/sw.real inputs/sw 2>/dev/null
done) &
swapper=$!
wait "$pid"
wait "$swapper"
same swap.out swap.out '0'

finish
