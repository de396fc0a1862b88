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

#include "mty/interp/bytecode.h"
#include "mty/interp/value.h"

namespace mty::interp {

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
                                            std::string* code, std::string* message) {
    (void)path;
    (void)args;
    (void)code;
    (void)message;
    return std::nullopt;
  }
  // The module the running task belongs to (for building ADT values).
  virtual void SetModule(const Module* m) { (void)m; }
};

struct Limits {
  uint64_t steps = 0;      // 0 = unlimited
  uint64_t memory = 0;     // bytes (estimate); 0 = unlimited
  uint32_t depth = 10000;  // call frames; 0 = the default 10000
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
  };
  Kind kind = Kind::kOk;
  Value value;                            // kOk: the entry function's result
  std::string code;                       // kTrap: MT50xx
  std::string message;                    // kTrap
  std::vector<BacktraceFrame> backtrace;  // innermost first
  uint64_t mem_used = 0;                  // kMemBudget and stats
  uint64_t mem_limit = 0;
  uint64_t steps_used = 0;  // when a step budget is set
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
  // Asks the running task to stop at its next safepoint (thread-safe).
  void Interrupt() { interrupt_.store(true, std::memory_order_relaxed); }

  uint64_t mem_used() const { return mem_used_; }
  uint64_t steps_used() const;

  // Internal state shared with the dispatch loop (vm.cc).
  struct State;

 private:
  std::shared_ptr<const Module> module_;
  Host* host_;
  Limits limits_;
  std::atomic<bool> interrupt_{false};
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
  std::string trap_code_;
  std::string trap_message_;
  std::vector<BacktraceFrame> trap_backtrace_;
  Value result_;
  friend struct Exec;
};

// Printing (`log`, `to_str`, `{:?}`) per language.md §4.
std::string Display(const Module& m, const Value& v);
std::string Debug(const Module& m, const Value& v);

}  // namespace mty::interp
