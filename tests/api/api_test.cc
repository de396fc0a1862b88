// The embedding API: compile once, run many times (also concurrently),
// typed results and statuses, host interruption.
#include <thread>

#include "gtest/gtest.h"
#include "mty/mty.h"

namespace {

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
        o.budget.steps = 100000;
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
  EXPECT_EQ(r.kind, mty::RunResult::Kind::kNoMain);
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
  EXPECT_EQ(r.kind, mty::RunResult::Kind::kCancelled);
  EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kCancelled);
}

TEST(Api, TrapStatusAndReport) {
  auto p = mty::Program::FromIrText("fn main() -> Unit {\nbb0:\n  panic \"no\"\n}\n", "p.mtyir");
  ASSERT_TRUE(p.ok());
  mty::RunResult r = (*p)->Run({});
  EXPECT_EQ(r.kind, mty::RunResult::Kind::kTrap);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.Report(), "trap MT5001: panic: no\n  at main (p.mtyir:3:3)\n");
  EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kAborted);
}

}  // namespace
