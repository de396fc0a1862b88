// The embedding boundary under hostile shapes (docs/embedding.md): a null
// program, a returned value that cannot cross (too deep, too large as a
// copy, not of the entry's declared result type), host-built values nested
// a million levels deep, the moving builders, and the usage figures
// (mem_used counted without a limit, steps_used on a step breach).
#include <chrono>
#include <cmath>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "mty/mty.h"

namespace {

using mty::HostCall;
using mty::Outcome;
using mty::TrapCode;
using mty::Type;
using mty::Value;
using namespace std::chrono_literals;

std::shared_ptr<const mty::Program> Compile(const std::string& src,
                                            const mty::Linker* linker = nullptr) {
  mty::CompileOptions o;
  o.linker = linker;
  auto p = mty::Program::FromSource(src, "t.mty", o);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : nullptr;
}

// ---- A null program ---------------------------------------------------------

TEST(NullProgram, RunnerIsInvalidNotACrash) {
  mty::Runner r(nullptr, {});
  r.Interrupt();  // no state to interrupt: nothing happens
  mty::RunResult res = r.Run();
  EXPECT_EQ(res.outcome, Outcome::kInvalid);
  EXPECT_EQ(res.message, "program: null (no compiled Program)");
  EXPECT_EQ(res.exit_code, 64);
  EXPECT_EQ(res.ToStatus().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(res.returned);
  // Again: still the same answer.
  EXPECT_EQ(r.Run().outcome, Outcome::kInvalid);
  // Interrupted from another thread while it is "running".
  mty::Runner r2(nullptr, {});
  std::thread t([&] { r2.Interrupt(); });
  EXPECT_EQ(r2.Run().outcome, Outcome::kInvalid);
  t.join();
}

// Not in the issue: a HostCall the host builds itself (to test a host
// function outside a run) has a null Impl; its accessors dereferenced it.
TEST(NullProgram, HostCallWithoutARunHasNoBudgetAndNoSinks) {
  HostCall call("host.kv.get", {Value::Str("k")}, nullptr, 3, 7);
  EXPECT_EQ(call.function(), "host.kv.get");
  EXPECT_FALSE(call.steps_left());
  EXPECT_FALSE(call.memory_left());
  EXPECT_FALSE(call.wall_left());
  EXPECT_FALSE(call.interrupted());
  EXPECT_FALSE(call.Stdout("x"));
  EXPECT_FALSE(call.Stderr("x"));
  EXPECT_EQ(call.line(), 3);
}

// ---- The returned value -------------------------------------------------------

constexpr char kChain[] = R"(enum Chain { End, Link(Chain) }
fn main(n: I64) -> Chain {
  let mut v = Chain::End
  let mut i = 0
  while i < n { v = Chain::Link(v); i += 1 }
  v
}
)";

TEST(Returned, NestedDeeperThan512LevelsIsATypedTrap) {
  auto p = Compile(kChain);
  ASSERT_TRUE(p);
  // 512 levels below the top: crosses (a Value 512 deep).
  mty::RunResult ok = p->Run("main", {Value::Int(512)});
  ASSERT_EQ(ok.outcome, Outcome::kOk) << ok.Report();
  ASSERT_TRUE(ok.returned);
  const Value* v = &*ok.returned;
  int depth = 0;
  while (v->is_variant("Chain", "Link")) {
    v = &v->items()[0];
    ++depth;
  }
  EXPECT_EQ(depth, 512);
  EXPECT_TRUE(v->is_variant("Chain", "End"));
  // One more: a trap with a message, not kOk with nothing returned.
  mty::RunResult deep = p->Run("main", {Value::Int(513)});
  EXPECT_EQ(deep.outcome, Outcome::kTrap);
  EXPECT_EQ(deep.code, TrapCode::kType);
  EXPECT_EQ(deep.message, "fn main returned a value nested deeper than 512 levels");
  EXPECT_FALSE(deep.returned);
  EXPECT_EQ(deep.value, "");
  EXPECT_EQ(deep.exit_code, 1);
  EXPECT_EQ(deep.ToStatus().code(), absl::StatusCode::kAborted);
  EXPECT_EQ(deep.Report(), "trap MT5016: fn main returned a value nested deeper than 512 levels\n");
  // A million levels: the same, quickly (no recursion per level).
  auto t0 = std::chrono::steady_clock::now();
  mty::RunResult million = p->Run("main", {Value::Int(1'000'000)});
  EXPECT_EQ(million.outcome, Outcome::kTrap);
  EXPECT_EQ(million.code, TrapCode::kType);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 20s);
}

constexpr char kShared[] = R"(fn main() -> [I64] {
  let mut v: Any = [1]
  let mut i = 0
  while i < 40 { v = [v, v]; i += 1 }
  v
}
)";

TEST(Returned, SharedStructureTooLargeAsACopyIsAMemoryBreach) {
  auto p = Compile(kShared);
  ASSERT_TRUE(p);
  // 2^40 leaves as a tree: no copy is made, the run says why.
  auto t0 = std::chrono::steady_clock::now();
  mty::RunResult r = p->Run(mty::RunOptions{});
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_EQ(r.outcome, Outcome::kBreach);
  EXPECT_FALSE(r.returned);
  ASSERT_TRUE(r.breach);
  EXPECT_EQ(r.breach->limit, mty::LimitId::kMemory);
  EXPECT_EQ(r.breach->subject, "returned value");
  EXPECT_EQ(r.breach->bound, uint64_t{256} << 20);  // no memory limit: the most that crosses
  // The estimate of the tree (runtime.md §2): an Int is 16 B, an array 24 B
  // and its elements, so [1] is 40 B and each [v, v] 2 x + 24: 64 x 2^40 - 24.
  EXPECT_EQ(r.breach->observed, (uint64_t{1} << 46) - 24);
  EXPECT_EQ(r.code, TrapCode::kBudget);
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_EQ(r.message, "memory budget exceeded: the returned value is " +
                           std::to_string(r.breach->observed) +
                           " B (estimated) as a copy, over the 268435456 B that may cross to "
                           "the host");
  EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(r.mem_used, r.breach->observed);
  EXPECT_EQ(r.mem_limit, r.breach->bound);
  EXPECT_LT(r.heap_peak, uint64_t{64} << 20);
  // Under a memory limit the program breaches it first: building the
  // structure charges the estimate of what it builds.
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kMemory, 1 << 20);
  mty::RunResult lim = p->Run(o);
  EXPECT_EQ(lim.outcome, Outcome::kBreach);
  ASSERT_TRUE(lim.breach);
  EXPECT_EQ(lim.breach->bound, uint64_t{1} << 20);
  EXPECT_EQ(lim.breach->subject, "");
}

// Not in the issue: the shared structure returned inside Err (the
// kMainErr path copies it too), and passed to a host function.
TEST(Returned, SharedStructureInsideErrOrAsAHostArgument) {
  auto p = Compile(R"(fn main() -> Result[I64, [I64]] {
  let mut v: Any = [1]
  let mut i = 0
  while i < 40 { v = [v, v]; i += 1 }
  Err(v)
}
)");
  ASSERT_TRUE(p);
  mty::RunResult r = p->Run(mty::RunOptions{});
  EXPECT_EQ(r.outcome, Outcome::kBreach) << r.Report();
  EXPECT_FALSE(r.returned);
  ASSERT_TRUE(r.breach);
  EXPECT_EQ(r.breach->subject, "returned value");

  mty::Linker l;
  int calls = 0;
  ASSERT_TRUE(l.Define("host.sink.take", "sink", {{Type::Any()}, Type::Unit()},
                       [&](HostCall&) -> absl::StatusOr<Value> {
                         ++calls;
                         return Value::Unit();
                       })
                  .ok());
  auto q = Compile(R"(fn main() {
  let mut v: Any = [1]
  let mut i = 0
  while i < 40 { v = [v, v]; i += 1 }
  host.sink.take(v)
}
)",
                   &l);
  ASSERT_TRUE(q);
  mty::RunOptions o;
  o.policy.grants.Set(mty::GrantId::kHost, std::vector<std::string>{"sink"});
  mty::RunResult h = q->Run(o);
  EXPECT_EQ(h.outcome, Outcome::kTrap) << h.Report();
  EXPECT_EQ(h.code, TrapCode::kType);
  EXPECT_NE(h.message.find("that may cross to the host"), std::string::npos) << h.message;
  EXPECT_EQ(calls, 0);
}

TEST(Returned, TheDeclaredResultTypeIsChecked) {
  struct Case {
    const char* src;
    const char* message;
  };
  const Case cases[] = {
      // The type checker refuses these written plainly (MT2019); through
      // `Any` they reach the run, which checks the result as it would for
      // MtyIR the verifier cannot prove.
      {"fn f() -> I64 {\n  let c: Any = |x: I64| x + 1\n  c\n}\nfn main() {}\n",
       "fn f returned <closure f::__closure0>, which is not I64 (its declared result type)"},
      {"fn f() -> Result[I64, Str] {\n  let e: Any = 5\n  Err(e)\n}\nfn main() {}\n",
       "fn f returned Err(5), which is not Result[I64, Str] (its declared result type)"},
      {"fn f() -> [I64] {\n  let a: Any = \"a\"\n  [a]\n}\nfn main() {}\n",
       "fn f returned [\"a\"], which is not [I64] (its declared result type)"},
      // Not in the issue: the mismatch one level down.
      {"fn f() -> Option[I64] {\n  let c: Any = |x: I64| x\n  Some(c)\n}\nfn main() {}\n",
       "fn f returned Some(<closure f::__closure0>), which is not Option[I64] (its declared result "
       "type)"},
  };
  for (const Case& c : cases) {
    auto p = Compile(c.src);
    ASSERT_TRUE(p);
    mty::RunResult r = p->Run("f", {});
    EXPECT_EQ(r.outcome, Outcome::kTrap) << c.src;
    EXPECT_EQ(r.code, TrapCode::kType) << c.src;
    EXPECT_EQ(r.message, c.message);
    EXPECT_FALSE(r.returned) << c.src;
    EXPECT_EQ(r.exit_code, 1);
  }
  // What fits still returns (and an Err that fits is still kMainErr).
  auto ok = Compile(
      "fn f() -> Option[I64] { Some(4) }\nfn g() -> Result[I64, Str] { Err(\"no\") }\n"
      "fn main() {}\n");
  ASSERT_TRUE(ok);
  mty::RunResult f = ok->Run("f", {});
  EXPECT_EQ(f.outcome, Outcome::kOk);
  ASSERT_TRUE(f.returned);
  EXPECT_EQ(*f.returned, Value::Some(Value::Int(4)));
  mty::RunResult g = ok->Run("g", {});
  EXPECT_EQ(g.outcome, Outcome::kMainErr);
  ASSERT_TRUE(g.returned);
  EXPECT_EQ(*g.returned, Value::Err(Value::Str("no")));
}

// ---- Host-built values a million levels deep ------------------------------------

constexpr int kMillion = 1'000'000;

// A value kMillion levels deep: Vec and Some alternately around `leaf`.
Value Deep(Value leaf) {
  Value v = std::move(leaf);
  for (int i = 0; i < kMillion; ++i)
    v = i % 2 ? Value::Vec(std::move(v)) : Value::Some(std::move(v));
  return v;
}

TEST(HostValues, AMillionLevelsDeepAreSafe) {
  auto t0 = std::chrono::steady_clock::now();
  Value v = Deep(Value::Int(1));
  Value copy;
  copy = v;  // copies without recursion
  EXPECT_TRUE(copy == v);
  EXPECT_FALSE(Deep(Value::Int(2)) == v);  // the difference is at the bottom
  // Assigning a value its own child (it is copied before the parent goes).
  copy = copy.items()[0];
  EXPECT_FALSE(copy == v);
  EXPECT_TRUE(copy == v.items()[0]);
  EXPECT_EQ(v.Debug(), "<value nested deeper than 512 levels>");
  // As an entry parameter: refused, the run is kInvalid.
  auto p = Compile("fn main(x: [I64]) -> I64 { x.len() }\n");
  ASSERT_TRUE(p);
  copy = Value();
  std::vector<Value> params;
  params.push_back(std::move(v));
  mty::RunResult r = p->Run("main", std::move(params));
  EXPECT_EQ(r.outcome, Outcome::kInvalid);
  EXPECT_EQ(r.message, "params[0]: value nested deeper than 512 levels");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 30s);
}

TEST(HostValues, CopiesAndEqualityKeepEveryPart) {
  Value v =
      Value::Vec(Value::Map({{Value::Int(1), Value::Str("a")}, {Value::Str("k"), Value::Vec()}}),
                 Value::Struct("P", {{"x", Value::Int(1)}, {"y", Value::Float(2.5)}}),
                 Value::Enum("Shape", "Circle", Value::Float(1.0)), Value::Tuple(Value::Char(U'é')),
                 Value::Bytes("\x01\x02"), Value::Bool(true), Value::Unit());
  Value copy = v;
  EXPECT_TRUE(copy == v);
  EXPECT_EQ(copy.Debug(), v.Debug());
  const Value different[] = {
      Value::Map({{Value::Int(1), Value::Str("b")}}),
      Value::Struct("P", {{"x", Value::Int(1)}, {"z", Value::Float(2.5)}}),
      Value::Enum("Shape", "Square", Value::Float(1.0)),
      Value::Tuple(Value::Char(U'e')),
      Value::Str("\x01\x02"),
      Value::Vec(Value::Int(1), Value::Int(2)),
  };
  for (size_t i = 0; i < std::size(different); ++i) {
    EXPECT_FALSE(v.items()[i] == different[i]) << i;
    EXPECT_FALSE(different[i] == v.items()[i]) << i;
  }
  EXPECT_FALSE(Value::Vec(Value::Int(1)) == Value::Vec(Value::Int(1), Value::Int(1)));
  EXPECT_FALSE(Value::Float(std::nan("")) == Value::Float(std::nan("")));
}

TEST(HostValues, AMillionLevelsDeepAsAHostFunctionResult) {
  mty::Linker l;
  ASSERT_TRUE(
      l.Define("host.deep.make", "deep", {{}, Type::Any()}, [](HostCall&) -> absl::StatusOr<Value> {
         return Deep(Value::Unit());
       }).ok());
  auto p = Compile("fn main() { let x = host.deep.make() }\n", &l);
  ASSERT_TRUE(p);
  mty::RunOptions o;
  o.policy.grants.Set(mty::GrantId::kHost, std::vector<std::string>{"deep"});
  mty::RunResult r = p->Run(o);
  EXPECT_EQ(r.outcome, Outcome::kTrap);
  EXPECT_EQ(r.code, TrapCode::kHost);
  EXPECT_EQ(r.message, "host.deep.make returned a bad value: value nested deeper than 512 levels");
}

// Not in the issue: the other way, a guest value a million levels deep
// passed to a host function (refused before the function is called).
TEST(HostValues, AMillionLevelsDeepAsAHostFunctionArgument) {
  mty::Linker l;
  int calls = 0;
  ASSERT_TRUE(l.Define("host.deep.take", "deep", {{Type::Any()}, Type::Unit()},
                       [&](HostCall&) -> absl::StatusOr<Value> {
                         ++calls;
                         return Value::Unit();
                       })
                  .ok());
  auto p = Compile(R"(enum Chain { End, Link(Chain) }
fn main() {
  let mut v = Chain::End
  let mut i = 0
  while i < 1000000 { v = Chain::Link(v); i += 1 }
  host.deep.take(v)
}
)",
                   &l);
  ASSERT_TRUE(p);
  mty::RunOptions o;
  o.policy.grants.Set(mty::GrantId::kHost, std::vector<std::string>{"deep"});
  mty::RunResult r = p->Run(o);
  EXPECT_EQ(r.outcome, Outcome::kTrap) << r.Report();
  EXPECT_EQ(r.code, TrapCode::kType);
  EXPECT_EQ(r.message,
            "host.deep.take: argument 1 must be _, found value nested deeper than 512 levels");
  EXPECT_EQ(calls, 0);
}

// Not in the issue: recording a run whose parameter is a million levels
// deep (the recording keeps the parameters, and writes them as JSON).
TEST(HostValues, RecordingAMillionLevelsDeepParameter) {
  auto p = Compile("fn main(x: [I64]) -> I64 { x.len() }\n");
  ASSERT_TRUE(p);
  mty::Recording rec;
  mty::RunOptions o;
  o.record = &rec;
  o.params = {Deep(Value::Int(1))};
  EXPECT_EQ(p->Run(o).outcome, Outcome::kInvalid);
  const std::string text = rec.ToJsonLines();
  EXPECT_NE(text.find("value nested deeper than 512 levels"), std::string::npos);
  EXPECT_LT(text.size(), size_t{64} << 10);
  // Read back, it is refused with a located error (it could not be replayed).
  absl::StatusOr<mty::Recording> back = mty::Recording::FromJsonLines(text);
  EXPECT_EQ(back.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(back.status().message(), "line 1: params: an opaque value cannot be replayed");
}

TEST(HostValues, MovingBuildersMoveTheirArguments) {
  // A long string keeps its buffer when moved, not when copied.
  auto big = [] { return Value::Str(std::string(1 << 20, 'x')); };
  {
    Value s = big();
    const char* data = s.as_str().data();
    Value v = Value::Some(std::move(s));
    EXPECT_EQ(v.items()[0].as_str().data(), data);
  }
  {
    Value s = big();
    const char* data = s.as_str().data();
    Value v = Value::Vec(std::move(s), Value::Int(2));
    ASSERT_EQ(v.items().size(), 2u);
    EXPECT_EQ(v.items()[0].as_str().data(), data);
    EXPECT_EQ(v.kind(), Value::Kind::kVec);
  }
  {
    Value s = big();
    const char* data = s.as_str().data();
    Value t = Value::Tuple(Value::Int(1), std::move(s));
    EXPECT_EQ(t.items()[1].as_str().data(), data);
    EXPECT_EQ(t.kind(), Value::Kind::kTuple);
  }
  {
    Value s = big();
    const char* data = s.as_str().data();
    Value e = Value::Enum("Shape", "Label", std::move(s));
    EXPECT_EQ(e.items()[0].as_str().data(), data);
    Value ok = Value::Ok(std::move(e));
    EXPECT_EQ(ok.items()[0].items()[0].as_str().data(), data);
  }
  // An lvalue argument is copied, and left as it was.
  Value keep = big();
  Value v = Value::Vec(keep);
  EXPECT_EQ(keep.as_str().size(), size_t{1} << 20);
  EXPECT_NE(v.items()[0].as_str().data(), keep.as_str().data());
  // The vector forms are unchanged: a braced list, an empty one, none.
  EXPECT_EQ(Value::Vec({Value::Int(1), Value::Int(2)}).items().size(), 2u);
  EXPECT_TRUE(Value::Vec({}).items().empty());
  EXPECT_EQ(Value::Vec().kind(), Value::Kind::kVec);
  EXPECT_TRUE(Value::Enum("Option", "None").is_variant("Option", "None"));
}

// ---- Usage figures ----------------------------------------------------------------

TEST(Usage, MemoryIsCountedWithoutAMemoryLimit) {
  auto p = Compile(R"(fn main() {
  let mut v = []
  let mut i = 0
  while i < 1000 { v.push(format!("{i}")); i += 1 }
  log(v.len())
}
)");
  ASSERT_TRUE(p);
  mty::RunResult none = p->Run(mty::RunOptions{});
  ASSERT_EQ(none.outcome, Outcome::kOk);
  mty::RunOptions steps;
  steps.policy.limits.Set(mty::LimitId::kSteps, 1'000'000);
  mty::RunOptions memory;
  memory.policy.limits.Set(mty::LimitId::kMemory, 1 << 30);
  mty::RunResult with_steps = p->Run(steps);
  mty::RunResult with_memory = p->Run(memory);
  // 1000 strings of 24+ B, each pushed (16 B a slot): at least 40 000 B.
  EXPECT_GT(none.mem_used, 40'000u);
  EXPECT_EQ(none.mem_used, with_memory.mem_used);
  EXPECT_EQ(none.mem_used, with_steps.mem_used);
  EXPECT_EQ(none.mem_limit, 0u);
  EXPECT_EQ(with_memory.mem_limit, uint64_t{1} << 30);
  // Steps are counted only under a step limit.
  EXPECT_EQ(none.steps_used, 0u);
  EXPECT_GT(with_steps.steps_used, 1000u);
}

// Not in the issue: a host function's result, and an agent's allocations,
// are counted without a limit too.
TEST(Usage, HostResultsAndAgentsAreCountedWithoutALimit) {
  mty::Linker l;
  ASSERT_TRUE(
      l.Define("host.blob.get", "blob", {{}, Type::Str()}, [](HostCall&) -> absl::StatusOr<Value> {
         return Value::Str(std::string(100'000, 'b'));
       }).ok());
  auto p = Compile("fn main() -> I64 { host.blob.get().len() }\n", &l);
  ASSERT_TRUE(p);
  mty::RunOptions o;
  o.policy.grants.Set(mty::GrantId::kHost, std::vector<std::string>{"blob"});
  mty::RunResult r = p->Run(o);
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.Report();
  EXPECT_GE(r.mem_used, 100'000u);
  o.policy.limits.Set(mty::LimitId::kMemory, 1 << 30);
  EXPECT_EQ(p->Run(o).mem_used, r.mem_used);

  auto a = Compile(R"(agent Filler {
  on Fill(n) -> {
    let mut v = []
    let mut i = 0
    while i < n { v.push(format!("{i}")); i += 1 }
    v.len()
  }
}
fn main() -> I64 {
  let f = spawn Filler()
  f?Fill(2000)
}
)");
  ASSERT_TRUE(a);
  mty::RunResult free_run = a->Run(mty::RunOptions{});
  ASSERT_EQ(free_run.outcome, Outcome::kOk) << free_run.Report();
  mty::RunOptions lim;
  lim.policy.limits.Set(mty::LimitId::kMemory, 1 << 30);
  mty::RunResult limited = a->Run(lim);
  EXPECT_GT(free_run.mem_used, 80'000u);
  EXPECT_EQ(free_run.mem_used, limited.mem_used);
}

TEST(Usage, AStepBreachCountsTheStepThatBreached) {
  auto p = Compile("fn main() {\n    loop {\n    }\n}\n");
  ASSERT_TRUE(p);
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kSteps, 10);
  mty::RunResult r = p->Run(o);
  ASSERT_EQ(r.outcome, Outcome::kBreach);
  ASSERT_TRUE(r.breach);
  EXPECT_EQ(r.breach->bound, 10u);
  EXPECT_EQ(r.breach->observed, 11u);  // the 11th step went over
  EXPECT_EQ(r.steps_used, r.breach->observed);
  // In a sandbox: the sandbox's count (as for memory).
  auto s = Compile(R"(fn main() {
  let mut i = 0
  while i < 100 { i += 1 }
  sandbox Tight with { steps = 50 } {
    loop {}
  }
}
)");
  ASSERT_TRUE(s);
  mty::RunResult sr = s->Run(mty::RunOptions{});
  ASSERT_EQ(sr.outcome, Outcome::kBreach) << sr.Report();
  EXPECT_EQ(sr.sandbox(), "Tight");
  EXPECT_EQ(sr.breach->bound, 50u);
  EXPECT_EQ(sr.breach->observed, 51u);
  EXPECT_EQ(sr.steps_used, sr.breach->observed);
}

// Not in the issue: a breach by an operation's work charge (one step per
// 64 bytes), and a memory breach.
TEST(Usage, WorkAndMemoryBreachesReportTheirObservedUse) {
  auto p = Compile("fn main() -> I64 {\n  let s = \"x\".repeat(1000000)\n  s.len()\n}\n");
  ASSERT_TRUE(p);
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kSteps, 100);
  mty::RunResult r = p->Run(o);
  ASSERT_EQ(r.outcome, Outcome::kBreach) << r.Report();
  EXPECT_EQ(r.breach->limit, mty::LimitId::kSteps);
  EXPECT_GT(r.breach->observed, r.breach->bound);
  EXPECT_EQ(r.steps_used, r.breach->observed);
  mty::RunOptions m;
  m.policy.limits.Set(mty::LimitId::kMemory, 4096);
  mty::RunResult mr = p->Run(m);
  ASSERT_EQ(mr.outcome, Outcome::kBreach) << mr.Report();
  EXPECT_EQ(mr.breach->limit, mty::LimitId::kMemory);
  EXPECT_EQ(mr.mem_used, mr.breach->observed);
  EXPECT_EQ(mr.mem_limit, 4096u);
}

}  // namespace
