// The mty embedding API: compile MtyIR text into an immutable, shareable
// program; run it under a budget with your own output sinks; get a typed
// result; interrupt a run from another thread. See docs/embedding.md.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mty/ir/traps.h"

namespace mty {

inline constexpr const char* kVersion = "0.1.0";

// Trap codes (MT5001 ...): the enum, TrapText(code) -> "MT5016", the table.
using ir::TrapCode;
using ir::TrapText;

// Limits for one run (docs/sandboxing.md). 0 means unlimited (depth 0 means
// the default 10000). Sandbox blocks inside the program can only tighten them.
struct Budget {
  uint64_t steps = 0;     // MtyIR statements + terminators
  uint64_t memory = 0;    // estimated bytes (docs/runtime.md)
  uint32_t depth = 0;     // call frames
  int64_t wall_ns = 0;    // wall-clock time of the run (a watchdog stops it)
  int64_t cpu_ns = 0;     // CPU time of the thread running the program
  uint64_t spawned = 0;   // agents spawned (agents: docs/agents.md)
  uint64_t mailbox = 0;   // messages queued per agent
  std::string mb_policy;  // "block" (default), "drop" or "fail"
};

// A manifest (docs/sandboxing.md): the entries of a `sandbox` block, as read
// from a file by `mty run --manifest`. Unset (nullopt) entries add nothing.
// A run combines it with its Budget and allow_* lists by tightest limit and
// intersection (a family given by both is the intersection; by one, that
// one).
struct Manifest {
  std::optional<uint64_t> steps, memory, spawned, mailbox;  // memory in bytes
  std::optional<int64_t> wall_ns, cpu_ns;
  std::optional<uint32_t> depth;
  std::optional<std::string> mb_policy;  // "block" | "drop" | "fail"
  std::optional<std::vector<std::string>> fs_read, fs_write, net, env;
};

// `88B`, `64KiB`, `1MiB`, `1k` -> bytes; `150ms`, `2s`, `1h` -> nanoseconds.
absl::StatusOr<int64_t> ParseSize(std::string_view text);
absl::StatusOr<int64_t> ParseDuration(std::string_view text);

struct RunOptions {
  Budget budget;
  std::string entry = "main";
  std::vector<std::string> args;  // what std.env.args() returns (after `--`)
  // Capabilities (docs/security.md). Deny by default: nothing below means
  // no file, host or environment variable can be touched.
  std::vector<std::string> allow_read;   // roots readable (and listable)
  std::vector<std::string> allow_write;  // roots writable
  std::vector<std::string> allow_net;    // host:port, host, *.suffix
  std::vector<std::string> allow_env;    // environment variable names
  bool allow_all = false;                // everything (trusted scripts)
  // Use the process-wide default fs caps (stdlib InstallDefaultReadCap /
  // InstallDefaultWriteCap) instead of allow_read / allow_write.
  bool use_default_fs_caps = false;
  bool deny_is_trap = false;  // the first denial traps MT5015
  // Also install allow_read / allow_write as the process-wide default fs
  // caps for the duration of the run (what `mty run --manifest` does), and
  // restore the previous ones afterwards.
  bool install_default_caps = false;
  // A manifest's limits and allow-lists (its fs lists are also installed as
  // the process-wide default caps for the run).
  std::optional<Manifest> manifest;
  // One line per denied effect (`mty run --trace`).
  std::function<void(std::string_view)> on_trace;
  // Program output (log, print) and eprint. Default: discarded.
  std::function<void(std::string_view)> on_stdout;
  std::function<void(std::string_view)> on_stderr;
};

struct RunResult {
  enum class Kind {
    kOk,                 // the entry returned; `value` is its printed form
    kTrap,               // code MT50xx, message, backtrace
    kNoMain,             // the entry function does not exist
    kBudgetExceeded,     // step, wall-clock or cpu budget (MT5009); see `budget`
    kMemBudgetExceeded,  // memory budget (MT5009), mem_used > mem_limit
    kCancelled,          // interrupted by the host
    kEscalated,          // a supervisor escalated at the top (MT5013/MT5014, exit 8)
  };
  enum class BudgetKind { kNone, kSteps, kMemory, kWall, kCpu, kSpawned, kMailbox };
  Kind kind = Kind::kOk;
  BudgetKind budget = BudgetKind::kNone;  // which budget was breached
  std::string sandbox;              // the sandbox whose budget was breached ("" = the run's own)
  std::string value;                // kOk: Debug form of the returned value
  TrapCode code = TrapCode::kNone;  // traps and budgets (TrapText(code) is "MT5016")
  std::string message;
  std::vector<std::string> backtrace;  // "fn (file:line:col)", innermost first
  int exit_code = 0;                   // as `mty run` exits (docs/runtime.md)
  uint64_t mem_used = 0;
  uint64_t mem_limit = 0;
  uint64_t steps_used = 0;  // when a step budget was set

  // What `mty run` prints on stderr for this result ("" for a clean exit).
  std::string Report() const;
  // OK, or kResourceExhausted (budgets), kCancelled, kNotFound (no main),
  // kAborted (traps, main returning Err).
  absl::Status ToStatus() const;
};

class Program {
 public:
  // Parses, verifies and compiles MtyIR text. Errors are located:
  // `file:line:col: error: ...` (kInvalidArgument).
  static absl::StatusOr<std::shared_ptr<const Program>> FromIrText(std::string_view text,
                                                                   std::string_view file_name);
  // Compiles Mighty source (.mty). Errors are kInvalidArgument whose message
  // is the rendered diagnostics, rustc style (`error[MT0001]: ...`, the
  // location, the source line and a caret), ending with `error: aborting due
  // to N previous error(s)`.
  static absl::StatusOr<std::shared_ptr<const Program>> FromSource(std::string_view text,
                                                                   std::string_view file_name);
  // Compiles by file extension: `.mtyir` as MtyIR text, anything else as source.
  static absl::StatusOr<std::shared_ptr<const Program>> FromFile(std::string_view text,
                                                                 std::string_view file_name);
  // The parsed AST of Mighty source, for `mty dump --ast` (diagnostics as
  // for FromSource).
  static absl::StatusOr<std::string> SourceAst(std::string_view text, std::string_view file_name);
  ~Program();

  // Runs the entry function to completion. Thread-safe: one program may be
  // run many times, also concurrently; each run has fresh state.
  RunResult Run(const RunOptions& options) const;

  // The effect calls a program can make (`mty caps`, `mty check
  // --manifest`): family (fs.read, fs.write, net, env), effect path, the
  // literal path/URL/name argument when it is a constant ("" otherwise), and
  // where the call is.
  struct EffectUse {
    std::string family;
    std::string effect;
    std::string literal;
    int line = 0;
    int col = 0;
  };
  std::vector<EffectUse> Effects() const;
  // Findings of a static check of the effects against a manifest: each
  // effect whose family the manifest does not grant, and each literal path
  // or host outside the granted lists. One line each, `file:line:col: ...`.
  std::vector<std::string> CheckAgainst(const Manifest& m) const;

  std::string IrText() const;       // canonical .mtyir
  std::string Disassembly() const;  // bytecode listing

  struct Impl;
  explicit Program(std::unique_ptr<Impl> impl);

 private:
  std::unique_ptr<Impl> impl_;
  friend class Runner;
};

// A run that another thread can interrupt.
class Runner {
 public:
  Runner(std::shared_ptr<const Program> program, RunOptions options);
  ~Runner();
  RunResult Run();
  void Interrupt();  // thread-safe; the run stops at its next safepoint

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace mty
