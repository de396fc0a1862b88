// Budget trackers: counters, limits and allow-lists along a tracker chain.
#include "mty/runtime/budget.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <limits>
#include <system_error>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "mty/ir/text.h"
#include "mty/runtime/output.h"

namespace mty::runtime {
namespace {

constexpr std::memory_order kRelaxed = std::memory_order_relaxed;

// Adds without wrapping: counters stick at the maximum instead.
uint64_t AddSaturating(std::atomic<uint64_t>& counter, uint64_t n) {
  uint64_t cur = counter.load(kRelaxed);
  uint64_t next;
  do {
    next = cur > std::numeric_limits<uint64_t>::max() - n ? std::numeric_limits<uint64_t>::max()
                                                          : cur + n;
  } while (!counter.compare_exchange_weak(cur, next, kRelaxed));
  return next;
}

int64_t AddSaturating(int64_t a, int64_t b) {
  if (b > 0 && a > std::numeric_limits<int64_t>::max() - b) {
    return std::numeric_limits<int64_t>::max();
  }
  if (b < 0 && a < std::numeric_limits<int64_t>::min() - b) {
    return std::numeric_limits<int64_t>::min();
  }
  return a + b;
}

// A signed duration as a breach field (negative values become 0).
uint64_t AsField(int64_t v) { return v < 0 ? 0 : static_cast<uint64_t>(v); }

template <typename T>
std::optional<T> MinOpt(const std::optional<T>& a, const std::optional<T>& b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

// Normalised roots of an allow-list (entries that do not normalise allow
// nothing and are dropped).
std::vector<std::string> NormalizeRoots(const std::vector<std::string>& roots) {
  std::vector<std::string> out;
  for (const std::string& r : roots) {
    std::string norm = ir::NormalizePath(r);
    if (!norm.empty() && std::find(out.begin(), out.end(), norm) == out.end())
      out.push_back(std::move(norm));
  }
  return out;
}

}  // namespace

// ---- BudgetTracker --------------------------------------------------------

BudgetTracker::BudgetTracker(Policy policy, std::string name, BudgetTracker* parent,
                             std::shared_ptr<const interp::FsGrantSource> fs)
    : policy_(std::move(policy)),
      name_(std::move(name)),
      parent_(parent),
      start_ns_(SteadyNowNs()),
      fs_source_(parent ? parent->fs_source_ : std::move(fs)) {
  // Resolved now, beneath the grant in force at the parent (runtime.md §3).
  for (GrantId id : {GrantId::kFsRead, GrantId::kFsWrite}) {
    const auto& list = policy_.grants.Get(id);
    if (!list) continue;
    const size_t i = FsIndex(id);
    listed_[i] = true;
    written_[i] = NormalizeRoots(*list);
    if (parent) {
      if (std::shared_ptr<const interp::FsGrant> above = parent->FsGrantOf(id))
        fs_[i] = above->NarrowGrant(*list);
    } else if (fs_source_) {
      fs_[i] = fs_source_->Resolve(id, *list);
    }
  }
}

std::shared_ptr<BudgetTracker> BudgetTracker::Child(std::shared_ptr<BudgetTracker> parent,
                                                    Policy policy, std::string name) {
  auto child = std::make_shared<BudgetTracker>(std::move(policy), std::move(name), parent.get());
  child->keep_parent_ = std::move(parent);
  return child;
}

std::shared_ptr<interp::Meter> BudgetTracker::Enter(const ir::SandboxDecl& decl) {
  std::shared_ptr<BudgetTracker> self = weak_from_this().lock();
  if (self) return Child(std::move(self), decl.policy, decl.name);
  return std::make_shared<BudgetTracker>(decl.policy, decl.name, this);
}

std::optional<uint64_t> BudgetTracker::Lim(LimitId id) const { return policy_.limits.Get(id); }

[[gnu::always_inline]] inline std::optional<uint64_t> BudgetTracker::Remaining(LimitId id) const {
  std::optional<uint64_t> out;
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    std::optional<uint64_t> lim = t->Lim(id);
    if (!lim) continue;
    uint64_t used = t->Used(id);
    out = MinOpt(out, std::optional<uint64_t>(used >= *lim ? 0 : *lim - used));
  }
  return out;
}

// Counted limits: inlined where the id is a constant (the flush of a task's
// cache charges three at a time).
[[gnu::always_inline]] inline std::optional<Breach> BudgetTracker::Count(LimitId id, uint64_t n) {
  const size_t i = static_cast<size_t>(id);
  std::optional<Breach> breach;
  for (BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    uint64_t used = AddSaturating(t->used_[i], n);
    std::optional<uint64_t> lim = t->Lim(id);
    if (!breach && lim && used > *lim) [[unlikely]]
      breach = Breach::Over(id, used, *lim, "", t->name_);
  }
  return breach;
}

std::optional<Breach> BudgetTracker::Charge(uint64_t steps, uint64_t memory, int64_t cpu_ns) {
  std::optional<Breach> breach;
  if (steps) breach = Count(LimitId::kSteps, steps);
  if (memory) {
    std::optional<Breach> m = Count(LimitId::kMemory, memory);
    if (!breach) breach = std::move(m);
  }
  if (cpu_ns > 0) {
    std::optional<Breach> c = Count(LimitId::kCpu, AsField(cpu_ns));
    if (!breach) breach = std::move(c);
  }
  return breach;
}

std::optional<Breach> BudgetTracker::Charge(LimitId id, uint64_t n) {
  if (id == LimitId::kOutput) {
    // Checked before anything is counted: a write that would pass a limit
    // does not happen (runtime.md §2), nor one after a wall deadline on the
    // path passed (nothing is written after the deadline, however long the
    // instruction before the write ran without a safepoint).
    if (std::optional<int64_t> wall = WallDeadlineNs()) {
      const int64_t now = SteadyNowNs();
      if (now >= *wall) return WallExhaustedAt(now);
    }
    for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
      std::optional<uint64_t> lim = t->Lim(id);
      uint64_t used = t->Used(id);
      if (lim && (used > *lim || n > *lim - used))
        return Breach::Over(id, used + n, *lim, "", t->name_);
    }
  }
  return Count(id, n);
}

std::optional<Breach> BudgetTracker::Exhausted(LimitId id) const {
  const int64_t now = SteadyNowNs();
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    std::optional<uint64_t> lim = t->Lim(id);
    if (!lim) continue;
    if (id == LimitId::kWall) return WallExhaustedAt(now);
    const uint64_t used = t->Used(id);
    // The next step is the one over the limit; memory and cpu report what
    // is used.
    if (used >= *lim)
      return Breach::Over(id, id == LimitId::kSteps ? used + 1 : used, *lim, "", t->name_);
  }
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::WallExhaustedAt(int64_t now) const {
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_)
    if (std::optional<uint64_t> lim = t->Lim(LimitId::kWall))
      if (now >= AddSaturating(t->start_ns_, static_cast<int64_t>(*lim)))
        return Breach::Over(LimitId::kWall, AsField(now - t->start_ns_), *lim, "", t->name_);
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::CheckGrant(GrantId id, std::string_view request) const {
  switch (id) {
    case GrantId::kFsRead: return CheckReadPath(request);
    case GrantId::kFsWrite: return CheckWritePath(request);
    case GrantId::kNet: return CheckHost(request);
    case GrantId::kEnv:
    case GrantId::kHost: return CheckName(id, request);
  }
  return std::nullopt;
}

std::shared_ptr<const interp::FsGrant> BudgetTracker::FsGrantOf(GrantId id) const {
  const size_t i = FsIndex(id);
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_)
    if (t->listed_[i]) return t->fs_[i];
  return fs_source_ ? fs_source_->Default(id) : nullptr;
}

std::optional<int64_t> BudgetTracker::RemainingCpu() const {
  std::optional<uint64_t> r = Remaining(LimitId::kCpu);
  if (!r) return std::nullopt;
  return static_cast<int64_t>(std::min<uint64_t>(*r, std::numeric_limits<int64_t>::max()));
}

std::optional<Breach> BudgetTracker::CheckMailboxDepth(uint64_t depth,
                                                       std::string_view agent) const {
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    std::optional<uint64_t> lim = t->Lim(LimitId::kMailbox);
    if (lim && depth > *lim)
      return Breach::Over(LimitId::kMailbox, depth, *lim, std::string(agent), t->name_);
  }
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::CheckDepth(uint32_t depth) const {
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    std::optional<uint64_t> lim = t->Lim(LimitId::kDepth);
    if (lim && depth > *lim) return Breach::Over(LimitId::kDepth, depth, *lim, "", t->name_);
  }
  return std::nullopt;
}

uint64_t BudgetTracker::UseAt(LimitId id, int64_t now) const {
  return id == LimitId::kWall ? AsField(now - start_ns_) : Used(id);
}

std::optional<Breach> BudgetTracker::CheckUse(LimitId id, int64_t now) const {
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    std::optional<uint64_t> lim = t->Lim(id);
    if (!lim) continue;
    uint64_t used = t->UseAt(id, now);
    if (used > *lim) return Breach::Over(id, used, *lim, "", t->name_);
  }
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::Check() const {
  const int64_t now = SteadyNowNs();
  for (LimitId id : {LimitId::kCpu, LimitId::kWall, LimitId::kMemory, LimitId::kSteps})
    if (std::optional<Breach> b = CheckUse(id, now)) return b;
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::CheckHost(std::string_view host_port) const {
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_)
    if (!t->policy_.grants.Allows(GrantId::kNet, host_port))
      return Breach::Denied(GrantId::kNet, std::string(host_port), t->name_);
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::CheckPath(GrantId id, std::string_view path) const {
  const std::string norm = ir::NormalizePath(path);
  const size_t i = FsIndex(id);
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    const auto& roots = t->written_[i];
    if (!roots) continue;
    bool ok = !norm.empty() && std::any_of(roots->begin(), roots->end(), [&](const std::string& r) {
      return ir::PathWithin(r, norm);
    });
    if (!ok) return Breach::Denied(id, std::string(path), t->name_);
  }
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::CheckReadPath(std::string_view path) const {
  return CheckPath(GrantId::kFsRead, path);
}

std::optional<Breach> BudgetTracker::CheckWritePath(std::string_view path) const {
  return CheckPath(GrantId::kFsWrite, path);
}

std::optional<Breach> BudgetTracker::CheckEnv(std::string_view name) const {
  return CheckName(GrantId::kEnv, name);
}

std::optional<Breach> BudgetTracker::CheckName(GrantId id, std::string_view name) const {
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_)
    if (!t->policy_.grants.Allows(id, name)) return Breach::Denied(id, std::string(name), t->name_);
  return std::nullopt;
}

std::optional<uint64_t> BudgetTracker::RemainingSteps() const { return Remaining(LimitId::kSteps); }

std::optional<uint64_t> BudgetTracker::RemainingMemory() const {
  return Remaining(LimitId::kMemory);
}

std::optional<int64_t> BudgetTracker::WallDeadlineNs() const {
  std::optional<int64_t> out;
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_)
    if (std::optional<uint64_t> lim = t->Lim(LimitId::kWall))
      out = MinOpt(out,
                   std::optional<int64_t>(AddSaturating(t->start_ns_, static_cast<int64_t>(*lim))));
  return out;
}

std::optional<uint32_t> BudgetTracker::EffectiveDepth() const {
  std::optional<uint64_t> out;
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_)
    out = MinOpt(out, t->Lim(LimitId::kDepth));
  if (!out) return std::nullopt;
  return static_cast<uint32_t>(std::min<uint64_t>(*out, std::numeric_limits<uint32_t>::max()));
}

std::optional<uint64_t> BudgetTracker::EffectiveMailbox() const {
  std::optional<uint64_t> out;
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_)
    out = MinOpt(out, t->Lim(LimitId::kMailbox));
  return out;
}

MailboxPolicy BudgetTracker::EffectivePolicy() const {
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_)
    if (t->policy_.limits.mb_policy) return *t->policy_.limits.mb_policy;
  return MailboxPolicy::kBlock;
}

}  // namespace mty::runtime
