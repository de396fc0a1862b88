#!/usr/bin/env python3
"""Writes the typed Mighty program bench/frontend_bench.cc compiles (about
1 MiB by default; the size in bytes as the first argument) to stdout, for
`/usr/bin/time -v build/mty check` (the front end's peak RSS)."""
import sys

size = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 20
s = ["trait Area { fn area(self) -> F64 }\n"]
total = len(s[0])
i = 0
while total < size:
    n = str(i)
    block = (
        f"struct S{n} {{ a: I64, b: Str, c: Vec[I64] }}\n"
        f"impl Area for S{n} {{ fn area(self) -> F64 {{ self.a as F64 * 2.0 }} }}\n"
        f"enum E{n} {{ A(I64), B(Str), C }}\n"
        f"fn f{n}[T: Area](x: T, s: S{n}, e: E{n}) -> I64 {{\n"
        "    let v = s.c.map(|n| n * 2).filter(|n| n > 3)\n"
        "    let mut m = Map.new()\n    m.insert(s.b, v.len())\n"
        f"    let k = match e {{\n        E{n}::A(n) => n + 1,\n        E{n}::B(t) => t.len(),\n"
        f"        E{n}::C => 0,\n    }}\n"
        "    if x.area() > 1.0 { k + s.a } else { m.len() }\n}\n"
    )
    s.append(block)
    total += len(block)
    i += 1
s.append("fn main() {\n    log(1)\n}\n")
sys.stdout.write("".join(s))
