// The interpreter: runs a Module's function as a task on an explicit frame
// stack under step, memory and depth limits. A task can stop at a safepoint
// (suspend, interrupt) and be resumed.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "mty/interp/bytecode.h"
#include "mty/interp/value.h"
#include "mty/ir/ir.h"
#include "mty/ir/traps.h"

namespace mty::interp {

using ir::TrapCode;

// Everything a run sends out of the interpreter. The runtime/stdlib layers
// implement effects; the default host has none (effects trap MT5008).
class Host {
 public:
  virtual ~Host() = default;
  virtual void Stdout(std::string_view text) = 0;
  virtual void Stderr(std::string_view text) = 0;
  // Returns the effect's value, or nullopt to trap: with `*code` set (e.g.
  // MT5015 for a denial under --deny-is-trap) and `*message`; with `*code`
  // left empty the effect is unknown and the interpreter traps MT5008.
  virtual std::optional<Value> InvokeEffect(std::string_view path, std::vector<Value>& args,
                                            TrapCode* code, std::string* message) {
    (void)path;
    (void)args;
    (void)code;
    (void)message;
    return std::nullopt;
  }
  // The module the running task belongs to (for building ADT values).
  virtual void SetModule(const Module* m) { (void)m; }
  // A sandbox scope (runtime.md §4). The interpreter enforces the scope's
  // budgets itself; the host narrows capabilities to the intersection with
  // the enclosing scope's. Returning false traps with `*code`/`*message`.
  virtual bool EnterSandbox(const ir::SandboxDecl& decl, TrapCode* code, std::string* message) {
    (void)decl;
    (void)code;
    (void)message;
    return true;
  }
  virtual void ExitSandbox() {}
  // The effective wall-clock deadline changed (steady_clock nanoseconds;
  // Fences::kNone for none): blocking host calls must give up at it and
  // fail with code MT5009.
  virtual void SetWallDeadline(int64_t steady_ns) { (void)steady_ns; }

  // Agents (runtime.md §5), implemented by the agent runtime's scheduler.
  // The default host has none: each traps MT5008 with `*message` set.
  // `init_fn` is the agent's `A::__init` function (-1 when the program has
  // none). Return nullopt / false to trap with `*code` (MT5008 when empty).
  virtual std::optional<Value> Spawn(int init_fn, std::string_view agent, std::vector<Value>& args,
                                     TrapCode* code, std::string* message) {
    (void)init_fn;
    (void)args;
    (void)code;
    *message = absl::StrCat("spawn ", std::string(agent),
                            ": agents are not supported by this runtime yet");
    return std::nullopt;
  }
  // An ask either has its reply now (kReply, `*reply` set), makes the task
  // wait (kWait: Run returns kSuspended and the scheduler resumes the task
  // with Task::Resume(reply) or Task::ResumeTrap), or fails (kFail: trap
  // with `*code`). A send is kReply when done, kWait when the sender must
  // wait for room (resume with ()), kFail to trap.
  enum class AskStatus { kReply, kWait, kFail };
  virtual AskStatus Send(const Value& target, std::string_view msg, std::vector<Value>& args,
                         TrapCode* code, std::string* message) {
    (void)target;
    (void)args;
    (void)code;
    *message =
        absl::StrCat("send ", std::string(msg), ": agents are not supported by this runtime yet");
    return AskStatus::kFail;
  }
  // `sup.w`: the handle of supervisor `sup`'s child `w`.
  virtual std::optional<Value> Child(const Value& sup, std::string_view name, TrapCode* code,
                                     std::string* message) {
    (void)sup;
    (void)code;
    *message =
        absl::StrCat("`.", std::string(name), "`: agents are not supported by this runtime yet");
    return std::nullopt;
  }
  virtual AskStatus Ask(const Value& target, std::string_view msg, std::vector<Value>& args,
                        std::optional<int64_t> deadline_ns, Value* reply, TrapCode* code,
                        std::string* message) {
    (void)target;
    (void)args;
    (void)deadline_ns;
    (void)reply;
    (void)code;
    *message =
        absl::StrCat("ask ", std::string(msg), ": agents are not supported by this runtime yet");
    return AskStatus::kFail;
  }
};

struct Limits {
  std::optional<uint64_t> steps;   // unset = unlimited; 0 allows no step
  std::optional<uint64_t> memory;  // bytes (estimate)
  uint32_t depth = 10000;          // call frames
  std::optional<int64_t> wall_ns;  // wall-clock time from Start
  std::optional<int64_t> cpu_ns;   // CPU time of the threads running the task
  // When set, the wall-clock deadline (steady_clock ns) instead of Start +
  // wall_ns (tasks of one run share the run's deadline); wall_ns still names
  // the limit in the breach message.
  int64_t wall_deadline_ns = 0;
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
};

// What one open sandbox scope has left (Task::SandboxChainRemaining), to
// run other tasks under it (agents spawned inside the sandbox).
struct SandboxRemaining {
  uint32_t decl = 0;      // Module::sandboxes index
  uint64_t instance = 0;  // which entry of it (unique per task)
  std::optional<int64_t> steps, memory, cpu_ns;
  int64_t wall_deadline = 0;  // steady ns; 0 = none
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

struct ExecOutcome {
  enum class Kind {
    kOk,
    kTrap,
    kStepBudget,
    kMemBudget,
    kSuspended,
    kInterrupted,
    kWallBudget,
    kCpuBudget,
    kPreempted,  // the quantum set by SetQuantum ran out; Run() resumes
  };
  Kind kind = Kind::kOk;
  Value value;                            // kOk: the entry function's result
  TrapCode code = TrapCode::kNone;        // kTrap and budgets
  std::string message;                    // kTrap
  std::vector<BacktraceFrame> backtrace;  // innermost first
  uint64_t mem_used = 0;                  // kMemBudget and stats
  uint64_t mem_limit = 0;
  uint64_t steps_used = 0;  // when a step budget is set
  std::string sandbox;      // budgets: the sandbox whose limit was breached ("" = the task's own)
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
  Task(std::shared_ptr<const Module> m, Host* host, Limits limits);
  ~Task();

  // Prepares a call of function `fn` with `args`. Call once before Run.
  bool Start(int fn, std::vector<Value> args, std::string* error);
  // Runs until the task finishes, traps, breaches, suspends or is
  // interrupted. After kSuspended or kInterrupted, Run() resumes.
  ExecOutcome Run();
  // Asks the running task to stop at its next safepoint (thread-safe); Run
  // returns kInterrupted and a later Run resumes.
  void Interrupt() {
    cancel_.store(true, std::memory_order_relaxed);
    interrupt_.store(true, std::memory_order_relaxed);
  }
  // Makes the task re-check its wall and CPU deadlines at its next safepoint
  // (thread-safe; what a watchdog calls).
  void Poke() { interrupt_.store(true, std::memory_order_relaxed); }
  Fences& fences() { return fences_; }
  void SetFenceWatcher(FenceWatcher* w) { watcher_ = w; }
  // CPU time the task has used so far (its thread's CPU clock while running).
  int64_t cpu_used_ns() const;
  // After Run returned kSuspended on an ask that waits: the reply, written
  // to the ask's destination before the next Run.
  void Resume(Value reply);
  // The open sandboxes with what each has left, outermost first, and
  // entering a scope with such remaining limits for the rest of the task
  // (budgets only, no capability change): what an agent spawned inside
  // sandboxes runs its turns under.
  std::vector<SandboxRemaining> SandboxChainRemaining() const;
  bool EnterSandboxBudget(const SandboxRemaining& remaining);
  // Steps executed so far (counted once the task is metered).
  uint64_t executed_steps() const;
  // Limits the next Run to about `steps` steps (a scheduler's quantum): when
  // they run out, Run returns kPreempted at a statement boundary and a later
  // Run continues. The task's own budgets are unaffected.
  void SetQuantum(uint64_t steps);
  // ... or makes the next Run trap at the ask (e.g. MT5021, the agent died).
  void ResumeTrap(TrapCode code, std::string message);
  // Charges what other tasks of the same run consumed meanwhile against
  // this task's step, memory and CPU budgets (one budget per run).
  void ConsumeExternal(uint64_t steps, uint64_t memory, int64_t cpu_ns);

  uint64_t mem_used() const { return mem_used_; }
  uint64_t steps_used() const;

  // Internal state shared with the dispatch loop (vm.cc).
  struct State;

 private:
  std::shared_ptr<const Module> module_;
  Host* host_;
  Limits limits_;
  std::atomic<bool> interrupt_{false};
  std::atomic<bool> cancel_{false};
  Fences fences_;
  FenceWatcher* watcher_ = nullptr;
  // Open sandbox scopes, innermost last (vm.cc).
  struct Scope {
    uint32_t decl = 0;       // index into Module::sandboxes
    bool host_scope = true;  // the host narrowed capabilities for it
    uint64_t instance = 0;   // unique per task
    uint64_t executed_at_entry = 0;
    int64_t cpu_at_entry = 0;
    int64_t wall_at_entry = 0;
    uint32_t frame = 0;          // frames_.size() when entered
    int64_t withheld_steps = 0;  // the outer scope's remaining steps beyond this one's
    uint64_t mem_at_entry = 0;
    uint64_t prev_mem_limit = 0;
    uint32_t prev_depth = 0;
    int64_t prev_wall = 0;  // previous effective deadlines
    int64_t prev_cpu = 0;
    int prev_owner[5] = {};  // previous owners of steps, memory, depth, wall, cpu
  };
  std::vector<Scope> scopes_;
  uint64_t next_scope_instance_ = 0;
  // Which scope's limit is the effective one, per kind (-1 = the task's own).
  int owner_[5] = {-1, -1, -1, -1, -1};
  int64_t wall_deadline_ = Fences::kNone;  // effective, steady ns
  int64_t cpu_deadline_ = Fences::kNone;   // effective, in task CPU ns (cpu_used_ns)
  int64_t start_ns_ = 0;                   // steady ns at Start
  int64_t cpu_base_ = 0;                   // task CPU used before the current Run
  int64_t thread_cpu_at_run_ = 0;          // the thread's CPU clock when the current Run began
  bool running_ = false;
  int64_t resume_reg_ = -1;  // absolute register awaiting an ask's reply
  bool quantum_ = false;
  int64_t quantum_withheld_ = 0;
  int quantum_prev_owner_ = -1;
  bool relax_exact_ = false;  // leave the exact loop at the next jump
  TrapCode pending_trap_code_ = TrapCode::kNone;
  std::string pending_trap_message_;
  std::vector<Value> stack_;
  std::vector<Frame> frames_;
  std::vector<std::vector<Value>> consts_;  // per function, materialised lazily
  uint32_t pc_ = 0;
  int64_t steps_left_ = 0;
  uint64_t mem_used_ = 0;
  uint64_t mem_limit_ = 0;
  uint64_t next_frame_id_ = 1;
  bool exact_ = false;
  bool started_ = false;
  bool finished_ = false;
  bool metered_ = false;
  uint32_t breach_index_ = 0;  // which of the steps at pc_ breached
  // Filled when the loop stops.
  TrapCode trap_code_ = TrapCode::kNone;
  std::string trap_message_;
  std::vector<BacktraceFrame> trap_backtrace_;
  Value result_;
  friend struct Exec;
};

// Printing (`log`, `to_str`, `{:?}`) per language.md §4.
std::string Display(const Module& m, const Value& v);
std::string Debug(const Module& m, const Value& v);

}  // namespace mty::interp
