// The embedding API's host functions (mty::Linker), typed values, typed
// results and events, option validation (runtime.md §7).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "mty/mty.h"

namespace {

using mty::Event;
using mty::HostCall;
using mty::HostPromise;
using mty::Outcome;
using mty::TrapCode;
using mty::Type;
using mty::Value;
using namespace std::chrono_literals;

// A key-value host module: host.kv.get / host.kv.set under family `kv`.
struct Kv {
  std::mutex mu;
  std::map<std::string, std::string> data;
  std::atomic<int> calls{0};
};

mty::Linker KvLinker(Kv* kv) {
  mty::Linker l;
  EXPECT_TRUE(l.Define("host.kv.get", "kv", {{Type::Str()}, Type::Option(Type::Str())},
                       [kv](HostCall& c) -> absl::StatusOr<Value> {
                         ++kv->calls;
                         std::lock_guard<std::mutex> lock(kv->mu);
                         auto it = kv->data.find(c.args()[0].as_str());
                         if (it == kv->data.end()) return Value::None();
                         return Value::Some(Value::Str(it->second));
                       })
                  .ok());
  EXPECT_TRUE(l.Define("host.kv.set", "kv", {{Type::Str(), Type::Str()}, Type::Unit()},
                       [kv](HostCall& c) -> absl::StatusOr<Value> {
                         ++kv->calls;
                         std::lock_guard<std::mutex> lock(kv->mu);
                         kv->data[c.args()[0].as_str()] = c.args()[1].as_str();
                         return Value::Unit();
                       })
                  .ok());
  return l;
}

std::shared_ptr<const mty::Program> Compile(const std::string& src, const mty::Linker& l,
                                            std::vector<mty::Diagnostic>* diags = nullptr) {
  mty::CompileOptions o;
  o.linker = &l;
  o.diagnostics = diags;
  auto p = mty::Program::FromSource(src, "job.mty", o);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : nullptr;
}

mty::RunOptions Granting(std::vector<std::string> families) {
  mty::RunOptions o;
  o.policy.grants.Set(mty::GrantId::kHost, std::move(families));
  return o;
}

constexpr const char* kKvProgram = R"(
fn main() -> Str {
    host.kv.set("greeting", "hello")
    match host.kv.get("greeting") {
        Some(v) => v,
        None => "missing",
    }
}
)";

TEST(HostFn, CallsTheHostsFunctionWithTypedValues) {
  Kv kv;
  auto p = Compile(kKvProgram, KvLinker(&kv));
  ASSERT_TRUE(p);
  mty::RunResult r = p->Run(Granting({"kv"}));
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.Report();
  ASSERT_TRUE(r.returned);
  EXPECT_EQ(*r.returned, Value::Str("hello"));
  EXPECT_EQ(kv.calls.load(), 2);
  EXPECT_EQ(kv.data["greeting"], "hello");
}

TEST(HostFn, DeniedByDefaultTrapsWithAnEvent) {
  Kv kv;
  auto p = Compile(kKvProgram, KvLinker(&kv));
  ASSERT_TRUE(p);
  std::vector<Event> events;
  mty::RunOptions o;  // no host grant
  o.on_event = [&](const Event& e) { events.push_back(e); };
  mty::RunResult r = p->Run(o);
  EXPECT_EQ(r.outcome, Outcome::kTrap);
  EXPECT_EQ(r.code, TrapCode::kCapability);
  EXPECT_NE(r.message.find("host.kv.set"), std::string::npos) << r.message;
  EXPECT_EQ(kv.calls.load(), 0);  // the host's code never ran
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].kind, Event::Kind::kDenied);
  EXPECT_EQ(events[0].effect, "host.kv.set");
  EXPECT_EQ(events[0].target, "kv");
  EXPECT_EQ(events[0].line, 3);
  // The call itself, denied.
  EXPECT_EQ(events[1].kind, Event::Kind::kEffect);
  EXPECT_EQ(events[1].effect, "host.kv.set");
  EXPECT_EQ(events[1].family, "host kv");
  EXPECT_FALSE(events[1].allowed);
  // Another family's grant does not admit it either.
  EXPECT_EQ(p->Run(Granting({"llm"})).code, TrapCode::kCapability);
  EXPECT_EQ(p->Run(Granting({"*"})).outcome, Outcome::kOk);
}

TEST(HostFn, ASandboxNarrowsTheHostGrant) {
  Kv kv;
  auto p = Compile(R"(
fn main() -> Str {
    host.kv.set("k", "outside")
    sandbox with { host = ["other"] } {
        host.kv.set("k", "inside")
    }
    "done"
}
)",
                   KvLinker(&kv));
  ASSERT_TRUE(p);
  mty::RunResult r = p->Run(Granting({"kv"}));
  EXPECT_EQ(r.code, TrapCode::kCapability) << r.Report();
  EXPECT_EQ(kv.data["k"], "outside");
}

TEST(HostFn, CompileTimeChecksAgainstTheSignatures) {
  Kv kv;
  mty::Linker l = KvLinker(&kv);
  struct Case {
    const char* src;
    const char* code;
    int line;
  };
  const Case cases[] = {
      {"fn main() {\n  host.kv.gte(\"a\")\n}\n", "MT1005", 2},
      {"fn main() {\n  host.kv.get(\"a\", \"b\")\n}\n", "MT2001", 2},
      {"fn main() {\n  host.kv.get(42)\n}\n", "MT2015", 2},
      {"fn main() {\n  let x: I64 = 1\n  host.kv.set(\"a\", x)\n}\n", "MT2015", 3},
  };
  for (const Case& c : cases) {
    std::vector<mty::Diagnostic> diags;
    mty::CompileOptions o;
    o.linker = &l;
    o.diagnostics = &diags;
    auto p = mty::Program::FromSource(c.src, "bad.mty", o);
    ASSERT_FALSE(p.ok()) << c.src;
    EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
    ASSERT_EQ(diags.size(), 1u) << p.status();
    EXPECT_EQ(diags[0].code, c.code) << p.status();
    EXPECT_EQ(diags[0].line, c.line);
    EXPECT_EQ(diags[0].file, "bad.mty");
    EXPECT_EQ(diags[0].severity, mty::Diagnostic::Severity::kError);
    EXPECT_NE(std::string(p.status().message()).find(c.code), std::string::npos);
  }
  // The help of an unknown name lists what the host defines.
  std::vector<mty::Diagnostic> diags;
  mty::CompileOptions o;
  o.linker = &l;
  o.diagnostics = &diags;
  ASSERT_FALSE(mty::Program::FromSource(cases[0].src, "bad.mty", o).ok());
  ASSERT_EQ(diags[0].notes.size(), 1u);
  EXPECT_NE(diags[0].notes[0].find("host.kv.get"), std::string::npos);
  // Without a linker there are no host functions at all.
  auto none = mty::Program::FromSource("fn main() {\n  host.kv.get(\"a\")\n}\n", "x.mty");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(std::string(none.status().message()).find("MT1005"), std::string::npos);
  EXPECT_NE(std::string(none.status().message()).find("mty::Linker"), std::string::npos);
}

TEST(HostFn, MtyIrEffectCallsResolveThroughTheLinker) {
  Kv kv;
  kv.data["k"] = "v";
  mty::Linker l = KvLinker(&kv);
  mty::CompileOptions o;
  o.linker = &l;
  auto p = mty::Program::FromIrText(R"(
fn main() -> Option[Str] {
bb0:
  _0 = effect host.kv.get("k")
  return
}
)",
                                    "kv.mtyir", o);
  ASSERT_TRUE(p.ok()) << p.status();
  mty::RunResult r = (*p)->Run(Granting({"kv"}));
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.Report();
  EXPECT_EQ(*r.returned, Value::Some(Value::Str("v")));
  // Compiled without the linker, the same call is unknown at run time.
  auto bare = mty::Program::FromIrText(R"(
fn main() -> Option[Str] {
bb0:
  _0 = effect host.kv.get("k")
  return
}
)",
                                       "kv.mtyir");
  ASSERT_TRUE(bare.ok());
  EXPECT_EQ((*bare)->Run(Granting({"kv"})).code, TrapCode::kUnknown);
}

mty::Linker OneFn(const char* path, mty::HostSignature sig, mty::HostFunction fn) {
  mty::Linker l;
  EXPECT_TRUE(l.Define(path, "t", std::move(sig), std::move(fn)).ok());
  return l;
}

TEST(HostFn, AHostErrIsTheGuestsErr) {
  auto l = OneFn("host.t.parse", {{Type::Str()}, Type::Result(Type::Int(), Type::Str())},
                 [](HostCall& c) -> absl::StatusOr<Value> {
                   if (c.args()[0].as_str() == "42") return Value::Ok(Value::Int(42));
                   return Value::Err(Value::Str("not a number"));
                 });
  auto p = Compile(R"(
fn main() -> Str {
    let a = host.t.parse("42").unwrap()
    match host.t.parse("x") {
        Ok(_) => "unexpected",
        Err(e) => format!("{a} {e}"),
    }
}
)",
                   l);
  ASSERT_TRUE(p);
  mty::RunResult r = p->Run(Granting({"t"}));
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.Report();
  EXPECT_EQ(r.returned->as_str(), "42 not a number");
}

TEST(HostFn, AnErrorStatusOrAnExceptionTrapsTheCaller) {
  auto fail = OneFn("host.t.fail", {{}, Type::Int()}, [](HostCall&) -> absl::StatusOr<Value> {
    return absl::UnavailableError("the backend is down");
  });
  auto p =
      Compile("fn helper() -> I64 {\n  host.t.fail() + 1\n}\nfn main() {\n  helper();\n}\n", fail);
  ASSERT_TRUE(p);
  mty::RunResult r = p->Run(Granting({"t"}));
  EXPECT_EQ(r.outcome, Outcome::kTrap);
  EXPECT_EQ(r.code, TrapCode::kHost);
  EXPECT_EQ(mty::TrapText(r.code), std::string("MT5022"));
  EXPECT_NE(r.message.find("the backend is down"), std::string::npos) << r.message;
  ASSERT_GE(r.backtrace.size(), 2u);
  EXPECT_NE(r.backtrace[0].find("helper (job.mty:2:"), std::string::npos) << r.backtrace[0];
  EXPECT_EQ(r.exit_code, 1);

  auto thrower = OneFn("host.t.fail", {{}, Type::Int()}, [](HostCall&) -> absl::StatusOr<Value> {
    throw std::runtime_error("oops");
  });
  auto q = Compile("fn main() -> I64 {\n  host.t.fail()\n}\n", thrower);
  mty::RunResult r2 = q->Run(Granting({"t"}));
  EXPECT_EQ(r2.code, TrapCode::kHost);
  EXPECT_NE(r2.message.find("oops"), std::string::npos) << r2.message;
}

TEST(HostFn, AResultOutsideTheSignatureTraps) {
  auto l = OneFn("host.t.lie", {{}, Type::Int()},
                 [](HostCall&) -> absl::StatusOr<Value> { return Value::Str("not an int"); });
  auto p = Compile("fn main() -> I64 {\n  host.t.lie()\n}\n", l);
  mty::RunResult r = p->Run(Granting({"t"}));
  EXPECT_EQ(r.code, TrapCode::kHost);
  EXPECT_NE(r.message.find("which is not I64"), std::string::npos) << r.message;
  // An argument the front end could not check is checked at the call.
  auto q = Compile("fn id[T](x: T) -> T { x }\nfn main() -> I64 {\n  host.t.lie(id(\"s\"))\n}\n",
                   OneFn("host.t.lie", {{Type::Int()}, Type::Int()},
                         [](HostCall& c) -> absl::StatusOr<Value> { return c.args()[0]; }));
  ASSERT_TRUE(q);
  mty::RunResult r2 = q->Run(Granting({"t"}));
  EXPECT_EQ(r2.code, TrapCode::kType) << r2.Report();
  EXPECT_NE(r2.message.find("argument 1 must be I64"), std::string::npos) << r2.message;
}

TEST(HostFn, CallsAreChargedStepsAndMemoryIncludingTheResult) {
  auto big =
      OneFn("host.t.big", {{Type::Int()}, Type::Str()}, [](HostCall& c) -> absl::StatusOr<Value> {
        return Value::Str(std::string(static_cast<size_t>(c.args()[0].as_int()), 'x'));
      });
  auto p = Compile("fn main(n: I64) -> I64 {\n  host.t.big(n).len()\n}\n", big);
  ASSERT_TRUE(p);
  auto steps_for = [&](int64_t n) {
    mty::RunOptions o = Granting({"t"});
    o.policy.limits.Set(mty::LimitId::kSteps, 100'000'000);
    mty::RunResult r = p->Run("main", {Value::Int(n)}, o);
    EXPECT_EQ(r.outcome, Outcome::kOk) << r.Report();
    return r.steps_used;
  };
  // One step per 64 bytes of result, as for any effect.
  EXPECT_GE(steps_for(640'000) - steps_for(0), 9'900u);
  // A result larger than the memory budget is the memory breach.
  mty::RunOptions o = Granting({"t"});
  o.policy.limits.Set(mty::LimitId::kMemory, 512 << 10);
  mty::RunResult r = p->Run("main", {Value::Int(1 << 20)}, o);
  EXPECT_EQ(r.outcome, Outcome::kBreach) << r.Report();
  ASSERT_TRUE(r.breach);
  EXPECT_EQ(r.breach->limit, mty::LimitId::kMemory);
  EXPECT_EQ(r.exit_code, 4);
}

TEST(HostFn, TheCallSeesItsBudgetAndWritesToTheRunsOutput) {
  std::optional<uint64_t> steps_left, memory_left;
  bool wrote = false, refused = false;
  auto l = OneFn("host.t.peek", {{}, Type::Unit()}, [&](HostCall& c) -> absl::StatusOr<Value> {
    steps_left = c.steps_left();
    memory_left = c.memory_left();
    wrote = c.Stdout("from the host\n");
    refused = !c.Stdout(std::string(200, 'y'));  // over the output budget
    return Value::Unit();
  });
  auto p = Compile("fn main() {\n  host.t.peek()\n}\n", l);
  mty::RunOptions o = Granting({"t"});
  o.policy.limits.Set(mty::LimitId::kSteps, 1000);
  o.policy.limits.Set(mty::LimitId::kMemory, 1 << 20);
  o.policy.limits.Set(mty::LimitId::kOutput, 100);
  std::string out;
  o.on_stdout = [&](std::string_view s) { out += s; };
  mty::RunResult r = p->Run(o);
  EXPECT_EQ(r.outcome, Outcome::kOk) << r.Report();
  ASSERT_TRUE(steps_left && memory_left);
  EXPECT_LE(*steps_left, 1000u);
  EXPECT_GT(*steps_left, 900u);
  EXPECT_LE(*memory_left, uint64_t{1} << 20);
  EXPECT_TRUE(wrote);
  EXPECT_TRUE(refused);
  EXPECT_EQ(out, "from the host\n");
  EXPECT_EQ(r.output_bytes, 14u);
}

// An async host function whose promise is resolved on another thread.
struct Later {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<HostPromise> held;
  std::vector<std::thread> threads;
  ~Later() {
    for (std::thread& t : threads) t.join();
  }
};

TEST(HostFn, AnAsyncFunctionLetsOtherAgentsRunWhileItsCallerWaits) {
  Kv kv;
  mty::Linker l = KvLinker(&kv);
  Later later;
  // Resolves once the agent has run (it sets `ran` through host.kv.set
  // while main waits here); "no" after 5 s.
  ASSERT_TRUE(l.DefineAsync("host.kv.wait_for_agent", "kv", {{}, Type::Str()},
                            [&](HostCall&, HostPromise promise) {
                              later.threads.emplace_back([&kv, p = std::move(promise)]() mutable {
                                for (int i = 0; i < 500; ++i) {
                                  {
                                    std::lock_guard<std::mutex> lock(kv.mu);
                                    if (kv.data.count("ran")) break;
                                  }
                                  std::this_thread::sleep_for(10ms);
                                }
                                std::lock_guard<std::mutex> lock(kv.mu);
                                p.Resolve(Value::Str(kv.data.count("ran") ? "yes" : "no"));
                              });
                            })
                  .ok());
  auto p = Compile(R"(
agent Helper {
    on Go() -> {
        host.kv.set("ran", "1")
        0
    }
}
fn main() -> Str {
    let h = spawn Helper()
    h!Go()
    host.kv.wait_for_agent()
}
)",
                   l);
  ASSERT_TRUE(p);
  mty::RunResult r = p->Run(Granting({"kv"}));
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.Report();
  EXPECT_EQ(r.returned->as_str(), "yes");
}

mty::Linker NeverResolves(Later* later) {
  mty::Linker l;
  EXPECT_TRUE(
      l.DefineAsync("host.t.never", "t", {{}, Type::Int()}, [later](HostCall&, HostPromise p) {
         std::lock_guard<std::mutex> lock(later->mu);
         later->held.push_back(std::move(p));
       }).ok());
  return l;
}

TEST(HostFn, TheWallDeadlineEndsAWaitForAnAsyncFunction) {
  Later later;
  auto p = Compile("fn main() -> I64 {\n  host.t.never()\n}\n", NeverResolves(&later));
  mty::RunOptions o = Granting({"t"});
  o.policy.limits.Set(mty::LimitId::kWall, 200'000'000);
  auto t0 = std::chrono::steady_clock::now();
  mty::RunResult r = p->Run(o);
  auto took = std::chrono::steady_clock::now() - t0;
  EXPECT_EQ(r.outcome, Outcome::kBreach) << r.Report();
  ASSERT_TRUE(r.breach);
  EXPECT_EQ(r.breach->limit, mty::LimitId::kWall);
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_LT(took, 2s);
  // Resolving after the run ended is harmless.
  std::lock_guard<std::mutex> lock(later.mu);
  for (HostPromise& h : later.held) h.Resolve(Value::Int(1));
}

TEST(HostFn, ASandboxsWallDeadlineEndsTheWaitWithItsBreach) {
  Later later;
  auto p = Compile(R"(
fn main() -> I64 {
    sandbox Slow with { wall = 100ms } {
        host.t.never()
    }
}
)",
                   NeverResolves(&later));
  auto t0 = std::chrono::steady_clock::now();
  mty::RunResult r = p->Run(Granting({"t"}));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
  EXPECT_EQ(r.outcome, Outcome::kBreach) << r.Report();
  EXPECT_EQ(r.sandbox(), "Slow");
}

TEST(HostFn, InterruptEndsAWaitForAnAsyncFunction) {
  Later later;
  auto p = Compile("fn main() -> I64 {\n  host.t.never()\n}\n", NeverResolves(&later));
  mty::Runner runner(p, Granting({"t"}));
  std::thread stop([&] {
    std::this_thread::sleep_for(100ms);
    runner.Interrupt();
  });
  auto t0 = std::chrono::steady_clock::now();
  mty::RunResult r = runner.Run();
  stop.join();
  EXPECT_EQ(r.outcome, Outcome::kCancelled) << r.Report();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
}

TEST(HostFn, ADroppedPromiseTrapsTheCaller) {
  mty::Linker l;
  ASSERT_TRUE(l.DefineAsync("host.t.drop", "t", {{}, Type::Int()}, [](HostCall&, HostPromise) {
                 // dropped here
               }).ok());
  auto p = Compile("fn main() -> I64 {\n  host.t.drop()\n}\n", l);
  mty::RunResult r = p->Run(Granting({"t"}));
  EXPECT_EQ(r.code, TrapCode::kHost) << r.Report();
  EXPECT_NE(r.message.find("dropped"), std::string::npos);
}

TEST(HostFn, AnAsyncResultIsChargedAsMemory) {
  mty::Linker l;
  Later later;
  ASSERT_TRUE(l.DefineAsync("host.t.big", "t", {{}, Type::Str()}, [&](HostCall&, HostPromise p) {
                 later.threads.emplace_back([p = std::move(p)]() mutable {
                   p.Resolve(Value::Str(std::string(1 << 20, 'x')));
                 });
               }).ok());
  auto p = Compile("fn main() -> I64 {\n  host.t.big().len()\n}\n", l);
  mty::RunOptions o = Granting({"t"});
  o.policy.limits.Set(mty::LimitId::kMemory, 256 << 10);
  mty::RunResult r = p->Run(o);
  EXPECT_EQ(r.outcome, Outcome::kBreach) << r.Report();
  EXPECT_EQ(r.exit_code, 4);
  mty::RunResult ok = p->Run(Granting({"t"}));
  ASSERT_EQ(ok.outcome, Outcome::kOk) << ok.Report();
  EXPECT_EQ(ok.returned->as_int(), 1 << 20);
}

TEST(Linker, RejectsMalformedDefinitions) {
  mty::Linker l;
  auto fn = [](HostCall&) -> absl::StatusOr<Value> { return Value(); };
  EXPECT_EQ(l.Define("kv.get", "kv", {}, fn).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(l.Define("host.", "kv", {}, fn).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(l.Define("host.kv..get", "kv", {}, fn).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(l.Define("host.kv.get", "", {}, fn).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(l.Define("host.kv.get", "*", {}, fn).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(l.Define("host.kv.get", "kv", {}, nullptr).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(l.Define("host.kv.get", "kv", {{Type::Str()}, Type::Str()}, fn).ok());
  EXPECT_EQ(l.Define("host.kv.get", "kv", {}, fn).code(), absl::StatusCode::kAlreadyExists);
  ASSERT_EQ(l.Describe().size(), 1u);
  EXPECT_EQ(l.Describe()[0], "host.kv.get(Str) -> Str  [kv]");
}

TEST(Linker, AProgramKeepsTheFunctionsItWasCompiledWith) {
  Kv kv;
  mty::Linker l = KvLinker(&kv);
  auto p = Compile("fn main() -> Bool {\n  host.kv.get(\"a\").is_none()\n}\n", l);
  ASSERT_TRUE(p);
  // Defining more afterwards changes neither the program nor its calls.
  ASSERT_TRUE(l.Define("host.kv.extra", "kv", {}, [](HostCall&) -> absl::StatusOr<Value> {
                 return Value();
               }).ok());
  mty::RunResult r = p->Run(Granting({"kv"}));
  EXPECT_EQ(r.outcome, Outcome::kOk) << r.Report();
  EXPECT_EQ(*r.returned, Value::Bool(true));
}

TEST(HostFn, EffectsAndCheckAgainstListHostFamilies) {
  Kv kv;
  auto p = Compile(kKvProgram, KvLinker(&kv));
  std::vector<mty::Program::EffectUse> uses = p->Effects();
  ASSERT_EQ(uses.size(), 2u);
  EXPECT_EQ(uses[0].family, "host");
  EXPECT_EQ(uses[0].effect, "host.kv.set");
  EXPECT_EQ(uses[0].literal, "kv");
  EXPECT_EQ(uses[0].line, 3);
  mty::Grants none;
  EXPECT_EQ(p->CheckAgainst(none).size(), 2u);
  mty::Grants other;
  other.Set(mty::GrantId::kHost, std::vector<std::string>{"llm"});
  std::vector<std::string> f = p->CheckAgainst(other);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_NE(f[0].find("kv is outside the manifest's host list"), std::string::npos) << f[0];
  mty::Grants kv_only;
  kv_only.Set(mty::GrantId::kHost, std::vector<std::string>{"kv"});
  EXPECT_TRUE(p->CheckAgainst(kv_only).empty());
}

// ---- typed values ----

constexpr const char* kShapes = R"(
struct Point {
    x: I64,
    y: I64,
}
enum Shape {
    Circle(F64),
    Rect(Point, Point),
    Empty,
}
fn main(n: I64, name: Str, xs: [I64], p: Point, s: Shape, m: Map[Str, I64]) -> (I64, Str, [I64], Point, Shape, Map[Str, I64], Char, Bool, Option[F64]) {
    let mut ys = xs
    ys.push(n)
    let q = Point { x: p.x + 1, y: p.y * 2 }
    (n * 2, format!("hi {name}"), ys, q, s, m, 'z', true, Some(1.5))
}
)";

TEST(Values, RoundTripThroughTheEntryFunction) {
  auto p = mty::Program::FromSource(kShapes, "shapes.mty");
  ASSERT_TRUE(p.ok()) << p.status();
  Value point = Value::Struct("Point", {{"y", Value::Int(4)}, {"x", Value::Int(3)}});  // any order
  Value rect = Value::Enum("Shape", "Rect",
                           {Value::Struct("Point", {{"x", Value::Int(0)}, {"y", Value::Int(0)}}),
                            Value::Struct("Point", {{"x", Value::Int(1)}, {"y", Value::Int(1)}})});
  Value map = Value::Map({{Value::Str("b"), Value::Int(2)}, {Value::Str("a"), Value::Int(1)}});
  mty::RunResult r = (*p)->Run(
      "main", {Value::Int(21), Value::Str("héllo"), Value::Vec({Value::Int(1)}), point, rect, map});
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.Report();
  ASSERT_TRUE(r.returned);
  const Value& t = *r.returned;
  ASSERT_EQ(t.kind(), Value::Kind::kTuple);
  ASSERT_EQ(t.items().size(), 9u);
  EXPECT_EQ(t.items()[0], Value::Int(42));
  EXPECT_EQ(t.items()[1], Value::Str("hi héllo"));
  EXPECT_EQ(t.items()[2], Value::Vec({Value::Int(1), Value::Int(21)}));
  const Value& q = t.items()[3];
  EXPECT_EQ(q.kind(), Value::Kind::kStruct);
  EXPECT_EQ(q.type_name(), "Point");
  ASSERT_TRUE(q.field("x") && q.field("y"));
  EXPECT_EQ(*q.field("x"), Value::Int(4));
  EXPECT_EQ(*q.field("y"), Value::Int(8));
  EXPECT_EQ(q.field_names(), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(t.items()[4].variant(), "Rect");
  EXPECT_EQ(t.items()[4].items()[1].field("x")->as_int(), 1);
  // Maps keep their order.
  ASSERT_EQ(t.items()[5].entries().size(), 2u);
  EXPECT_EQ(t.items()[5].entries()[0].first, Value::Str("b"));
  EXPECT_EQ(t.items()[6], Value::Char(U'z'));
  EXPECT_EQ(t.items()[7], Value::Bool(true));
  EXPECT_EQ(t.items()[8], Value::Some(Value::Float(1.5)));
  // The host's debug form is the guest's, printed by the same printer.
  EXPECT_EQ(t.Debug(), r.value);
}

TEST(Values, DebugMatchesTheGuestsForm) {
  const char* programs[] = {
      "fn main() -> Result[I64, Str] { Ok(60) }",
      "fn main() -> Option[[I64]] { Some([1, 2, 3]) }",
      "fn main() -> Str { \"tab\\tquote\\\"\" }",
      "fn main() -> (I64,) { (1,) }",
      "fn main() -> F64 { 2.0 }",
      "fn main() -> Map[Str, [Bool]] {\n let mut m = Map.new()\n m.insert(\"k\", [true])\n m\n}",
      "struct Unit2 {}\nfn main() -> Unit2 { Unit2 {} }",
      "fn main() { }",
  };
  for (const char* src : programs) {
    auto p = mty::Program::FromSource(src, "d.mty");
    ASSERT_TRUE(p.ok()) << src << ": " << p.status();
    mty::RunResult r = (*p)->Run(mty::RunOptions{});
    ASSERT_EQ(r.outcome, Outcome::kOk) << src << r.Report();
    ASSERT_TRUE(r.returned) << src;
    EXPECT_EQ(r.returned->Debug(), r.value) << src;
  }
}

TEST(Values, MainErrReturnsTheErrValue) {
  auto p = mty::Program::FromSource("fn main() -> Result[I64, Str] { Err(\"no\") }", "e.mty");
  mty::RunResult r = (*p)->Run(mty::RunOptions{});
  EXPECT_EQ(r.outcome, Outcome::kMainErr);
  ASSERT_TRUE(r.returned);
  EXPECT_EQ(*r.returned, Value::Err(Value::Str("no")));
}

TEST(Values, ASharedStructureTooLargeAsACopyIsNotCopied) {
  // 2^30 leaves in 30 steps: no copy is made, the run is the memory breach
  // of the returned value (boundary_test.cc has more).
  auto p = mty::Program::FromSource(
      "fn main() -> [I64] {\n let mut v: Any = [1]\n let mut i = 0\n while i < 30 {\n v = [v, v]\n "
      "i "
      "+= 1\n }\n v\n}\n",
      "dag.mty");
  ASSERT_TRUE(p.ok());
  auto t0 = std::chrono::steady_clock::now();
  mty::RunResult r = (*p)->Run(mty::RunOptions{});
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  EXPECT_EQ(r.outcome, Outcome::kBreach);
  ASSERT_TRUE(r.breach);
  EXPECT_EQ(r.breach->subject, "returned value");
  EXPECT_FALSE(r.returned);
  EXPECT_LT(r.heap_peak, uint64_t{64} << 20);
}

TEST(Values, EntryParametersAreCheckedAtTheBoundary) {
  auto p = mty::Program::FromSource(kShapes, "shapes.mty");
  ASSERT_TRUE(p.ok());
  struct Case {
    std::vector<Value> params;
    const char* want;
  };
  Value point = Value::Struct("Point", {{"x", Value::Int(3)}, {"y", Value::Int(4)}});
  Value map = Value::Map({});
  const Case cases[] = {
      {{Value::Str("21")}, "params[0]"},
      {{Value::Int(1), Value::Str("a"), Value::Vec({Value::Str("x")})}, "params[2]"},
      {{Value::Int(1), Value::Str("a"), Value::Vec({}), Value::Struct("Pointe", {})}, "Pointe"},
      {{Value::Int(1), Value::Str("a"), Value::Vec({}),
        Value::Struct("Point", {{"x", Value::Int(1)}})},
       "params[3]"},
      {{Value::Int(1), Value::Str("a"), Value::Vec({}), point, Value::Enum("Shape", "Hexagon")},
       "no variant `Hexagon`"},
      {{Value::Int(1), Value::Str("a"), Value::Vec({}), point, Value::Enum("Shape", "Empty"), map,
        Value::Int(9)},
       "7 given"},
      {{Value::Int(1), Value::Str("\xff"), Value::Vec({}), point, Value::Enum("Shape", "Empty"),
        map},
       "UTF-8"},
  };
  for (const Case& c : cases) {
    mty::RunResult r = (*p)->Run("main", c.params);
    EXPECT_EQ(r.outcome, Outcome::kInvalid) << c.want << ": " << r.Report();
    EXPECT_NE(r.message.find(c.want), std::string::npos) << r.message;
    EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(r.exit_code, 64);
  }
}

// ---- options, runners, outcomes, events ----

TEST(Options, AreValidatedNamingTheField) {
  auto p = mty::Program::FromSource("fn main() { }", "v.mty");
  ASSERT_TRUE(p.ok());
  struct Case {
    std::function<void(mty::RunOptions&)> set;
    const char* field;
  };
  const Case cases[] = {
      {[](mty::RunOptions& o) { o.policy.limits.Set(mty::LimitId::kMailbox, 0); },
       "policy.limits[mailbox]"},
      {[](mty::RunOptions& o) { o.policy.limits.Set(mty::LimitId::kDepth, 0); },
       "policy.limits[depth]"},
      {[](mty::RunOptions& o) { o.policy.limits.Set(mty::LimitId::kSteps, UINT64_MAX); },
       "policy.limits[steps]"},
      {[](mty::RunOptions& o) { o.policy.limits.mb_policy = static_cast<mty::MailboxPolicy>(7); },
       "policy.limits.mb_policy"},
      {[](mty::RunOptions& o) {
         o.policy.grants.Set(mty::GrantId::kFsRead, std::vector<std::string>{""});
       },
       "policy.grants[fs.read][0]"},
      {[](mty::RunOptions& o) { o.entry = ""; }, "entry"},
      {[](mty::RunOptions& o) { o.stdout_fd = -5; }, "stdout_fd"},
      {[](mty::RunOptions& o) {
         o.stderr_fd = 2;
         o.on_stderr = [](std::string_view) {};
       },
       "stderr_fd"},
  };
  for (const Case& c : cases) {
    mty::RunOptions o;
    c.set(o);
    absl::Status s = o.Validate();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.field;
    EXPECT_EQ(std::string(s.message()).rfind(c.field, 0), 0u) << s.message();
    mty::RunResult r = (*p)->Run(o);
    EXPECT_EQ(r.outcome, Outcome::kInvalid);
    EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kInvalidArgument);
  }
  EXPECT_TRUE(mty::RunOptions{}.Validate().ok());
}

TEST(Runner, RunsOnceSoAnInterruptNeverLeaksIntoALaterRun) {
  auto p = mty::Program::FromSource("fn main() -> I64 { 5 }", "r.mty");
  ASSERT_TRUE(p.ok());
  mty::Runner runner(*p, mty::RunOptions{});
  runner.Interrupt();  // before Run: the run ends cancelled at once
  EXPECT_EQ(runner.Run().outcome, Outcome::kCancelled);
  mty::RunResult again = runner.Run();
  EXPECT_EQ(again.outcome, Outcome::kInvalid);
  EXPECT_NE(again.message.find("runs once"), std::string::npos);
  // A fresh runner of the same program is unaffected.
  mty::Runner fresh(*p, mty::RunOptions{});
  EXPECT_EQ(fresh.Run().outcome, Outcome::kOk);
}

TEST(Runner, InterruptWakesASleep) {
  auto p = mty::Program::FromSource("fn main() {\n  std.time.sleep(30s);\n}\n", "s.mty");
  ASSERT_TRUE(p.ok()) << p.status();
  mty::Runner runner(*p, mty::RunOptions{});
  std::thread stop([&] {
    std::this_thread::sleep_for(50ms);
    runner.Interrupt();
  });
  auto t0 = std::chrono::steady_clock::now();
  mty::RunResult r = runner.Run();
  stop.join();
  EXPECT_EQ(r.outcome, Outcome::kCancelled) << r.Report();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);
}

TEST(Events, AgentFailuresRestartsAndEscalationsAreTyped) {
  auto p = mty::Program::FromSource(R"(
agent Worker(id) {
    n = 0
    on Inc(by) -> {
        n += by
        n
    }
    on Boom() -> {
        let zero = 0
        n / zero
    }
}
supervisor S(strategy: one_for_one) {
    child w = spawn Worker(1)
    on_fail(w) { restart up_to 3 in 30s }
}
fn main() -> I64 {
    let s = spawn S()
    let w = s.w
    w!Boom()
    w?Inc(2)
}
)",
                                    "ev.mty");
  ASSERT_TRUE(p.ok()) << p.status();
  std::vector<Event> events;
  mty::RunOptions o;
  o.on_event = [&](const Event& e) { events.push_back(e); };
  std::string err;
  o.on_stderr = [&](std::string_view s) { err += s; };
  mty::RunResult r = (*p)->Run(o);
  ASSERT_EQ(r.outcome, Outcome::kOk) << r.Report();
  ASSERT_EQ(events.size(), 4u);
  // The supervisor is spawned, then its child.
  EXPECT_EQ(events[0].kind, Event::Kind::kSpawned);
  EXPECT_EQ(events[0].agent, "S#1");
  EXPECT_EQ(events[1].kind, Event::Kind::kSpawned);
  EXPECT_EQ(events[1].agent, "Worker#2");
  EXPECT_EQ(events[2].kind, Event::Kind::kAgentFailed);
  EXPECT_EQ(events[2].agent, "Worker#2");
  EXPECT_EQ(events[2].code, TrapCode::kDivByZero);
  EXPECT_EQ(events[2].message, "division by zero");
  EXPECT_EQ(events[3].kind, Event::Kind::kRestarted);
  EXPECT_EQ(events[3].agent, "Worker#2");
  EXPECT_EQ(r.agents_spawned, 2u);

  auto esc = mty::Program::FromSource(R"(
agent Worker(id) {
    on Boom() -> {
        let zero = 0
        1 / zero
    }
}
supervisor S(strategy: escalate) {
    child a = spawn Worker(1)
}
fn main() -> I64 {
    let s = spawn S()
    s.a?Boom()
}
)",
                                      "esc.mty");
  ASSERT_TRUE(esc.ok()) << esc.status();
  events.clear();
  mty::RunResult e = (*esc)->Run(o);
  EXPECT_EQ(e.outcome, Outcome::kEscalated);
  ASSERT_EQ(events.size(), 4u);
  EXPECT_EQ(events[0].kind, Event::Kind::kSpawned);
  EXPECT_EQ(events[1].kind, Event::Kind::kSpawned);
  EXPECT_EQ(events[2].kind, Event::Kind::kAgentFailed);
  EXPECT_EQ(events[3].kind, Event::Kind::kEscalated);
  EXPECT_EQ(events[3].agent, "S#1");
  EXPECT_EQ(events[3].code, TrapCode::kEscalated);
}

TEST(Events, EveryEffectCallAndSandboxEntryExitAndBreach) {
  auto p = mty::Program::FromSource(R"(fn main() -> I64 {
    let a = std.env.var("HOME")
    let b = std.fs.exists("/")
    sandbox Quiet with { env = [] } {
        let c = std.env.var("HOME")
    }
    let _ = std.time.sleep(1ms)
    sandbox Tight with { steps = 50 } {
        let mut i = 0
        while true { i += 1 }
    }
    0
}
)",
                                    "fx.mty");
  ASSERT_TRUE(p.ok()) << p.status();
  std::vector<Event> events;
  mty::RunOptions o;
  o.policy.grants.Set(mty::GrantId::kEnv, std::vector<std::string>{"HOME"});
  o.policy.grants.Set(mty::GrantId::kFsRead, std::vector<std::string>{"/"});
  o.on_event = [&](const Event& e) { events.push_back(e); };
  mty::RunResult r = (*p)->Run(o);
  EXPECT_EQ(r.outcome, Outcome::kBreach) << r.Report();
  EXPECT_EQ(r.sandbox(), "Tight");
  std::vector<std::string> seen;
  for (const Event& e : events) {
    switch (e.kind) {
      case Event::Kind::kEffect:
        seen.push_back(absl::StrCat("effect ", e.effect, " ", e.target, " ",
                                    e.allowed ? "allowed" : "denied", " ", e.sandbox, " ", e.line));
        break;
      case Event::Kind::kDenied:
        seen.push_back(absl::StrCat("denied ", e.target, " ", e.sandbox));
        break;
      case Event::Kind::kSandboxEntered:
        seen.push_back(absl::StrCat("entered ", e.sandbox, " ", e.line));
        break;
      case Event::Kind::kSandboxLeft: seen.push_back(absl::StrCat("left ", e.sandbox)); break;
      case Event::Kind::kSandboxBreach:
        seen.push_back(
            absl::StrCat("breach ", e.sandbox, " ", e.limit, " ", mty::TrapText(e.code)));
        break;
      default: seen.push_back("other");
    }
  }
  const std::vector<std::string> want = {
      "effect std.env.var HOME allowed  2",
      "effect std.fs.exists / allowed  3",
      "entered Quiet 4",
      "denied HOME Quiet",
      "effect std.env.var HOME denied Quiet 5",
      "left Quiet",
      "effect std.time.sleep 1ms allowed  7",
      "entered Tight 8",
      "breach Tight steps MT5009",
  };
  EXPECT_EQ(seen, want);
}

// Record and replay through the API: a run with a host function, a file, the
// clock and a sleep, replayed from its JSON lines with the host function
// unavailable (it counts its calls), the file gone and the clock elsewhere.
TEST(Record, ReplayServesEveryInputFromTheRecording) {
  const std::string dir = ::testing::TempDir() + "/mty_record_api";
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/in.txt";
  { std::ofstream(file) << "from the file"; }
  Kv kv;
  kv.data["k"] = "from the host";
  const std::string src = absl::StrCat(R"(fn main() -> I64 {
    let f = std.fs.read(")",
                                       file, R"(").unwrap()
    let h = match host.kv.get("k") { Some(v) => v, None => "none" }
    let t0 = std.time.now().unwrap()
    let _ = std.time.sleep(2ms)
    log(format!("{} / {} / {}", f, h, t0))
    f.len()
}
)");
  auto p = Compile(src, KvLinker(&kv));
  ASSERT_TRUE(p);
  mty::Recording rec;
  std::string out1;
  mty::RunOptions o = Granting({"kv"});
  o.policy.grants.Set(mty::GrantId::kFsRead, std::vector<std::string>{dir});
  o.policy.limits.Set(mty::LimitId::kSteps, 1'000'000);
  o.record = &rec;
  o.on_stdout = [&](std::string_view s) { out1 += s; };
  mty::RunResult r1 = p->Run(o);
  ASSERT_EQ(r1.outcome, Outcome::kOk) << r1.Report();
  EXPECT_TRUE(rec.ended());
  EXPECT_GE(rec.inputs(), 4u);  // fs.read, host.kv.get, time.now, sleep (and clock readings)
  EXPECT_EQ(kv.calls.load(), 1);

  std::filesystem::remove(file);
  kv.data.clear();
  absl::StatusOr<mty::Recording> back = mty::Recording::FromJsonLines(rec.ToJsonLines());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->policy(), o.policy);
  std::string out2;
  mty::RunOptions ro;  // no grants, no limits: the recording's apply
  ro.replay = &*back;
  ro.on_stdout = [&](std::string_view s) { out2 += s; };
  mty::RunResult r2 = p->Run(ro);
  EXPECT_EQ(r2.divergence, "");
  EXPECT_EQ(r2.outcome, Outcome::kOk) << r2.Report();
  EXPECT_EQ(out2, out1);
  EXPECT_EQ(r2.exit_code, r1.exit_code);
  EXPECT_EQ(r2.steps_used, r1.steps_used);
  EXPECT_GT(r2.steps_used, 0u);
  EXPECT_EQ(kv.calls.load(), 1);  // the host function was not called again

  // A changed program diverges at its first different input, located.
  auto changed = Compile(absl::StrReplaceAll(src, {{"\"k\"", "\"other\""}}), KvLinker(&kv));
  ASSERT_TRUE(changed);
  mty::RunResult r3 = changed->Run(ro);
  EXPECT_NE(
      r3.divergence.find("input 2 (line 3) of the recording is host.kv.get(\"k\") at job.mty:3"),
      std::string::npos)
      << r3.divergence;
  EXPECT_NE(r3.divergence.find("host.kv.get(\"other\")"), std::string::npos) << r3.divergence;
  EXPECT_NE(r3.divergence.find("the program changed"), std::string::npos) << r3.divergence;
  EXPECT_EQ(kv.calls.load(), 1);

  // Malformed recordings are refused with the line.
  absl::StatusOr<mty::Recording> bad = mty::Recording::FromJsonLines("{\"mty_recording\":1}\n");
  EXPECT_FALSE(bad.ok());
  EXPECT_FALSE(mty::Recording::FromJsonLines("").ok());
  mty::RunOptions both;
  both.record = &rec;
  both.replay = &*back;
  EXPECT_EQ(p->Run(both).outcome, Outcome::kInvalid);
}

TEST(Outcomes, EachKindFromThePublicApi) {
  struct Case {
    const char* src;
    std::function<void(mty::RunOptions&)> set;
    Outcome want;
    absl::StatusCode status;
  };
  const Case cases[] = {
      {"fn main() -> I64 { 3 }", nullptr, Outcome::kOk, absl::StatusCode::kOk},
      {"fn main() -> Result[I64, Str] { Err(\"e\") }", nullptr, Outcome::kMainErr,
       absl::StatusCode::kAborted},
      {"fn main() -> I64 { let z = 0\n 1 / z }", nullptr, Outcome::kTrap,
       absl::StatusCode::kAborted},
      {"fn main() { loop { } }",
       [](mty::RunOptions& o) { o.policy.limits.Set(mty::LimitId::kSteps, 1000); },
       Outcome::kBreach, absl::StatusCode::kResourceExhausted},
      {"fn main() { }", [](mty::RunOptions& o) { o.entry = "start"; }, Outcome::kNoEntry,
       absl::StatusCode::kNotFound},
      {"fn main() { }", [](mty::RunOptions& o) { o.entry = ""; }, Outcome::kInvalid,
       absl::StatusCode::kInvalidArgument},
  };
  for (const Case& c : cases) {
    auto p = mty::Program::FromSource(c.src, "o.mty");
    ASSERT_TRUE(p.ok()) << c.src << p.status();
    mty::RunOptions o;
    if (c.set) c.set(o);
    mty::RunResult r = (*p)->Run(o);
    EXPECT_EQ(r.outcome, c.want) << c.src << r.Report();
    EXPECT_EQ(r.ToStatus().code(), c.status) << c.src;
    if (r.outcome != Outcome::kInvalid) {
      EXPECT_GT(r.wall_ns, 0u);
    }
  }
}

TEST(Diagnostics, CompileErrorsAreStructured) {
  std::vector<mty::Diagnostic> diags;
  mty::CompileOptions o;
  o.diagnostics = &diags;
  auto p =
      mty::Program::FromSource("fn main() {\n  let x = undefined_name\n  nope()\n}\n", "e.mty", o);
  ASSERT_FALSE(p.ok());
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags[0].line, 2);
  EXPECT_GT(diags[0].column, 0);
  EXPECT_EQ(diags[1].line, 3);
  EXPECT_EQ(diags[0].code, "MT1001");
  EXPECT_EQ(diags[1].code, "MT1002");
  // MtyIR errors are located too.
  diags.clear();
  auto q = mty::Program::FromIrText("fn main() -> () {\nbb0:\n  _0 = 1 +\n}\n", "bad.mtyir", o);
  ASSERT_FALSE(q.ok());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].file, "bad.mtyir");
  EXPECT_EQ(diags[0].line, 3);
  EXPECT_GT(diags[0].column, 0);
  EXPECT_EQ(diags[0].message.find("bad.mtyir"), std::string::npos) << diags[0].message;
}

}  // namespace
