// Benchmarks of whole MtyIR programs through the public embedding API.
//
// Each program in bench/programs is parsed and compiled once, then run once
// per iteration with budgets off (`budgets:0`) and with a step and a memory
// budget on (`budgets:1`), large enough never to trip, so the pair shows
// what the accounting costs. Program output is discarded (no stdout sink).
//
//   build/bench/mty_bench --benchmark_repetitions=3
//       --benchmark_report_aggregates_only=true   (one command line)
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "mty/mty.h"

namespace {

#ifndef MTY_BENCH_PROGRAMS
#error "MTY_BENCH_PROGRAMS must name the bench/programs directory"
#endif

// Budgets for the `budgets:1` runs: finite, but far above what any workload
// uses (the largest, alloc, takes ~2e7 steps and ~1e8 estimated bytes).
constexpr uint64_t kStepBudget = uint64_t{1} << 40;
constexpr uint64_t kMemoryBudget = uint64_t{16} << 30;  // 16 GiB

std::shared_ptr<const mty::Program> Load(const std::string& name) {
  static std::map<std::string, std::shared_ptr<const mty::Program>> cache;
  auto it = cache.find(name);
  if (it != cache.end()) return it->second;
  std::string path = std::string(MTY_BENCH_PROGRAMS) + "/" + name + ".mtyir";
  std::ifstream in(path);
  if (!in) return nullptr;
  std::stringstream ss;
  ss << in.rdbuf();
  auto p = mty::Program::FromIrText(ss.str(), path);
  if (!p.ok()) return nullptr;
  cache[name] = *p;
  return *p;
}

void RunProgram(benchmark::State& state, const char* name) {
  auto program = Load(name);
  if (!program) {
    state.SkipWithError("cannot load or compile the program");
    return;
  }
  mty::RunOptions opts;  // no on_stdout / on_stderr: output is discarded
  if (state.range(0) != 0) {
    opts.policy.limits.Set(mty::LimitId::kSteps, kStepBudget);
    opts.policy.limits.Set(mty::LimitId::kMemory, kMemoryBudget);
  }
  // One untimed run first, so neither mode pays for the first heap growth.
  mty::RunResult last = program->Run(opts);
  if (last.outcome != mty::Outcome::kOk) {
    state.SkipWithError(last.Report().c_str());
    return;
  }
  for (auto _ : state) {
    last = program->Run(opts);
    if (last.outcome != mty::Outcome::kOk) {
      state.SkipWithError(last.Report().c_str());
      return;
    }
    benchmark::DoNotOptimize(last.value);
  }
  if (state.range(0) != 0) {
    state.counters["steps"] = static_cast<double>(last.steps_used);
    state.counters["mem_bytes"] = static_cast<double>(last.mem_used);
  }
}

void BM_Fib(benchmark::State& s) { RunProgram(s, "fib"); }        // fib(27)
void BM_Loop(benchmark::State& s) { RunProgram(s, "loop"); }      // sum of 0..1e7
void BM_Alloc(benchmark::State& s) { RunProgram(s, "alloc"); }    // 1e6 tuples
void BM_Str(benchmark::State& s) { RunProgram(s, "str"); }        // 1e5 strings, join
void BM_Method(benchmark::State& s) { RunProgram(s, "method"); }  // 1e6 method calls

#define MTY_BENCH(fn) \
  BENCHMARK(fn)->ArgName("budgets")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)

MTY_BENCH(BM_Fib);
MTY_BENCH(BM_Loop);
MTY_BENCH(BM_Alloc);
MTY_BENCH(BM_Str);
MTY_BENCH(BM_Method);

// ---- wall/CPU fences ----

// A guest spinning in pure computation under a 20 ms wall budget: the
// reported (manual) time per iteration is how long after its deadline the
// run stopped. 20 repetitions; read the median.
constexpr int64_t kSpinWallNs = 20'000'000;
const char* kSpin = R"(mtyir 1
fn main() -> I64 {
  let mut _1: I64
bb0:
  _1 = 0
  goto bb1
bb1:
  _1 = copy _1 + 1
  goto bb1
}
)";

void BM_WallStopLatency(benchmark::State& state) {
  auto program = mty::Program::FromIrText(kSpin, "spin.mtyir");
  if (!program.ok()) {
    state.SkipWithError("spin program does not compile");
    return;
  }
  mty::RunOptions opts;
  opts.policy.limits.Set(mty::LimitId::kWall, kSpinWallNs);
  for (auto _ : state) {
    auto t0 = std::chrono::steady_clock::now();
    mty::RunResult r = (*program)->Run(opts);
    auto elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r.exit_code != 5) {
      state.SkipWithError(r.Report().c_str());
      return;
    }
    state.SetIterationTime(std::max(0.0, elapsed - kSpinWallNs / 1e9));
  }
}
BENCHMARK(BM_WallStopLatency)
    ->UseManualTime()
    ->Iterations(1)
    ->Repetitions(20)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond);

// The cost of the fence on a short run: the same tiny program without a
// wall budget (no watchdog thread) and with one (the thread starts, then
// stops when the run ends).
const char* kShort = R"(mtyir 1
fn main() -> I64 {
  let mut _1: I64
bb0:
  _1 = 40 + 2
  _0 = copy _1
  return
}
)";

void BM_ShortRun(benchmark::State& state) {
  auto program = mty::Program::FromIrText(kShort, "short.mtyir");
  if (!program.ok()) {
    state.SkipWithError("short program does not compile");
    return;
  }
  mty::RunOptions opts;
  if (state.range(0) != 0) opts.policy.limits.Set(mty::LimitId::kWall, 10'000'000'000);
  for (auto _ : state) {
    mty::RunResult r = (*program)->Run(opts);
    benchmark::DoNotOptimize(r.exit_code);
  }
}
BENCHMARK(BM_ShortRun)->ArgName("wall")->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// ---- agents ----

std::shared_ptr<const mty::Program> Source(const char* text) {
  auto p = mty::Program::FromSource(text, "agents.mty");
  return p.ok() ? *p : nullptr;
}

// Message round trip: main asks an echo agent 10 000 times.
void BM_AgentRoundTrip(benchmark::State& state) {
  auto program = Source(R"(agent Echo {
    on Say(x) -> x
}
fn main() {
    let e = spawn Echo()
    let mut i = 0
    while i < 10000 {
        i = e?Say(i) + 1
    }
}
)");
  if (!program) return state.SkipWithError("does not compile");
  mty::RunOptions opts;
  for (auto _ : state) {
    mty::RunResult r = program->Run(opts);
    if (r.exit_code != 0) return state.SkipWithError(r.Report().c_str());
  }
  state.SetItemsProcessed(state.iterations() * 10000);  // items/s = round trips per second
}
BENCHMARK(BM_AgentRoundTrip)->Unit(benchmark::kMillisecond);

// Spawn cost and memory per idle agent: 100 000 agents in one run. The
// allocator's in-use bytes are read when the program logs (all agents
// alive), against the value before the run.
void BM_Spawn100k(benchmark::State& state) {
  auto program = Source(R"(agent Idle {
    n = 0
    on Get() -> n
}
fn main() {
    let mut all = []
    let mut i = 0
    while i < 100000 {
        all.push(spawn Idle())
        i += 1
    }
    log(all.len())
}
)");
  if (!program) return state.SkipWithError("does not compile");
  double bytes_per_agent = 0;
  for (auto _ : state) {
    size_t before = mallinfo2().uordblks;
    size_t at_log = 0;
    mty::RunOptions opts;
    opts.on_stdout = [&](std::string_view) { at_log = mallinfo2().uordblks; };
    mty::RunResult r = program->Run(opts);
    if (r.exit_code != 0) return state.SkipWithError(r.Report().c_str());
    bytes_per_agent = (static_cast<double>(at_log) - static_cast<double>(before)) / 100000.0;
  }
  state.SetItemsProcessed(state.iterations() * 100000);  // items/s = spawns per second
  state.counters["bytes_per_idle_agent"] = bytes_per_agent;
}
BENCHMARK(BM_Spawn100k)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace

// Nanoseconds per step over the adversarial work corpus (tests/work_corpus,
// runtime.md §2 "Steps measure work"): each program runs under a budget of
// 2M steps until it breaches, and wall time / steps is its cost of a step.
// The worst and the median over the corpus are what a step budget bounds:
// a run's CPU time is at most about worst x its step budget.
void BM_WorkCorpus(benchmark::State& state) {
  constexpr uint64_t kSteps = 2'000'000;
  std::vector<std::pair<std::string, std::shared_ptr<const mty::Program>>> corpus;
  for (const auto& e : std::filesystem::directory_iterator(MTY_WORK_CORPUS)) {
    if (e.path().extension() != ".mty") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    auto p = mty::Program::FromSource(ss.str(), e.path().filename().string());
    if (!p.ok()) {
      state.SkipWithError(std::string(p.status().message()).c_str());
      return;
    }
    corpus.emplace_back(e.path().stem().string(), *p);
  }
  std::sort(corpus.begin(), corpus.end());
  std::map<std::string, double> best;  // the fastest of the iterations, per program
  for (auto _ : state) {
    for (auto& [name, program] : corpus) {
      mty::RunOptions opts;
      opts.policy.limits.Set(mty::LimitId::kSteps, kSteps);
      auto start = std::chrono::steady_clock::now();
      mty::RunResult r = program->Run(opts);
      double ns = static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                          std::chrono::steady_clock::now() - start)
                                          .count());
      double per_step = ns / static_cast<double>(std::max<uint64_t>(r.steps_used, 1));
      auto it = best.find(name);
      if (it == best.end() || per_step < it->second) best[name] = per_step;
    }
  }
  std::vector<double> v;
  std::string worst_name;
  double worst = 0;
  for (auto& [name, ns] : best) {
    v.push_back(ns);
    state.counters["ns_per_step:" + name] = ns;
    if (ns > worst) worst = ns, worst_name = name;
  }
  std::sort(v.begin(), v.end());
  state.counters["worst_ns_per_step"] = worst;
  state.counters["median_ns_per_step"] = v.empty() ? 0 : v[v.size() / 2];
  state.SetLabel("worst: " + worst_name);
}
BENCHMARK(BM_WorkCorpus)->Unit(benchmark::kSecond)->Iterations(3);

// ---- host functions (docs/embedding.md) ----

// 10 000 calls of a host function from a loop: the cost of one call
// (arguments and result converted, grant checked, charged), sync and async
// (arg 1: the promise is resolved inside the call, so the task still
// parks and resumes through the scheduler).
void BM_HostCall(benchmark::State& state) {
  mty::Linker linker;
  const mty::HostSignature sig{{mty::Type::Int()}, mty::Type::Int()};
  absl::Status defined =
      state.range(0) == 0
          ? linker.Define("host.b.inc", "b", sig,
                          [](mty::HostCall& c) -> absl::StatusOr<mty::Value> {
                            return mty::Value::Int(c.args()[0].as_int() + 1);
                          })
          : linker.DefineAsync("host.b.inc", "b", sig, [](mty::HostCall& c, mty::HostPromise p) {
              p.Resolve(mty::Value::Int(c.args()[0].as_int() + 1));
            });
  if (!defined.ok()) return state.SkipWithError("define failed");
  mty::CompileOptions co;
  co.linker = &linker;
  auto program = mty::Program::FromSource(R"(fn main() -> I64 {
    let mut i = 0
    while i < 10000 {
        i = host.b.inc(i)
    }
    i
}
)",
                                          "host.mty", co);
  if (!program.ok()) return state.SkipWithError("does not compile");
  mty::RunOptions opts;
  opts.policy.grants.Set(mty::GrantId::kHost, std::vector<std::string>{"b"});
  for (auto _ : state) {
    mty::RunResult r = (*program)->Run(opts);
    if (r.outcome != mty::Outcome::kOk) return state.SkipWithError(r.Report().c_str());
  }
  state.SetItemsProcessed(state.iterations() * 10000);  // items/s = host calls per second
}
BENCHMARK(BM_HostCall)->ArgName("async")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// A tiny source program run with a step and memory budget and one host
// call, its value returned typed: what an embedder pays per job.
void BM_TinyRunWithHostCall(benchmark::State& state) {
  mty::Linker linker;
  if (!linker
           .Define("host.b.get", "b", {{mty::Type::Str()}, mty::Type::Option(mty::Type::Str())},
                   [](mty::HostCall& c) -> absl::StatusOr<mty::Value> {
                     return mty::Value::Some(c.args()[0]);
                   })
           .ok())
    return state.SkipWithError("define failed");
  mty::CompileOptions co;
  co.linker = &linker;
  auto program = mty::Program::FromSource(
      "fn main() -> Str {\n  host.b.get(\"k\").unwrap_or(\"\")\n}\n", "tiny.mty", co);
  if (!program.ok()) return state.SkipWithError("does not compile");
  mty::RunOptions opts;
  opts.policy.grants.Set(mty::GrantId::kHost, std::vector<std::string>{"b"});
  opts.policy.limits.Set(mty::LimitId::kSteps, 100000);
  opts.policy.limits.Set(mty::LimitId::kMemory, 1 << 20);
  for (auto _ : state) {
    mty::RunResult r = (*program)->Run(opts);
    if (!r.returned) return state.SkipWithError(r.Report().c_str());
    benchmark::DoNotOptimize(r.returned->as_str().size());
  }
}
BENCHMARK(BM_TinyRunWithHostCall)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
