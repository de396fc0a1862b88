// The front end on a 1 MB program (issue 32: the type checker is fast and
// bounded): parsing alone, parsing + the item tables + the type checker, and
// the whole compile (lowering and the verifier too). The checker's own time
// is the second minus the first. Run build/bench/frontend_bench by hand;
// peak RSS: `/usr/bin/time -v build/mty check` on the same text
// (bench/gen_typed_program.py writes it).
#include <benchmark/benchmark.h>

#include <string>

#include "lower_internal.h"
#include "mty/frontend/lower.h"
#include "mty/frontend/parser.h"
#include "typeck.h"

namespace {

// About `bytes` of typed Mighty: per block a struct, a trait impl, an enum
// and a generic function with closures, a map and an exhaustive match.
std::string Program(size_t bytes) {
  std::string s = "trait Area { fn area(self) -> F64 }\n";
  for (int i = 0; s.size() < bytes; ++i) {
    const std::string n = std::to_string(i);
    s += "struct S" + n + " { a: I64, b: Str, c: Vec[I64] }\n";
    s += "impl Area for S" + n + " { fn area(self) -> F64 { self.a as F64 * 2.0 } }\n";
    s += "enum E" + n + " { A(I64), B(Str), C }\n";
    s += "fn f" + n + "[T: Area](x: T, s: S" + n + ", e: E" + n + ") -> I64 {\n";
    s += "    let v = s.c.map(|n| n * 2).filter(|n| n > 3)\n";
    s += "    let mut m = Map.new()\n    m.insert(s.b, v.len())\n";
    s += "    let k = match e {\n        E" + n + "::A(n) => n + 1,\n        E" + n +
         "::B(t) => t.len(),\n        E" + n + "::C => 0,\n    }\n";
    s += "    if x.area() > 1.0 { k + s.a } else { m.len() }\n}\n";
  }
  return s + "fn main() {\n    log(1)\n}\n";
}

const mty::frontend::SourceFile& File() {
  static const mty::frontend::SourceFile f{"big.mty", Program(1 << 20)};
  return f;
}

void BM_Parse(benchmark::State& state) {
  for (auto _ : state) {
    mty::frontend::Diagnostics d;
    mty::frontend::Module m = mty::frontend::Parse(File(), d);
    benchmark::DoNotOptimize(m.items.size());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * File().text.size()));
}

void BM_ParseAndCheck(benchmark::State& state) {
  for (auto _ : state) {
    mty::frontend::Diagnostics d;
    mty::frontend::Module m = mty::frontend::Parse(File(), d);
    mty::frontend::Globals g(d);
    g.Collect(m);
    mty::frontend::tc::TypeInfo info;
    mty::frontend::Diagnostics checked;
    mty::frontend::tc::Check(m, g, info, checked);
    if (checked.HasErrors()) state.SkipWithError("the program does not type-check");
    benchmark::DoNotOptimize(info.types.size());
    state.counters["type_nodes"] = static_cast<double>(info.types.size());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * File().text.size()));
}

void BM_Compile(benchmark::State& state) {
  for (auto _ : state) {
    mty::frontend::Diagnostics d;
    auto p = mty::frontend::CompileSource(File(), d);
    if (d.HasErrors()) state.SkipWithError("the program does not compile");
    benchmark::DoNotOptimize(p.functions.size());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * File().text.size()));
}

BENCHMARK(BM_Parse)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseAndCheck)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Compile)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
