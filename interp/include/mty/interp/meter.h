// The budget a task runs under, as the interpreter sees it: a chain of
// trackers, one per run, sandbox scope and agent (runtime::BudgetTracker
// implements it). The task's step, memory and CPU counters are a fast cache
// of the chain, not a second implementation: the task refills the cache
// from the chain and flushes what it used back at every scope change, every
// host call that can run other tasks, whenever its cache runs out and
// whenever it stops. Breaches are the chain's: it says which limit of which
// tracker went over.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mty/interp/fs_grant.h"
#include "mty/ir/ir.h"
#include "mty/vocab/policy.h"

namespace mty::interp {

class Meter {
 public:
  virtual ~Meter() = default;

  // Charges use since the last call to this tracker and every ancestor.
  // Returns the breach of the first tracker on the path (self first) that
  // is over one of these limits. Nothing is rolled back.
  virtual std::optional<ir::Breach> Charge(uint64_t steps, uint64_t memory, int64_t cpu_ns) = 0;
  // Bytes about to be written (stdout, stderr, files): the breach when they
  // would pass an output limit on the path or a wall deadline on the path
  // has passed (then nothing is counted and the write must not happen);
  // else counts them.
  virtual std::optional<ir::Breach> ChargeOutput(uint64_t bytes) = 0;
  // A spawn (counted first: limit N -> the N+1-th breaches).
  virtual std::optional<ir::Breach> RecordSpawn() = 0;

  // What the path has left (the tightest); nullopt when no tracker on the
  // path limits it.
  virtual std::optional<uint64_t> RemainingSteps() const = 0;
  virtual std::optional<uint64_t> RemainingMemory() const = 0;
  virtual std::optional<int64_t> RemainingCpu() const = 0;
  // The earliest wall-clock deadline on the path (steady_clock ns).
  virtual std::optional<int64_t> WallDeadline() const = 0;
  // The first tracker on the path (self first) that has used all of limit
  // `id` (steps, memory, cpu: use >= limit; wall: its deadline <= now), as
  // the breach of the next use; nullopt when none has.
  virtual std::optional<ir::Breach> Exhausted(ir::LimitId id) const = 0;

  // This tracker's own limits and grants (not its ancestors'), its name
  // ("" for none), its parent (nullptr at the root).
  virtual const ir::Policy& policy() const = 0;
  virtual const std::string& name() const = 0;
  virtual const Meter* parent() const = 0;

  // A grant request against every tracker on the path: the denial of the
  // first one (self first) whose list does not admit it.
  virtual std::optional<ir::Breach> CheckGrant(ir::GrantId id, std::string_view request) const = 0;
  // The file-system grant of family `id` (kFsRead or kFsWrite) in force
  // here: the innermost own grant on the path, each resolved beneath its
  // parent's when its tracker was made; with none on the path, the host's
  // default at the time of the call. nullptr allows nothing.
  virtual std::shared_ptr<const FsGrant> FsGrantOf(ir::GrantId id) const = 0;

  // A child tracker for a sandbox scope entered now, with the declaration's
  // limits and grants, named after it.
  virtual std::shared_ptr<Meter> Enter(const ir::SandboxDecl& decl) = 0;
};

}  // namespace mty::interp
