#!/usr/bin/env bash
# Rules with one home (docs/architecture.md, "One home per rule") stay so:
# no trap-code string literal outside vocab/include/mty/vocab/traps.def, and no
# builtin, method or effect name compared in the interpreter or the hosts
# (they dispatch on the ids of ir/include/mty/ir/builtins.def), and no UTF-8
# byte mask outside ir/utf8.h (the one decoder), and no memory-estimate size
# outside interp/include/mty/interp/cost.h, and no capability family or type
# name outside the tables.
set -u
root="$1"
cd "$root" || exit 1
fail=0
product="vocab ir frontend interp runtime stdlib driver src include"
# Code only: comments (after //) may name a code.
code_grep() {
  find $product -name '*.cc' -o -name '*.h' -o -name '*.def' | sort |
    xargs perl -ne 's{//.*}{}; print "$ARGV:$.: $_" if /'"$1"'/; close ARGV if eof'
}
traps=$(code_grep '"MT5[0-9]{3}' | grep -v '^vocab/include/mty/vocab/traps.def:' || true)
if [ -n "$traps" ]; then
  echo "trap-code literals outside traps.def:"; echo "$traps"; fail=1
fi
names=$(product="interp/src stdlib/src runtime/src" code_grep '(name|path|op) == "' || true)
if [ -n "$names" ]; then
  echo "name comparisons in the interpreter or the hosts:"; echo "$names"; fail=1
fi
# UTF-8 is decoded by ir/utf8.h alone: no continuation-byte mask elsewhere.
masks=$(code_grep '&\s*0x(C0|c0|3F|3f)\b' | grep -v '^vocab/include/mty/vocab/utf8.h:\|^vocab/src/utf8.cc:' || true)
if [ -n "$masks" ]; then
  echo "UTF-8 byte masks outside ir/utf8.h (use ir::DecodeUtf8 / ir::StartsScalar):"; echo "$masks"; fail=1
fi
# Memory-estimate sizes are named in interp/include/mty/interp/cost.h alone:
# no header, slot or entry size written as a number where estimates are made.
sizes=$(product="interp stdlib/src runtime/src src" code_grep '(\best\s*[+-]?=[^;]*\b(8|16|24|48|64)\b|(Charge|CHARGE_MEM|Fits)\([^;]*\b(16|24|48|64)\b)' |
  grep -v '^interp/include/mty/interp/cost.h:' || true)
if [ -n "$sizes" ]; then
  echo "memory-estimate sizes outside mty/interp/cost.h (use the cost:: names):"; echo "$sizes"; fail=1
fi
# Capability families and type names come from the CAPABILITY rows of
# vocab/include/mty/vocab/policy.def (and the effect and capability-method rows
# of builtins.def that name them): none is spelled as a literal elsewhere.
caps=$(product="vocab ir frontend interp runtime stdlib driver src include cluster" code_grep '"(fs|fs\.read|fs\.write|net|env|Fs|Net|Env|Clock)"' |
  grep -v '^vocab/include/mty/vocab/policy.def:\|^ir/include/mty/ir/builtins.def:' || true)
if [ -n "$caps" ]; then
  echo "capability families or types spelled outside the tables (use ir::FindCapFamily / ir::FindCapType):"; echo "$caps"; fail=1
fi
[ "$fail" = 0 ] && echo "one home: ok"
exit $fail
