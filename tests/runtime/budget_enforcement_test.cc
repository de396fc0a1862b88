// budget_enforcement: the original design's budget-tracker suite (cpu,
// mailbox, spawn, host and path allow-lists, breach mapping) plus the
// remaining limits and the exact breach codes, exit codes and messages.
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "mty/runtime/budget.h"
#include "mty/stdlib/fs_cap.h"

namespace mty::runtime {
namespace {

constexpr int64_t kMs = 1000000;

Breach Make(LimitId id, uint64_t observed, uint64_t limit, std::string subject = "") {
  return Breach::Over(id, observed, limit, std::move(subject));
}
Breach Make(GrantId id, std::string subject) { return Breach::Denied(id, std::move(subject)); }

// ---- One charge path --------------------------------------------------------

// Every counted limit of the table goes through BudgetTracker::Charge: the
// counter is the one indexed by its LimitId, a parent counts its child's
// use, using exactly the limit passes, one more breaches naming the tracker
// whose limit it was; wall, mailbox and depth have no counter.
TEST(BudgetEnforcement, EveryCountedLimitChargesThroughOnePath) {
  int counted = 0;
  for (const ir::LimitInfo& info : ir::kLimits) {
    const LimitId id = info.id;
    if (id == LimitId::kWall || id == LimitId::kMailbox || id == LimitId::kDepth) continue;
    ++counted;
    Policy outer;
    outer.limits.Set(id, 10);
    BudgetTracker parent(outer, "Outer");
    BudgetTracker child(Policy{}, "Inner", &parent);
    EXPECT_FALSE(child.Charge(id, 10).has_value()) << info.key;
    EXPECT_EQ(child.Used(id), 10u) << info.key;
    EXPECT_EQ(parent.Used(id), 10u) << info.key;
    for (const ir::LimitInfo& other : ir::kLimits) {
      if (other.id != id) {
        EXPECT_EQ(child.Used(other.id), 0u) << info.key << " " << other.key;
      }
    }
    std::optional<Breach> b = child.Charge(id, 1);
    ASSERT_TRUE(b.has_value()) << info.key;
    EXPECT_EQ(b->limit, id) << info.key;
    EXPECT_EQ(b->sandbox, "Outer") << info.key;
  }
  EXPECT_EQ(counted, 5);  // steps, memory, cpu, spawned, output
}

// ---- The original design's tests ------------------------------------------

TEST(BudgetEnforcement, CpuBudgetBreach) {
  Policy budget;
  budget.limits.Set(LimitId::kCpu, 10 * kMs);
  BudgetTracker t(budget);
  EXPECT_FALSE(t.Charge(0, 0, 5 * kMs).has_value());
  EXPECT_FALSE(t.Check().has_value());
  std::optional<Breach> charged = t.Charge(0, 0, 8 * kMs);
  ASSERT_TRUE(charged.has_value());
  EXPECT_EQ(charged->limit, LimitId::kCpu);
  std::optional<Breach> b = t.Check();
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->limit, LimitId::kCpu);
  EXPECT_EQ(b->observed, uint64_t{13 * kMs});
  EXPECT_EQ(b->bound, uint64_t{10 * kMs});
  EXPECT_EQ(t.Used(LimitId::kCpu), static_cast<uint64_t>(13 * kMs));
}

TEST(BudgetEnforcement, CpuExactlyAtLimitPasses) {
  Policy budget;
  budget.limits.Set(LimitId::kCpu, 10 * kMs);
  BudgetTracker t(budget);
  EXPECT_FALSE(t.Charge(0, 0, 10 * kMs).has_value());
  EXPECT_FALSE(t.Check().has_value());
  EXPECT_TRUE(t.Charge(0, 0, 1).has_value());
}

TEST(BudgetEnforcement, NegativeCpuIsIgnored) {
  Policy budget;
  budget.limits.Set(LimitId::kCpu, 10 * kMs);
  BudgetTracker t(budget);
  EXPECT_FALSE(t.Charge(0, 0, -5 * kMs).has_value());
  EXPECT_EQ(t.Used(LimitId::kCpu), 0u);
}

TEST(BudgetEnforcement, MailboxBudgetBreach) {
  Policy budget;
  budget.limits.Set(LimitId::kMailbox, 2);
  BudgetTracker t(budget);
  EXPECT_FALSE(t.CheckMailboxDepth(1, "Worker").has_value());
  EXPECT_FALSE(t.CheckMailboxDepth(2, "Worker").has_value());
  std::optional<Breach> b = t.CheckMailboxDepth(3, "Worker");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->limit, LimitId::kMailbox);
  EXPECT_EQ(b->observed, 3u);
  EXPECT_EQ(b->bound, 2u);
  EXPECT_EQ(b->subject, "Worker");
  EXPECT_EQ(b->Message(), "mailbox full: Worker");
}

TEST(BudgetEnforcement, SpawnedTasksBreach) {
  Policy budget;
  budget.limits.Set(LimitId::kSpawned, 3);
  BudgetTracker t(budget);
  EXPECT_FALSE(t.RecordSpawn().has_value());
  EXPECT_FALSE(t.RecordSpawn().has_value());
  EXPECT_FALSE(t.RecordSpawn().has_value());
  std::optional<Breach> b = t.RecordSpawn();
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->limit, LimitId::kSpawned);
  EXPECT_EQ(b->observed, 4u);
  EXPECT_EQ(b->bound, 3u);
  // No rollback: the count keeps growing.
  std::optional<Breach> again = t.RecordSpawn();
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->observed, 5u);
  EXPECT_EQ(t.Used(LimitId::kSpawned), 5u);
}

TEST(BudgetEnforcement, HostAllowlistBlocksOtherHost) {
  Policy budget;
  budget.grants.Set(GrantId::kNet, std::vector<std::string>{"api.example.com:443"});
  BudgetTracker t(budget);
  EXPECT_FALSE(t.CheckHost("api.example.com:443").has_value());
  std::optional<Breach> b = t.CheckHost("evil.example.com:443");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->grant, GrantId::kNet);
  EXPECT_EQ(b->subject, "evil.example.com:443");
}

TEST(BudgetEnforcement, PathAllowlistPrefixMatches) {
  Policy budget;
  budget.grants.Set(GrantId::kFsRead, std::vector<std::string>{"/models", "/tmp/input.json"});
  BudgetTracker t(budget, "", nullptr, stdlib::HostFsGrants());
  EXPECT_FALSE(t.CheckReadPath("/models/foo").has_value());
  EXPECT_FALSE(t.CheckReadPath("/tmp/input.json").has_value());
  std::optional<Breach> b = t.CheckReadPath("/etc/passwd");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->grant, GrantId::kFsRead);
  EXPECT_EQ(b->subject, "/etc/passwd");
}

TEST(BudgetEnforcement, BreachToStatusMapsCorrectly) {
  absl::Status cpu = Make(LimitId::kCpu, 13 * kMs, 10 * kMs).ToStatus();
  EXPECT_EQ(cpu.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(cpu.message(), "MT5009: cpu budget exceeded: 10ms");
  absl::Status host = Make(GrantId::kNet, "evil").ToStatus();
  EXPECT_EQ(host.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(host.message(), "MT5015: capability not granted: net evil");
}

// ---- The remaining limits --------------------------------------------------

TEST(BudgetEnforcement, StepBudgetAllowsExactlyTheLimit) {
  Policy budget;
  budget.limits.Set(LimitId::kSteps, 100);
  BudgetTracker t(budget);
  EXPECT_FALSE(t.Charge(LimitId::kSteps, 60).has_value());
  EXPECT_FALSE(t.Charge(LimitId::kSteps, 40).has_value());
  EXPECT_FALSE(t.Check().has_value());
  std::optional<Breach> b = t.Charge(LimitId::kSteps, 1);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->limit, LimitId::kSteps);
  EXPECT_EQ(b->observed, 101u);
  EXPECT_EQ(b->bound, 100u);
  std::optional<Breach> checked = t.Check();
  ASSERT_TRUE(checked.has_value());
  EXPECT_EQ(checked->limit, LimitId::kSteps);
}

TEST(BudgetEnforcement, MemoryBudgetBreach) {
  Policy budget;
  budget.limits.Set(LimitId::kMemory, 32);
  BudgetTracker t(budget);
  EXPECT_FALSE(t.Charge(LimitId::kMemory, 32).has_value());
  std::optional<Breach> b = t.Charge(LimitId::kMemory, 56);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->limit, LimitId::kMemory);
  EXPECT_EQ(b->observed, 88u);
  EXPECT_EQ(b->bound, 32u);
  EXPECT_EQ(b->Message(), "memory budget exceeded: used 88 B > limit 32 B");
  EXPECT_EQ(t.Used(LimitId::kMemory), 88u);
}

TEST(BudgetEnforcement, CountersSaturateInsteadOfWrapping) {
  Policy budget;
  budget.limits.Set(LimitId::kSteps, 10);
  BudgetTracker t(budget);
  EXPECT_TRUE(t.Charge(LimitId::kSteps, std::numeric_limits<uint64_t>::max()).has_value());
  std::optional<Breach> b = t.Charge(LimitId::kSteps, 5);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(t.Used(LimitId::kSteps), std::numeric_limits<uint64_t>::max());
}

TEST(BudgetEnforcement, WallBudgetBreach) {
  Policy budget;
  budget.limits.Set(LimitId::kWall, 1 * kMs);
  BudgetTracker t(budget);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::optional<Breach> b = t.Check();
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->limit, LimitId::kWall);
  EXPECT_GT(b->observed, uint64_t{kMs});
  EXPECT_EQ(b->bound, uint64_t{kMs});
  EXPECT_EQ(b->Message(), "wall-clock budget exceeded: 1ms");
}

TEST(BudgetEnforcement, NoOutputAfterAWallDeadlineOnThePath) {
  // A wall of 0 has passed as soon as it starts: no write of any size (not
  // even one the output limit would take) may happen under it, and the
  // breach names the tracker whose deadline it was.
  Policy outer;
  outer.limits.Set(LimitId::kWall, 0);
  BudgetTracker parent(outer, "Outer");
  Policy inner;
  inner.limits.Set(LimitId::kOutput, 100);
  BudgetTracker child(inner, "Inner", &parent);
  for (uint64_t bytes : {uint64_t{0}, uint64_t{1}, uint64_t{100}}) {
    std::optional<Breach> b = child.ChargeOutput(bytes);
    ASSERT_TRUE(b.has_value()) << bytes;
    EXPECT_EQ(b->limit, LimitId::kWall);
    EXPECT_EQ(b->sandbox, "Outer");
  }
  EXPECT_EQ(child.Used(LimitId::kOutput), 0u);  // nothing was counted
  EXPECT_EQ(parent.Used(LimitId::kOutput), 0u);
  // Without a deadline on the path the output limit alone decides.
  BudgetTracker free_child(inner, "Inner");
  EXPECT_FALSE(free_child.ChargeOutput(100).has_value());
  EXPECT_EQ(free_child.ChargeOutput(1)->limit, LimitId::kOutput);
}

TEST(BudgetEnforcement, GenerousWallPasses) {
  Policy budget;
  budget.limits.Set(LimitId::kWall, int64_t{3600} * 1000 * kMs);
  BudgetTracker t(budget);
  EXPECT_FALSE(t.Check().has_value());
  std::optional<int64_t> deadline = t.WallDeadlineNs();
  ASSERT_TRUE(deadline.has_value());
  EXPECT_EQ(*deadline, t.start_ns() + *budget.limits.Get(LimitId::kWall));
}

TEST(BudgetEnforcement, CheckOrderIsCpuWallMemorySteps) {
  Policy budget;
  budget.limits.Set(LimitId::kCpu, 1);
  budget.limits.Set(LimitId::kWall, 1);
  budget.limits.Set(LimitId::kMemory, 1);
  budget.limits.Set(LimitId::kSteps, 1);
  BudgetTracker t(budget);
  t.Charge(LimitId::kSteps, 2);
  t.Charge(LimitId::kMemory, 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(1));
  ASSERT_TRUE(t.Check().has_value());
  EXPECT_EQ(t.Check()->limit, LimitId::kWall);
  t.Charge(0, 0, 2);
  EXPECT_EQ(t.Check()->limit, LimitId::kCpu);

  Policy mem_steps;
  mem_steps.limits.Set(LimitId::kMemory, 1);
  mem_steps.limits.Set(LimitId::kSteps, 1);
  BudgetTracker u(mem_steps);
  u.Charge(LimitId::kSteps, 2);
  EXPECT_EQ(u.Check()->limit, LimitId::kSteps);
  u.Charge(LimitId::kMemory, 2);
  EXPECT_EQ(u.Check()->limit, LimitId::kMemory);
}

TEST(BudgetEnforcement, DepthBudgetBreach) {
  Policy budget;
  budget.limits.Set(LimitId::kDepth, 64);
  BudgetTracker t(budget);
  EXPECT_FALSE(t.CheckDepth(64).has_value());
  std::optional<Breach> b = t.CheckDepth(65);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->limit, LimitId::kDepth);
  EXPECT_EQ(b->Message(), "call depth exceeded: 64 frames");
  EXPECT_EQ(t.EffectiveDepth(), std::optional<uint32_t>(64));
}

TEST(BudgetEnforcement, DefaultBudgetIsUnlimited) {
  BudgetTracker t(Policy{});
  EXPECT_FALSE(t.Charge(LimitId::kSteps, 1000000).has_value());
  EXPECT_FALSE(t.Charge(LimitId::kMemory, 1u << 30).has_value());
  EXPECT_FALSE(t.Charge(0, 0, int64_t{3600} * 1000 * kMs).has_value());
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(t.RecordSpawn().has_value());
  EXPECT_FALSE(t.CheckMailboxDepth(1u << 20, "A").has_value());
  EXPECT_FALSE(t.CheckDepth(1u << 20).has_value());
  EXPECT_FALSE(t.Check().has_value());
  EXPECT_FALSE(t.RemainingSteps().has_value());
  EXPECT_FALSE(t.RemainingMemory().has_value());
  EXPECT_FALSE(t.WallDeadlineNs().has_value());
  EXPECT_FALSE(t.EffectiveDepth().has_value());
  EXPECT_FALSE(t.EffectiveMailbox().has_value());
  EXPECT_EQ(t.EffectivePolicy(), MailboxPolicy::kBlock);
}

TEST(BudgetEnforcement, RemainingStepsAndMemory) {
  Policy budget;
  budget.limits.Set(LimitId::kSteps, 100);
  budget.limits.Set(LimitId::kMemory, 1000);
  BudgetTracker t(budget);
  EXPECT_EQ(t.RemainingSteps(), std::optional<uint64_t>(100));
  t.Charge(LimitId::kSteps, 30);
  t.Charge(LimitId::kMemory, 999);
  EXPECT_EQ(t.RemainingSteps(), std::optional<uint64_t>(70));
  EXPECT_EQ(t.RemainingMemory(), std::optional<uint64_t>(1));
  t.Charge(LimitId::kSteps, 200);
  EXPECT_EQ(t.RemainingSteps(), std::optional<uint64_t>(0));
}

TEST(BudgetEnforcement, PolicyIsTheTrackersOwn) {
  Policy budget;
  budget.limits.Set(LimitId::kMailbox, 8);
  budget.limits.mb_policy = MailboxPolicy::kFail;
  BudgetTracker t(budget);
  EXPECT_EQ(t.EffectivePolicy(), MailboxPolicy::kFail);
  EXPECT_EQ(t.EffectiveMailbox(), std::optional<uint64_t>(8));
}

TEST(BudgetEnforcement, ConcurrentChargesAreAllCounted) {
  Policy budget;
  budget.limits.Set(LimitId::kSteps, 4000);
  BudgetTracker root(budget);
  BudgetTracker child(Policy{}, "Child", &root);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([&] {
      for (int j = 0; j < 1000; ++j) child.Charge(LimitId::kSteps, 1);
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(child.Used(LimitId::kSteps), 4000u);
  EXPECT_EQ(root.Used(LimitId::kSteps), 4000u);
  EXPECT_FALSE(child.Check().has_value());
  EXPECT_TRUE(child.Charge(LimitId::kSteps, 1).has_value());
}

// ---- Codes, exit codes, messages and statuses, every kind ------------------

struct Expected {
  Breach breach;
  const char* code;
  int exit_code;
  const char* message;
  absl::StatusCode status;
};

TEST(BudgetEnforcement, BreachMappingForEveryKind) {
  using K = LimitId;
  using G = GrantId;
  const Expected cases[] = {
      {Make(K::kSteps, 10001, 10000), "MT5009", 3, "step budget exceeded: 10000 steps",
       absl::StatusCode::kResourceExhausted},
      {Make(K::kMemory, 1024, 512), "MT5009", 4,
       "memory budget exceeded: used 1024 B > limit 512 B", absl::StatusCode::kResourceExhausted},
      {Make(K::kWall, 2001 * kMs, 2000 * kMs), "MT5009", 5, "wall-clock budget exceeded: 2s",
       absl::StatusCode::kResourceExhausted},
      {Make(K::kCpu, 151 * kMs, 150 * kMs), "MT5009", 6, "cpu budget exceeded: 150ms",
       absl::StatusCode::kResourceExhausted},
      {Make(K::kSpawned, 4, 3), "MT5009", 7, "spawn budget exceeded: 3 agents",
       absl::StatusCode::kResourceExhausted},
      {Make(K::kMailbox, 3, 2, "Worker"), "MT5012", 7, "mailbox full: Worker",
       absl::StatusCode::kResourceExhausted},
      {Make(K::kDepth, 10001, 10000), "MT5018", 1, "call depth exceeded: 10000 frames",
       absl::StatusCode::kResourceExhausted},
      {Make(G::kNet, "evil.example.com:443"), "MT5015", 1,
       "capability not granted: net evil.example.com:443", absl::StatusCode::kPermissionDenied},
      {Make(G::kFsRead, "/etc/passwd"), "MT5015", 1, "capability not granted: fs.read /etc/passwd",
       absl::StatusCode::kPermissionDenied},
      {Make(G::kFsWrite, "/etc/passwd"), "MT5015", 1,
       "capability not granted: fs.write /etc/passwd", absl::StatusCode::kPermissionDenied},
      {Make(G::kEnv, "HOME"), "MT5015", 1, "capability not granted: env HOME",
       absl::StatusCode::kPermissionDenied},
  };
  for (const Expected& e : cases) {
    SCOPED_TRACE(e.breach.Key());
    EXPECT_STREQ(ir::TrapText(e.breach.Code()), e.code);
    EXPECT_EQ(e.breach.ExitCode(), e.exit_code);
    EXPECT_EQ(e.breach.Message(), e.message);
    absl::Status s = e.breach.ToStatus();
    EXPECT_EQ(s.code(), e.status);
    EXPECT_EQ(s.message(), std::string(e.code) + ": " + e.message);

    Breach named = e.breach;
    named.sandbox = "ToolRun";
    EXPECT_EQ(named.Message(), std::string("sandbox ToolRun: ") + e.message);
    EXPECT_EQ(named.ToStatus().message(), std::string(e.code) + ": sandbox ToolRun: " + e.message);
    EXPECT_STREQ(ir::TrapText(named.Code()), e.code);
    EXPECT_EQ(named.ExitCode(), e.exit_code);
  }
}

TEST(BudgetEnforcement, DurationsUseCanonicalSpellings) {
  EXPECT_EQ(Make(LimitId::kWall, 0, 1500 * kMs).Message(), "wall-clock budget exceeded: 1500ms");
  EXPECT_EQ(Make(LimitId::kCpu, 0, 250000).Message(), "cpu budget exceeded: 250us");
  EXPECT_EQ(Make(LimitId::kWall, 0, int64_t{120} * 1000 * kMs).Message(),
            "wall-clock budget exceeded: 2m");
}

TEST(BudgetEnforcement, TrackerBreachCarriesSandboxName) {
  Policy budget;
  budget.limits.Set(LimitId::kSteps, 10000);
  BudgetTracker t(budget, "ToolRun");
  std::optional<Breach> b = t.Charge(LimitId::kSteps, 10001);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->sandbox, "ToolRun");
  EXPECT_EQ(b->ToStatus().message(), "MT5009: sandbox ToolRun: step budget exceeded: 10000 steps");
}

TEST(BudgetEnforcement, KeysAreThePolicyTables) {
  EXPECT_STREQ(Make(LimitId::kSteps, 2, 1).Key(), "steps");
  EXPECT_STREQ(Make(LimitId::kMemory, 2, 1).Key(), "memory");
  EXPECT_STREQ(Make(LimitId::kMailbox, 2, 1, "A#1").Key(), "mailbox");
  EXPECT_STREQ(Make(GrantId::kEnv, "HOME").Key(), "env");
  EXPECT_STREQ(Make(GrantId::kFsWrite, "/x").Key(), "fs.write");
}

}  // namespace
}  // namespace mty::runtime
