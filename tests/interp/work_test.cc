// Steps measure work (runtime.md §2): over the adversarial corpus in
// tests/work_corpus, the work a run really did (mty/interp/work.h: bytes and
// elements touched, loop iterations) stays within 64 x the steps it was
// charged plus a small constant; a charge too large for the budget breaches
// before the work; work past the scheduler's quantum is paid and the task
// yields instead of being preempted forever.
#include "mty/interp/work.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "mty/mty.h"

namespace {

constexpr uint64_t kSteps = 2'000'000;
constexpr uint64_t kSlack = 4096;  // the small constant: setup outside the loops
// Units of work per step. A build without NDEBUG runs Abseil's debug checks,
// which hash and compare map keys again on each lookup (real work, but only
// in those builds): map_big_string_keys does 56 units per step in a release
// build and 64.5 in the sanitizer build.
#ifdef NDEBUG
constexpr uint64_t kPerStep = 64;
#else
constexpr uint64_t kPerStep = 72;
#endif

std::vector<std::string> CorpusFiles() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(MTY_WORK_CORPUS_DIR))
    if (e.path().extension() == ".mty") out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class WorkCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(WorkCorpus, WorkStaysWithin64TimesTheStepsCharged) {
  const std::string file = GetParam();
  auto p = mty::Program::FromSource(ReadFile(std::string(MTY_WORK_CORPUS_DIR) + "/" + file), file);
  ASSERT_TRUE(p.ok()) << p.status();
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kSteps, kSteps);
  mty::interp::ResetWorkUnits();
  auto start = std::chrono::steady_clock::now();
  mty::RunResult r = (*p)->Run(o);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                  start)
                .count();
  const uint64_t work = mty::interp::WorkUnits();
  // Every corpus program loops until its step budget runs out.
  EXPECT_EQ(r.outcome, mty::Outcome::kBreach) << r.Report();
  ASSERT_TRUE(r.breach.has_value());
  EXPECT_EQ(r.breach->limit, mty::LimitId::kSteps);
  EXPECT_EQ(r.steps_used, kSteps + 1);  // the step that breached included
  EXPECT_LE(work, kPerStep * r.steps_used + kSlack)
      << file << ": " << work << " work units for " << r.steps_used << " steps ("
      << static_cast<double>(work) / static_cast<double>(r.steps_used) << " per step)";
  // Real time too, loosely (the benchmark measures it properly): 2M steps
  // of the heaviest operations take well under a few seconds.
  EXPECT_LT(ms, 20000) << file;
  std::cout << file << ": " << static_cast<double>(work) / static_cast<double>(r.steps_used)
            << " work units per step, " << ms << " ms\n";
}

INSTANTIATE_TEST_SUITE_P(Corpus, WorkCorpus, ::testing::ValuesIn(CorpusFiles()),
                         [](const ::testing::TestParamInfo<std::string>& i) {
                           std::string n = i.param.substr(0, i.param.size() - 4);
                           return n;
                         });

mty::RunResult RunSteps(const std::string& src, uint64_t steps, std::string* out = nullptr) {
  auto p = mty::Program::FromSource(src, "t.mty");
  EXPECT_TRUE(p.ok()) << p.status();
  mty::RunOptions o;
  if (steps) o.policy.limits.Set(mty::LimitId::kSteps, steps);
  if (out) o.on_stdout = [out](std::string_view s) { out->append(s); };
  return p.ok() ? (*p)->Run(o) : mty::RunResult{};
}

// The charge of one operation, measured as the difference of two runs.
uint64_t StepsOf(const std::string& setup, const std::string& op) {
  mty::RunResult base = RunSteps("fn main() {\n" + setup + "\n}\n", 1'000'000'000);
  mty::RunResult with = RunSteps("fn main() {\n" + setup + "\n" + op + ";\n}\n", 1'000'000'000);
  EXPECT_EQ(with.outcome, mty::Outcome::kOk) << with.Report();
  return with.steps_used - base.steps_used;
}

TEST(WorkCharges, OneStepPlusOnePer64UnitsTouched) {
  // The same statement on large and on tiny operands: the difference is
  // the work charge alone, floor(units / 64) steps (cost.h).
  const std::string setup =
      "    let s = \"a\".repeat(64000)\n    let t = \"b\".repeat(640)\n"
      "    let u = \"a\"\n    let v = \"b\"";
  auto extra = [&](const std::string& big, const std::string& tiny) {
    return StepsOf(setup, "    let r = " + big) - StepsOf(setup, "    let r = " + tiny);
  };
  // contains: a linear search, 2n + 3m units.
  EXPECT_EQ(extra("s.contains(t)", "u.contains(v)"), (2 * 64000 + 3 * 640) / 64);
  // starts_with: m units.
  EXPECT_EQ(extra("s.starts_with(t)", "u.starts_with(v)"), 640 / 64);
  // to_upper: reads and writes n bytes.
  EXPECT_EQ(extra("s.to_upper()", "u.to_upper()"), 2 * 64000 / 64);
  // len is constant work.
  EXPECT_EQ(extra("s.len()", "u.len()"), 0u);
  // Under 64 units an operation costs only its statement's steps: repeat(k)
  // touches k pieces and k x n bytes.
  EXPECT_EQ(extra("u.repeat(31)", "u.repeat(1)"), 0u);
  EXPECT_EQ(extra("u.repeat(32)", "u.repeat(1)"), 1u);
}

TEST(WorkCharges, LibraryStrMethodsChargeTheirWork) {
  // The issue-16 string methods charge the bytes they touch, as split and
  // to_upper do (cost.h): a 64000-byte receiver against a 1-byte one.
  const std::string setup =
      "    let s = \"a \".repeat(32000)\n    let u = \"a\"\n"
      "    let w = \"\\u{e9} \".repeat(16000)\n    let x = \"\\u{e9}\"";
  auto extra = [&](const std::string& big, const std::string& tiny) {
    return StepsOf(setup, "    let r = " + big) - StepsOf(setup, "    let r = " + tiny);
  };
  // split_whitespace and char_indices: the scan, the copies, the pieces.
  EXPECT_EQ(extra("s.split_whitespace()", "u.split_whitespace()"), 3 * 64000 / 64);
  EXPECT_EQ(extra("s.char_indices()", "u.char_indices()"), 3 * 64000 / 64);
  // A non-ASCII to_upper: read and written, as the ASCII one.
  EXPECT_EQ(extra("w.to_upper()", "x.to_upper()"), 2 * 48000 / 64 - 2 * 2 / 64);
  // strip_prefix: the prefix compared, the rest copied.
  EXPECT_EQ(extra("s.strip_prefix(\"a\")", "u.strip_prefix(\"a\")"), (64000 - 1) / 64);
  // Char and Int methods are constant work.
  EXPECT_EQ(extra("'a'.is_alphabetic()", "'a'.is_ascii()"), 0u);
  EXPECT_EQ(extra("7.checked_pow(62)", "7.checked_add(1)"), 0u);
}

TEST(WorkCharges, LibraryStrEditsChargeTheShift) {
  // insert at the front shifts every byte; at the end, none.
  const std::string setup = "    let mut s = \"a\".repeat(64000)";
  EXPECT_EQ(StepsOf(setup, "    s.insert(0, 'b')") - StepsOf(setup, "    s.insert(64000, 'b')"),
            64000u / 64);
  EXPECT_EQ(StepsOf(setup, "    s.remove(0)") - StepsOf(setup, "    s.remove(63999)"),
            64000u / 64 - 1u / 64);
}

TEST(WorkCharges, SameChargeOnEveryRun) {
  const std::string src =
      "fn main() {\n  let s = \"xy\".repeat(50000)\n  let mut a = s.split(\"y\")\n  a.sort()\n"
      "  log(a.join(\",\").len())\n}\n";
  mty::RunResult a = RunSteps(src, 1'000'000'000);
  mty::RunResult b = RunSteps(src, 1'000'000'000);
  EXPECT_EQ(a.outcome, mty::Outcome::kOk) << a.Report();
  EXPECT_EQ(a.steps_used, b.steps_used);
  EXPECT_GT(a.steps_used, 5000u);  // the work is charged, not one step per call
}

TEST(WorkCharges, ABreachComesBeforeTheWork) {
  // Building the 1 MB string takes about 31 000 steps and printing it
  // about 15 600 more: with 40 000 the print breaches before it writes.
  std::string out;
  mty::RunResult r =
      RunSteps("fn main() {\n  let s = \"z\".repeat(1000000)\n  log(\"before\")\n  log(s)\n}\n",
               40000, &out);
  EXPECT_EQ(r.outcome, mty::Outcome::kBreach) << r.Report();
  EXPECT_EQ(out, "before\n");
  EXPECT_EQ(r.steps_used, 40001u);  // the step that breached included
}

TEST(WorkCharges, AnExactBudgetPassesAndOneLessBreaches) {
  const std::string src =
      "fn main() {\n  let s = \"q\".repeat(100000)\n  let n = s.find(\"r\")\n  log(n)\n}\n";
  mty::RunResult full = RunSteps(src, 1'000'000'000);
  ASSERT_EQ(full.outcome, mty::Outcome::kOk) << full.Report();
  mty::RunResult exact = RunSteps(src, full.steps_used);
  EXPECT_EQ(exact.outcome, mty::Outcome::kOk) << exact.Report();
  mty::RunResult less = RunSteps(src, full.steps_used - 1);
  EXPECT_EQ(less.outcome, mty::Outcome::kBreach) << less.Report();
}

TEST(WorkCharges, WorkPastTheQuantumIsPaidAndTheTaskGoesOn) {
  // One operation of about 160 000 steps inside an agent's turn, where the
  // scheduler's quantum is 10 000 steps: it is charged in full and the
  // turn completes (it is not preempted before it again and again).
  std::string out;
  mty::RunResult r = RunSteps(R"(
agent Big {
    on Go() -> { "x".repeat(10000000).len() }
}
fn main() {
    let b = spawn Big()
    log(b?Go())
}
)",
                              1'000'000'000, &out);
  EXPECT_EQ(r.outcome, mty::Outcome::kOk) << r.Report();
  EXPECT_EQ(out, "10000000\n");
  EXPECT_GT(r.steps_used, 10000000u / 64);
}

}  // namespace
