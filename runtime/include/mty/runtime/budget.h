// Budget trackers: a run's resource limits (runtime.md §2) and capability
// allow-lists (§3), arranged as a chain of trackers for nested sandboxes and
// agents (§4). Consumption in a tracker counts against it and every ancestor;
// the effective limit is the tightest on the path, and a child's allow-lists
// can never widen its parent's.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"

namespace mty::runtime {

// What a send does when the receiver's mailbox is full (`mb_policy`).
enum class MailboxPolicy { kBlock, kDrop, kFail };

// Limits and allow-lists of one tracker. An unset (nullopt) limit is
// unlimited; an unset list is no allow-list (everything allowed at this
// level); an empty list allows nothing.
struct Budget {
  std::optional<uint64_t> steps;
  std::optional<uint64_t> memory;  // estimated bytes (runtime.md §2)
  std::optional<int64_t> wall_ns;
  std::optional<int64_t> cpu_ns;
  std::optional<uint64_t> spawned;
  std::optional<uint64_t> mailbox;
  MailboxPolicy mb_policy = MailboxPolicy::kBlock;
  std::optional<uint32_t> depth;
  std::optional<std::vector<std::string>> fs_read;   // roots
  std::optional<std::vector<std::string>> fs_write;  // roots
  std::optional<std::vector<std::string>> net;       // "host:port", "host", "*.suffix"
  std::optional<std::vector<std::string>> env;       // variable names (exact)
};

// One exceeded limit or one denied capability request.
struct Breach {
  enum class Kind { kSteps, kMemory, kWall, kCpu, kSpawned, kMailbox, kDepth, kHost, kPath, kEnv };
  Kind kind = Kind::kSteps;
  uint64_t observed = 0;  // the value that went over (ns for wall/cpu)
  uint64_t limit = 0;     // the limit it went over (ns for wall/cpu)
  std::string subject;    // host / path / env var / agent name for mailbox
  std::string sandbox;    // the tracker whose limit was breached ("" = the run's root)

  // MT5009 budgets, MT5012 mailbox, MT5018 depth, MT5015 host/path/env.
  std::string Code() const;
  // `mty run` exit code: steps 3, memory 4, wall 5, cpu 6, spawned/mailbox 7,
  // depth and capabilities 1.
  int ExitCode() const;
  // The runtime.md §1 text without the `trap MTxxxx: ` prefix, preceded by
  // `sandbox <name>: ` for a named sandbox.
  std::string Message() const;
  // kResourceExhausted for budgets (mailbox and depth included),
  // kPermissionDenied for capabilities; message `Code() + ": " + Message()`.
  absl::Status ToStatus() const;
};

// A short label per kind (`steps`, `memory`, `wall`, `cpu`, `spawned`,
// `mailbox`, `depth`, `host`, `path`, `env`), e.g. for traces.
std::string_view BreachKindName(Breach::Kind kind);

// `path` made absolute against the current working directory and lexically
// normalised (`.`, `..`, repeated `/`), without resolving symlinks. Returns ""
// for an empty path or when a relative path meets an unavailable cwd.
std::string NormalizePath(std::string_view path);

// True when the normalised `path` is `root` or lies below it by whole
// components (`/data` contains `/data/x`, not `/database`). Both arguments
// must already be normalised; an empty root contains nothing.
bool PathWithin(std::string_view root, std::string_view path);

// True when the net allow-list entry admits `host_port` (`host:port`,
// `host`, `[v6]:port`); hosts compare case-insensitively.
bool HostEntryAllows(std::string_view entry, std::string_view host_port);

// A node in the tracker chain. Counters are atomics, so one tracker may be
// charged from several threads; the budget, name, parent and start time are
// fixed at construction. The parent must outlive the child.
class BudgetTracker {
 public:
  explicit BudgetTracker(Budget budget, std::string name = "", BudgetTracker* parent = nullptr);
  BudgetTracker(const BudgetTracker&) = delete;
  BudgetTracker& operator=(const BudgetTracker&) = delete;

  // The tightest combination of two budgets: the smaller of each limit and
  // the intersection of each allow-list (an unset side imposes nothing). The
  // mailbox policy is the child's unless the child leaves the default
  // (kBlock), then the parent's.
  static Budget Intersect(const Budget& parent, const Budget& child);

  // Charges count against this tracker and every ancestor. Each returns the
  // breach of the first tracker on the path (self first, then ancestors)
  // that is over its limit, naming that tracker. Using exactly the limit
  // passes. Nothing is rolled back on a breach.
  std::optional<Breach> ChargeSteps(uint64_t n);
  std::optional<Breach> ChargeMemory(uint64_t bytes);
  std::optional<Breach> RecordCpu(int64_t ns);  // negative values are ignored
  std::optional<Breach> RecordSpawn();          // counts first: limit N -> the N+1-th breaches
  // `depth` messages queued for `agent` against the mailbox limits on the path.
  std::optional<Breach> CheckMailboxDepth(uint64_t depth, std::string_view agent) const;
  // A call depth of `depth` frames against the depth limits on the path.
  std::optional<Breach> CheckDepth(uint32_t depth) const;
  // cpu, then wall (each tracker's elapsed time since its own creation), then
  // memory, then steps; within a kind the path is walked from self upward.
  std::optional<Breach> Check() const;

  // Capability checks: a request passes only when every tracker on the path
  // allows it. The breach names the first tracker (from self upward) that
  // denies it; its subject is the request as given.
  std::optional<Breach> CheckHost(std::string_view host_port) const;
  std::optional<Breach> CheckReadPath(std::string_view path) const;
  std::optional<Breach> CheckWritePath(std::string_view path) const;
  std::optional<Breach> CheckEnv(std::string_view name) const;

  // Effective limits: the tightest on the path. Remaining* subtract what each
  // tracker has already used (0 once a tracker is over); nullopt when no
  // tracker on the path has a limit.
  std::optional<uint64_t> RemainingSteps() const;
  std::optional<uint64_t> RemainingMemory() const;
  // The earliest absolute deadline on the path, in steady_clock nanoseconds
  // since the steady_clock epoch.
  std::optional<int64_t> WallDeadlineNs() const;
  std::optional<uint32_t> EffectiveDepth() const;
  std::optional<uint64_t> EffectiveMailbox() const;
  MailboxPolicy EffectivePolicy() const;  // this tracker's own policy

  // The path allow-lists intersected along the path, as normalised roots;
  // nullopt when no tracker on the path has a list.
  std::optional<std::vector<std::string>> EffectiveReadPaths() const;
  std::optional<std::vector<std::string>> EffectiveWritePaths() const;

  const std::string& name() const { return name_; }
  BudgetTracker* parent() const { return parent_; }
  const Budget& budget() const { return budget_; }
  int64_t start_ns() const { return start_ns_; }  // steady_clock, at construction

  uint64_t steps_used() const { return steps_.load(std::memory_order_relaxed); }
  uint64_t memory_used() const { return memory_.load(std::memory_order_relaxed); }
  int64_t cpu_used_ns() const { return cpu_ns_.load(std::memory_order_relaxed); }
  uint64_t spawned() const { return spawned_.load(std::memory_order_relaxed); }

 private:
  std::optional<Breach> CheckCpu() const;
  std::optional<Breach> CheckWall() const;
  std::optional<Breach> CheckMemory() const;
  std::optional<Breach> CheckSteps() const;
  std::optional<Breach> CheckSpawned() const;

  Budget budget_;
  std::string name_;
  BudgetTracker* parent_;
  int64_t start_ns_;
  // The fs allow-lists normalised once, against the cwd at construction.
  std::optional<std::vector<std::string>> read_roots_;
  std::optional<std::vector<std::string>> write_roots_;
  std::atomic<uint64_t> steps_{0};
  std::atomic<uint64_t> memory_{0};
  std::atomic<int64_t> cpu_ns_{0};
  std::atomic<uint64_t> spawned_{0};
};

}  // namespace mty::runtime
