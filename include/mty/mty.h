// The mty embedding API: compile MtyIR text into an immutable, shareable
// program; run it under a budget with your own output sinks; get a typed
// result; interrupt a run from another thread. See docs/embedding.md.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mty/ir/policy.h"
#include "mty/ir/traps.h"

namespace mty {

inline constexpr const char* kVersion = "0.1.0";

// Trap codes (MT5001 ...): the enum, TrapText(code) -> "MT5016", the table;
// and the one outcome enum of a run.
using ir::Outcome;
using ir::TrapCode;
using ir::TrapText;

// Limits and grants come from one table (docs/sandboxing.md), the same
// for source, MtyIR, manifest files, CLI flags and this API: ir::Limits
// (steps, memory, wall, cpu, spawned, mailbox + mb_policy, depth, output),
// ir::Grants (fs.read, fs.write, net, env) and ir::Policy (both).
using ir::Breach;
using ir::GrantId;
using ir::Grants;
using ir::kMaxProgramBytes;
using ir::LimitId;
using ir::Limits;
using ir::MailboxPolicy;
using ir::Policy;

// `88B`, `64KiB`, `1MiB`, `1k` -> bytes; `150ms`, `2s`, `1h` -> nanoseconds
// (the policy table's units parser).
absl::StatusOr<int64_t> ParseSize(std::string_view text);
absl::StatusOr<int64_t> ParseDuration(std::string_view text);

// The process-wide default file caps (runtime.md §3, the original design's
// mechanism): what a run whose grants set no `fs.read` / `fs.write` list
// falls back to. Installs `grants`' fs lists (an unset list installs a cap
// that allows nothing). Only the host calls this, typically once at
// start-up; a run never installs or restores them. Thread-safe.
void InstallDefaultFsCaps(const Grants& grants);

// Writes all of `data` to file descriptor `fd`, waiting at most `max_wait`
// for it to take the bytes (a pipe nobody reads); false if it gave up or
// the write failed. What `mty run` writes its final report with.
bool WriteOutput(int fd, std::string_view data, std::chrono::nanoseconds max_wait);

struct RunOptions {
  // The run's limits and grants. An unset limit is unlimited (depth
  // defaults to 10000 frames, mailbox to 1024 messages). Grants deny by
  // default: an unset or empty `net` or `env` list allows nothing; an unset
  // `fs.read` / `fs.write` list falls back to the process-wide default caps
  // (stdlib InstallDefaultReadCap, installed only by the host; they deny
  // unless it installed one). `Grants::All()` grants everything.
  // Combine a manifest with flags by Policy::Intersect.
  Policy policy;
  std::string entry = "main";
  std::vector<std::string> args;  // what std.env.args() returns (after `--`)
  bool deny_is_trap = false;      // the first denial traps MT5015
  // One line per denied effect (`mty run --trace`).
  std::function<void(std::string_view)> on_trace;
  // Program output (log, print) and eprint. Default: discarded.
  std::function<void(std::string_view)> on_stdout;
  std::function<void(std::string_view)> on_stderr;
  // Without a callback, a stream can go to a file descriptor (what `mty
  // run` does with 1 and 2): stdout is buffered like stdio (flushed before
  // Run returns), stderr is not, and no write ever waits past the run's wall
  // deadline or Interrupt(). Output that cannot be written by then is
  // dropped and the run ends with the wall breach (or cancelled). A
  // callback, in contrast, is the host's own code and may block.
  int stdout_fd = -1;
  int stderr_fd = -1;
  // The real-bytes ceiling (runtime.md §2): the most heap the run may
  // really use, agents included, counted by mty's accounting allocator.
  // 0: 2 x the memory limit + 16 MiB, or, with no memory limit, 4 GiB or
  // half the machine's memory, whichever is smaller. Passing it is a
  // memory breach whose message says `real heap` (exit 4).
  uint64_t heap_ceiling = 0;
};

// How a run ended, with everything a host needs to act on it without
// parsing text (docs/embedding.md).
struct RunResult {
  Outcome outcome = Outcome::kOk;
  // kBreach: which limit went over, how far, and in which sandbox ("" = the
  // run's own limits). A spawn or mailbox limit hit in main is a breach too.
  std::optional<Breach> breach;
  // kTrap: the trap; kMainErr: MT5006; kEscalated: MT5013 or MT5014;
  // kBreach: the limit's code (MT5009, MT5012, MT5018).
  TrapCode code = TrapCode::kNone;
  std::string value;                   // kOk: Debug form of the returned value
  std::string message;                 // what `mty run` prints after the code
  std::vector<std::string> backtrace;  // "fn (file:line:col)", innermost first
  int exit_code = 0;                   // as `mty run` exits (docs/runtime.md)
  // Usage, from the run's tracker. Steps are counted when some step limit
  // applies. For a memory breach, mem_used / mem_limit are the breached
  // tracker's.
  uint64_t steps_used = 0;
  uint64_t mem_used = 0;
  uint64_t mem_limit = 0;
  uint64_t output_bytes = 0;  // counted when some output limit applies
  uint64_t agents_spawned = 0;
  // The most heap the run really held (bytes, the accounting allocator).
  uint64_t heap_peak = 0;

  // What `mty run` prints on stderr for this result ("" for a clean exit).
  std::string Report() const;
  // OK for kOk; otherwise the status code of the trap, breach or outcome
  // (kResourceExhausted for budgets, kPermissionDenied for capabilities,
  // kCancelled, kNotFound for no entry, kAborted for traps and Err).
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
  // Findings of a static check of the effects against a manifest's grants:
  // each effect whose family they do not grant, and each literal path, URL
  // or name outside the granted lists, decided by the same rules as the run
  // (URLs parsed by libcurl, as the request does). One line each,
  // `file:line:col: ...`.
  std::vector<std::string> CheckAgainst(const Grants& grants) const;

  std::string IrText() const;       // canonical .mtyir
  std::string Disassembly() const;  // bytecode listing

  struct Impl;
  explicit Program(std::unique_ptr<Impl> impl);

 private:
  std::unique_ptr<Impl> impl_;
  friend class Runner;
  static absl::StatusOr<std::shared_ptr<const Program>> FromIrTextUnguarded(
      std::string_view text, std::string_view file_name);
  static absl::StatusOr<std::shared_ptr<const Program>> FromSourceUnguarded(
      std::string_view text, std::string_view file_name);
};

// A run that another thread can interrupt.
class Runner {
 public:
  Runner(std::shared_ptr<const Program> program, RunOptions options);
  ~Runner();
  RunResult Run();
  void Interrupt();  // thread-safe; the run stops at its next safepoint

 private:
  RunResult RunUnguarded();
  static RunResult OutOfMemory();
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace mty
