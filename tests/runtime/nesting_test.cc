// Nested trackers (runtime.md §2 "Where budgets live", §4): consumption in a
// child counts against every ancestor, the tightest limit on the path wins and
// the breach names the tracker whose limit was exceeded.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "mty/runtime/budget.h"

namespace mty::runtime {
namespace {

constexpr int64_t kMs = 1000000;

Policy Steps(uint64_t n) {
  Policy b;
  b.limits.Set(LimitId::kSteps, n);
  return b;
}

TEST(Nesting, ChildStepsCountAgainstParent) {
  BudgetTracker parent(Steps(1000));
  BudgetTracker child(Policy{}, "Inner", &parent);
  EXPECT_FALSE(child.Charge(LimitId::kSteps, 40).has_value());
  EXPECT_EQ(child.Used(LimitId::kSteps), 40u);
  EXPECT_EQ(parent.Used(LimitId::kSteps), 40u);
  EXPECT_FALSE(parent.Charge(LimitId::kSteps, 2).has_value());
  EXPECT_EQ(child.Used(LimitId::kSteps), 40u);  // a parent's own use is not the child's
  EXPECT_EQ(parent.Used(LimitId::kSteps), 42u);
}

TEST(Nesting, LooserChildBreachNamesTheParent) {
  BudgetTracker parent(Steps(100), "Outer");
  BudgetTracker child(Steps(1000), "Inner", &parent);
  for (int i = 0; i < 100; ++i) ASSERT_FALSE(child.Charge(LimitId::kSteps, 1).has_value()) << i;
  std::optional<Breach> b = child.Charge(LimitId::kSteps, 1);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->limit, LimitId::kSteps);
  EXPECT_EQ(b->sandbox, "Outer");
  EXPECT_EQ(b->bound, 100u);
  EXPECT_EQ(b->observed, 101u);
  EXPECT_EQ(b->Message(), "sandbox Outer: step budget exceeded: 100 steps");
  std::optional<Breach> checked = child.Check();
  ASSERT_TRUE(checked.has_value());
  EXPECT_EQ(checked->sandbox, "Outer");
}

TEST(Nesting, TighterChildBreachNamesTheChild) {
  BudgetTracker parent(Steps(100), "Outer");
  BudgetTracker child(Steps(10), "Inner", &parent);
  EXPECT_FALSE(child.Charge(LimitId::kSteps, 10).has_value());
  std::optional<Breach> b = child.Charge(LimitId::kSteps, 1);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->sandbox, "Inner");
  EXPECT_EQ(b->bound, 10u);
  EXPECT_EQ(b->ToStatus().message(), "MT5009: sandbox Inner: step budget exceeded: 10 steps");
  EXPECT_EQ(parent.Used(LimitId::kSteps), 11u);
  EXPECT_FALSE(parent.Check().has_value());  // the parent itself is still within its limit
}

TEST(Nesting, BothOverReportsTheNearestTracker) {
  BudgetTracker parent(Steps(100), "Outer");
  BudgetTracker child(Steps(10), "Inner", &parent);
  std::optional<Breach> b = child.Charge(LimitId::kSteps, 500);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->sandbox, "Inner");
}

TEST(Nesting, RootTrackerBreachHasNoSandboxName) {
  BudgetTracker root(Steps(5));
  BudgetTracker child(Policy{}, "Inner", &root);
  std::optional<Breach> b = child.Charge(LimitId::kSteps, 6);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->sandbox, "");
  EXPECT_EQ(b->Message(), "step budget exceeded: 5 steps");
}

TEST(Nesting, RemainingStepsAccountsForParentUsage) {
  BudgetTracker parent(Steps(100), "Outer");
  EXPECT_FALSE(parent.Charge(LimitId::kSteps, 70).has_value());
  BudgetTracker child(Steps(50), "Inner", &parent);
  EXPECT_EQ(child.RemainingSteps(), std::optional<uint64_t>(30));
  EXPECT_FALSE(child.Charge(LimitId::kSteps, 10).has_value());
  EXPECT_EQ(child.RemainingSteps(), std::optional<uint64_t>(20));
  EXPECT_EQ(parent.RemainingSteps(), std::optional<uint64_t>(20));

  BudgetTracker unlimited_child(Policy{}, "Free", &parent);
  EXPECT_EQ(unlimited_child.RemainingSteps(), std::optional<uint64_t>(20));
}

TEST(Nesting, RemainingMemoryIsTightestOnPath) {
  Policy outer;
  outer.limits.Set(LimitId::kMemory, 1000);
  BudgetTracker parent(outer);
  Policy inner;
  inner.limits.Set(LimitId::kMemory, 100);
  BudgetTracker child(inner, "Inner", &parent);
  EXPECT_EQ(child.RemainingMemory(), std::optional<uint64_t>(100));
  EXPECT_FALSE(parent.Charge(LimitId::kMemory, 950).has_value());
  EXPECT_EQ(child.RemainingMemory(), std::optional<uint64_t>(50));
  std::optional<Breach> b = child.Charge(LimitId::kMemory, 60);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->limit, LimitId::kMemory);
  EXPECT_EQ(b->sandbox, "");
  EXPECT_EQ(b->observed, 1010u);
  EXPECT_EQ(b->bound, 1000u);
}

TEST(Nesting, SpawnAndCpuCountUpward) {
  Policy outer;
  outer.limits.Set(LimitId::kSpawned, 2);
  outer.limits.Set(LimitId::kCpu, 10 * kMs);
  BudgetTracker parent(outer, "Outer");
  BudgetTracker a(Policy{}, "A", &parent);
  BudgetTracker b(Policy{}, "B", &parent);
  EXPECT_FALSE(a.RecordSpawn().has_value());
  EXPECT_FALSE(b.RecordSpawn().has_value());
  std::optional<Breach> breach = a.RecordSpawn();
  ASSERT_TRUE(breach.has_value());
  EXPECT_EQ(breach->limit, LimitId::kSpawned);
  EXPECT_EQ(breach->sandbox, "Outer");
  EXPECT_EQ(parent.Used(LimitId::kSpawned), 3u);

  EXPECT_FALSE(a.Charge(0, 0, 6 * kMs).has_value());
  EXPECT_TRUE(b.Charge(0, 0, 6 * kMs).has_value());
  std::optional<Breach> cpu = a.Check();
  ASSERT_TRUE(cpu.has_value());
  EXPECT_EQ(cpu->limit, LimitId::kCpu);
  EXPECT_EQ(cpu->sandbox, "Outer");
}

TEST(Nesting, MailboxAndDepthAreTightestOnPath) {
  Policy outer;
  outer.limits.Set(LimitId::kMailbox, 4);
  outer.limits.Set(LimitId::kDepth, 100);
  outer.limits.mb_policy = MailboxPolicy::kDrop;
  BudgetTracker parent(outer, "Outer");
  Policy inner;
  inner.limits.Set(LimitId::kMailbox, 16);
  inner.limits.Set(LimitId::kDepth, 10);
  inner.limits.mb_policy = MailboxPolicy::kFail;
  BudgetTracker child(inner, "Inner", &parent);
  EXPECT_EQ(child.EffectiveMailbox(), std::optional<uint64_t>(4));
  EXPECT_EQ(child.EffectiveDepth(), std::optional<uint32_t>(10));
  EXPECT_EQ(child.EffectivePolicy(), MailboxPolicy::kFail);
  std::optional<Breach> mb = child.CheckMailboxDepth(5, "Worker");
  ASSERT_TRUE(mb.has_value());
  EXPECT_EQ(mb->sandbox, "Outer");
  EXPECT_EQ(mb->Message(), "sandbox Outer: mailbox full: Worker");
  std::optional<Breach> depth = child.CheckDepth(11);
  ASSERT_TRUE(depth.has_value());
  EXPECT_EQ(depth->sandbox, "Inner");
  EXPECT_FALSE(child.CheckDepth(10).has_value());
}

TEST(Nesting, WallDeadlineIsEarliestOnPath) {
  Policy outer;
  outer.limits.Set(LimitId::kWall, 10000 * kMs);
  BudgetTracker parent(outer, "Outer");
  Policy inner;
  inner.limits.Set(LimitId::kWall, 1000 * kMs);
  BudgetTracker child(inner, "Inner", &parent);
  EXPECT_EQ(child.WallDeadlineNs(), std::optional<int64_t>(child.start_ns() + 1000 * kMs));
  EXPECT_EQ(parent.WallDeadlineNs(), std::optional<int64_t>(parent.start_ns() + 10000 * kMs));

  // A parent created earlier with a short wall budget bounds a later child.
  Policy short_outer;
  short_outer.limits.Set(LimitId::kWall, 1000 * kMs);
  BudgetTracker early(short_outer, "Early");
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  Policy long_inner;
  long_inner.limits.Set(LimitId::kWall, 1000 * kMs);
  BudgetTracker late(long_inner, "Late", &early);
  EXPECT_GT(late.start_ns(), early.start_ns());
  EXPECT_EQ(late.WallDeadlineNs(), std::optional<int64_t>(early.start_ns() + 1000 * kMs));

  BudgetTracker free_child(Policy{}, "Free", &early);
  EXPECT_EQ(free_child.WallDeadlineNs(), early.WallDeadlineNs());
}

TEST(Nesting, WallBreachNamesTheExpiredTracker) {
  Policy outer;
  outer.limits.Set(LimitId::kWall, 1 * kMs);
  BudgetTracker parent(outer, "Outer");
  Policy inner;
  inner.limits.Set(LimitId::kWall, 10000 * kMs);
  BudgetTracker child(inner, "Inner", &parent);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::optional<Breach> b = child.Check();
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->limit, LimitId::kWall);
  EXPECT_EQ(b->sandbox, "Outer");
  EXPECT_EQ(b->ExitCode(), 5);
}

TEST(Nesting, ThreeLevels) {
  BudgetTracker root(Steps(1000));
  BudgetTracker mid(Steps(100), "Mid", &root);
  BudgetTracker leaf(Steps(500), "Leaf", &mid);
  EXPECT_EQ(leaf.RemainingSteps(), std::optional<uint64_t>(100));
  EXPECT_FALSE(leaf.Charge(LimitId::kSteps, 60).has_value());
  EXPECT_EQ(root.Used(LimitId::kSteps), 60u);
  EXPECT_EQ(mid.Used(LimitId::kSteps), 60u);
  EXPECT_EQ(leaf.RemainingSteps(), std::optional<uint64_t>(40));
  std::optional<Breach> b = leaf.Charge(LimitId::kSteps, 41);
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->sandbox, "Mid");
  EXPECT_EQ(b->observed, 101u);

  // A sibling of mid only shares the root.
  BudgetTracker sibling(Steps(2000), "Sibling", &root);
  EXPECT_EQ(sibling.RemainingSteps(), std::optional<uint64_t>(1000 - 101));
  std::optional<Breach> root_breach = sibling.Charge(LimitId::kSteps, 900);
  ASSERT_TRUE(root_breach.has_value());
  EXPECT_EQ(root_breach->sandbox, "");
  EXPECT_EQ(root_breach->observed, 1001u);
  EXPECT_EQ(mid.Used(LimitId::kSteps), 101u);
}

TEST(Nesting, IntersectTakesTightestLimits) {
  Policy manifest;
  manifest.limits.Set(LimitId::kSteps, 1000);
  manifest.limits.Set(LimitId::kMemory, 64 << 20);
  manifest.limits.Set(LimitId::kWall, 2000 * kMs);
  manifest.limits.Set(LimitId::kMailbox, 1024);
  manifest.limits.Set(LimitId::kDepth, 500);
  manifest.limits.mb_policy = MailboxPolicy::kFail;
  Policy flags;
  flags.limits.Set(LimitId::kSteps, 500);
  flags.limits.Set(LimitId::kMemory, 128 << 20);
  flags.limits.Set(LimitId::kCpu, 150 * kMs);
  flags.limits.Set(LimitId::kSpawned, 8);
  flags.limits.Set(LimitId::kDepth, 1000);
  Policy m = Policy::Intersect(manifest, flags);
  EXPECT_EQ(m.limits.Get(LimitId::kSteps), std::optional<uint64_t>(500));
  EXPECT_EQ(m.limits.Get(LimitId::kMemory), std::optional<uint64_t>(64 << 20));
  EXPECT_EQ(m.limits.Get(LimitId::kWall), std::optional<int64_t>(2000 * kMs));
  EXPECT_EQ(m.limits.Get(LimitId::kCpu), std::optional<int64_t>(150 * kMs));
  EXPECT_EQ(m.limits.Get(LimitId::kSpawned), std::optional<uint64_t>(8));
  EXPECT_EQ(m.limits.Get(LimitId::kMailbox), std::optional<uint64_t>(1024));
  EXPECT_EQ(m.limits.Get(LimitId::kDepth), std::optional<uint32_t>(500));
  EXPECT_EQ(m.limits.mb_policy, MailboxPolicy::kFail);  // the child left the default

  Policy drop;
  drop.limits.mb_policy = MailboxPolicy::kDrop;
  EXPECT_EQ(Policy::Intersect(manifest, drop).limits.mb_policy, MailboxPolicy::kDrop);

  Policy none = Policy::Intersect(Policy{}, Policy{});
  EXPECT_FALSE(none.limits.Get(LimitId::kSteps).has_value());
  EXPECT_FALSE(none.limits.Get(LimitId::kWall).has_value());
  EXPECT_FALSE(none.grants.Get(GrantId::kFsRead).has_value());
  EXPECT_FALSE(none.limits.mb_policy.has_value());
}

}  // namespace
}  // namespace mty::runtime
