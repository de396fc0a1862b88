// Budget trackers: a run's resource limits (runtime.md §2) and capability
// allow-lists (§3), arranged as a chain of trackers for nested sandboxes and
// agents (§4). Consumption in a tracker counts against it and every ancestor;
// the effective limit is the tightest on the path, and a child's allow-lists
// can never widen its parent's.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "mty/interp/meter.h"
#include "mty/vocab/policy.h"

namespace mty::runtime {

using ir::Breach;
using ir::GrantId;
using ir::LimitId;
using ir::MailboxPolicy;
using ir::Policy;

// A node in the tracker chain, and what every task's counters are a cache
// of (it implements interp::Meter). Counters are atomics, so one tracker may
// be charged from several threads; the policy, name, parent and start time
// are fixed at construction. A tracker made by Enter or Child keeps its
// parent alive; one made with a raw parent needs the parent to outlive it.
class BudgetTracker : public interp::Meter, public std::enable_shared_from_this<BudgetTracker> {
 public:
  // A tracker's file-system lists are resolved here, once: a root's by
  // `fs` (the host), a child's beneath its parent's grant, so that a child
  // can never name what its parent could not open (runtime.md §3). A root
  // without a source grants no listed path and has no default.
  explicit BudgetTracker(Policy policy, std::string name = "", BudgetTracker* parent = nullptr,
                         std::shared_ptr<const interp::FsGrantSource> fs = nullptr);
  // A child that keeps `parent` alive (sandbox scopes, agents).
  static std::shared_ptr<BudgetTracker> Child(std::shared_ptr<BudgetTracker> parent, Policy policy,
                                              std::string name = "");
  BudgetTracker(const BudgetTracker&) = delete;
  BudgetTracker& operator=(const BudgetTracker&) = delete;

  // The one charge path: `n` more of counted limit `id` (steps, memory,
  // cpu ns, spawned, output bytes) against this tracker and every ancestor.
  // Returns the breach of the first tracker on the path (self first, then
  // ancestors) that is over its limit, naming that tracker. Using exactly
  // the limit passes. Nothing is rolled back on a breach, except for output:
  // bytes about to be written are checked first and counted only when they
  // pass every output limit on the path, and not at all once a wall
  // deadline on the path has passed (the write must not happen).
  std::optional<Breach> Charge(LimitId id, uint64_t n);
  std::optional<Breach> RecordSpawn() override { return Charge(LimitId::kSpawned, 1); }
  std::optional<Breach> ChargeOutput(uint64_t bytes) override {
    return Charge(LimitId::kOutput, bytes);
  }
  // `depth` messages queued for `agent` against the mailbox limits on the path.
  std::optional<Breach> CheckMailboxDepth(uint64_t depth, std::string_view agent) const;
  // A call depth of `depth` frames against the depth limits on the path.
  std::optional<Breach> CheckDepth(uint32_t depth) const;
  // cpu, then wall (each tracker's elapsed time since its own creation), then
  // memory, then steps; within a kind the path is walked from self upward.
  std::optional<Breach> Check() const;

  // Capability checks: a request passes only when every tracker on the path
  // allows it. The breach names the first tracker (from self upward) that
  // denies it; its subject is the request as given. Paths are checked
  // against the lists as written (normalised, by whole components): that
  // says which list a denial would need changed (the hints). Whether a file
  // access happens is the resolved grant's to decide (FsGrantOf): a path a
  // list names can still lie behind a symlink that leaves the parent.
  std::optional<Breach> CheckHost(std::string_view host_port) const;
  std::optional<Breach> CheckReadPath(std::string_view path) const;
  std::optional<Breach> CheckWritePath(std::string_view path) const;
  std::optional<Breach> CheckEnv(std::string_view name) const;
  // A name grant (env variables, host-function families).
  std::optional<Breach> CheckName(GrantId id, std::string_view name) const;

  // Effective limits: the tightest on the path. Remaining* subtract what each
  // tracker has already used (0 once a tracker is over); nullopt when no
  // tracker on the path has a limit.
  std::optional<uint64_t> RemainingSteps() const override;
  std::optional<uint64_t> RemainingMemory() const override;
  std::optional<int64_t> RemainingCpu() const override;
  // The earliest absolute deadline on the path, in steady_clock nanoseconds
  // since the steady_clock epoch.
  std::optional<int64_t> WallDeadlineNs() const;
  std::optional<uint32_t> EffectiveDepth() const;
  std::optional<uint64_t> EffectiveMailbox() const;
  MailboxPolicy EffectivePolicy() const;  // the innermost policy set on the path (default block)

  // interp::Meter: what the interpreter's task cache is built on.
  std::optional<Breach> Charge(uint64_t steps, uint64_t memory, int64_t cpu_ns) override;
  std::optional<int64_t> WallDeadline() const override { return WallDeadlineNs(); }
  std::optional<Breach> Exhausted(LimitId id) const override;
  // Exhausted(kWall) as of `now` (steady ns; the scheduler's clock).
  std::optional<Breach> WallExhaustedAt(int64_t now) const;
  const Policy& policy() const override { return policy_; }
  const std::string& name() const override { return name_; }
  const interp::Meter* parent() const override { return parent_; }
  std::optional<Breach> CheckGrant(GrantId id, std::string_view request) const override;
  std::shared_ptr<const interp::FsGrant> FsGrantOf(GrantId id) const override;
  // A child named after the sandbox, with its limits and grants (it keeps
  // this tracker alive when this one is owned by a shared_ptr).
  std::shared_ptr<interp::Meter> Enter(const ir::SandboxDecl& decl) override;

  BudgetTracker* parent_tracker() const { return parent_; }
  int64_t start_ns() const { return start_ns_; }  // steady_clock, at construction

  // What this tracker has used of counted limit `id` (its descendants'
  // charges included).
  uint64_t Used(LimitId id) const {
    return used_[static_cast<size_t>(id)].load(std::memory_order_relaxed);
  }

 private:
  std::optional<uint64_t> Lim(LimitId id) const;
  // The first tracker (self upward) whose use of `id` is over its limit;
  // wall uses the time since each tracker's creation.
  std::optional<Breach> CheckUse(LimitId id, int64_t now) const;
  // Use of `id` by this tracker: its counter, or for wall the time since
  // its creation at `now`.
  uint64_t UseAt(LimitId id, int64_t now) const;
  std::optional<Breach> CheckPath(GrantId id, std::string_view path) const;
  static size_t FsIndex(GrantId id) { return id == GrantId::kFsWrite ? 1 : 0; }
  std::optional<uint64_t> Remaining(LimitId id) const;
  // Counts n of `id` on this tracker and every ancestor (Charge without
  // output's check first).
  std::optional<Breach> Count(LimitId id, uint64_t n);

  Policy policy_;
  std::string name_;
  BudgetTracker* parent_;
  std::shared_ptr<BudgetTracker> keep_parent_;  // Child/Enter: the parent stays alive
  int64_t start_ns_;
  // The fs lists as written, normalised against the cwd at construction
  // (CheckPath), the host's grants (shared along the chain), and this
  // tracker's own fs lists resolved at construction ([0] read, [1] write;
  // listed_ says whether it has one: a null grant with a list allows
  // nothing).
  std::optional<std::vector<std::string>> written_[2];
  std::shared_ptr<const interp::FsGrantSource> fs_source_;
  std::shared_ptr<const interp::FsGrant> fs_[2];
  bool listed_[2] = {false, false};
  // The counters, indexed by LimitId (wall, mailbox and depth have none:
  // wall is the time since start_ns_, the other two are checked against a
  // given depth).
  std::atomic<uint64_t> used_[ir::kNumLimits] = {};
};

}  // namespace mty::runtime
