// Real bytes (runtime.md §2): every kind of value's memory estimate stays
// within 2x of the heap it really takes (the accounting allocator's count,
// RunResult::heap_peak), and the real-bytes ceiling stops a run that passes
// it with the `real heap` breach, with or without a memory budget.
#include <cstdio>
#include <string>

#include "gtest/gtest.h"
#include "mty/interp/heap.h"
#include "mty/mty.h"

namespace {

mty::RunResult RunSource(const std::string& src, mty::RunOptions o = {}) {
  auto p = mty::Program::FromSource(src, "t.mty");
  EXPECT_TRUE(p.ok()) << p.status();
  if (!p.ok()) return {};
  return (*p)->Run(o);
}

// A kind's estimate against its real bytes: the run's estimate and heap
// peak minus those of the same program making none of it.
struct Kind {
  const char* name;
  const char* setup;  // items
  const char* body;   // statements of main making the values, keeping them live
};

const Kind kKinds[] = {
    {"string", "", R"(let mut v = []
      let mut i = 0
      while i < 20000 { v.push("x".repeat(100) + format!("{i}")); i += 1 })"},
    {"small_string", "", R"(let mut v = []
      let mut i = 0
      while i < 50000 { v.push(format!("{i}")); i += 1 })"},
    {"int_vec", "", R"(let mut v = []
      let mut i = 0
      while i < 200000 { v.push(i); i += 1 })"},
    {"tuple", "", R"(let mut v = []
      let mut i = 0
      while i < 100000 { v.push((i, i + 1)); i += 1 })"},
    {"struct", "struct P { x: I64, y: I64 }", R"(let mut v = []
      let mut i = 0
      while i < 100000 { v.push(P { x: i, y: i }); i += 1 })"},
    {"nested_vec", "", R"(let mut v = []
      let mut i = 0
      while i < 50000 { v.push([i, i, i]); i += 1 })"},
    {"map", "", R"(let mut m = Map.new()
      let mut i = 0
      while i < 50000 { m.insert(i, i); i += 1 })"},
    {"string_map", "", R"(let mut m = Map.new()
      let mut i = 0
      while i < 30000 { m.insert(format!("key{i}"), i); i += 1 })"},
    {"closure", "", R"(let mut v = []
      let mut i = 0
      while i < 100000 { let k = i
        v.push(|x| x + k); i += 1 })"},
    {"agent", "agent W { n = 0\n on Go() -> n }", R"(let mut v = []
      let mut i = 0
      while i < 5000 { v.push(spawn W()); i += 1 })"},
    {"frames", "fn f(n: I64) -> I64 { if n == 0 { 0 } else { 1 + f(n - 1) } }",
     R"(let x = f(50000)
      log(x))"},
};

std::string Program(const Kind& k, bool with_body) {
  return std::string(k.setup) + "\nfn main() {\n" + (with_body ? k.body : "let x = 0") + "\n}\n";
}

class Estimates : public ::testing::TestWithParam<Kind> {};

TEST_P(Estimates, WithinTwiceTheRealBytes) {
  const Kind& k = GetParam();
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kMemory, uint64_t{1} << 32);  // counted
  o.policy.limits.Set(mty::LimitId::kDepth, 1000000);
  mty::RunResult base = RunSource(Program(k, false), o);
  mty::RunResult r = RunSource(Program(k, true), o);
  ASSERT_EQ(r.outcome, mty::Outcome::kOk) << r.Report();
  const double est = static_cast<double>(r.mem_used) - static_cast<double>(base.mem_used);
  const double real = static_cast<double>(r.heap_peak) - static_cast<double>(base.heap_peak);
  std::printf("%-14s estimate %10.0f B, real %10.0f B, real/estimate %.2f\n", k.name, est, real,
              real / est);
  ASSERT_GT(est, 0);
  EXPECT_LE(real, 2 * est) << k.name;
  EXPECT_LE(est, 2 * real) << k.name;
}

INSTANTIATE_TEST_SUITE_P(Kinds, Estimates, ::testing::ValuesIn(kKinds),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
