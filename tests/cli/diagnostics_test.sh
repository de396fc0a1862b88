#!/usr/bin/env bash
# Compile diagnostics through the real binary (docs/cli.md, Diagnostics):
# full spans and labels for the syntax errors of issue #15 (an unclosed
# `if {`, a missing `)`, `if x = 3`, an unknown loop label), warnings (printed, exit
# 0, --deny-warnings makes them errors), colour (--color=always|never|auto,
# NO_COLOR, a terminal through script(1)) and --error-format=json with
# severity, spans and labels.
set -u
mty="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
esc=$'\x1b['

cd "$tmp"
cat >unclosed.mty <<'MTY'
fn main() {
    let x = 3
    if x > 2 {
        log("big")
    log("done")
}
MTY
cat >paren.mty <<'MTY'
fn main() {
    let x = max(1, (2 + 3)
    log(x)
}
MTY
cat >assign.mty <<'MTY'
fn main() {
    let x = 3
    if x = 3 {
        log("three")
    }
}
MTY
cat >label.mty <<'MTY'
fn main() {
    'outer: for i in 0..3 {
        break 'outr
    }
}
MTY
cat >warn.mty <<'MTY'
fn main() {
    if (1 < 2) {
        log("ran")
    }
}
MTY

# An unclosed `if {`: at the end of the file, the opener and the
# mis-indented pair labelled (not "at `fn main() {`" alone).
"$mty" check unclosed.mty 2>e; check unclosed-exit 1 $?
contains unclosed-message e "error[MT0012]: this file contains an unclosed delimiter"
contains unclosed-at-eof e " --> unclosed.mty:6:2"
contains unclosed-opener e "  |           - unclosed delimiter"
contains unclosed-culprit e "  |              - this delimiter might not be properly closed..."
contains unclosed-closer e "...as it matches this but it has different indentation"

# A missing `)`: the error names its opener with a label, the found token
# underlined whole.
"$mty" check paren.mty 2>e; check paren-exit 1 $?
contains paren-message e "error[MT0001]: expected ')', found 'log'"
contains paren-label e "  |                - unclosed delimiter"
contains paren-span e "  |     ^^^"

# `if x = 3`: a clear error with help, not an assignment to an immutable.
"$mty" check assign.mty 2>e; check assign-exit 1 $?
contains assign-message e "error[MT0018]: expected a condition after \`if\`, found an assignment"
contains assign-span e "  |        ^^^^^ an assignment, not a comparison"
contains assign-help e "  = help: use \`==\` to compare"
lacks assign-not-mt3014 e "MT3014"

# Loop labels: an unknown one is located with a suggestion, no character
# literal error.
"$mty" check label.mty 2>e; check label-exit 1 $?
contains label-message e "error[MT1030]: use of undeclared label \`'outr\`"
contains label-span e "  |               ^^^^^"
contains label-help e "did you mean \`'outer\`?"
lacks label-not-char e "character literal"
contains label-count e "error: aborting due to 1 previous error"

# Warnings: printed, the program still compiles and runs (exit 0).
"$mty" check warn.mty 2>e; check warn-check-exit 0 $?
contains warn-header e "warning[MT0040]: unnecessary parentheses around \`if\` condition"
contains warn-summary e "warning: 1 warning emitted"
"$mty" run warn.mty >o 2>e; check warn-run-exit 0 $?
contains warn-run-output o "ran"
contains warn-run-stderr e "warning[MT0040]"
# --deny-warnings: they are errors (exit 1), on check, run and dump.
"$mty" check --deny-warnings warn.mty 2>e; check deny-check-exit 1 $?
contains deny-error e "error[MT0040]: unnecessary parentheses"
contains deny-note e "= note: warnings are denied"
contains deny-summary e "error: aborting due to 1 previous error"
"$mty" run --deny-warnings warn.mty >o 2>e; check deny-run-exit 1 $?
lacks deny-run-nothing-ran o "ran"
"$mty" dump --ast --deny-warnings warn.mty >o 2>e; check deny-dump-exit 1 $?

# Colour: never when piped (the default auto), with NO_COLOR, or --color=never;
# always with --color=always, also over NO_COLOR.
"$mty" check paren.mty 2>e
lacks color-auto-piped e "$esc"
"$mty" check --color=never paren.mty 2>e
lacks color-never e "$esc"
"$mty" check --color=always paren.mty 2>e
contains color-always-error e "${esc}1;91merror[MT0001]"
contains color-always-gutter e "${esc}1;94m  |"
NO_COLOR=1 "$mty" check --color=always paren.mty 2>e
contains color-always-beats-no-color e "${esc}1;91merror"
"$mty" check --color=always warn.mty 2>e
contains color-warning e "${esc}1;93mwarning[MT0040]"
"$mty" check --color=sometimes paren.mty 2>e; check color-bad-value 64 $?
# On a terminal (script(1) gives the command one): colour unless NO_COLOR
# is set and not empty, or TERM is dumb.
if command -v script >/dev/null; then
  TERM=xterm script -qec "\"$mty\" check paren.mty" /dev/null >t 2>&1
  contains color-auto-tty t "${esc}1;91merror[MT0001]"
  NO_COLOR=1 TERM=xterm script -qec "\"$mty\" check paren.mty" /dev/null >t 2>&1
  lacks color-auto-tty-no-color t "$esc"
  NO_COLOR= TERM=xterm script -qec "\"$mty\" check paren.mty" /dev/null >t 2>&1
  contains color-auto-tty-empty-no-color t "${esc}1;91merror"
  TERM=dumb script -qec "\"$mty\" check paren.mty" /dev/null >t 2>&1
  lacks color-auto-tty-dumb t "$esc"
else
  echo "skip color-auto-tty: no script(1)"
fi

# --error-format=json: severity, the primary span's real end, labels as
# further spans with their messages; warnings too (exit 0).
"$mty" check --error-format=json unclosed.mty 2>e; check json-exit 1 $?
if python3 - e <<'PY'; then ok json-spans-labels; else bad json-spans-labels; cat e; fi
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, lines
d = json.loads(lines[0])
assert d["severity"] == "error" and d["code"] == "MT0012", d
spans = d["spans"]
assert spans[0]["primary"] and (spans[0]["line"], spans[0]["column"]) == (6, 2), spans
labels = [(s["line"], s["column"], s["label"]) for s in spans[1:]]
assert all(not s["primary"] for s in spans[1:]), spans
assert labels[0] == (1, 11, "unclosed delimiter"), labels
assert labels[1][:2] == (3, 14) and "might not be properly closed" in labels[1][2], labels
assert d["notes"] == ["help: add the missing '}'"], d
PY
"$mty" check --error-format=json assign.mty 2>e
if python3 - e <<'PY'; then ok json-primary-span; else bad json-primary-span; cat e; fi
import json, sys
d = json.loads(open(sys.argv[1]).read().splitlines()[0])
p = d["spans"][0]
assert (p["line"], p["column"], p["end_line"], p["end_column"]) == (3, 8, 3, 12), p
assert p["label"] == "an assignment, not a comparison", p
PY
"$mty" check --error-format=json warn.mty 2>e; check json-warning-exit 0 $?
if python3 - e <<'PY'; then ok json-warning; else bad json-warning; cat e; fi
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, lines
d = json.loads(lines[0])
assert d["severity"] == "warning" and d["code"] == "MT0040", d
assert [s["column"] for s in d["spans"]] == [8, 14], d
PY
"$mty" dump --ast --error-format=json paren.mty 2>e; check json-dump-exit 1 $?
if python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' e; then
  ok json-dump-ast
else
  bad json-dump-ast
  cat e
fi

# The options are in each compiling command's help.
for c in run check caps dump; do
  "$mty" help "$c" >h
  contains "help-$c-color" h "--color"
  contains "help-$c-deny" h "--deny-warnings"
done

if [ "$fails" -ne 0 ]; then
  echo "$fails failure(s)"
  exit 1
fi
echo "all passed"
