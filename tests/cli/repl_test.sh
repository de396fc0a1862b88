#!/usr/bin/env bash
# `mty repl` through the real binary (docs/cli.md, REPL): input from a pipe
# (no prompts, no editing), then through a pseudo-terminal (repl_pty.py:
# prompts, line editing, history, Ctrl-C, Ctrl-D).
set -u
mty="$1"
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$tmp"
export MTY_HISTORY=  # never write a history file
repl() { "$mty" repl "$@" >o 2>e; echo $? >rc; }

# ---- a pipe: each value on its own line, nothing else ----
printf '1+2\n' | repl
same pipe-value o '3'
same pipe-no-stderr e ''
same pipe-exit rc 0

# ---- bindings persist; mutation persists; a failed input changes nothing ----
cat >in <<'M'
let x = 5
let mut v = [1, 2]
v.push(x)
v
x * 10
let (a, mut b) = (3, "s")
b = "t"
(a, b)
v.push(100); panic("no")
v
let x = "shadowed"
x
let d = 150ms
d
let e = []
e.len()
M
repl <in
same bindings o '[1, 2, 5]
50
(3, "t")
[1, 2, 5]
"shadowed"
150ms
0'
contains failed-line-reported e 'trap MT5001: panic: no'
contains failed-line-exit-meaning e 'mty: `mty run` would exit 1; the session is unchanged'

# ---- items accumulate; typing one again replaces it ----
cat >in <<'M'
struct P { a: I64, b: Str }
impl P {
    fn twice(&self) -> I64 { self.a * 2 }
}
let p = P { a: 21, b: "hi" }
p.twice()
p.b
fn f(n: I64) -> I64 { n + 1 }
f(1)
fn f(n: I64) -> I64 { n + 100 }
f(1)
enum Shape { Circle(F64), Empty }
let s = Shape::Circle(2.0)
match s { Circle(r) => r * 2.0, Empty => 0.0 }
M
repl <in
same items o '42
"hi"
2
101
4.0'
same items-no-errors e ''

# ---- a type typed again: the bindings of the old one are dropped ----
printf 'struct P { a: I64 }\nlet p = P { a: 1 }\nlet q = [Some(p)]\nlet k = 3\nstruct P { b: Str }\nk\nP { b: "new" }\n' | repl
contains redefined-drops e '`p` is dropped: its value is of the old `P`'
contains redefined-drops-nested e '`q` is dropped'
same redefined-goes-on o '3
P { b: "new" }'

# ---- a stray `}` is an error of its own line, not the start of more ----
printf '}\n2\n' | repl
contains stray-brace e 'error['
same stray-brace-next o '2'

# ---- compile errors: rendered, located in what was typed ----
printf 'let q = 1\nq + nope\nq +\n  nope2\nq\n' | repl
contains compile-error-code e 'error[MT1001]'
contains compile-error-line1 e ' --> <repl>:1:5'
contains compile-error-line2 e ' --> <repl>:2:3'
contains compile-error-echo e '1 | q + nope'
same compile-error-goes-on o '1'
printf 'fn ok1() -> I64 { 1 }
fn bad() -> I64 {
  nope
}
bad()
ok1()
' | repl
contains item-error-line e ' --> <repl>:2:3'
contains item-not-added e 'MT1002'
same item-error-goes-on o '1'

# ---- ... on a later line of a multi-line input, also where the value's
# statement starts after a `;` (the line it shares is split) ----
printf 'let a = 1\nlet b = [2,\n  3]; a +\n  zz\nlet c = [1,\n  2]; c[0] +\n    c[5]\nlet d = [1,\n 2]; std.fs.read("x.txt")\n' | repl
contains later-line-error e ' --> <repl>:3:3'
contains later-line-echo e '3 |   zz'
contains later-line-trap e 'at __repl (<repl>:2:7)'
contains later-line-denial e 'denied std.fs.read("x.txt") at <repl>:2:6'
# The gutter is as wide as the line number shown (an item's line 2, not
# the line it is in the program the session compiles).
{ echo 'struct P { a: I64 }'
  for i in 1 2 3 4 5 6 7 8 9; do echo "fn f$i() -> I64 { $i }"; done
  printf 'fn get(p: P) -> I64 {\n  p.a\n}\nstruct P { b: Str }\n'; } | repl
grep -qx ' --> <repl>:2:5' e && ok gutter-width-arrow || { bad gutter-width-arrow; cat e; }
grep -qx '2 |   p.a' e && ok gutter-width-row || { bad gutter-width-row; cat e; }

# ---- traps, breaches (with what `mty run` would exit), and they go on ----
cat >in <<'M'
fn boom(x: I64) -> I64 {
  if x > 2 { panic("big") }
  x
}
let mut n = 1
n += 1; boom(n + 5)
n
let mut i = 0
loop { i += 1 }
i
1 / 0
M
repl --steps 10k <in
same trap-state-unchanged o '1
0'
contains trap-backtrace-item e 'at boom (<repl>:2:14)'
contains trap-backtrace-input e 'at __repl (<repl>:1:9)'
contains breach-steps e 'step budget exceeded: 10000 steps'
contains breach-exit e '`mty run` would exit 3'
contains div-zero e 'MT5003'
printf 'let mut v = [0]\nfor i in 0..10000 { v.push(i) }\nv.len()\n' | repl --memory 10KiB
contains breach-memory e '`mty run` would exit 4'
same breach-memory-unchanged o '1'

# ---- grants: the run flags, denial hints, --deny-is-trap ----
echo secret >data.txt
printf 'std.fs.read("data.txt")\n' | repl
contains denied-hint e 'mty: denied std.fs.read("data.txt") at <repl>:1:1; to allow it, run with --allow-read=data.txt'
contains denied-value o 'Err('
printf 'std.fs.read("data.txt")\n' | repl --allow-read=.
same allowed o 'Ok("secret\n")'
printf 'std.fs.read("data.txt")\n1\n' | repl --deny-is-trap -q
contains deny-is-trap e 'MT5015'
same deny-is-trap-goes-on o '1'
lacks quiet-no-hint e 'to allow it'
cat >m.toml <<'T'
[sandbox]
steps = 500
T
printf 'let mut i = 0\nwhile i < 1000 { i += 1 }\n' | repl --manifest m.toml
contains manifest-steps e 'step budget exceeded: 500 steps'

# ---- :type, :ir, :bytecode, :vars, :help, unknown commands ----
cat >in <<'M'
fn id[T](x: T) -> T { x }
let mut xs = [1]
:type 1 + 2
:type xs
:type 150ms
:type id("s")
:vars
:ir xs.len() * 7
:bytecode 6 * 7
:help
:frob
:type
M
repl <in
contains type-static o 'I64'
contains type-vec o '[I64]'
contains type-duration o 'Duration'
contains type-dynamic o 'Str  (of the value: the compiler cannot tell it statically)'
contains vars o 'mut xs: [I64]'
contains ir-fn o 'fn __repl('
contains ir-body o '* 7'
contains bytecode o 'mul'
contains help o ':type EXPR'
contains unknown-command e "unknown command ':frob'"
contains type-usage e 'usage: :type EXPR'
printf ':ir\nfn sq(n: I64) -> I64 { n * n }\n:ir\n' | repl
contains ir-items o 'fn sq('

# ---- values that cannot cross between inputs ----
printf 'let c = |z| z + 1\nc(1)\nlet k = 2\nk\n' | repl
contains closure-message e '`c` holds <closure'
contains closure-message-why e 'cannot be kept between inputs'
same closure-next o '2'

# ---- multi-line input from a pipe; an unfinished input at the end ----
printf '[1,\n2,\n3]\nfn g() -> I64 {\n  7\n}\ng()\n"two\nlines"\n' | repl
same multiline o '[1, 2, 3]
7
"two\nlines"'
printf 'let a = (1,\n' | repl
contains unfinished-at-end e 'error['
same unfinished-exit rc 0

# ---- SIGINT from outside (input from a pipe) interrupts the running input ----
mkfifo fin
"$mty" repl --wall 20s <fin >o 2>e &
pid=$!
exec 4>fin
echo 'loop { }' >&4
sleep 0.7
kill -INT $pid
sleep 0.3
echo '7' >&4
exec 4>&-
wait $pid; echo $? >rc
contains sigint-pipe e 'interrupted (Ctrl-C); the session goes on'
same sigint-pipe-goes-on o '7'
same sigint-pipe-exit rc 0

# ---- a line longer than any program is skipped, the next one runs ----
{ head -c 17000000 /dev/zero | tr '\0' 'a'; printf '\n1+1\n'; } | repl
contains long-line e 'mty: an input line over 16777216 bytes: skipped'
same long-line-next o '2'

# ---- :quit ends the session; the lines after it are not read ----
printf '1\n:quit\n2\n' | repl
same quit o '1'

# ---- the option table: repl takes run's limit and grant flags ----
"$mty" repl --help >o 2>&1
contains help-steps o '--steps'
contains help-allow-read o '--allow-read'
"$mty" repl --steps abc </dev/null >o 2>e; c=$?
[ $c = 64 ] && ok usage-exit-64 || bad "usage-exit-64 (got $c)"
contains usage-message e '--steps'
"$mty" --help >o
contains top-help-lists-repl o 'repl'

# ---- a pseudo-terminal ----
if python3 "$here/repl_pty.py" "$mty" "$tmp"; then ok pty; else bad pty; fi

[ $fails = 0 ] && echo "all repl tests passed" || echo "$fails repl test(s) failed"
[ $fails = 0 ]
