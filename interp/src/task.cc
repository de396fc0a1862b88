// The task lifecycle: making a task, starting it, running it (choosing the
// loop variant, refilling the budget cache), traps and how a run of the
// loop becomes an ExecOutcome.
#include <atomic>
#include <new>

#include "exec.h"
#include "mty/interp/heap.h"

namespace mty::interp {

namespace {
// The next block of frame ids handed out in this process (0 is no frame).
std::atomic<uint64_t> g_frame_id_blocks{1};
constexpr uint64_t kFrameIdBlock = 4096;
}  // namespace

void Task::ReserveFrameIds() {
  next_frame_id_ = g_frame_id_blocks.fetch_add(1, std::memory_order_relaxed) * kFrameIdBlock;
  frame_id_end_ = next_frame_id_ + kFrameIdBlock;
}

Task::Task(std::shared_ptr<const Module> m, Host* host, std::shared_ptr<Meter> meter)
    : module_(std::move(m)), host_(host), meter_(std::move(meter)) {
  consts_.resize(module_->functions.size());
}

Task::Task(std::shared_ptr<const Module> m, Host* host, std::shared_ptr<Meter> meter, Buffers reuse)
    : module_(std::move(m)), host_(host), meter_(std::move(meter)) {
  stack_ = std::move(reuse.stack);
  stack_.clear();
  frames_ = std::move(reuse.frames);
  frames_.clear();
  // Constants materialised by a task of the same module are the same values.
  if (reuse.module == module_) consts_ = std::move(reuse.consts);
  consts_.resize(module_->functions.size());
}

Task::Buffers Task::TakeBuffers() {
  Buffers b;
  if (running_) return b;
  stack_.clear();
  frames_.clear();
  // A deep task's stacks are not kept (a reused buffer holds real memory
  // that no budget is charged for any more).
  if (stack_.capacity() > 4096) std::vector<Value>().swap(stack_);
  if (frames_.capacity() > 256) std::vector<Frame>().swap(frames_);
  b.module = module_;
  b.stack = std::move(stack_);
  b.frames = std::move(frames_);
  b.consts = std::move(consts_);
  stack_.clear();
  frames_.clear();
  consts_.clear();
  return b;
}

Task::~Task() {
  // Release registers before the module's constants go away.
  stack_.clear();
}

void Task::ResumeTrap(TrapCode code, std::string message) {
  resume_reg_ = -1;
  pending_.Trap(code, std::move(message));
}

void Task::ResumeBreach(ir::Breach breach) {
  resume_reg_ = -1;
  pending_.breach = std::move(breach);
}

ExecOutcome Task::EndWith(std::optional<ir::Breach> breach) {
  if (!started_ || finished_ || running_) return ExecOutcome();
  if (resume_reg_ >= 0 && pc_ > 0) --pc_;  // report the instruction it waits in
  resume_reg_ = -1;
  if (!breach) return Exec::Finish(*this, Stop::kInterrupted);
  failure_.breach = std::move(breach);
  return Exec::Finish(*this, Stop::kBreach);
}

void Task::SetQuantum(uint64_t steps) {
  if (steps == 0 || finished_) return;
  quantum_ = true;
  quantum_left_ = static_cast<int64_t>(std::min<uint64_t>(steps, kUnlimitedSteps));
}

void Task::ResumeHostValue(Value value) {
  resume_charge_ = Estimate(value);
  Resume(std::move(value));
}

void Task::Resume(Value reply) {
  if (resume_reg_ >= 0 && static_cast<size_t>(resume_reg_) < stack_.size())
    stack_[resume_reg_] = std::move(reply);
  resume_reg_ = -1;
}

int64_t Task::cpu_used_ns() const {
  return running_ && cpu_counted_ ? cpu_base_ + (ThreadCpuNow() - thread_cpu_at_run_) : cpu_base_;
}

void Task::StartCpuClock(bool from_mark) {
  if (from_mark && cpu_mark_ && *cpu_mark_ >= 0) {
    thread_cpu_at_run_ = *cpu_mark_;
    *cpu_mark_ = -1;
  } else {
    thread_cpu_at_run_ = ThreadCpuNow();
  }
  cpu_just_started_ = true;
  clockid_t clock = CLOCK_THREAD_CPUTIME_ID;
  pthread_getcpuclockid(pthread_self(), &clock);
  fences_.cpu_clock.store(static_cast<int>(clock), std::memory_order_relaxed);
}

void Exec::SetTrap(Task& t, TrapCode code, std::string message) {
  t.failure_.Trap(code, std::move(message));
  t.trap_backtrace_.clear();
  uint32_t pc = t.pc_;
  for (size_t i = t.frames_.size(); i-- > 0;) {
    const Frame& fr = t.frames_[i];
    const CompiledFunction& f = t.module_->functions[fr.fn];
    ir::Loc loc = pc < f.loc.size() ? f.loc[pc] : ir::Loc{};
    t.trap_backtrace_.push_back({f.name, loc});
    pc = fr.ret_pc > 0 ? fr.ret_pc - 1 : 0;
  }
}

Stop Exec::Trap(Task& t, TrapCode code, std::string message) {
  SetTrap(t, code, std::move(message));
  return Stop::kTrap;
}

Stop Exec::Breach(Task& t, ir::Breach b) {
  t.failure_.breach = std::move(b);
  return Stop::kBreach;
}

ExecOutcome Exec::Finish(Task& t, Stop s) {
  ExecOutcome o;
  if (s == Stop::kLimit && t.failure_.over == ir::LimitId::kSteps && t.quantum_binds_) {
    // The scheduler's quantum ran out, not a budget: the instruction at pc
    // has not run, so the steps it would have used are not charged.
    t.steps_left_ = static_cast<int64_t>(t.breach_index_);
    std::optional<ir::Breach> b = Flush(t);
    t.quantum_ = false;
    t.relax_exact_ = true;
    if (!b) {
      o.kind = Outcome::kPreempted;
      return o;
    }
    t.failure_.breach = std::move(b);
    s = Stop::kBreach;
  }
  const Stop why = s;
  std::optional<ir::Breach> flushed = Flush(t);
  if (s == Stop::kLimit) {
    // The chain says which tracker's limit it was.
    t.failure_.breach = flushed ? std::move(flushed) : Scope(t).Exhausted(*t.failure_.over);
    if (!t.failure_.breach) {
      // A deadline that the chain no longer has (a scope was left): go on.
      o.kind = Outcome::kSuspended;
      return o;
    }
    s = Stop::kBreach;
  } else if (flushed && (s == Stop::kDone || s == Stop::kSuspended || s == Stop::kDeadlinePassed ||
                         s == Stop::kTrap)) {
    // A limit found over at the flush (CPU, a wall deadline passed during
    // the last instruction): every limit of a scope is checked when the
    // task leaves it, however it leaves (runtime.md §2), and what ran past
    // a limit is that breach, a trap at the end included.
    if (s == Stop::kSuspended && t.resume_reg_ >= 0 && t.pc_ > 0) {
      --t.pc_;  // reported at the instruction it was to wait in
      t.resume_reg_ = -1;
    }
    t.failure_.breach = std::move(flushed);
    s = Stop::kBreach;
  }
  switch (s) {
    case Stop::kDone:
      o.kind = Outcome::kOk;
      o.value = std::move(t.result_);
      t.finished_ = true;
      break;
    case Stop::kTrap:
      o.kind = Outcome::kTrap;
      o.code = t.failure_.code;
      o.message = t.failure_.message;
      o.backtrace = t.trap_backtrace_;
      t.finished_ = true;
      break;
    case Stop::kBreach: {
      o.kind = Outcome::kBreach;
      o.breach = t.failure_.breach;
      o.code = t.failure_.breach->Code();
      o.message = t.failure_.breach->Message();
      // Breaches report where they happened, like traps; a step breach the
      // statement it landed on.
      SetTrap(t, o.code, "");
      if (why == Stop::kLimit && t.failure_.over == ir::LimitId::kSteps && !t.frames_.empty() &&
          !t.trap_backtrace_.empty()) {
        const CompiledFunction& f = t.module_->functions[t.frames_.back().fn];
        auto it = f.step_locs.find(t.pc_);
        if (it != f.step_locs.end() && t.breach_index_ < it->second.size())
          t.trap_backtrace_[0].loc = it->second[t.breach_index_];
      }
      o.backtrace = t.trap_backtrace_;
      t.finished_ = true;
      if (t.host_ && t.host_->sandbox_events() && !t.failure_.breach->sandbox.empty())
        t.host_->SandboxChanged(Host::SandboxChange::kBreached, Scope(t), &*t.failure_.breach,
                                o.backtrace.empty() ? ir::Loc{} : o.backtrace[0].loc);
      break;
    }
    case Stop::kSuspended: o.kind = Outcome::kSuspended; break;
    case Stop::kInterrupted:
      o.kind = Outcome::kCancelled;
      SetTrap(t, TrapCode::kNone, "");  // where the run was when it was interrupted
      o.backtrace = t.trap_backtrace_;
      break;
    case Stop::kDeadlinePassed: o.kind = Outcome::kDeadlinePassed; break;
    case Stop::kLimit:
    case Stop::kToExact:
    case Stop::kReMode:
    case Stop::kContinue: break;  // handled above and by Run
  }
  if (t.finished_) {
    while (!t.scopes_.empty()) t.scopes_.pop_back();
    while (!t.frames_.empty()) PopFrame(t);
  }
  return o;
}

bool Task::Start(int fn, std::vector<Value> args, std::string* error) {
  if (started_) {
    *error = "task already started";
    return false;
  }
  if (!meter_) {
    *error = "a task needs a budget chain (interp::Meter)";
    return false;
  }
  if (fn < 0 || static_cast<size_t>(fn) >= module_->functions.size()) {
    *error = "no such function";
    return false;
  }
  const CompiledFunction& f = module_->functions[fn];
  if (f.num_params != args.size()) {
    *error =
        absl::StrCat("fn ", f.name, " takes ", f.num_params, " argument(s), given ", args.size());
    return false;
  }
  Exec::ComputeDepth(*this);
  if (depth_limit_ == 0) {
    *error = Exec::DepthBreach(*this).Message();
    return false;
  }
  // Sized for the entry frame and a few calls (an agent turn is usually
  // shallow); PushFrame doubles it as calls need (the first 64 registers
  // stay free of charge: StackPaid).
  stack_.resize(std::max<size_t>(16, 2 * static_cast<size_t>(f.frame_size)));
  Exec::PushFrame(*this, static_cast<uint32_t>(fn), 0, 0, -1);
  for (size_t i = 0; i < args.size(); ++i) stack_[1 + i] = std::move(args[i]);
  pc_ = 0;
  started_ = true;
  return true;
}

ExecOutcome Task::Run() {
  if (!started_ || finished_) {
    ExecOutcome o;
    o.kind = Outcome::kTrap;
    o.code = TrapCode::kType;
    o.message = started_ ? "task already finished" : "task not started";
    return o;
  }
  if (pending_.code != TrapCode::kNone) {
    // The ask this task waits on failed (runtime.md §5): trap at the ask.
    if (pc_ > 0) --pc_;
    Exec::SetTrap(*this, pending_.code, std::move(pending_.message));
    pending_.code = TrapCode::kNone;
    return Exec::Finish(*this, Stop::kTrap);
  }
  if (resume_charge_) {
    // A host call's late value: its size charged as the call would have
    // (memory, and work at the effect's rate of one step per 64 bytes).
    const uint64_t est = resume_charge_;
    resume_charge_ = 0;
    if (std::optional<ir::Breach> b = current_meter()->Charge(est / cost::kUnitsPerStep, est, 0))
      pending_.breach = std::move(b);
  }
  if (pending_.breach) {
    if (pc_ > 0) --pc_;
    failure_.breach = std::move(pending_.breach);
    pending_.breach.reset();
    return Exec::Finish(*this, Stop::kBreach);
  }
  // CPU time is the thread's CPU clock while the task runs, read only when a
  // CPU limit applies (Refill starts it when one first does).
  running_ = true;
  if (cpu_counted_) {
    StartCpuClock(/*from_mark=*/true);
  } else if (cpu_mark_) {
    *cpu_mark_ = -1;  // this task's CPU is not counted: the mark is stale after it
  }
  // The cache starts from what the chain has left now (other tasks of the
  // run may have used some since this task last ran).
  Exec::Refill(*this);
  if (exact_) relax_exact_ = true;  // back to metered at the next jump if there is room
  // The run's real heap (mty/interp/heap.h) wakes this task when it passes
  // its ceiling; the task stops at its next safepoint (Exec::Poked).
  HeapAccount* heap = CurrentHeapAccount();
  std::atomic<bool>* prev_wake = heap ? heap->SetWake(&interrupt_) : nullptr;
  if (heap && heap->over()) interrupt_.store(true, std::memory_order_relaxed);
  struct EndRun {
    Task& t;
    HeapAccount* heap;
    std::atomic<bool>* prev_wake;
    ~EndRun() {
      if (heap) heap->SetWake(prev_wake);
      if (t.cpu_counted_) {
        const int64_t now = ThreadCpuNow();
        t.cpu_base_ += now - t.thread_cpu_at_run_;
        if (t.cpu_mark_) *t.cpu_mark_ = now;
      }
      t.cpu_flushed_ = std::min(t.cpu_flushed_, t.cpu_base_);
      t.running_ = false;
      const int64_t old_wall =
          t.fences_.wall_deadline.exchange(Fences::kNone, std::memory_order_relaxed);
      const int64_t old_cpu =
          t.fences_.cpu_deadline.exchange(Fences::kNone, std::memory_order_relaxed);
      t.fences_.earliest.store(Fences::kNone, std::memory_order_relaxed);
      if ((old_wall != Fences::kNone || old_cpu != Fences::kNone) && t.watcher_)
        t.watcher_->FencesChanged(t);
    }
  } end_run{*this, heap, prev_wake};
  try {
    Stop s = Stop::kReMode;
    if (Stop d = Exec::CheckDeadlines(*this); d != Stop::kContinue) {
      // A deadline passed while the task waited: report the call it waited in.
      if (waited_ && pc_ > 0) --pc_;
      s = d;
    }
    // From here guest code runs: the CPU clock is read again when needed.
    cpu_just_started_ = false;
    waited_ = false;
    if (go_exact_) {  // left mid-way through an instruction's work charge
      go_exact_ = false;
      exact_ = true;
    }
    while (s == Stop::kReMode) {
      // Entering (or re-entering after a suspend, an interrupt or a mode
      // change) charges the segment at pc, as a jump there would have.
      if (metered_ && !exact_) {
        const CompiledFunction& f = module_->functions[frames_.back().fn];
        int64_t cost = f.seg_cost[pc_];
        if (steps_left_ < cost) {
          exact_ = true;
        } else {
          steps_left_ -= cost;
        }
      }
      if (!metered_) {
        s = Exec::Loop<Mode::kFree>(*this);
      } else if (!exact_) {
        s = Exec::Loop<Mode::kMetered>(*this);
        if (s == Stop::kToExact) {
          exact_ = true;
          s = Exec::Loop<Mode::kExact>(*this);
        }
      } else {
        s = Exec::Loop<Mode::kExact>(*this);
      }
    }
    return Exec::Finish(*this, s);
  } catch (const std::bad_alloc&) {
    if (heap && heap->over())
      return Exec::Finish(*this, Exec::Breach(*this, RealHeapBreach(*heap)));
    Exec::SetTrap(*this, TrapCode::kBudget, "out of memory: the host could not allocate");
    return Exec::Finish(*this, Stop::kTrap);
  } catch (const std::length_error&) {
    Exec::SetTrap(*this, TrapCode::kBudget, "out of memory: allocation too large");
    return Exec::Finish(*this, Stop::kTrap);
  }
}

void PendingCall::Complete(Finish finish) {
  std::lock_guard<std::mutex> lock(mu_);
  if (complete_ || detached_) return;  // later completions, or the run ended
  complete_ = true;
  finish_ = std::move(finish);
  // The sink is told under the lock, so Detach cannot run in between.
  if (sink_) sink_->Posted(id_);
}

void PendingCall::Attach(Sink* sink, uint64_t id) {
  std::lock_guard<std::mutex> lock(mu_);
  sink_ = sink;
  id_ = id;
  if (complete_) sink->Posted(id);
}

void PendingCall::Detach() {
  Finish drop;
  {
    std::lock_guard<std::mutex> lock(mu_);
    detached_ = true;
    sink_ = nullptr;
    drop = std::move(finish_);
  }
}

PendingCall::Finish PendingCall::Take() {
  std::lock_guard<std::mutex> lock(mu_);
  return std::move(finish_);
}

}  // namespace mty::interp
