// The embedding API: compile once, run many times (also concurrently),
// typed results and statuses, host interruption.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "mty/mty.h"
#include "mty/stdlib/fs_cap.h"

namespace {

std::optional<mty::LimitId> LimitOf(const mty::RunResult& r) {
  return r.breach ? r.breach->limit : std::nullopt;
}
std::string SandboxOf(const mty::RunResult& r) { return r.breach ? r.breach->sandbox : ""; }

constexpr const char* kCounter = R"(
fn main() -> I64 {
  let mut _1: I64
  let _2: Bool
  let _3: Unit
bb0:
  _1 = 0
  goto bb1
bb1:
  _2 = copy _1 < 1000
  if copy _2 then bb2 else bb3
bb2:
  _1 = copy _1 + 1
  goto bb1
bb3:
  _3 = call @log(copy _1)
  _0 = 7
  return
}
)";

TEST(Api, CompileErrorsAreLocated) {
  auto p = mty::Program::FromIrText("fn main() -> Unit {\nbb0:\n  goto bb9\n}\n", "x.mtyir");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(p.status().message(),
            "x.mtyir:3:3: error: in fn main: block bb9 does not exist (fn has bb0..bb0)");
}

// Source diagnostics reach the embedder with their severity, spans and
// labels; warnings also when the compile succeeds, failing it under
// deny_warnings; the rendered text is coloured only when asked.
TEST(Api, SourceDiagnosticsHaveSpansLabelsAndWarnings) {
  std::vector<mty::Diagnostic> diags;
  mty::CompileOptions o;
  o.diagnostics = &diags;
  auto bad =
      mty::Program::FromSource("fn main() {\n    let x = max(1, 2\n    log(x)\n}\n", "bad.mty", o);
  ASSERT_FALSE(bad.ok());
  ASSERT_EQ(diags.size(), 1u);
  const mty::Diagnostic& e = diags[0];
  EXPECT_EQ(e.severity, mty::Diagnostic::Severity::kError);
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(e.column, 5);
  EXPECT_EQ(e.end_line, 3);
  EXPECT_EQ(e.end_column, 7);  // `log`, the whole token
  ASSERT_EQ(e.labels.size(), 1u);
  EXPECT_EQ(e.labels[0].line, 2);
  EXPECT_EQ(e.labels[0].column, 16);
  EXPECT_EQ(e.labels[0].end_column, 16);
  EXPECT_EQ(e.labels[0].message, "unclosed delimiter");
  EXPECT_EQ(std::string(bad.status().message()).find('\x1b'), std::string::npos);

  const std::string warned = "fn main() {\n    if (1 > 0) {\n        log(1)\n    }\n}\n";
  diags.clear();
  std::string rendered = "stale";
  o.rendered_warnings = &rendered;
  auto ok = mty::Program::FromSource(warned, "w.mty", o);
  ASSERT_TRUE(ok.ok()) << ok.status();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].severity, mty::Diagnostic::Severity::kWarning);
  EXPECT_EQ(diags[0].code, "MT0040");
  EXPECT_EQ(diags[0].notes, std::vector<std::string>{"help: remove these parentheses"});
  EXPECT_NE(rendered.find("warning[MT0040]: unnecessary parentheses around `if` condition"),
            std::string::npos)
      << rendered;
  EXPECT_NE(rendered.find("\nwarning: 1 warning emitted\n"), std::string::npos) << rendered;
  EXPECT_EQ(ok->get()->Run(mty::RunOptions{}).exit_code, 0);

  // No warnings: the rendered text is emptied.
  rendered = "stale";
  ASSERT_TRUE(mty::Program::FromSource("fn main() {}\n", "n.mty", o).ok());
  EXPECT_EQ(rendered, "");

  diags.clear();
  o.deny_warnings = true;
  o.color = true;
  auto denied = mty::Program::FromSource(warned, "w.mty", o);
  ASSERT_FALSE(denied.ok());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].severity, mty::Diagnostic::Severity::kError);
  const std::string text(denied.status().message());
  EXPECT_NE(text.find("\x1b[1;91merror[MT0040]"), std::string::npos) << text;
  EXPECT_NE(text.find("warnings are denied"), std::string::npos) << text;
}

TEST(Api, RunsManyTimesAndConcurrentlyWithFreshState) {
  auto p = mty::Program::FromIrText(kCounter, "c.mtyir");
  ASSERT_TRUE(p.ok());
  std::vector<std::thread> threads;
  std::vector<std::string> outs(4);
  std::vector<int> codes(4);
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&, i] {
      for (int k = 0; k < 20; ++k) {
        mty::RunOptions o;
        o.policy.limits.Set(mty::LimitId::kSteps, 100000);
        std::string out;
        o.on_stdout = [&](std::string_view s) { out.append(s); };
        mty::RunResult r = (*p)->Run(o);
        outs[i] += out;
        codes[i] = r.exit_code;
      }
    });
  }
  for (auto& t : threads) t.join();
  std::string want;
  for (int k = 0; k < 20; ++k) want += "1000\n";
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(outs[i], want);
    EXPECT_EQ(codes[i], 7);
  }
}

TEST(Api, NoMainAndErrResults) {
  auto p = mty::Program::FromIrText("fn other() -> Unit {\nbb0:\n  return\n}\n", "n.mtyir");
  ASSERT_TRUE(p.ok());
  mty::RunResult r = (*p)->Run({});
  EXPECT_EQ(r.outcome, mty::Outcome::kNoEntry);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.Report(), "error: program has no fn main\n");
  EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kNotFound);

  auto e = mty::Program::FromIrText(
      "fn main() -> Result[I64, Str] {\nbb0:\n  _0 = new Result::Err(\"boom\")\n  return\n}\n",
      "e.mtyir");
  ASSERT_TRUE(e.ok());
  r = (*e)->Run({});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.Report(), "error MT5006: main returned Err(\"boom\")\n");
}

TEST(Api, MainIntegerIsClampedToAnExitCode) {
  for (auto [v, want] : {std::pair{"300", 255}, {"-5", 0}, {"42", 42}}) {
    auto p = mty::Program::FromIrText(
        std::string("fn main() -> I64 {\nbb0:\n  _0 = ") + v + "\n  return\n}\n", "i.mtyir");
    ASSERT_TRUE(p.ok());
    EXPECT_EQ((*p)->Run({}).exit_code, want) << v;
  }
}

TEST(Api, HostCanInterruptARun) {
  auto p = mty::Program::FromIrText("fn main() -> Unit {\nbb0:\n  goto bb0\n}\n", "s.mtyir");
  ASSERT_TRUE(p.ok());
  mty::Runner runner(*p, {});
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    runner.Interrupt();
  });
  mty::RunResult r = runner.Run();
  t.join();
  EXPECT_EQ(r.outcome, mty::Outcome::kCancelled);
  EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kCancelled);
}

TEST(Api, TrapStatusAndReport) {
  auto p = mty::Program::FromIrText("fn main() -> Unit {\nbb0:\n  panic \"no\"\n}\n", "p.mtyir");
  ASSERT_TRUE(p.ok());
  mty::RunResult r = (*p)->Run({});
  EXPECT_EQ(r.outcome, mty::Outcome::kTrap);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.Report(), "trap MT5001: panic: no\n  at main (p.mtyir:3:3)\n");
  EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kAborted);
}

// ---- budgets, sandboxes and manifests ----

// A guest spinning in pure computation: no effects, no calls, only a
// backward jump (a safepoint) per iteration.
constexpr const char* kSpin = "fn main() -> Unit {\nbb0:\n  goto bb0\n}\n";

std::shared_ptr<const mty::Program> MustCompile(std::string_view text, std::string_view file) {
  auto p = file.ends_with(".mtyir") ? mty::Program::FromIrText(text, file)
                                    : mty::Program::FromSource(text, file);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : nullptr;
}

// How many threads this process has now (Linux).
size_t ThreadCount() {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator("/proc/self/task")) {
    (void)e;
    ++n;
  }
  return n;
}

// The thread count once threads that were just joined have left
// /proc/self/task (a joined thread can linger there briefly).
size_t SettledThreadCount() {
  size_t n = ThreadCount();
  for (int i = 0; i < 50; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    n = std::min(n, ThreadCount());
  }
  return n;
}

TEST(Api, WallBudgetStopsASpinningGuestWithin100msOfItsDeadline) {
  auto p = MustCompile(kSpin, "spin.mtyir");
  ASSERT_TRUE(p);
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kWall, 200'000'000);
  auto start = std::chrono::steady_clock::now();
  mty::RunResult r = p->Run(o);
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(r.outcome, mty::Outcome::kBreach);
  EXPECT_EQ(LimitOf(r), mty::LimitId::kWall);
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_STREQ(mty::ir::TrapText(r.code), "MT5009");
  EXPECT_EQ(r.message, "wall-clock budget exceeded: 200ms");
  EXPECT_EQ(SandboxOf(r), "");
  EXPECT_EQ(r.Report(),
            "trap MT5009: wall-clock budget exceeded: 200ms\n  at main (spin.mtyir:3:3)\n");
  EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kResourceExhausted);
  // Not before the deadline, and within 100 ms after it.
  EXPECT_GE(elapsed, std::chrono::milliseconds(200));
  EXPECT_LT(elapsed, std::chrono::milliseconds(300))
      << std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count() << " ms";
}

TEST(Api, CpuBudgetStopsASpinningGuest) {
  auto p = MustCompile(kSpin, "spin.mtyir");
  ASSERT_TRUE(p);
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kCpu, 50'000'000);
  auto start = std::chrono::steady_clock::now();
  mty::RunResult r = p->Run(o);
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(r.outcome, mty::Outcome::kBreach);
  EXPECT_EQ(LimitOf(r), mty::LimitId::kCpu);
  EXPECT_EQ(r.exit_code, 6);
  EXPECT_STREQ(mty::ir::TrapText(r.code), "MT5009");
  EXPECT_EQ(r.message, "cpu budget exceeded: 50ms");
  EXPECT_EQ(SandboxOf(r), "");
  EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kResourceExhausted);
  // A spinning thread uses CPU at most as fast as wall time.
  EXPECT_GE(elapsed, std::chrono::milliseconds(50));
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

TEST(Api, InterruptWinsOverPendingBudgetsAndIsCancelled) {
  auto p = MustCompile(kSpin, "spin.mtyir");
  ASSERT_TRUE(p);
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kWall,
                      30'000'000'000);  // a watchdog is running, far from its deadlines
  o.policy.limits.Set(mty::LimitId::kCpu, 30'000'000'000);
  mty::Runner runner(p, o);
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    runner.Interrupt();
  });
  auto start = std::chrono::steady_clock::now();
  mty::RunResult r = runner.Run();
  auto elapsed = std::chrono::steady_clock::now() - start;
  t.join();
  EXPECT_EQ(r.outcome, mty::Outcome::kCancelled);
  EXPECT_FALSE(r.breach.has_value());
  EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kCancelled);
  // The report says where the run was interrupted.
  EXPECT_EQ(r.Report(), "error: run cancelled by the host\n  at main (spin.mtyir:3:3)\n");
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

constexpr const char* kSandboxSpin = R"(
sandbox "Tool" { steps = 10 }

sandbox "Clock" { wall = 50ms }

fn spin() -> Unit {
bb0:
  goto bb0
}

fn main() -> Unit {
  let _1: Unit
bb0:
  _1 = call @log("in")
  sandbox_enter "Tool"
  _1 = call spin()
  sandbox_exit
  return
}
)";

TEST(Api, ASandboxBreachNamesTheSandbox) {
  auto p = MustCompile(kSandboxSpin, "sb.mtyir");
  ASSERT_TRUE(p);
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kSteps,
                      1'000'000);  // roomier than the sandbox: the sandbox's limit breaches
  std::string out;
  o.on_stdout = [&](std::string_view s) { out.append(s); };
  mty::RunResult r = p->Run(o);
  EXPECT_EQ(out, "in\n");
  EXPECT_EQ(r.outcome, mty::Outcome::kBreach);
  EXPECT_EQ(LimitOf(r), mty::LimitId::kSteps);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_STREQ(mty::ir::TrapText(r.code), "MT5009");
  EXPECT_EQ(SandboxOf(r), "Tool");
  EXPECT_TRUE(r.message.starts_with("sandbox Tool: ")) << r.message;
  EXPECT_EQ(r.message, "sandbox Tool: step budget exceeded: 10 steps");
  ASSERT_EQ(r.backtrace.size(), 2u);
  EXPECT_EQ(r.backtrace[0], "spin (sb.mtyir:8:3)");
  EXPECT_EQ(r.backtrace[1], "main (sb.mtyir:16:3)");

  // The run's own budget, tighter than the sandbox's, breaches in its name.
  o.policy.limits.Set(mty::LimitId::kSteps, 5);
  r = p->Run(o);
  EXPECT_EQ(LimitOf(r), mty::LimitId::kSteps);
  EXPECT_EQ(SandboxOf(r), "");
  EXPECT_EQ(r.message, "step budget exceeded: 5 steps");
}

TEST(Api, ASandboxWallBreachNamesTheSandbox) {
  std::string text = kSandboxSpin;
  text.replace(text.find("sandbox_enter \"Tool\""), 20, "sandbox_enter \"Clock\"");
  auto p = MustCompile(text, "sbw.mtyir");
  ASSERT_TRUE(p);
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kWall, 30'000'000'000);
  auto start = std::chrono::steady_clock::now();
  mty::RunResult r = p->Run(o);
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(r.outcome, mty::Outcome::kBreach);
  EXPECT_EQ(LimitOf(r), mty::LimitId::kWall);
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_EQ(SandboxOf(r), "Clock");
  EXPECT_EQ(r.message, "sandbox Clock: wall-clock budget exceeded: 50ms");
  EXPECT_LT(elapsed, std::chrono::milliseconds(150));
}

TEST(Api, ManifestStepsTighterThanTheBudgetWin) {
  auto p = MustCompile(kCounter, "c.mtyir");
  ASSERT_TRUE(p);
  // Flags and a manifest combine by Policy::Intersect (what `mty run
  // --manifest` does): the tighter limit wins.
  mty::Policy flags, manifest;
  flags.limits.Set(mty::LimitId::kSteps, 100000);
  manifest.limits.Set(mty::LimitId::kSteps, 50);
  mty::RunOptions o;
  o.policy = mty::Policy::Intersect(flags, manifest);
  mty::RunResult r = p->Run(o);
  EXPECT_EQ(r.outcome, mty::Outcome::kBreach);
  EXPECT_EQ(LimitOf(r), mty::LimitId::kSteps);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.message, "step budget exceeded: 50 steps");
  EXPECT_EQ(SandboxOf(r), "");
  // And the other way round: the tighter flag wins over a roomy manifest.
  flags.limits.Set(mty::LimitId::kSteps, 40);
  manifest.limits.Set(mty::LimitId::kSteps, 100000);
  o.policy = mty::Policy::Intersect(flags, manifest);
  r = p->Run(o);
  EXPECT_EQ(r.message, "step budget exceeded: 40 steps");
  // Both roomy: the program finishes.
  flags.limits.Set(mty::LimitId::kSteps, 100000);
  o.policy = mty::Policy::Intersect(flags, manifest);
  r = p->Run(o);
  EXPECT_EQ(r.outcome, mty::Outcome::kOk);
  EXPECT_EQ(r.exit_code, 7);
}

// A directory tree for the capability tests, removed afterwards.
class TempTree {
 public:
  TempTree() {
    root_ = std::filesystem::path(::testing::TempDir()) /
            ("mty_api_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(root_);
    std::filesystem::create_directories(root_ / "a");
    std::filesystem::create_directories(root_ / "b");
    Write("a/x.txt", "in a\n");
    Write("b/y.txt", "in b\n");
    Write("top.txt", "at the top\n");
  }
  ~TempTree() { std::filesystem::remove_all(root_); }
  std::string Path(std::string_view rel) const { return (root_ / rel).string(); }

 private:
  void Write(std::string_view rel, std::string_view text) { std::ofstream(root_ / rel) << text; }
  std::filesystem::path root_;
};

// Reads each path and prints its text or the error.
std::string ReaderSource(const std::vector<std::string>& paths) {
  std::string s =
      "fn show(p: Str) {\n"
      "    match std.fs.read(p) {\n"
      "        Ok(s) => print(s),\n"
      "        Err(e) => log(e),\n"
      "    }\n"
      "}\n"
      "fn main() {\n";
  for (const std::string& p : paths) s += "    show(\"" + p + "\")\n";
  return s + "}\n";
}

TEST(Api, ManifestFsReadIntersectsWithAllowRead) {
  TempTree tree;
  auto p =
      MustCompile(ReaderSource({tree.Path("a/x.txt"), tree.Path("b/y.txt"), tree.Path("top.txt")}),
                  "reader.mty");
  ASSERT_TRUE(p);
  auto run = [&](std::vector<std::string> allow, std::optional<std::vector<std::string>> man) {
    mty::Policy flags, manifest;
    if (!allow.empty()) flags.grants.Set(mty::GrantId::kFsRead, std::move(allow));
    if (man) manifest.grants.Set(mty::GrantId::kFsRead, std::move(*man));
    mty::RunOptions o;
    o.policy = mty::Policy::Intersect(flags, manifest);
    std::string out;
    o.on_stdout = [&](std::string_view s) { out.append(s); };
    mty::RunResult r = p->Run(o);
    EXPECT_EQ(r.outcome, mty::Outcome::kOk) << r.Report();
    return out;
  };
  const std::string only_a =
      "in a\nforbidden: " + tree.Path("b/y.txt") + "\nforbidden: " + tree.Path("top.txt") + "\n";
  // The whole tree by flag, a (and a directory outside the tree) by manifest:
  // the intersection is a.
  EXPECT_EQ(run({tree.Path("")}, std::vector<std::string>{tree.Path("a"), "/nonexistent-mty"}),
            only_a);
  // The other way round gives the same.
  EXPECT_EQ(run({tree.Path("a")}, std::vector<std::string>{tree.Path("")}), only_a);
  // Disjoint grants: nothing is readable.
  EXPECT_EQ(run({tree.Path("a")}, std::vector<std::string>{tree.Path("b")}),
            "forbidden: " + tree.Path("a/x.txt") + "\nforbidden: " + tree.Path("b/y.txt") +
                "\nforbidden: " + tree.Path("top.txt") + "\n");
  // A family given only by the manifest is the manifest's list.
  EXPECT_EQ(run({}, std::vector<std::string>{tree.Path("a")}), only_a);
  // Only the flag: the flag's list.
  EXPECT_EQ(run({tree.Path("")}, std::nullopt), "in a\nin b\nat the top\n");
}

constexpr const char* kEffects = R"(fn main() {
    let a = std.fs.read("in/a.txt")
    let b = std.fs.write("out/b.txt", "x")
    let c = std.net.get("https://api.example.com/x")
    let d = std.env.var("HOME")
    let t = std.time.now()
    let args = std.env.args()
    let p = "in/" + "c.txt"
    let e = std.fs.read(p)
    log(a)
}
)";

TEST(Api, EffectsListsFamiliesLiteralsAndLines) {
  auto p = MustCompile(kEffects, "eff.mty");
  ASSERT_TRUE(p);
  std::vector<mty::Program::EffectUse> uses = p->Effects();
  struct Want {
    const char* family;
    const char* effect;
    const char* literal;
    int line;
  };
  const Want want[] = {
      {"fs.read", "std.fs.read", "in/a.txt", 2},
      {"fs.write", "std.fs.write", "out/b.txt", 3},
      {"net", "std.net.get", "https://api.example.com/x", 4},
      {"env", "std.env.var", "HOME", 5},
      {"fs.read", "std.fs.read", "", 9},  // computed at run time
  };
  ASSERT_EQ(uses.size(), std::size(want));  // no std.time.now, no std.env.args
  for (size_t i = 0; i < uses.size(); ++i) {
    EXPECT_EQ(uses[i].family, want[i].family) << i;
    EXPECT_EQ(uses[i].effect, want[i].effect) << i;
    EXPECT_EQ(uses[i].literal, want[i].literal) << i;
    EXPECT_EQ(uses[i].line, want[i].line) << i;
    EXPECT_GT(uses[i].col, 0) << i;
  }
  // A program without effects lists nothing.
  auto none = MustCompile("fn main() {\n    log(std.time.now().is_ok())\n}\n", "none.mty");
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->Effects().empty());
}

// The literal is the path argument, never a payload: a computed path with a
// literal payload ("hello") lists no literal and passes the static check.
TEST(Api, EffectLiteralIsThePathArgumentNotThePayload) {
  auto p = MustCompile(
      "fn main() {\n    let p = \"out/\" + \"b.txt\"\n    let r = std.fs.write(p, \"hello\")\n"
      "    log(r)\n}\n",
      "w.mty");
  ASSERT_TRUE(p);
  std::vector<mty::Program::EffectUse> uses = p->Effects();
  ASSERT_EQ(uses.size(), 1u);
  EXPECT_EQ(uses[0].family, "fs.write");
  EXPECT_EQ(uses[0].literal, "");  // the path is computed at run time
  mty::Grants m;
  m.Set(mty::GrantId::kFsWrite, std::vector<std::string>{"out"});
  EXPECT_TRUE(p->CheckAgainst(m).empty()) << ::testing::PrintToString(p->CheckAgainst(m));
}

TEST(Api, CheckAgainstReportsWhatTheManifestDoesNotGrant) {
  auto p = MustCompile(kEffects, "eff.mty");
  ASSERT_TRUE(p);
  auto has = [](const std::vector<std::string>& fs, std::string_view text) {
    for (const std::string& f : fs)
      if (f.find(text) != std::string::npos) return true;
    return false;
  };
  // Only fs.read, and not where the literal path is.
  mty::Grants m;
  m.Set(mty::GrantId::kFsRead, std::vector<std::string>{"elsewhere"});
  std::vector<std::string> f = p->CheckAgainst(m);
  EXPECT_EQ(f.size(), 4u) << ::testing::PrintToString(f);
  EXPECT_TRUE(has(f,
                  "eff.mty:2:5: error: std.fs.read(\"in/a.txt\"): in/a.txt is outside the "
                  "manifest's fs.read list"))
      << ::testing::PrintToString(f);
  EXPECT_TRUE(
      has(f, "eff.mty:3:5: error: std.fs.write needs fs.write, which the manifest does not grant"))
      << ::testing::PrintToString(f);
  EXPECT_TRUE(
      has(f, "eff.mty:4:5: error: std.net.get needs net, which the manifest does not grant"))
      << ::testing::PrintToString(f);
  EXPECT_TRUE(
      has(f, "eff.mty:5:5: error: std.env.var needs env, which the manifest does not grant"))
      << ::testing::PrintToString(f);
  // The computed path (line 9) cannot be checked statically.
  EXPECT_FALSE(has(f, "eff.mty:9:")) << ::testing::PrintToString(f);

  // Everything granted: no findings.
  m.Set(mty::GrantId::kFsRead, std::vector<std::string>{"in"});
  m.Set(mty::GrantId::kFsWrite, std::vector<std::string>{"out"});
  m.Set(mty::GrantId::kNet, std::vector<std::string>{"api.example.com:443"});
  m.Set(mty::GrantId::kEnv, std::vector<std::string>{"HOME"});
  EXPECT_TRUE(p->CheckAgainst(m).empty()) << ::testing::PrintToString(p->CheckAgainst(m));
  m.Set(mty::GrantId::kNet, std::vector<std::string>{"*.example.com"});
  EXPECT_TRUE(p->CheckAgainst(m).empty()) << ::testing::PrintToString(p->CheckAgainst(m));

  // Literals outside the granted host and variable lists.
  m.Set(mty::GrantId::kNet, std::vector<std::string>{"api.example.com:80"});
  m.Set(mty::GrantId::kEnv, std::vector<std::string>{"PATH"});
  f = p->CheckAgainst(m);
  EXPECT_EQ(f.size(), 2u) << ::testing::PrintToString(f);
  EXPECT_TRUE(has(f,
                  "eff.mty:4:5: error: std.net.get(\"https://api.example.com/x\"): "
                  "api.example.com:443 is outside the manifest's net list"))
      << ::testing::PrintToString(f);
  EXPECT_TRUE(has(f,
                  "eff.mty:5:5: error: std.env.var(\"HOME\"): HOME is outside the manifest's "
                  "env list"))
      << ::testing::PrintToString(f);

  // An empty list grants nothing.
  m.Set(mty::GrantId::kEnv, std::vector<std::string>{});
  m.Set(mty::GrantId::kNet, std::vector<std::string>{"api.example.com"});
  f = p->CheckAgainst(m);
  ASSERT_EQ(f.size(), 1u) << ::testing::PrintToString(f);
  EXPECT_EQ(f[0], "eff.mty:5:5: error: std.env.var needs env, which the manifest does not grant");
}

TEST(Api, RunsWithoutWallOrCpuBudgetNeedNoWatchdog) {
  auto p = MustCompile(kCounter, "c.mtyir");
  ASSERT_TRUE(p);
  const size_t before = SettledThreadCount();
  size_t during = 0;
  mty::RunOptions o;
  std::string out;
  o.on_stdout = [&](std::string_view s) {
    out.append(s);
    during = ThreadCount();
  };
  mty::RunResult r = p->Run(o);
  EXPECT_EQ(r.outcome, mty::Outcome::kOk);
  EXPECT_FALSE(r.breach.has_value());
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_EQ(out, "1000\n");
  // Nothing was started for it: no watchdog (or any other) thread.
  EXPECT_EQ(during, before) << "a thread was started for a run without wall or cpu budget";
  EXPECT_EQ(SettledThreadCount(), before);
  // With a roomy wall and CPU budget the same program finishes the same way.
  o.policy.limits.Set(mty::LimitId::kWall, 10'000'000'000);
  o.policy.limits.Set(mty::LimitId::kCpu, 10'000'000'000);
  out.clear();
  r = p->Run(o);
  EXPECT_EQ(r.outcome, mty::Outcome::kOk);
  EXPECT_FALSE(r.breach.has_value());
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_EQ(out, "1000\n");
}

// ---- The process-wide default caps: only the host installs them ---------

// 8 threads run 1000 runs with different grants, some with none (they use
// the default caps), some with everything: no run ever installs a cap, so
// the default-cap runs never see what another run was granted, and the
// default caps afterwards are exactly what the host installed.
TEST(Api, DefaultCapsAreTheHostsAndNoRunChangesThem) {
  constexpr int kDirs = 8;
  TempTree tree;
  std::vector<std::string> files;
  for (int i = 0; i < kDirs; ++i) {
    std::string dir = tree.Path(absl::StrCat("d", i));
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/f.txt") << "d" << i;
    files.push_back(dir + "/f.txt");
  }
  // Prints, per file, its text or `-` (denied).
  std::string src = "fn main() {\n";
  for (const std::string& f : files)
    src += "    match std.fs.read(\"" + f +
           "\") {\n        Ok(s) => print(s),\n"
           "        Err(_) => print(\"-\"),\n    }\n";
  src += "}\n";
  auto p = MustCompile(src, "caps.mty");
  ASSERT_TRUE(p);

  // The host's default caps: d0 readable, nothing writable.
  mty::Grants host;
  host.Set(mty::GrantId::kFsRead, std::vector<std::string>{tree.Path("d0")});
  mty::InstallDefaultFsCaps(host);
  const std::vector<std::string> installed = mty::stdlib::CurrentDefaultReadCap().roots();

  auto expect_only = [&](int i) {  // dI readable, the others denied
    std::string out;
    for (int j = 0; j < kDirs; ++j) {
      if (j == i) {
        out += 'd';
        out += std::to_string(j);
      } else {
        out += '-';
      }
    }
    return out;
  };
  std::string all;
  for (int j = 0; j < kDirs; ++j) {
    all += 'd';
    all += std::to_string(j);
  }

  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 125; ++k) {
        mty::RunOptions o;
        std::string want;
        switch ((t + k) % 4) {
          case 0:  // its own directory
            o.policy.grants.Set(mty::GrantId::kFsRead,
                                std::vector<std::string>{tree.Path(absl::StrCat("d", t))});
            want = expect_only(t);
            break;
          case 1:  // no fs grant: the host's default cap
            want = expect_only(0);
            break;
          case 2: {  // everything, with a manifest that sets no fs.read
            mty::Policy manifest;
            manifest.grants.Set(mty::GrantId::kNet, std::vector<std::string>{"example.com"});
            mty::Policy flags;
            flags.grants = mty::Grants::All();
            o.policy = mty::Policy::Intersect(flags, manifest);
            want = all;
            break;
          }
          default:  // a grant outside the tree, and a manifest narrowing it to nothing
            o.policy.grants.Set(mty::GrantId::kFsRead, std::vector<std::string>{});
            want = expect_only(-1);
            break;
        }
        std::string out;
        o.on_stdout = [&](std::string_view s) { out.append(s); };
        mty::RunResult r = p->Run(o);
        if (r.outcome != mty::Outcome::kOk || out != want) {
          ++wrong;
          ADD_FAILURE() << "thread " << t << " run " << k << ": got " << out << " want " << want
                        << " " << r.Report();
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(mty::stdlib::CurrentDefaultReadCap().roots(), installed);
  EXPECT_FALSE(mty::stdlib::CurrentDefaultReadCap().unrestricted());
  EXPECT_TRUE(mty::stdlib::CurrentDefaultWriteCap().roots().empty());
  EXPECT_FALSE(mty::stdlib::CurrentDefaultWriteCap().unrestricted());
  mty::InstallDefaultFsCaps(mty::Grants());  // back to deny-all for the other tests
}

// ---- One outcome model: each result its own typed case and status -------

TEST(Api, EachResultIsItsOwnTypedCaseWithItsStatus) {
  auto run = [](std::string_view src, mty::RunOptions o = {}) {
    auto p = MustCompile(src, "o.mty");
    EXPECT_TRUE(p);
    return p ? p->Run(o) : mty::RunResult{};
  };
  // main returned Err: not kOk.
  mty::RunResult err = run("fn main() -> Result[I64, Str] {\n    Err(\"no\")\n}\n");
  EXPECT_EQ(err.outcome, mty::Outcome::kMainErr);
  EXPECT_EQ(err.code, mty::TrapCode::kMainErr);
  EXPECT_EQ(err.exit_code, 1);
  EXPECT_EQ(err.ToStatus().code(), absl::StatusCode::kAborted);
  // A denial under deny_is_trap: a trap whose status is kPermissionDenied.
  mty::RunOptions strict;
  strict.deny_is_trap = true;
  mty::RunResult denied = run("fn main() {\n    log(std.env.var(\"HOME\"))\n}\n", strict);
  EXPECT_EQ(denied.outcome, mty::Outcome::kTrap);
  EXPECT_EQ(denied.code, mty::TrapCode::kCapability);
  EXPECT_EQ(denied.ToStatus().code(), absl::StatusCode::kPermissionDenied);
  // The depth limit: a breach of the depth limit, kResourceExhausted.
  mty::RunOptions shallow;
  shallow.policy.limits.Set(mty::LimitId::kDepth, 20);
  mty::RunResult deep =
      run("fn f(n: I64) -> I64 {\n    f(n + 1)\n}\nfn main() {\n    f(0);\n}\n", shallow);
  EXPECT_EQ(deep.outcome, mty::Outcome::kBreach);
  ASSERT_TRUE(deep.breach.has_value());
  EXPECT_EQ(deep.breach->limit, mty::LimitId::kDepth);
  EXPECT_EQ(deep.breach->bound, 20u);
  EXPECT_EQ(deep.code, mty::TrapCode::kDepth);
  EXPECT_EQ(deep.exit_code, 1);
  EXPECT_EQ(deep.ToStatus().code(), absl::StatusCode::kResourceExhausted);
  // A step breach: its own limit, exit 3.
  mty::RunOptions tight;
  tight.policy.limits.Set(mty::LimitId::kSteps, 10);
  mty::RunResult steps = run("fn main() {\n    loop {\n    }\n}\n", tight);
  EXPECT_EQ(steps.outcome, mty::Outcome::kBreach);
  EXPECT_EQ(steps.breach->limit, mty::LimitId::kSteps);
  EXPECT_EQ(steps.exit_code, 3);
  EXPECT_EQ(steps.steps_used, 11u);  // the step that breached included
  // No entry function.
  mty::RunOptions other;
  other.entry = "start";
  EXPECT_EQ(run("fn main() {\n}\n", other).outcome, mty::Outcome::kNoEntry);
}

}  // namespace
