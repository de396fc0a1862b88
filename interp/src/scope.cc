// The budget chain as the task sees it: the cache of its counters (Refill,
// Flush), the depth limit, sandbox scopes (a child tracker per entry), and
// the wall/CPU fences published to the watchdog.
#include "exec.h"
#include "mty/interp/heap.h"

namespace mty::interp {

std::optional<ir::Breach> Exec::Flush(Task& t) {
  const int64_t used = t.steps_allowed_ - t.steps_left_;
  t.steps_allowed_ = t.steps_left_;
  if (t.quantum_) t.quantum_left_ -= used;
  const uint64_t mem = t.mem_used_ - t.mem_flushed_;
  t.mem_flushed_ = t.mem_used_;
  const int64_t cpu_now = t.cpu_used_ns();
  const int64_t cpu = cpu_now - t.cpu_flushed_;
  t.cpu_flushed_ = cpu_now;
  std::optional<ir::Breach> b;
  if (used != 0 || mem != 0 || cpu != 0)
    b = Scope(t).Charge(static_cast<uint64_t>(std::max<int64_t>(used, 0)), mem, cpu);
  // The wall clock is checked at every flush too, not only at safepoints:
  // a scope left, a host call or an end after one long builtin call that
  // ran past a wall deadline is that breach (runtime.md §2).
  if (!b && t.wall_deadline_ != Fences::kNone && SteadyNow() >= t.wall_deadline_)
    b = Scope(t).Exhausted(ir::LimitId::kWall);
  return b;
}

bool Exec::ChargeWork(Task& t, uint64_t units) {
  t.work_short_ = false;
  if (!t.metered_) return true;  // no step limit and no quantum: steps are not counted
  const int64_t extra =
      static_cast<int64_t>(std::min<uint64_t>(units / cost::kUnitsPerStep, kUnlimitedSteps));
  if (extra == 0) return true;
  if (t.steps_left_ >= extra) {
    t.steps_left_ -= extra;
    return true;
  }
  // A metered loop's counter holds less than the budget has left: its
  // segment was charged on entry for the instructions after this one too.
  // Taken back, the counter is exact; those instructions are then counted
  // one by one (go_exact_).
  int64_t back = 0;
  if (!t.exact_ && !t.go_exact_) {
    const CompiledFunction& f = t.module_->functions[t.frames_.back().fn];
    back = static_cast<int64_t>(f.rest[t.pc_]) - static_cast<int64_t>(f.steps_at[t.pc_]);
  }
  const int64_t have = t.steps_left_ + back;
  if (have >= extra) {
    t.steps_left_ = have - extra;
    if (back > 0) t.go_exact_ = true;
    return true;
  }
  const int64_t over = extra - have;
  if (t.quantum_binds_ && over <= t.quantum_hidden_) {
    // Past the quantum but within the budget: charged in full; the task
    // yields at its next statement.
    t.quantum_hidden_ -= over;
    t.steps_allowed_ += over;
    t.steps_left_ = 0;
    if (back > 0) t.go_exact_ = true;
    return true;
  }
  t.work_short_ = true;  // nothing charged: a step breach at this statement
  return false;
}

void Exec::WorkBreach(Task& t) {
  if (t.quantum_binds_) {
    // The budget ran out, not the quantum: charge all it had.
    t.steps_allowed_ += t.quantum_hidden_;
    t.quantum_hidden_ = 0;
    t.quantum_binds_ = false;
  }
  const uint32_t at = t.module_->functions[t.frames_.back().fn].steps_at[t.pc_];
  t.breach_index_ = at > 0 ? at - 1 : 0;
  t.steps_left_ = 0;
}

uint64_t Exec::Affordable(const Task& t) {
  if (!t.metered_) return UINT64_MAX;
  int64_t back = 0;
  if (!t.exact_ && !t.go_exact_) {
    const CompiledFunction& f = t.module_->functions[t.frames_.back().fn];
    back = static_cast<int64_t>(f.rest[t.pc_]) - static_cast<int64_t>(f.steps_at[t.pc_]);
  }
  // steps_left_ is near INT64_MAX when no budget binds: add in 128 bits.
  const __int128 sum =
      static_cast<__int128>(t.steps_left_) + back + (t.quantum_binds_ ? t.quantum_hidden_ : 0);
  if (sum >= INT64_MAX / cost::kUnitsPerStep) return UINT64_MAX;
  const int64_t left = std::max<int64_t>(0, static_cast<int64_t>(sum));
  return static_cast<uint64_t>(left) * cost::kUnitsPerStep + (cost::kUnitsPerStep - 1);
}

uint64_t Ctx::Affordable() const { return task ? Exec::Affordable(*task) : UINT64_MAX; }

bool Ctx::Work(uint64_t units) {
  if (!task || Exec::ChargeWork(*task, units)) return true;
  fail.over = ir::LimitId::kSteps;
  return false;
}

void Exec::ComputeDepth(Task& t) {
  uint64_t limit = UINT32_MAX;
  t.depth_owner_ = -1;
  t.depth_meter_ = nullptr;
  for (const Meter* m = t.meter_.get(); m; m = m->parent())
    if (auto d = m->policy().limits.Get(ir::LimitId::kDepth); d && *d <= limit) {
      limit = *d;
      t.depth_meter_ = m;
    }
  for (size_t i = 0; i < t.scopes_.size(); ++i) {
    const Task::Scope& s = t.scopes_[i];
    if (auto d = s.meter->policy().limits.Get(ir::LimitId::kDepth); d && s.frame + *d <= limit) {
      limit = s.frame + *d;
      t.depth_owner_ = static_cast<int>(i);
      t.depth_meter_ = s.meter.get();
    }
  }
  t.depth_limit_ = static_cast<uint32_t>(std::min<uint64_t>(limit, UINT32_MAX));
}

ir::Breach Exec::DepthBreach(const Task& t) {
  const Meter* m = t.depth_meter_;
  const uint64_t base = t.depth_owner_ >= 0 ? t.scopes_[t.depth_owner_].frame : 0;
  const uint64_t bound = m ? *m->policy().limits.Get(ir::LimitId::kDepth) : t.depth_limit_;
  return ir::Breach::Over(ir::LimitId::kDepth, t.frames_.size() + 1 - base, bound, "",
                          m ? m->name() : "");
}

void Exec::Refill(Task& t) {
  const Meter& m = Scope(t);
  const std::optional<uint64_t> rs = m.RemainingSteps();
  const std::optional<uint64_t> rm = m.RemainingMemory();
  const std::optional<int64_t> rc = m.RemainingCpu();
  const std::optional<int64_t> wall = m.WallDeadline();
  int64_t allow =
      rs ? static_cast<int64_t>(std::min<uint64_t>(*rs, kUnlimitedSteps)) : kUnlimitedSteps;
  t.quantum_binds_ = t.quantum_ && t.quantum_left_ < allow;
  t.quantum_hidden_ = 0;
  if (t.quantum_binds_) {
    const int64_t q = std::max<int64_t>(t.quantum_left_, 0);
    t.quantum_hidden_ = allow - q;
    allow = q;
  }
  t.steps_left_ = t.steps_allowed_ = allow;
  if (rs || rm || t.quantum_) t.metered_ = true;
  if (rm) {
    uint64_t lim = t.mem_used_ + *rm;
    t.mem_limit_ = lim < t.mem_used_ ? std::numeric_limits<uint64_t>::max() : lim;
  } else {
    t.mem_limit_ = std::numeric_limits<uint64_t>::max();
  }
  bool started_here = false;
  if (rc && !t.cpu_counted_) {
    t.cpu_counted_ = true;
    if (t.running_) {
      t.StartCpuClock();
      started_here = true;
    }
  }
  // Right after StartCpuClock (a Run's first refill) the clock was just
  // read: the task has used cpu_base_.
  const int64_t cpu_used = rc ? (t.cpu_just_started_ ? t.cpu_base_ : t.cpu_used_ns()) : 0;
  if (started_here) t.cpu_just_started_ = false;  // guest code runs next
  t.cpu_deadline_ = rc ? SatAdd(cpu_used, std::max<int64_t>(*rc, 0)) : Fences::kNone;
  t.cpu_wake_ = rc ? SatAdd(SteadyNow(), std::max<int64_t>(*rc, 0)) : Fences::kNone;
  t.wall_deadline_ = std::min(wall.value_or(Fences::kNone), t.cancel_deadline_);
  PublishFences(t);
}

void Exec::PublishFences(Task& t) {
  int64_t cpu = Fences::kNone;
  if (t.cpu_deadline_ != Fences::kNone && t.running_)
    cpu = SatAdd(t.thread_cpu_at_run_, t.cpu_deadline_ - t.cpu_base_);
  // The watchdog is told only of a change (a turn with no deadline, as most
  // agent turns are, costs it nothing).
  const int64_t old_wall =
      t.fences_.wall_deadline.exchange(t.wall_deadline_, std::memory_order_relaxed);
  const int64_t old_cpu = t.fences_.cpu_deadline.exchange(cpu, std::memory_order_relaxed);
  t.fences_.earliest.store(std::min(t.wall_deadline_, cpu == Fences::kNone ? cpu : t.cpu_wake_),
                           std::memory_order_relaxed);
  if ((old_wall != t.wall_deadline_ || old_cpu != cpu) && t.watcher_) t.watcher_->FencesChanged(t);
}

Stop Exec::CheckDeadlines(Task& t) {
  if (t.wall_deadline_ != Fences::kNone) {
    const int64_t now = SteadyNow();
    if (now >= t.cancel_deadline_) return Stop::kDeadlinePassed;
    if (now >= t.wall_deadline_) return Over(t, ir::LimitId::kWall);
  }
  if (t.cpu_deadline_ != Fences::kNone &&
      (t.cpu_just_started_ ? t.cpu_base_ : t.cpu_used_ns()) >= t.cpu_deadline_)
    return Over(t, ir::LimitId::kCpu);
  return Stop::kContinue;
}

Stop Exec::Poked(Task& t) {
  t.interrupt_.store(false, std::memory_order_relaxed);
  if (t.cancel_.exchange(false, std::memory_order_relaxed)) return Stop::kInterrupted;
  if (HeapAccount* heap = CurrentHeapAccount(); heap && heap->over())
    return Breach(t, RealHeapBreach(*heap));
  return CheckDeadlines(t);
}

Stop Exec::EnterScope(Task& t, uint32_t di) {
  // Hostile MtyIR can enter sandboxes in a loop without leaving them.
  if (t.scopes_.size() >= kMaxScopes)
    return Trap(t, TrapCode::kDepth,
                absl::StrCat("sandbox nesting exceeded: ", kMaxScopes, " scopes"));
  if (std::optional<ir::Breach> b = Flush(t)) return Breach(t, std::move(*b));
  std::shared_ptr<Meter> child = Scope(t).Enter(t.module_->sandboxes[di]);
  t.scopes_.push_back(Task::Scope{std::move(child), static_cast<uint32_t>(t.frames_.size())});
  ComputeDepth(t);
  Refill(t);
  if (t.host_ && t.host_->sandbox_events())
    t.host_->SandboxChanged(Host::SandboxChange::kEntered, Scope(t), nullptr, Here(t));
  return Stop::kContinue;
}

ir::Loc Exec::Here(const Task& t) {
  if (t.frames_.empty()) return ir::Loc{};
  const CompiledFunction& f = t.module_->functions[t.frames_.back().fn];
  return t.pc_ < f.loc.size() ? f.loc[t.pc_] : ir::Loc{};
}

std::optional<ir::Breach> Exec::PopScope(Task& t) {
  std::optional<ir::Breach> b = Flush(t);
  // A scope whose limit the flush found over is reported by the breach.
  if (t.host_ && t.host_->sandbox_events() && !b)
    t.host_->SandboxChanged(Host::SandboxChange::kLeft, Scope(t), nullptr, Here(t));
  t.scopes_.pop_back();
  ComputeDepth(t);
  Refill(t);
  return b;
}

}  // namespace mty::interp
