// The interpreter through its own API (this file is also built against the
// `switch` dispatch variant): semantics, traps, value semantics, the
// explicit frame stack, suspension and interruption.
#include <thread>

#include "gtest/gtest.h"
#include "mty/interp/bytecode.h"
#include "mty/interp/vm.h"
#include "mty/ir/text.h"

namespace mty::interp {
namespace {

// A test double of the budget chain (runtime::BudgetTracker is the real
// one, a layer above): one level, a step limit and a depth limit.
class TestMeter : public Meter {
 public:
  explicit TestMeter(ir::Policy p) : policy_(std::move(p)) {}
  std::optional<ir::Breach> Charge(uint64_t steps, uint64_t memory, int64_t) override {
    steps_ += steps;
    memory_ += memory;
    auto lim = policy_.limits.Get(ir::LimitId::kSteps);
    if (lim && steps_ > *lim) return ir::Breach::Over(ir::LimitId::kSteps, steps_, *lim);
    return std::nullopt;
  }
  std::optional<ir::Breach> ChargeOutput(uint64_t) override { return std::nullopt; }
  std::optional<ir::Breach> RecordSpawn() override { return std::nullopt; }
  std::optional<uint64_t> RemainingSteps() const override {
    auto lim = policy_.limits.Get(ir::LimitId::kSteps);
    if (!lim) return std::nullopt;
    return steps_ >= *lim ? 0 : *lim - steps_;
  }
  std::optional<uint64_t> RemainingMemory() const override {
    auto lim = policy_.limits.Get(ir::LimitId::kMemory);
    if (!lim) return std::nullopt;
    return memory_ >= *lim ? 0 : *lim - memory_;
  }
  std::optional<int64_t> RemainingCpu() const override { return std::nullopt; }
  std::optional<int64_t> WallDeadline() const override { return std::nullopt; }
  std::optional<ir::Breach> Exhausted(ir::LimitId id) const override {
    auto lim = policy_.limits.Get(id);
    if (id == ir::LimitId::kSteps && lim && steps_ >= *lim)
      return ir::Breach::Over(id, steps_ + 1, *lim);
    return std::nullopt;
  }
  const ir::Policy& policy() const override { return policy_; }
  const std::string& name() const override { return name_; }
  const Meter* parent() const override { return nullptr; }
  std::optional<ir::Breach> CheckGrant(ir::GrantId, std::string_view) const override {
    return std::nullopt;
  }
  std::shared_ptr<const FsGrant> FsGrantOf(ir::GrantId) const override { return nullptr; }
  std::shared_ptr<Meter> Enter(const ir::SandboxDecl& decl) override {
    return std::make_shared<TestMeter>(decl.policy);
  }
  uint64_t steps() const { return steps_; }
  uint64_t memory() const { return memory_; }

 private:
  ir::Policy policy_;
  std::string name_;
  uint64_t steps_ = 0, memory_ = 0;
};

std::shared_ptr<Meter> Limits(std::optional<uint64_t> steps = std::nullopt,
                              uint64_t depth = ir::kDefaultDepth) {
  ir::Policy p;
  p.limits.Set(ir::LimitId::kSteps, steps);
  p.limits.Set(ir::LimitId::kDepth, depth);
  return std::make_shared<TestMeter>(p);
}
std::shared_ptr<Meter> DepthLimit(uint64_t depth) { return Limits(std::nullopt, depth); }

class CaptureHost : public Host {
 public:
  void Stdout(std::string_view s) override { out.append(s); }
  void Stderr(std::string_view s) override { err.append(s); }
  std::string out, err;
};

struct Result {
  ExecOutcome o;
  std::string out;
  std::string value;
};

std::shared_ptr<const Module> Build(const std::string& text) {
  auto p = ir::ParseText(text, "t.mtyir");
  EXPECT_TRUE(p.ok()) << p.status();
  if (!p.ok()) return nullptr;
  auto m = Compile(*p, "t.mtyir");
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *m : nullptr;
}

Result RunText(const std::string& text, std::shared_ptr<Meter> limits = Limits()) {
  Result r;
  auto m = Build(text);
  if (!m) return r;
  CaptureHost host;
  Task task(m, &host, limits);
  std::string err;
  EXPECT_TRUE(task.Start(m->FindFunction("main"), {}, &err)) << err;
  do {
    r.o = task.Run();
  } while (r.o.kind == Outcome::kSuspended);
  r.out = host.out;
  if (r.o.kind == Outcome::kOk) r.value = Debug(*m, r.o.value);
  return r;
}

std::string Main(const std::string& ret, const std::string& locals, const std::string& body) {
  return "fn main() -> " + ret + " {\n" + locals + "bb0:\n" + body + "  return\n}\n";
}

TEST(Interp, IntegerArithmeticAndComparison) {
  auto r = RunText(Main("I64", "  let _1: I64\n  let _2: Bool\n",
                        "  _1 = 7 * 6\n  _1 = copy _1 - 2\n  _1 = copy _1 / 3\n  _1 = copy _1 % 5\n"
                        "  _2 = copy _1 == 3\n  _0 = copy _1 << 4\n"));
  ASSERT_EQ(r.o.kind, Outcome::kOk) << r.o.message;
  EXPECT_EQ(r.value, "48");
}

TEST(Interp, TrapCodes) {
  struct Case {
    const char* body;
    const char* code;
    const char* message;
  };
  const Case cases[] = {
      {"  _1 = 1 / 0\n", "MT5003", "division by zero"},
      {"  _1 = 1 % 0\n", "MT5003", "remainder by zero"},
      {"  _1 = 9223372036854775807 + 1\n", "MT5004", "integer overflow in '+'"},
      {"  _1 = -9223372036854775808 / -1\n", "MT5004", "integer overflow in '/'"},
      {"  _1 = 1 << 64\n", "MT5004", "shift by 64 is out of range 0..63"},
      // Through `Any` (the verifier rejects `1 + "a"` written plainly).
      {"  _2 = \"a\"\n  _1 = 1 + copy _2\n", "MT5016", "cannot apply '+' to Int and Str"},
      {"  _1 = [1]\n  _1 = index copy _1, 3\n", "MT5017", "index 3 out of range"},
      {"  _1 = 5\n  _2 = move _1\n  _2 = copy _1\n", "MT5002", "use of a moved or dropped value"},
      {"  _1 = 5\n  drop _1\n  _2 = copy _1 + 1\n", "MT5002", "use of a moved or dropped value"},
      {"  _1 = call @panic(\"boom\")\n", "MT5001", "panic: boom"},
      {"  _1 = call @assert(false)\n", "MT5001", "assertion failed"},
      {"  _1 = new Option::None()\n  _2 = method _1, unwrap()\n", "MT5001",
       "called unwrap on None"},
      {"  _1 = 1\n  _2 = method _1, frobnicate()\n", "MT5008",
       "unknown method 'frobnicate' on Int"},
      // Methods come from the builtin table: its arity, its receivers.
      {"  _1 = \"abc\"\n  _2 = method _1, len(1)\n", "MT5016",
       "method len takes 0 argument(s), given 1"},
      {"  _1 = 2\n  _2 = method _1, sqrt()\n", "MT5008", "unknown method 'sqrt' on Int"},
      {"  effect std.fs.read(\"/etc/passwd\")\n", "MT5008", "unknown effect 'std.fs.read'"},
      {"  _1 = spawn Worker()\n", "MT5008", "agents are not supported"},
  };
  for (const Case& c : cases) {
    // `Any` locals: each case's value is checked by the run, not the verifier.
    auto r = RunText(Main("Unit", "  let _1: Any\n  let _2: Any\n", c.body));
    EXPECT_EQ(r.o.kind, Outcome::kTrap) << c.body;
    EXPECT_STREQ(mty::ir::TrapText(r.o.code), c.code) << c.body;
    EXPECT_NE(r.o.message.find(c.message), std::string::npos) << c.body << " got " << r.o.message;
    ASSERT_FALSE(r.o.backtrace.empty());
    EXPECT_EQ(r.o.backtrace[0].function, "main");
  }
}

TEST(Interp, TrapInCalleeAbortsTheWholeTaskWithBacktrace) {
  auto r = RunText(R"(
fn inner(_1: I64) -> I64 {
bb0:
  _0 = 10 / copy _1
  return
}
fn main() -> I64 {
  let _1: I64
bb0:
  _1 = call inner(0)
  _0 = call @log("not reached")
  return
}
)");
  EXPECT_EQ(r.o.kind, Outcome::kTrap);
  EXPECT_STREQ(mty::ir::TrapText(r.o.code), "MT5003");
  EXPECT_EQ(r.out, "");
  ASSERT_EQ(r.o.backtrace.size(), 2u);
  EXPECT_EQ(r.o.backtrace[0].function, "inner");
  EXPECT_EQ(r.o.backtrace[0].loc, (ir::Loc{4, 3}));
  EXPECT_EQ(r.o.backtrace[1].function, "main");
  EXPECT_EQ(r.o.backtrace[1].loc, (ir::Loc{10, 3}));
}

TEST(Interp, CopyOnWriteValueSemantics) {
  auto r = RunText(Main("Unit", "  let _1: [I64]\n  let _2: [I64]\n  let _3: I64\n  let _4: Unit\n",
                        "  _1 = [1, 2, 3]\n  _2 = copy _1\n  _3 = 0\n  _2[_3] = 99\n"
                        "  _4 = method _2, push(4)\n"
                        "  _4 = call @log(copy _1)\n  _4 = call @log(copy _2)\n"));
  ASSERT_EQ(r.o.kind, Outcome::kOk) << r.o.message;
  EXPECT_EQ(r.out, "[1, 2, 3]\n[99, 2, 3, 4]\n");
}

TEST(Interp, MutableReferenceParameterMutatesCaller) {
  auto r = RunText(R"(
struct P { x: I64, y: I64 }
fn P::bump(_1: &mut P, _2: I64) -> Unit {
bb0:
  _1.*.f0 = copy _1.*.f0 + copy _2
  return
}
fn main() -> Unit {
  let _1: P
  let _2: Unit
  let _3: &mut P
bb0:
  _1 = new P(1, 2)
  _2 = method _1, bump(10)
  _3 = &mut _1
  _2 = call P::bump(copy _3, 100)
  _2 = call @log(copy _1)
  return
}
)");
  ASSERT_EQ(r.o.kind, Outcome::kOk) << r.o.message;
  EXPECT_EQ(r.out, "P { x: 111, y: 2 }\n");
}

TEST(Interp, ClosuresCaptureByValue) {
  auto r = RunText(R"(
fn add(_1: I64, _2: I64) -> I64 {
bb0:
  _0 = copy _1 + copy _2
  return
}
fn main() -> I64 {
  let _1: I64
  let _2: fn(I64) -> I64
bb0:
  _1 = 40
  _2 = closure add(copy _1)
  _1 = 0
  _0 = call_indirect copy _2(2)
  return
}
)");
  ASSERT_EQ(r.o.kind, Outcome::kOk) << r.o.message;
  EXPECT_EQ(r.value, "42");
}

constexpr const char* kRecurse = R"(
fn down(_1: I64) -> I64 {
  let _2: Bool
  let _3: I64
bb0:
  _2 = copy _1 == 0
  if copy _2 then bb1 else bb2
bb1:
  _0 = 0
  return
bb2:
  _3 = copy _1 - 1
  _0 = call down(copy _3)
  _0 = copy _0 + 1
  return
}
fn main() -> I64 {
bb0:
  _0 = call down(N)
  return
}
)";

std::string Recurse(int n) {
  std::string s = kRecurse;
  s.replace(s.find("N)"), 1, std::to_string(n));
  return s;
}

TEST(Interp, DeepRecursionUsesNoHostStack) {
  // 200k guest frames: far beyond what a recursive C++ interpreter survives.
  auto r = RunText(Recurse(200000), DepthLimit(300000));
  ASSERT_EQ(r.o.kind, Outcome::kOk) << r.o.message;
  EXPECT_EQ(r.value, "200000");
}

TEST(Interp, DepthLimitTrapsMT5018) {
  // The depth limit is a limit of the budget chain: a breach with its code.
  auto r = RunText(Recurse(50000));  // default limit 10000
  EXPECT_EQ(r.o.kind, Outcome::kBreach);
  ASSERT_TRUE(r.o.breach.has_value());
  EXPECT_EQ(r.o.breach->limit, ir::LimitId::kDepth);
  EXPECT_EQ(r.o.breach->observed, 10001u);
  EXPECT_STREQ(mty::ir::TrapText(r.o.code), "MT5018");
  EXPECT_EQ(r.o.message, "call depth exceeded: 10000 frames");
  auto small = RunText(Recurse(100), DepthLimit(50));
  EXPECT_STREQ(mty::ir::TrapText(small.o.code), "MT5018");
  auto fits = RunText(Recurse(48), DepthLimit(50));
  EXPECT_EQ(fits.o.kind, Outcome::kOk);
}

TEST(Interp, DeeplyNestedValuesAreFreedIteratively) {
  // Wrap a value a million times, then drop it: freeing must not recurse.
  auto r = RunText(R"(
fn main() -> Unit {
  let _1: Option[I64]
  let _2: I64
  let _3: Bool
bb0:
  _1 = new Option::None()
  _2 = 0
  goto bb1
bb1:
  _3 = copy _2 < 1000000
  if copy _3 then bb2 else bb3
bb2:
  _1 = new Option::Some(move _1)
  _2 = copy _2 + 1
  goto bb1
bb3:
  drop _1
  return
}
)");
  EXPECT_EQ(r.o.kind, Outcome::kOk) << r.o.message;
}

TEST(Interp, SuspendAndResume) {
  auto m = Build(R"(
fn main() -> I64 {
bb0:
  _0 = call @log("before")
  suspend resume bb1
bb1:
  _0 = call @log("after")
  _0 = 7
  return
}
)");
  ASSERT_TRUE(m);
  CaptureHost host;
  ir::Policy p;
  p.limits.Set(ir::LimitId::kSteps, 100);
  auto meter = std::make_shared<TestMeter>(p);
  Task task(m, &host, meter);
  std::string err;
  ASSERT_TRUE(task.Start(m->main_index, {}, &err));
  ExecOutcome o = task.Run();
  EXPECT_EQ(o.kind, Outcome::kSuspended);
  EXPECT_EQ(host.out, "before\n");
  EXPECT_EQ(meter->steps(), 2u);  // flushed to the chain when the task stopped
  o = task.Run();
  ASSERT_EQ(o.kind, Outcome::kOk);
  EXPECT_EQ(host.out, "before\nafter\n");
  EXPECT_EQ(meter->steps(), 5u);
}

// An agent's turns run in new tasks that reuse a finished task's buffers
// (Task::Buffers): the stacks are charged by what the task itself grows
// them to, as for a fresh task, never by the capacity the buffers kept.
TEST(Interp, ATaskOnReusedBuffersChargesItsStacksAsAFreshOne) {
  auto m = Build(R"(mtyir 1
fn down(_1: I64) -> I64 {
  let _2: Bool
  let _3: I64
  let _4: I64
bb0:
  _2 = copy _1 == 0
  if copy _2 then bb1 else bb2
bb1:
  _0 = 0
  return
bb2:
  _3 = copy _1 - 1
  _4 = call down(copy _3)
  _0 = copy _4 + 1
  return
}

fn main() -> I64 {
bb0:
  _0 = call down(100)
  return
}
)");
  ASSERT_TRUE(m);
  CaptureHost host;
  std::string err;
  auto run = [&](Task& task, const std::shared_ptr<TestMeter>& meter) {
    EXPECT_TRUE(task.Start(m->main_index, {}, &err)) << err;
    ExecOutcome o = task.Run();
    EXPECT_EQ(o.kind, Outcome::kOk) << o.message;
    EXPECT_EQ(Debug(*m, o.value), "100");
    return meter->memory();
  };
  ir::Policy policy;  // memory is charged when a memory limit is set
  policy.limits.Set(ir::LimitId::kMemory, uint64_t{1} << 30);
  auto fresh_meter = std::make_shared<TestMeter>(policy);
  Task fresh(m, &host, fresh_meter);
  const uint64_t charged = run(fresh, fresh_meter);
  // 101 frames: the frame stack grew past its 16 free slots (to 128) and
  // the registers past their 64.
  EXPECT_GE(charged, 64u * (128 - 16));  // 64 B per frame slot (runtime.md §2)
  Task::Buffers buffers = fresh.TakeBuffers();
  EXPECT_GE(buffers.frames.capacity(), 101u);
  for (int i = 0; i < 3; ++i) {
    auto meter = std::make_shared<TestMeter>(policy);
    Task reused(m, &host, meter, std::move(buffers));
    EXPECT_EQ(run(reused, meter), charged) << "reuse " << i;
    buffers = reused.TakeBuffers();
  }
}

TEST(Interp, InterruptStopsASpinningTask) {
  auto m = Build("fn main() -> Unit {\nbb0:\n  goto bb0\n}\n");
  ASSERT_TRUE(m);
  CaptureHost host;
  Task task(m, &host, Limits());
  std::string err;
  ASSERT_TRUE(task.Start(m->main_index, {}, &err));
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    task.Interrupt();
  });
  ExecOutcome o = task.Run();
  stopper.join();
  EXPECT_EQ(o.kind, Outcome::kCancelled);
}

TEST(Interp, StringsAndMaps) {
  auto r =
      RunText(Main("Unit",
                   "  let _1: Str\n  let _2: Map[Str, I64]\n  let _3: Unit\n  let _4: Str\n"
                   "  let _5: I64\n",
                   "  _1 = \"h\\u{e9}llo\"\n  _1 = copy _1 + \", w\\u{f6}rld\"\n  _4 = \"k\"\n"
                   "  _2 = map{\"a\": 1}\n  _2[_4] = 2\n  _2[_4] = 3\n  _3 = call @log(copy _1)\n"
                   "  _3 = call @log(copy _2)\n  _5 = len copy _1\n  _3 = call @log(copy _5)\n"
                   "  _5 = index copy _2, \"a\"\n  _3 = call @log(copy _5)\n"));
  ASSERT_EQ(r.o.kind, Outcome::kOk) << r.o.message;
  EXPECT_EQ(r.out, "h\u00e9llo, w\u00f6rld\n{\"a\": 1, \"k\": 3}\n14\n1\n");
}

// Runs `text` after replacing each Str constant "@N" by bytes[N]: strings
// the text format cannot hold (bytes that are not UTF-8), as a host may make.
Result RunWithBytes(const std::string& text, const std::vector<std::string>& bytes) {
  Result r;
  auto p = ir::ParseText(text, "t.mtyir");
  EXPECT_TRUE(p.ok()) << p.status();
  if (!p.ok()) return r;
  for (ir::Function& f : p->functions)
    for (ir::Block& b : f.blocks)
      for (ir::Statement& st : b.stmts)
        for (ir::Operand& o : st.rvalue.ops)
          if (o.constant.kind == ir::Constant::Kind::kStr && o.constant.s.starts_with("@"))
            o.constant.s = bytes.at(std::stoul(o.constant.s.substr(1)));
  auto m = Compile(*p, "t.mtyir");
  EXPECT_TRUE(m.ok()) << m.status();
  if (!m.ok()) return r;
  CaptureHost host;
  Task task(*m, &host, Limits());
  std::string err;
  EXPECT_TRUE(task.Start((*m)->FindFunction("main"), {}, &err)) << err;
  do {
    r.o = task.Run();
  } while (r.o.kind == Outcome::kSuspended);
  r.out = host.out;
  return r;
}

TEST(Interp, StringMethodsCountEachIllFormedRunAsOneChar) {
  // "a\xFFb" used to lose its `b` in chars() (0xFF read as a 4-byte lead)
  // and "\xE2\x82" (truncated) swallowed the `z` after it.
  auto r = RunWithBytes(Main("Unit", "  let _1: Str\n  let _2: Any\n  let _3: Str\n",
                             "  _1 = \"@0\"\n  _2 = method _1, chars()\n  _0 = call @log(copy _2)\n"
                             "  _2 = method _1, char_at(1)\n  _0 = call @log(copy _2)\n"
                             "  _2 = method _1, char_at(2)\n  _0 = call @log(copy _2)\n"
                             "  _2 = method _1, slice(2, 3)\n  _0 = call @log(copy _2)\n"
                             "  _2 = method _1, split(\"\")\n  _0 = call @log(copy _2)\n"
                             "  _2 = method _1, len()\n  _0 = call @log(copy _2)\n"
                             "  _3 = \"@1\"\n  _2 = method _3, chars()\n  _0 = call @log(copy _2)\n"
                             "  _2 = method _3, slice(0, 9)\n  _0 = call @log(copy _2)\n"),
                        {"a\xFF"
                         "b",
                         "\xE2\x82z\xC3\xA9"});
  EXPECT_EQ(r.out,
            "['a', '\uFFFD', 'b']\nSome('\uFFFD')\nSome('b')\nb\n[\"a\", \"\\xff\", \"b\"]\n3\n"
            "['\uFFFD', 'z', '\u00E9']\n");
  // slice(0, 9) of a 3-char string is out of range, and says 3 chars.
  ASSERT_EQ(r.o.kind, Outcome::kTrap);
  EXPECT_NE(r.o.message.find("slice 0..9 out of range for a string of 3 chars"), std::string::npos)
      << r.o.message;
}

TEST(Interp, PrintingFollowsTheLanguageRules) {
  auto r = RunText(R"(
struct Point { x: I64, y: I64 }
fn main() -> Unit {
  let _1: Unit
  let _2: [Str]
  let _3: (I64,)
bb0:
  _1 = call @log(7.0)
  _1 = call @log(0.1)
  _1 = call @log(150ms)
  _1 = call @log(1000B)
  _1 = call @log(128MiB)
  _2 = ["a", "b"]
  _1 = call @log(copy _2)
  _3 = tuple(1)
  _1 = call @log(copy _3)
  _1 = call @log('x')
  _1 = call @debug_str("q")
  _1 = call @log(copy _1)
  return
}
)");
  ASSERT_EQ(r.o.kind, Outcome::kOk) << r.o.message;
  EXPECT_EQ(r.out, "7\n0.1\n150ms\n1000B\n128MiB\n[\"a\", \"b\"]\n(1,)\nx\n\"q\"\n");
}

}  // namespace
}  // namespace mty::interp

namespace mty::interp {
namespace {

// The agent plumbing (spawn/send/ask through the host; an ask that waits
// suspends the task until Resume delivers the reply). The scheduler that
// implements these for real is the agent runtime's.
class AgentHost : public CaptureHost {
 public:
  std::optional<Value> Spawn(int init_fn, std::string_view agent, std::vector<Value>& args,
                             HostError*) override {
    log += std::string("spawn ") + std::string(agent) + "/" + std::to_string(args.size()) + ";";
    return Value::Agent(7, static_cast<uint32_t>(init_fn));
  }
  AskStatus Send(const Value& target, std::string_view msg, std::vector<Value>& args,
                 HostError*) override {
    log += "send " + std::to_string(target.i()) + " " + std::string(msg) + "(" +
           std::to_string(args.size() ? args[0].i() : -1) + ");";
    return AskStatus::kReply;
  }
  AskStatus Ask(const Value& target, std::string_view msg, std::vector<Value>&,
                std::optional<int64_t> deadline, Value* reply, HostError* err) override {
    log += "ask " + std::to_string(target.i()) + " " + std::string(msg) +
           (deadline ? " within " + std::to_string(*deadline) : "") + ";";
    if (msg == "Now") {
      *reply = Value::Int(5);
      return AskStatus::kReply;
    }
    if (msg == "Bad") {
      err->code = mty::ir::TrapCode::kDeadAgent;
      err->message = "ask failed: dead agent";
      return AskStatus::kFail;
    }
    return AskStatus::kWait;
  }
  std::string log;
};

const char* kAgentProgram = R"(mtyir 1
struct __agent_A { n: I64 }
fn A::__init() -> __agent_A {
bb0:
  _0 = new __agent_A(0)
  return
}
fn main() -> I64 {
  let mut _1: Agent
  let mut _2: Unit
  let mut _3: I64
  let mut _4: I64
bb0:
  _1 = spawn A()
  _2 = send copy _1, Inc(3)
  _3 = ask copy _1, Now()
  _4 = ask copy _1, Later() within 2s
  _0 = copy _3 + copy _4
  return
}
)";

TEST(Interp, AgentOpsGoThroughTheHostAndAnAskCanWait) {
  auto m = Build(kAgentProgram);
  ASSERT_TRUE(m);
  AgentHost host;
  Task task(m, &host, Limits());
  std::string err;
  ASSERT_TRUE(task.Start(m->FindFunction("main"), {}, &err)) << err;
  ExecOutcome o = task.Run();
  ASSERT_EQ(o.kind, Outcome::kSuspended) << o.message;
  EXPECT_EQ(host.log, "spawn A/0;send 7 Inc(3);ask 7 Now;ask 7 Later within 2000000000;");
  task.Resume(Value::Int(37));
  o = task.Run();
  ASSERT_EQ(o.kind, Outcome::kOk) << o.message;
  EXPECT_EQ(Debug(*m, o.value), "42");
  EXPECT_EQ(Debug(*m, Value::Agent(7, static_cast<uint32_t>(m->FindFunction("A::__init")))),
            "<agent A#7>");
}

TEST(Interp, AgentOpsWithoutAnAgentHostTrapMT5008) {
  auto r = RunText(kAgentProgram);
  ASSERT_EQ(r.o.kind, Outcome::kTrap);
  EXPECT_STREQ(mty::ir::TrapText(r.o.code), "MT5008");
  EXPECT_EQ(r.o.message, "spawn A: agents are not supported by this runtime yet");
}

TEST(Interp, AFailedAskTrapsWithTheHostsCode) {
  std::string text = kAgentProgram;
  text.replace(text.find("Now()"), 5, "Bad()");
  auto m = Build(text);
  ASSERT_TRUE(m);
  AgentHost host;
  Task task(m, &host, Limits());
  std::string err;
  ASSERT_TRUE(task.Start(m->FindFunction("main"), {}, &err)) << err;
  ExecOutcome o = task.Run();
  ASSERT_EQ(o.kind, Outcome::kTrap);
  EXPECT_STREQ(mty::ir::TrapText(o.code), "MT5021");
  EXPECT_EQ(o.message, "ask failed: dead agent");
}

}  // namespace
}  // namespace mty::interp
