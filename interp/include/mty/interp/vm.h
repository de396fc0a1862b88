// The interpreter: runs a Module's function as a task on an explicit frame
// stack under the budget chain of interp::Meter (steps, memory, CPU, wall,
// depth). A task can stop at a safepoint (suspend, interrupt, preemption)
// and be resumed.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "mty/interp/bytecode.h"
#include "mty/interp/meter.h"
#include "mty/interp/value.h"
#include "mty/ir/builtins.h"
#include "mty/ir/ir.h"
#include "mty/vocab/traps.h"

namespace mty::interp {

using ir::Outcome;
using ir::TrapCode;

struct HostError;

// A host call that completes later (runtime.md §7, an embedder's async host
// function): the host returns nullopt with HostError::wait set and
// HostError::pending pointing here; the scheduler parks the calling task
// and attaches itself; whoever completes the call, on any thread, calls
// Complete once. The value is built on the run's thread when the task
// resumes (Take), so the guest heap is only touched there.
class PendingCall {
 public:
  // Builds the call's value (nullopt with *err set: the call traps).
  using Finish = std::function<std::optional<Value>(HostError* err)>;
  // Told, from the completing thread, that call `id` is complete.
  class Sink {
   public:
    virtual ~Sink() = default;
    virtual void Posted(uint64_t id) = 0;
  };
  // Thread-safe; the first call wins, later ones are ignored. After Detach
  // the completion is dropped.
  void Complete(Finish finish);
  // The scheduler's side (the run's thread).
  void Attach(Sink* sink, uint64_t id);  // posts at once when already complete
  void Detach();                         // the run ended first
  Finish Take();

 private:
  std::mutex mu_;
  Finish finish_;
  bool complete_ = false;
  bool detached_ = false;
  Sink* sink_ = nullptr;
  uint64_t id_ = 0;
};

// Why an operation failed: the one failure carrier inside the interpreter,
// from where a builtin, a method, a place operation or a host call fails to
// how the task ends. One of:
//   - a limit of the budget chain gone over (`breach`: output, a host's
//     charge; the task ends with it);
//   - a limit of the task's own budget cache gone over (`over`: memory, or
//     steps when a work charge could not be paid; the chain says whose);
//   - a trap (`code`, MT50xx, and `message`; kNone with neither of the
//     above: an unknown effect or method, which traps MT5008).
struct Failure {
  TrapCode code = TrapCode::kNone;
  std::string message;
  std::optional<ir::Breach> breach;
  std::optional<ir::LimitId> over;
  // Sets the trap; false, for `return cx.Trap(...)`.
  bool Trap(TrapCode c, std::string msg) {
    code = c;
    message = std::move(msg);
    return false;
  }
  void ClearFailure() {
    code = TrapCode::kNone;
    message.clear();
    breach.reset();
    over.reset();
  }
};

// Why a host call failed (a Failure), or that the task must wait.
struct HostError : Failure {
  // Not an error: the task must wait (a sleep); Run returns kSuspended and
  // the host resumes it with Task::Resume(value).
  bool wait = false;
  // With `wait`: a host function that completes later (PendingCall).
  std::shared_ptr<PendingCall> pending;
  // With `wait`: a sleep of this many ns (std.time.sleep); the scheduler's
  // timer ends it. -1: not a sleep.
  int64_t sleep_ns = -1;
  // In: where the call is (the effect instruction's source location).
  ir::Loc loc;
  // In: what the caller's memory budget has left (estimated bytes) for the
  // result. Out: when the result would take more (a file larger than that),
  // the host builds nothing and sets `memory_needed` to its estimate; the
  // caller charges it, which is the memory breach, before any byte is read.
  uint64_t memory_left = UINT64_MAX;
  uint64_t memory_needed = 0;
  void Clear() {
    ClearFailure();
    wait = false;
    pending.reset();
    sleep_ns = -1;
    memory_left = UINT64_MAX;
    memory_needed = 0;
  }
};

// Everything a run sends out of the interpreter. The runtime/stdlib layers
// implement effects; the default host has none (effects trap MT5008).
// `scope` is the budget chain the calling task is in (its innermost sandbox
// scope): what grants it has, what deadline it has.
class Host {
 public:
  virtual ~Host() = default;
  virtual void Stdout(std::string_view text) = 0;
  virtual void Stderr(std::string_view text) = 0;
  // Returns the effect's value, or nullopt with `*err` set. The effect is
  // a row of the builtin table (ir/builtins.def), resolved by the compiler;
  // a call of an effect no row names traps MT5008 without reaching a host.
  virtual std::optional<Value> InvokeEffect(ir::EffectId effect, std::vector<Value>& args,
                                            Meter& scope, HostError* err) {
    (void)effect;
    (void)args;
    (void)scope;
    (void)err;
    return std::nullopt;
  }

  // A call of the embedder's host function `index` (Module::host_fns),
  // as InvokeEffect. The default host has none: MT5008.
  virtual std::optional<Value> InvokeHostFn(uint32_t index, std::vector<Value>& args, Meter& scope,
                                            HostError* err) {
    (void)index;
    (void)args;
    (void)scope;
    (void)err;
    return std::nullopt;
  }

  // Agents (runtime.md §5), implemented by the agent runtime's scheduler.
  // The default host has none: each fails with a message. `init_fn` is the
  // agent's `A::__init` function (-1 when the program has none).
  virtual std::optional<Value> Spawn(int init_fn, std::string_view agent, std::vector<Value>& args,
                                     HostError* err) {
    (void)init_fn;
    (void)args;
    err->message = "spawn " + std::string(agent) + ": agents are not supported by this runtime yet";
    return std::nullopt;
  }
  // An ask either has its reply now (kReply, `*reply` set), makes the task
  // wait (kWait: Run returns kSuspended and the scheduler resumes the task
  // with Task::Resume(reply) or Task::ResumeTrap), or fails (kFail). A send
  // is kReply when done, kWait when the sender must wait for room (resume
  // with ()), kFail to trap.
  enum class AskStatus { kReply, kWait, kFail };
  virtual AskStatus Send(const Value& target, std::string_view msg, std::vector<Value>& args,
                         HostError* err) {
    (void)target;
    (void)args;
    err->message = "send " + std::string(msg) + ": agents are not supported by this runtime yet";
    return AskStatus::kFail;
  }
  // `sup.w`: the handle of supervisor `sup`'s child `w`.
  virtual std::optional<Value> Child(const Value& sup, std::string_view name, HostError* err) {
    (void)sup;
    err->message = "`." + std::string(name) + "`: agents are not supported by this runtime yet";
    return std::nullopt;
  }
  virtual AskStatus Ask(const Value& target, std::string_view msg, std::vector<Value>& args,
                        std::optional<int64_t> deadline_ns, Value* reply, HostError* err) {
    (void)target;
    (void)args;
    (void)deadline_ns;
    (void)reply;
    err->message = "ask " + std::string(msg) + ": agents are not supported by this runtime yet";
    return AskStatus::kFail;
  }

  // The calling task entered or left sandbox scope `scope` (at `loc`), or
  // a limit of a sandbox went over (`breach`, whose `sandbox` names it):
  // the run's events. Called outside the dispatch loop (scope changes and
  // the end of a task); the default host ignores them.
  // Only called when sandbox_events() (a field, so that a run without
  // these events pays one load per scope change).
  enum class SandboxChange : uint8_t { kEntered, kLeft, kBreached };
  virtual void SandboxChanged(SandboxChange change, const Meter& scope, const ir::Breach* breach,
                              ir::Loc loc) {
    (void)change;
    (void)scope;
    (void)breach;
    (void)loc;
  }
  bool sandbox_events() const { return sandbox_events_; }

 protected:
  bool sandbox_events_ = false;
};

// The wall-clock and CPU deadlines of a task's innermost scope, published
// for a watchdog (runtime/watchdog.h) that pokes the task when one passes.
// The task itself re-checks the clocks when poked, so a spurious poke is
// harmless. Without a watchdog, deadlines are only checked when a blocking
// host call gives up.
struct Fences {
  static constexpr int64_t kNone = INT64_MAX;
  std::atomic<int64_t> wall_deadline{kNone};  // steady_clock ns since its epoch
  std::atomic<int64_t> cpu_deadline{kNone};   // on cpu_clock, ns
  std::atomic<int> cpu_clock{0};              // clockid_t of the running thread
  // The soonest steady_clock time either deadline can pass: the wall
  // deadline, or now plus the CPU time left when it was published (a thread
  // cannot use CPU faster than wall time). A watcher already due to look
  // before then need not be woken.
  std::atomic<int64_t> earliest{kNone};
};

class Task;
class FenceWatcher {
 public:
  virtual ~FenceWatcher() = default;
  // Called by the task's thread whenever its fences change.
  virtual void FencesChanged(Task& task) = 0;
};

struct BacktraceFrame {
  std::string function;
  ir::Loc loc;
};

// How Task::Run stopped: ir::Outcome with its details. A task never ends in
// kMainErr, kEscalated or kNoEntry (the run does, above it).
struct ExecOutcome {
  Outcome kind = Outcome::kOk;
  Value value;                            // kOk: the entry function's result
  TrapCode code = TrapCode::kNone;        // kTrap; kBreach: the limit's code
  std::string message;                    // kTrap, kBreach
  std::vector<BacktraceFrame> backtrace;  // innermost first (traps and breaches)
  std::optional<ir::Breach> breach;       // kBreach
};

struct Frame {
  uint32_t fn = 0;
  uint32_t size = 0;     // registers in this frame
  uint32_t base = 0;     // first register in the value stack
  uint32_t ret_pc = 0;   // caller's pc to continue at
  int32_t ret_reg = -1;  // caller register for the result (absolute)
  uint64_t id = 0;       // unique per call (stale references trap)
};

class Task {
 public:
  // `meter` is the budget chain the task runs in (the run's tracker, an
  // agent's); it must not be null.
  Task(std::shared_ptr<const Module> m, Host* host, std::shared_ptr<Meter> meter);
  // The storage a finished task leaves for the next one (its value and frame
  // stacks' buffers, emptied, and the constants it materialised): an agent's
  // turns each run in a new task, and reusing these spares the allocations.
  // Nothing observable carries over: the stacks are empty and their charges
  // (StackPaid) follow their sizes, not the buffers' capacities.
  struct Buffers {
    std::shared_ptr<const Module> module;
    std::vector<Value> stack;
    std::vector<Frame> frames;
    std::vector<std::vector<Value>> consts;
  };
  Task(std::shared_ptr<const Module> m, Host* host, std::shared_ptr<Meter> meter, Buffers reuse);
  // Empties this task (it must not be running) and hands its buffers over.
  Buffers TakeBuffers();
  ~Task();

  // Prepares a call of function `fn` with `args`. Call once before Run.
  bool Start(int fn, std::vector<Value> args, std::string* error);
  // Runs until the task finishes, traps, breaches, suspends or is
  // interrupted. After kSuspended, kPreempted or kDeadlinePassed, Run()
  // resumes.
  ExecOutcome Run();
  // Asks the running task to stop at its next safepoint (thread-safe); Run
  // returns kCancelled.
  void Interrupt() {
    cancel_.store(true, std::memory_order_relaxed);
    interrupt_.store(true, std::memory_order_relaxed);
  }
  // Makes the task re-check its wall and CPU deadlines at its next safepoint
  // (thread-safe; what a watchdog calls).
  void Poke() { interrupt_.store(true, std::memory_order_relaxed); }
  Fences& fences() { return fences_; }
  void SetFenceWatcher(FenceWatcher* w) { watcher_ = w; }
  // Whether the watcher keeps this task in its list (runtime::Watchdog lists
  // a task only once it has a finite fence; touched on the task's thread).
  bool fence_listed() const { return fence_listed_; }
  void set_fence_listed(bool listed) { fence_listed_ = listed; }
  // A deadline of this task that is not a budget (steady ns): when it
  // passes, Run returns kDeadlinePassed at the next safepoint (a turn
  // answering an ask whose deadline passed). Call before Run.
  void SetCancelDeadline(int64_t steady_ns) { cancel_deadline_ = steady_ns; }
  // CPU time the task has used so far (its thread's CPU clock while running).
  int64_t cpu_used_ns() const;
  // After Run returned kSuspended on an ask that waits: the reply, written
  // to the ask's destination before the next Run.
  void Resume(Value reply);
  // ... the value of a host call that completed later: as Resume, and the
  // next Run charges its size (memory and work) as the call would have.
  void ResumeHostValue(Value value);
  // ... or makes the next Run trap at the ask (e.g. MT5021, the agent died).
  void ResumeTrap(TrapCode code, std::string message);
  // ... or makes the next Run end at the ask with a breach of a budget this
  // task shares with the turn that failed (the run's wall deadline passed
  // while answering it).
  void ResumeBreach(ir::Breach breach);
  // Ends a task that is not running with a breach found outside it (the
  // run's wall deadline passed while it waited), reported where it waits;
  // nullopt: cancelled there (the host interrupted the run).
  ExecOutcome EndWith(std::optional<ir::Breach> breach);
  // Limits the next Run to about `steps` steps (a scheduler's quantum): when
  // they run out, Run returns kPreempted at a statement boundary and a later
  // Run continues. The task's budgets are unaffected.
  void SetQuantum(uint64_t steps);
  // The call stack sizes already paid for (runtime.md §2: the stack is
  // charged at its high-water mark): growth up to these is not charged
  // again. An agent's turns each run in a new task; the scheduler carries
  // the marks from one turn to the next.
  struct StackPaid {
    size_t registers = 64;
    size_t frames = 16;
  };
  void SetStackPaid(StackPaid paid) { paid_ = paid; }
  // Where the tasks of one run on one thread keep their shared CPU mark
  // (an int64_t the scheduler owns, -1 at first): with it, every bit of the
  // thread's CPU time from the first task's start is charged to some task.
  void SetCpuMark(int64_t* mark) { cpu_mark_ = mark; }
  StackPaid stack_paid() const { return paid_; }
  // The budget chain of the innermost open scope (what an agent spawned now
  // draws from).
  const std::shared_ptr<Meter>& current_meter() const {
    return scopes_.empty() ? meter_ : scopes_.back().meter;
  }

 private:
  std::shared_ptr<const Module> module_;
  Host* host_;
  std::shared_ptr<Meter> meter_;  // the task's own chain (its root scope)
  std::atomic<bool> interrupt_{false};
  std::atomic<bool> cancel_{false};
  Fences fences_;
  FenceWatcher* watcher_ = nullptr;
  bool fence_listed_ = false;
  // Open sandbox scopes, innermost last: each a child tracker of the one
  // before it, entered at a frame.
  struct Scope {
    std::shared_ptr<Meter> meter;
    uint32_t frame = 0;  // frames_.size() when entered
  };
  std::vector<Scope> scopes_;

  // The cache of the budget chain (vm.cc: Refill/Flush).
  int64_t steps_left_ = 0;     // the loop's counter
  int64_t steps_allowed_ = 0;  // its value at the last refill or flush
  // When the quantum binds: the steps the budget has beyond it (a work
  // charge may use them; the task then yields after the operation).
  int64_t quantum_hidden_ = 0;
  bool work_short_ = false;  // the last work charge did not fit (exec.h ChargeWork)
  Value byte_scratch_;       // an element read from compact bytes (place.cc Step)
  // The values of the once fns (constants) this task has evaluated, by
  // once_slot (kDead: not yet); sized at the first.
  std::vector<Value> once_;
  // A work charge used steps its segment had charged in advance for the
  // instructions after the current one: they are counted one by one next.
  bool go_exact_ = false;
  bool quantum_ = false;
  int64_t quantum_left_ = 0;
  bool quantum_binds_ = false;  // the quantum, not a budget, bounds steps_left_
  uint64_t mem_used_ = 0;       // estimated bytes charged by this task
  uint64_t mem_flushed_ = 0;
  uint64_t mem_limit_ = 0;  // mem_used_ may reach this (absolute)
  int64_t cpu_flushed_ = 0;
  int64_t wall_deadline_ = Fences::kNone;    // effective, steady ns (budget or cancel)
  int64_t cancel_deadline_ = Fences::kNone;  // SetCancelDeadline
  int64_t cpu_deadline_ = Fences::kNone;     // in task CPU ns (cpu_used_ns)
  int64_t cpu_wake_ = Fences::kNone;         // steady ns: now + the CPU left, at the last refill
  uint32_t depth_limit_ = 0;                 // frames
  int depth_owner_ = -1;                     // scope index whose limit it is (-1: inherited)
  const Meter* depth_meter_ = nullptr;       // the tracker whose depth limit it is

  int64_t cpu_base_ = 0;           // task CPU used before the current Run
  int64_t thread_cpu_at_run_ = 0;  // the thread's CPU clock when the current Run began
  bool running_ = false;
  // Whether a CPU limit applies to this task (Exec::Refill): only then is the
  // thread's CPU clock read (StartCpuClock at a Run, and on each use).
  bool cpu_counted_ = false;
  void StartCpuClock(bool from_mark = false);
  // The thread's CPU clock when the last counted Run of this run's tasks on
  // this thread ended (-1: none, or another task ran since). A Run starts
  // its CPU window there, so the scheduler's own CPU between tasks is
  // charged to the next task instead of to nobody (SetCpuMark).
  int64_t* cpu_mark_ = nullptr;
  // StartCpuClock read the clock and no guest code has run since (Run's
  // first Refill and deadline check use cpu_base_ instead of reading it).
  bool cpu_just_started_ = false;
  int64_t resume_reg_ = -1;   // absolute register awaiting an ask's reply
  bool waited_ = false;       // the last Run stopped waiting for the host (pc_ is past the call)
  bool relax_exact_ = false;  // leave the exact loop at the next jump
  // Why the ask this task waits on failed (ResumeTrap, ResumeBreach), for
  // the next Run to end with.
  Failure pending_;
  uint64_t resume_charge_ = 0;  // ResumeHostValue: the value's estimate
  std::vector<Value> stack_;
  std::vector<Frame> frames_;
  // The frame stack's capacity as a fresh vector would have it (libstdc++
  // doubles from 1): what its charge follows, whatever buffer it reuses.
  size_t frames_cap_ = 0;
  StackPaid paid_;
  std::vector<std::vector<Value>> consts_;  // per function, materialised lazily
  uint32_t pc_ = 0;
  // Frame ids are unique in the process (a reference made in one task never
  // names a frame of another): each task takes them in blocks from a
  // process-wide counter (ReserveFrameIds, task.cc).
  uint64_t next_frame_id_ = 0;
  uint64_t frame_id_end_ = 0;
  void ReserveFrameIds();
  bool exact_ = false;
  bool started_ = false;
  bool finished_ = false;
  bool metered_ = false;
  uint32_t breach_index_ = 0;  // which of the steps at pc_ breached
  // Why the loop stopped (Stop::kTrap: code and message; kBreach: breach;
  // kLimit: over, the limit of the budget cache, whose the chain says in
  // Exec::Finish).
  Failure failure_;
  std::vector<BacktraceFrame> trap_backtrace_;
  Value result_;
  friend struct Exec;
};

// Printing per language.md §4 for the host (a run's result, main's Err, a
// panic's message): the Display or Debug form of v, at most about max_bytes
// of it, then `... (truncated at N B)`. (`log`, `to_str` and `{:?}` print
// with their work charged: Render in builtins.h.)
inline constexpr size_t kMaxHostPrintBytes = size_t{1} << 20;
std::string Display(const Module& m, const Value& v, size_t max_bytes = kMaxHostPrintBytes);
std::string Debug(const Module& m, const Value& v, size_t max_bytes = kMaxHostPrintBytes);

}  // namespace mty::interp
