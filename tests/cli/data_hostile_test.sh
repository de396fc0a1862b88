#!/usr/bin/env bash
# Hostile inputs for the data-type forms (issue #16, docs/language.md §2-§3),
# through the real binary and the IR round trip: a 10 000-field tuple
# struct, 3 000-deep struct-like variants / tuple structs / `[x; n]` (a
# located MT0007, no crash), 200-deep ones (run, and round-trip), and
# `[0; 1 << 40]` under a small --memory (MT5009 quickly, little real memory).
set -u
mty="$1"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$tmp"
n=10000
{
  printf 'struct Big(%s)\n' "$(yes I64 | head -n $n | paste -sd, - | sed 's/,/, /g')"
  printf 'fn main() {\n    let b = Big(%s)\n' "$(seq 0 $((n - 1)) | paste -sd, - | sed 's/,/, /g')"
  printf '    log(b.%d)\n' $((n - 1))
  printf '    let Big(%slast) = b\n' "$(yes '_, ' | head -n $((n - 1)) | tr -d '\n')"
  printf '    log(last)\n    log(format!("{:?}", b).len())\n}\n'
} >big.mty
# The Debug form's length: "Big(" + the numbers joined by ", " + ")".
digits=0
for ((i = 0; i < n; i++)); do digits=$((digits + ${#i})); done
want_len=$((4 + digits + 2 * (n - 1) + 1))
timeout 20 "$mty" run big.mty >big.out 2>big.err
check "10000-field tuple struct: exit" 0 $?
check "10000-field tuple struct: output" "$(printf '%d\n%d\n%d' $((n - 1)) $((n - 1)) $want_len)" "$(cat big.out)"
timeout 20 "$mty" dump --ir big.mty >big.mtyir 2>/dev/null && timeout 20 "$mty" run big.mtyir >big_ir.out 2>&1
check "10000-field tuple struct: IR round trip" "$(printf '%d\n%d\n%d' $((n - 1)) $((n - 1)) $want_len)" "$(cat big_ir.out)"

deep() {  # deep N: a program nesting each form N levels
  local d="$1" i
  {
    echo 'enum T { Leaf, Node { l: T } }'
    echo 'struct W[A](A)'
    echo 'fn depth(t: T) -> I64 { match t { T.Node { l } => 1 + depth(l), T.Leaf => 0 } }'
    echo 'fn main() {'
    printf '    let t = '; for ((i = 0; i < d; i++)); do printf 'T.Node { l: '; done
    printf 'T.Leaf'; for ((i = 0; i < d; i++)); do printf ' }'; done; echo
    echo '    log(depth(t))'
    printf '    let w = '; for ((i = 0; i < d; i++)); do printf 'W('; done
    printf '7'; for ((i = 0; i < d; i++)); do printf ')'; done; echo
    printf '    let '; for ((i = 0; i < d; i++)); do printf 'W('; done
    printf 'x'; for ((i = 0; i < d; i++)); do printf ')'; done; echo ' = w'
    echo '    log(x)'
    printf '    let a = '; for ((i = 0; i < d; i++)); do printf '['; done
    printf '0'; for ((i = 0; i < d; i++)); do printf '; 2]'; done; echo
    echo '    log(a.len())'
    echo '}'
  } >"deep$d.mty"
}
deep 200
timeout 20 "$mty" run deep200.mty >deep200.out 2>deep200.err
check "200-deep forms: exit" 0 $?
check "200-deep forms: output" "$(printf '200\n7\n2')" "$(cat deep200.out)"
timeout 20 "$mty" dump --ir deep200.mty >deep200.mtyir 2>/dev/null && timeout 20 "$mty" run deep200.mtyir >deep200_ir.out 2>&1
check "200-deep forms: IR round trip" "$(printf '200\n7\n2')" "$(cat deep200_ir.out)"
deep 3000
timeout 20 "$mty" run deep3000.mty >deep3000.out 2>deep3000.err
check "3000-deep forms: exit" 1 $?
contains "3000-deep forms: located MT0007" deep3000.err "error[MT0007]: nesting too deep"
contains "3000-deep forms: location" deep3000.err "deep3000.mty:5:"

cat >huge.mty <<'MTY'
fn main() {
    let v = [0; 1 << 40]
    log(v.len())
}
MTY
start=$(date +%s%N)
timeout 20 "$mty" run --memory 1MiB huge.mty >huge.out 2>huge.err
code=$?
ms=$((($(date +%s%N) - start) / 1000000))
check "[0; 1 << 40] under --memory 1MiB: exit" 4 $code
contains "[0; 1 << 40] under --memory 1MiB: MT5009" huge.err "trap MT5009: memory budget exceeded"
if [ "$ms" -lt 5000 ]; then ok "[0; 1 << 40]: stops in ${ms}ms"; else bad "[0; 1 << 40]: took ${ms}ms"; fi
timeout 20 "$mty" run --steps 10000 huge.mty >huge2.out 2>huge2.err
check "[0; 1 << 40] under --steps 10000: exit" 3 $?
contains "[0; 1 << 40] under --steps 10000: MT5009" huge2.err "trap MT5009: step budget exceeded"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "all passed"
