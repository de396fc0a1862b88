// budget_charges: the original design's suite, extended. Step budgets are
// exact (N steps pass with budget N, breach with N-1, wherever the breach
// lands); memory charges are the deterministic estimates of runtime.md §2.
#include <string>

#include "gtest/gtest.h"
#include "mty/mty.h"

namespace {

std::shared_ptr<const mty::Program> Compile(const std::string& text) {
  auto p = mty::Program::FromIrText(text, "budget.mtyir");
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : nullptr;
}

struct Outcome {
  mty::RunResult r;
  std::string out;
};

Outcome RunWith(const std::shared_ptr<const mty::Program>& p, uint64_t steps, uint64_t memory) {
  Outcome run;
  mty::RunOptions o;
  // 0 here means no limit (a limit of 0 would allow nothing).
  if (steps) o.policy.limits.Set(mty::LimitId::kSteps, steps);
  if (memory) o.policy.limits.Set(mty::LimitId::kMemory, memory);
  o.on_stdout = [&](std::string_view s) { run.out.append(s); };
  run.r = p->Run(o);
  return run;
}

// fn main() -> I32 { let mut n = 0; loop { n = n + 1 }; n }
constexpr const char* kTightLoop = R"(
fn main() -> I32 {
  let mut _1: I32
bb0:
  _1 = 0
  goto bb1
bb1:
  _1 = copy _1 + 1
  goto bb1
}
)";

// let xs = [1, 2, 3, 4]; xs.len() as I32
constexpr const char* kArray = R"(
fn main() -> I32 {
  let _1: [I64]
  let _2: I64
bb0:
  _1 = [1, 2, 3, 4]
  _2 = len copy _1
  _0 = cast copy _2 as I32
  return
}
)";

TEST(BudgetCharges, StepBudgetTripsATightLoop) {
  auto p = Compile(kTightLoop);
  Outcome r = RunWith(p, 100, 0);
  EXPECT_EQ(r.r.outcome, mty::Outcome::kBreach);
  EXPECT_EQ(r.r.exit_code, 3);
  // The step that went over is counted: the 101st (the breach's observed).
  EXPECT_EQ(r.r.steps_used, 101u);
  EXPECT_EQ(r.r.steps_used, r.r.breach->observed);
  EXPECT_EQ(r.r.Report().substr(0, 48), "trap MT5009: step budget exceeded: 100 steps\n  a");
}

TEST(BudgetCharges, MemBudgetTripsWhenArrayAllocExceedsCap) {
  auto p = Compile(kArray);
  Outcome r = RunWith(p, 100000, 32);
  ASSERT_EQ(r.r.outcome, mty::Outcome::kBreach);
  EXPECT_EQ(r.r.mem_used, 88u);
  EXPECT_EQ(r.r.mem_limit, 32u);
  EXPECT_EQ(r.r.exit_code, 4);
  EXPECT_EQ(r.r.Report().substr(0, r.r.Report().find('\n')),
            "trap MT5009: memory budget exceeded: used 88 B > limit 32 B");
  EXPECT_EQ(r.r.ToStatus().code(), absl::StatusCode::kResourceExhausted);
}

TEST(BudgetCharges, MemBudgetDoesNotTripWhenCapIsGenerous) {
  Outcome r = RunWith(Compile(kArray), 100000, 1 << 20);
  EXPECT_EQ(r.r.outcome, mty::Outcome::kOk);
  EXPECT_EQ(r.r.exit_code, 4);  // main returns 4 (the length)
  EXPECT_EQ(r.r.mem_used, 88u);
}

TEST(BudgetCharges, ZeroMemBudgetMeansUnlimited) {
  Outcome r = RunWith(Compile(kArray), 100000, 0);
  EXPECT_EQ(r.r.outcome, mty::Outcome::kOk);
  Outcome both_off = RunWith(Compile(kArray), 0, 0);
  EXPECT_EQ(both_off.r.outcome, mty::Outcome::kOk);
}

TEST(BudgetCharges, LimitEqualityPasses) {
  EXPECT_EQ(RunWith(Compile(kArray), 0, 88).r.outcome, mty::Outcome::kOk);
  EXPECT_EQ(RunWith(Compile(kArray), 0, 87).r.outcome, mty::Outcome::kBreach);
}

TEST(BudgetCharges, MemBudgetExceededExitCodeIsFour) {
  Outcome run = RunWith(Compile(kArray), 0, 1);
  EXPECT_EQ(run.r.outcome, mty::Outcome::kBreach);
  EXPECT_EQ(run.r.exit_code, 4);
}

// A program of exactly N steps passes with budget N and breaches with N-1,
// also when the steps are spread over calls, loops and nops; and the output
// produced before a breach is exactly the output of the steps that ran.
constexpr const char* kMixed = R"(
fn twice(_1: I64) -> I64 {
  let _2: Unit
bb0:
  nop
  _2 = call @log(copy _1)
  _0 = copy _1 * 2
  return
}
fn main() -> I64 {
  let mut _1: I64
  let _2: Bool
  let _3: I64
bb0:
  storage_live _1
  _1 = 0
  goto bb1
bb1:
  _2 = copy _1 < 3
  if copy _2 then bb2 else bb3
bb2:
  _3 = call twice(copy _1)
  _1 = copy _1 + 1
  goto bb1
bb3:
  _0 = copy _3
  return
}
)";
// Steps: bb0 3; each of 3 iterations: bb1 2 + bb2 3 + callee 4 = 9; final
// bb1 2; bb3 2. Total 3 + 27 + 2 + 2 = 34.
constexpr uint64_t kMixedSteps = 34;

TEST(BudgetCharges, ExactlyNStepsPassWithBudgetNAndBreachWithNMinusOne) {
  auto p = Compile(kMixed);
  Outcome ok = RunWith(p, kMixedSteps, 0);
  EXPECT_EQ(ok.r.outcome, mty::Outcome::kOk);
  EXPECT_EQ(ok.r.steps_used, kMixedSteps);
  EXPECT_EQ(ok.out, "0\n1\n2\n");
  Outcome breach = RunWith(p, kMixedSteps - 1, 0);
  EXPECT_EQ(breach.r.outcome, mty::Outcome::kBreach);
  EXPECT_EQ(breach.r.exit_code, 3);
}

TEST(BudgetCharges, EveryBudgetBreachesAtExactlyTheRightStep) {
  // With budget k the run executes exactly k steps (steps_used counts the
  // k+1-th, which breached): the log in `twice` is the
  // 2nd statement of its body, so its i-th line appears once its step ran.
  auto p = Compile(kMixed);
  // Step numbers (1-based) of the three log statements.
  const uint64_t log_steps[] = {3 + 2 + 1 + 2, 3 + 9 + 2 + 1 + 2, 3 + 18 + 2 + 1 + 2};
  for (uint64_t k = 1; k < kMixedSteps; ++k) {
    Outcome r = RunWith(p, k, 0);
    ASSERT_EQ(r.r.outcome, mty::Outcome::kBreach) << k;
    EXPECT_EQ(r.r.steps_used, k + 1);
    std::string want;
    for (int i = 0; i < 3; ++i)
      if (log_steps[i] <= k) want += std::to_string(i) + "\n";
    EXPECT_EQ(r.out, want) << "budget " << k;
  }
}

uint64_t ChargeOf(const std::string& locals, const std::string& body) {
  auto p = Compile("struct Point { x: I64, y: I64 }\nfn main() -> Unit {\n" + locals + "bb0:\n" +
                   body + "  return\n}\n");
  Outcome r = RunWith(p, 0, 1 << 30);
  EXPECT_EQ(r.r.outcome, mty::Outcome::kOk) << r.r.message;
  return r.r.mem_used;
}

TEST(BudgetCharges, ExactChargeOfEachAllocatingRvalue) {
  EXPECT_EQ(ChargeOf("  let _1: Point\n", "  _1 = new Point(1, 2)\n"), 24u + 16 + 16);
  EXPECT_EQ(ChargeOf("  let _1: Option[I64]\n", "  _1 = new Option::None()\n"), 24u);
  EXPECT_EQ(ChargeOf("  let _1: Option[I64]\n", "  _1 = new Option::Some(5)\n"), 40u);
  EXPECT_EQ(ChargeOf("  let _1: (I64, Str)\n", "  _1 = tuple(1, \"ab\")\n"), 16u + 16 + 26);
  EXPECT_EQ(ChargeOf("  let _1: [I64]\n", "  _1 = [1, 2, 3, 4]\n"), 88u);
  // [[1]]: the inner array (40) and then the outer (24 + 40).
  EXPECT_EQ(ChargeOf("  let _1: [I64]\n  let _2: [[I64]]\n", "  _1 = [1]\n  _2 = [move _1]\n"),
            40u + 64);
  // A multi-byte UTF-8 string is charged by bytes: "日本" is 6 bytes.
  EXPECT_EQ(ChargeOf("  let _1: [Str]\n", "  _1 = [\"日本\"]\n"), 24u + 24 + 6);
  EXPECT_EQ(ChargeOf("  let _1: Str\n", "  _1 = \"日\" + \"本\"\n"), 24u + 6);
  // Unit, Bool, Char are 8; floats, durations and sizes 16.
  EXPECT_EQ(ChargeOf("  let _1: [Unit]\n", "  _1 = [(), true, 'x', 1.5, 2s, 4KiB]\n"),
            24u + 8 + 8 + 8 + 16 + 16 + 16);
  // A map: 24 + key + value per entry.
  EXPECT_EQ(ChargeOf("  let _1: Map[Str, I64]\n", "  _1 = map{\"k\": 1}\n"), 24u + 25 + 16);
  // Growing a vector charges each pushed element; to_str charges 24 + length.
  EXPECT_EQ(ChargeOf("  let _1: [I64]\n  let _2: Unit\n", "  _1 = []\n  _2 = method _1, push(7)\n"),
            24u + 16);
  EXPECT_EQ(ChargeOf("  let _1: Str\n", "  _1 = call @to_str(12345)\n"), 24u + 5);
  // Constants and plain copies are free.
  EXPECT_EQ(ChargeOf("  let _1: Str\n  let _2: Str\n", "  _1 = \"abc\"\n  _2 = copy _1\n"), 0u);
}

constexpr const char* kAllocInCallee = R"(
fn make() -> [I64] {
bb0:
  _0 = [1, 2, 3, 4]
  return
}
fn main() -> I32 {
  let _1: [I64]
bb0:
  _1 = call make()
  _0 = 0
  return
}
)";

TEST(BudgetCharges, BreachInsideACalledFunctionMatchesTopLevel) {
  Outcome top = RunWith(Compile(kArray), 100000, 32);
  Outcome nested = RunWith(Compile(kAllocInCallee), 100000, 32);
  EXPECT_EQ(nested.r.outcome, top.r.outcome);
  EXPECT_EQ(nested.r.mem_used, top.r.mem_used);
  EXPECT_EQ(nested.r.mem_limit, top.r.mem_limit);
  EXPECT_EQ(nested.r.exit_code, 4);
  EXPECT_EQ(nested.r.backtrace.size(), 2u);
  // Steps too: a loop inside a callee breaches with exit 3, not swallowed.
  auto p = Compile(R"(
fn spin() -> Unit {
bb0:
  goto bb0
}
fn main() -> I64 {
  let _1: Unit
bb0:
  _1 = call spin()
  _0 = 0
  return
}
)");
  Outcome r = RunWith(p, 1000, 0);
  EXPECT_EQ(r.r.outcome, mty::Outcome::kBreach);
  EXPECT_EQ(r.r.exit_code, 3);
  EXPECT_EQ(r.r.steps_used, 1001u);  // the step that breached included
}

TEST(BudgetCharges, StringGrowthInALoopIsCharged) {
  // Upstream charges nothing for concatenation; mty charges each new string.
  auto p = Compile(R"(
fn main() -> Unit {
  let mut _1: Str
bb0:
  _1 = ""
  goto bb1
bb1:
  _1 = copy _1 + "xxxxxxxxxx"
  goto bb1
}
)");
  Outcome r = RunWith(p, 0, 1 << 20);
  EXPECT_EQ(r.r.outcome, mty::Outcome::kBreach);
  EXPECT_GT(r.r.mem_used, 1u << 20);
}

// The bytecode leaves out copies whose value can be read from their source
// (`_3 = copy _2; _4 = copy _3`), computes a result straight into the local
// a following copy names (`_5 = a + b; _1 = copy _5`), merges a block into
// its only predecessor and copies a short returning block into the goto that
// reaches it (docs/performance.md). None of that may move a step: with every
// budget k the run stops exactly after k steps, at the statement of step
// k + 1, in the function that statement belongs to.
constexpr const char* kElided = R"(
fn pick(_1: I64) -> I64 {
  let mut _2: I64
  let mut _3: Bool
  let mut _4: I64
  let mut _5: I64
bb0:
  _3 = copy _1 < 2
  if copy _3 then bb1 else bb2
bb1:
  _2 = copy _1
  goto bb3
bb2:
  _4 = copy _1 - 1
  _5 = copy _4
  _2 = copy _5
  goto bb3
bb3:
  _0 = copy _2
  return
}
fn main() -> I64 {
  let mut _1: I64
  let mut _2: I64
  let mut _3: I64
  let mut _4: I64
  let mut _5: I64
  let mut _6: Bool
bb0:
  _1 = 0
  _2 = 0
  goto bb1
bb1:
  _6 = copy _2 < 3
  if copy _6 then bb2 else bb4
bb2:
  _3 = copy _2
  _4 = copy _3
  _5 = copy _1 + copy _4
  _1 = copy _5
  goto bb3
bb3:
  _2 = copy _2 + 1
  _5 = call pick(copy _2)
  goto bb1
bb4:
  _0 = copy _1
  return
}
)";

TEST(BudgetCharges, LeftOutCopiesAndMergedBlocksKeepEveryStepAndItsStatement) {
  // The statements in the order they run, by (function, line of the text
  // above, counting the opening newline as line 1).
  std::vector<std::pair<std::string, int>> trace = {{"main", 30}, {"main", 31}, {"main", 32}};
  for (int arg = 1; arg <= 3; ++arg) {
    for (int line : {34, 35, 37, 38, 39, 40, 41, 43, 44}) trace.push_back({"main", line});
    for (int line : {8, 9}) trace.push_back({"pick", line});
    if (arg < 2) {
      for (int line : {11, 12}) trace.push_back({"pick", line});
    } else {
      for (int line : {14, 15, 16, 17}) trace.push_back({"pick", line});
    }
    for (int line : {19, 20}) trace.push_back({"pick", line});
    trace.push_back({"main", 45});
  }
  for (int line : {34, 35, 47, 48}) trace.push_back({"main", line});
  auto p = Compile(kElided);
  Outcome ok = RunWith(p, trace.size(), 0);
  ASSERT_EQ(ok.r.outcome, mty::Outcome::kOk) << ok.r.message;
  EXPECT_EQ(ok.r.exit_code, 3);  // 0 + 1 + 2
  EXPECT_EQ(ok.r.steps_used, trace.size());
  for (uint64_t k = 1; k < trace.size(); ++k) {
    Outcome r = RunWith(p, k, 0);
    ASSERT_EQ(r.r.outcome, mty::Outcome::kBreach) << k;
    EXPECT_EQ(r.r.steps_used, k + 1);  // the step that breached included
    ASSERT_FALSE(r.r.backtrace.empty()) << k;
    const auto& [fn, line] = trace[k];
    EXPECT_EQ(r.r.backtrace[0], fn + " (budget.mtyir:" + std::to_string(line) + ":3)")
        << "budget " << k;
  }
}

}  // namespace
