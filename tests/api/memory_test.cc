// Real bytes (runtime.md §2): every kind of value's memory estimate stays
// within 2x of the heap it really takes (the accounting allocator's count,
// RunResult::heap_peak), and the real-bytes ceiling stops a run that passes
// it with the `real heap` breach, with or without a memory budget.
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

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

// read_bytes: the [U8] is held one byte per element, charged 24 B + 1 B per
// byte; widening it (a push) charges the 15 B per element more it takes.
TEST(Estimates, BytesFromAFileWithinTwiceTheRealBytes) {
  char dir[] = "/tmp/mty_bytes_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  const std::string path = std::string(dir) + "/b";
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    const std::string chunk(1 << 20, 'q');
    for (int i = 0; i < 8; ++i) std::fwrite(chunk.data(), 1, chunk.size(), f);
    std::fclose(f);
  }
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kMemory, uint64_t{1} << 32);
  o.policy.grants.Set(mty::GrantId::kFsRead, std::vector<std::string>{dir});
  auto run = [&](const std::string& body) {
    return RunSource("fn main() {\n" + body + "\n}\n", o);
  };
  const std::string read = "let mut b = std.fs.read_bytes(\"" + path + "\").unwrap()\n";
  mty::RunResult base = run("let x = 0");
  mty::RunResult compact = run(read + "log(b.len())");
  mty::RunResult wide = run(read + "b.push(1)\nlog(b.len())");
  for (const mty::RunResult* r : {&compact, &wide}) {
    ASSERT_EQ(r->outcome, mty::Outcome::kOk) << r->Report();
    const double est = static_cast<double>(r->mem_used) - static_cast<double>(base.mem_used);
    const double real = static_cast<double>(r->heap_peak) - static_cast<double>(base.heap_peak);
    std::printf("%-14s estimate %10.0f B, real %10.0f B, real/estimate %.2f\n",
                r == &compact ? "bytes" : "bytes_widened", est, real, real / est);
    EXPECT_LE(real, 2 * est);
    EXPECT_LE(est, 2 * real);
  }
  // Compact: about 1 B per byte of real heap, not 16.
  EXPECT_LT(static_cast<double>(compact.heap_peak - base.heap_peak), 2.0 * (8 << 20));
  std::remove(path.c_str());
  rmdir(dir);
}

// No memory budget: the real-bytes ceiling still holds (the default is 4 GiB
// or half the machine; RunOptions::heap_ceiling sets another). Each bomb
// ends with the `real heap` memory breach, near the ceiling, not past it.
struct Bomb {
  const char* name;
  const char* source;
};

const Bomb kBombs[] = {
    {"string_doubling", "fn main() {\n let mut s = \"x\"\n loop { s = s + s }\n}\n"},
    {"push", "fn main() {\n let mut v = []\n loop { v.push(\"abcdefgh\".repeat(4)) }\n}\n"},
    {"spawn",
     "agent W { n = 0\n on Go() -> n }\nfn main() {\n let mut v = []\n loop { v.push(spawn W()) "
     "}\n}\n"},
    {"mailbox",
     "agent S { n = 0\n on Put(s) -> { n += 1 } }\nfn main() {\n let a = spawn S()\n loop { "
     "a!Put(\"y\".repeat(100)) }\n}\n"},
    {"recursion",
     "fn f(n: I64) -> I64 { if n == 0 { 0 } else { 1 + f(n - 1) } }\nfn main() { log(f(100000000)) "
     "}\n"},
};

class Ceiling : public ::testing::TestWithParam<Bomb> {};

TEST_P(Ceiling, EndsWithTheRealHeapBreachNearTheCeiling) {
  constexpr uint64_t kCeiling = uint64_t{32} << 20;
  mty::RunOptions o;
  o.heap_ceiling = kCeiling;
  o.policy.limits.Set(mty::LimitId::kMailbox, 100000000);
  o.policy.limits.Set(mty::LimitId::kDepth, 1000000000);
  mty::RunResult r = RunSource(GetParam().source, o);
  ASSERT_EQ(r.outcome, mty::Outcome::kBreach) << r.Report();
  ASSERT_TRUE(r.breach.has_value());
  EXPECT_EQ(r.breach->limit, mty::LimitId::kMemory);
  EXPECT_EQ(r.breach->subject, mty::ir::kRealHeapSubject);
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_NE(r.message.find("real heap"), std::string::npos) << r.message;
  EXPECT_EQ(r.breach->bound, kCeiling);
  // Small allocations may pass the ceiling until the next safepoint.
  EXPECT_LE(r.heap_peak, kCeiling + (uint64_t{1} << 20)) << GetParam().name;
  EXPECT_GT(r.heap_peak, kCeiling / 2) << GetParam().name;
}

INSTANTIATE_TEST_SUITE_P(Bombs, Ceiling, ::testing::ValuesIn(kBombs),
                         [](const auto& info) { return std::string(info.param.name); });

// With a memory budget the ceiling is 2 x the budget + 16 MiB, and the
// estimate breaches first.
TEST(Ceiling, FollowsTheMemoryBudget) {
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kMemory, 1 << 20);
  mty::RunResult r = RunSource(kBombs[1].source, o);
  ASSERT_EQ(r.outcome, mty::Outcome::kBreach) << r.Report();
  EXPECT_EQ(r.breach->limit, mty::LimitId::kMemory);
  EXPECT_EQ(r.breach->subject, "");  // the estimate, not the real heap
  EXPECT_LE(r.heap_peak, uint64_t{2 << 20} + (uint64_t{16} << 20));
  EXPECT_EQ(mty::interp::HeapCeilingFor(uint64_t{1} << 20), (uint64_t{18} << 20));
  EXPECT_LE(mty::interp::DefaultHeapCeiling(), uint64_t{4} << 30);
}

// Compiling is held to the real-heap ceiling of the run's memory budget
// (CompileOptions::memory_budget): a 200 KB array literal takes about 35 MB
// to compile, more than a 1 MiB budget's 18 MiB: MT0033, kResourceExhausted.
TEST(CompileCeiling, FollowsTheMemoryBudget) {
  std::string src = "fn main() {\n    log([";
  for (int i = 0; i < 100000; ++i) src += "1,";
  src += "1].len())\n}\n";
  std::vector<mty::Diagnostic> diagnostics;
  mty::CompileOptions o;
  o.diagnostics = &diagnostics;
  o.memory_budget = uint64_t{1} << 20;
  auto p = mty::Program::FromSource(src, "big.mty", o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kResourceExhausted);
  const std::string text(p.status().message());
  EXPECT_EQ(text.rfind("error[MT0033]: out of memory while compiling the program: memory budget "
                       "exceeded: real heap ",
                       0),
            0u)
      << text;
  EXPECT_NE(text.find(" B > ceiling 18874368 B\n --> big.mty\n"), std::string::npos) << text;
  ASSERT_EQ(diagnostics.size(), 1u);
  EXPECT_EQ(diagnostics[0].code, "MT0033");
  EXPECT_EQ(diagnostics[0].file, "big.mty");
  // Under a budget that holds it, and with none, it compiles.
  o.memory_budget = uint64_t{64} << 20;
  EXPECT_TRUE(mty::Program::FromSource(src, "big.mty", o).ok());
  EXPECT_TRUE(mty::Program::FromSource(src, "big.mty").ok());
}

// The host running out below the ceiling (runtime.md §2, "When the host
// runs out first"), in a child process whose address space is limited to
// what it uses now plus `headroom`.
void LimitAddressSpace(uint64_t headroom) {
  std::ifstream status("/proc/self/status");
  uint64_t vm_kib = 0;
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmSize:", 0) == 0) vm_kib = std::strtoull(line.c_str() + 7, nullptr, 10);
  const rlimit r{vm_kib * 1024 + headroom, vm_kib * 1024 + headroom};
  if (vm_kib == 0 || setrlimit(RLIMIT_AS, &r) != 0) std::_Exit(3);
}

// Prints the run's report and exits 0 when it is the memory breach because
// the host could not allocate (exit 4, `real heap`, under the ceiling).
[[noreturn]] void ExitWithHostBreach(const mty::RunResult& r) {
  std::fprintf(stderr, "%s", r.Report().c_str());
  const bool host = r.outcome == mty::Outcome::kBreach && r.breach &&
                    r.breach->subject == mty::ir::kRealHeapSubject && r.exit_code == 4 &&
                    r.breach->observed <= r.breach->bound;
  std::_Exit(host ? 0 : 1);
}

class HostOutOfMemory : public ::testing::Test {
 protected:
  void SetUp() override {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "address-space limits do not apply under AddressSanitizer";
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
    GTEST_SKIP() << "address-space limits do not apply under AddressSanitizer";
#endif
#endif
    GTEST_FLAG_SET(death_test_style, "threadsafe");
  }
};

// Small blocks only (list cells): the one malloc refuses is small, made from
// the emergency reserve; the run stops at its next safepoint and frees the
// list.
TEST_F(HostOutOfMemory, IsTheRealHeapBreach) {
  const char* src =
      "enum L { Nil, Cons(I64, L) }\nfn main() {\n let mut l = L::Nil\n let mut i = 0\n loop {\n"
      "  l = L::Cons(i, l)\n  i += 1\n }\n}\n";
  EXPECT_EXIT(
      {
        auto p = mty::Program::FromSource(src, "t.mty");
        if (!p.ok()) std::_Exit(2);
        LimitAddressSpace(uint64_t{64} << 20);
        ExitWithHostBreach((*p)->Run(mty::RunOptions{}));
      },
      ::testing::ExitedWithCode(0), "the host could not allocate it");
}

// A run with a wall budget starts the watchdog's thread; with no room for
// its stack (8 MiB) that is the breach too, not an uncaught std::system_error.
TEST_F(HostOutOfMemory, NoRoomForTheWatchdogThreadIsTheBreach) {
  EXPECT_EXIT(
      {
        auto p = mty::Program::FromSource("fn main() {\n    log(1)\n}\n", "t.mty");
        if (!p.ok()) std::_Exit(2);
        mty::RunOptions o;
        o.policy.limits.Set(mty::LimitId::kWall, uint64_t{10'000'000'000});
        LimitAddressSpace(uint64_t{6} << 20);
        mty::RunResult r = (*p)->Run(o);
        // What the thread's stack would have taken is in the breach.
        if (!r.breach || r.breach->observed < (uint64_t{8} << 20)) {
          std::fprintf(stderr, "%s", r.Report().c_str());
          std::_Exit(1);
        }
        ExitWithHostBreach(r);
      },
      ::testing::ExitedWithCode(0), "the host could not allocate it");
}

}  // namespace
