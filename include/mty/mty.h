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
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mty/exit_codes.h"
#include "mty/manifest.h"
#include "mty/vocab/policy.h"
#include "mty/vocab/suggest.h"
#include "mty/vocab/traps.h"

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
// for it to take the bytes (a pipe nobody reads); false if it gave up
// (errno ETIMEDOUT) or the write failed (errno says why: ENOSPC, EPIPE,
// ...). What `mty run` writes its final report with.
bool WriteOutput(int fd, std::string_view data, std::chrono::nanoseconds max_wait);

// ---- Typed values ------------------------------------------------------

// A value crossing the boundary, by copy (runtime.md §7): host-function
// arguments and results, the entry function's parameters, the returned
// value. No guest heap object is ever shared with the host.
class Value {
 public:
  enum class Kind : uint8_t {
    kUnit,
    kBool,
    kInt,
    kFloat,
    kChar,
    kStr,
    kBytes,   // [U8] held as bytes (std.fs.read_bytes)
    kVec,     // [T]
    kMap,     // entries in insertion order
    kTuple,   // (A, B, ...)
    kStruct,  // a named struct: type_name(), field_names(), items()
    kEnum,    // type_name(), variant(), items() (Option and Result included)
    kOpaque,  // a guest value with no host form (a closure, an agent handle,
              // a capability): as_str() is its debug text
  };

  Value() = default;  // ()
  // Copying, destroying and comparing (==) take no stack per level of
  // nesting: a value a million levels deep is safe to copy, destroy and
  // compare.
  Value(const Value& other);
  Value& operator=(const Value& other);
  Value(Value&&) noexcept = default;
  Value& operator=(Value&&) noexcept = default;
  ~Value();
  static Value Unit() { return Value(); }
  static Value Bool(bool b);
  static Value Int(int64_t i);
  static Value Float(double d);
  static Value Char(char32_t c);
  static Value Str(std::string s);
  static Value Bytes(std::string bytes);
  // Pass the vector by std::move to keep its elements from being copied.
  // A braced list (`Vec({std::move(a)})`) is a std::initializer_list, whose
  // elements are const: it copies them. The moving builders take the
  // elements as arguments instead (`Vec(std::move(a), std::move(b))`,
  // `Enum("Shape", "Circle", std::move(r))`): an rvalue is moved in, an
  // lvalue copied.
  static Value Vec(std::vector<Value> items);
  static Value Map(std::vector<std::pair<Value, Value>> entries);
  static Value Tuple(std::vector<Value> items);
  static Value Struct(std::string type, std::vector<std::pair<std::string, Value>> fields);
  // A variant with positional fields (`Shape::Circle(2.0)`) or none.
  static Value Enum(std::string type, std::string variant, std::vector<Value> fields = {});
  template <typename... V>
  requires(std::is_same_v<std::remove_cvref_t<V>, Value>&&...) static Value Vec(V&&... items) {
    return Vec(Moved(std::forward<V>(items)...));
  }
  template <typename... V>
  requires(std::is_same_v<std::remove_cvref_t<V>, Value>&&...) static Value Tuple(V&&... items) {
    return Tuple(Moved(std::forward<V>(items)...));
  }
  template <typename... V>
  requires(sizeof...(V) > 0 && (std::is_same_v<std::remove_cvref_t<V>, Value> && ...)) static Value
      Enum(std::string type, std::string variant, V&&... fields) {
    return Enum(std::move(type), std::move(variant), Moved(std::forward<V>(fields)...));
  }
  static Value Some(Value v) { return Enum("Option", "Some", std::move(v)); }
  static Value None() { return Enum("Option", "None"); }
  static Value Ok(Value v) { return Enum("Result", "Ok", std::move(v)); }
  static Value Err(Value v) { return Enum("Result", "Err", std::move(v)); }

  Kind kind() const { return kind_; }
  bool is(Kind k) const { return kind_ == k; }
  // The scalar of a kBool, kInt, kFloat or kChar value (0 / false for others).
  bool as_bool() const { return i_ != 0; }
  int64_t as_int() const { return i_; }
  double as_float() const { return f_; }
  char32_t as_char() const { return static_cast<char32_t>(i_); }
  // kStr: UTF-8 text; kBytes: the bytes; kOpaque: the debug text.
  const std::string& as_str() const { return s_; }
  // kVec, kTuple: the elements; kStruct: the field values in declaration
  // order; kEnum: the variant's fields.
  const std::vector<Value>& items() const { return items_; }
  const std::vector<std::pair<Value, Value>>& entries() const { return entries_; }  // kMap
  const std::string& type_name() const { return type_; }   // kStruct, kEnum
  const std::string& variant() const { return variant_; }  // kEnum
  // kStruct (and enum variants with named fields): the field names, in the
  // order of items().
  const std::vector<std::string>& field_names() const { return names_; }
  // A struct's field by name; nullptr when it has none.
  const Value* field(std::string_view name) const;
  bool is_variant(std::string_view type, std::string_view variant) const {
    return kind_ == Kind::kEnum && type_ == type && variant_ == variant;
  }

  // Mighty's `{:?}` form (what RunResult::value holds), e.g. `Ok(60)`;
  // for a value that could not cross into a program (nested deeper than
  // 512 levels, a Str that is not UTF-8, ...) the reason in angle brackets:
  // `<value nested deeper than 512 levels>`.
  std::string Debug() const;
  bool operator==(const Value& other) const;

 private:
  friend struct ValueAccess;
  template <typename... V>
  static std::vector<Value> Moved(V&&... items) {
    std::vector<Value> out;
    out.reserve(sizeof...(items));
    (out.push_back(std::forward<V>(items)), ...);
    return out;
  }
  Kind kind_ = Kind::kUnit;
  int64_t i_ = 0;
  double f_ = 0;
  std::string s_;
  std::string type_, variant_;
  std::vector<Value> items_;
  std::vector<std::string> names_;
  std::vector<std::pair<Value, Value>> entries_;
};

// A type in a host function's signature (the Mighty type it stands for
// in brackets).
class Type {
 public:
  enum class Kind : uint8_t {
    kAny,  // any value (no check)
    kUnit,
    kBool,
    kInt,    // I64
    kFloat,  // F64
    kChar,
    kStr,
    kBytes,   // [U8]
    kVec,     // [T]
    kMap,     // Map[K, V]
    kOption,  // Option[T]
    kResult,  // Result[T, E]
    kTuple,   // (A, B, ...)
    kNamed,   // a struct or enum the program declares, by name
  };
  static Type Any() { return Type(Kind::kAny); }
  static Type Unit() { return Type(Kind::kUnit); }
  static Type Bool() { return Type(Kind::kBool); }
  static Type Int() { return Type(Kind::kInt); }
  static Type Float() { return Type(Kind::kFloat); }
  static Type Char() { return Type(Kind::kChar); }
  static Type Str() { return Type(Kind::kStr); }
  static Type Bytes() { return Type(Kind::kBytes); }
  static Type Vec(Type elem) { return Type(Kind::kVec, {std::move(elem)}); }
  static Type Map(Type key, Type value) {
    return Type(Kind::kMap, {std::move(key), std::move(value)});
  }
  static Type Option(Type t) { return Type(Kind::kOption, {std::move(t)}); }
  static Type Result(Type ok, Type err) {
    return Type(Kind::kResult, {std::move(ok), std::move(err)});
  }
  static Type Tuple(std::vector<Type> elems) { return Type(Kind::kTuple, std::move(elems)); }
  static Type Named(std::string name) {
    Type t(Kind::kNamed);
    t.name_ = std::move(name);
    return t;
  }
  Kind kind() const { return kind_; }
  const std::vector<Type>& args() const { return args_; }
  const std::string& name() const { return name_; }
  // The Mighty spelling: `I64`, `Option[Str]`, `Map[Str, I64]`, `(I64, Bool)`.
  std::string ToString() const;
  // Whether `v` has this shape (kNamed: a struct or enum of that name).
  bool Admits(const Value& v) const;

 private:
  explicit Type(Kind k, std::vector<Type> args = {}) : kind_(k), args_(std::move(args)) {}
  Kind kind_;
  std::vector<Type> args_;
  std::string name_;
};

struct HostSignature {
  std::vector<Type> params;
  Type result = Type::Unit();
};

// ---- Host functions ----------------------------------------------------

// What a host function sees of the call that invoked it. Valid only during
// the call (an async function copies what it needs before returning).
class HostCall {
 public:
  std::string_view function() const { return function_; }  // `host.kv.get`
  const std::vector<Value>& args() const { return args_; }
  // What the calling scope has left (nullopt: unlimited).
  std::optional<uint64_t> steps_left() const;
  std::optional<uint64_t> memory_left() const;  // estimated bytes
  std::optional<std::chrono::nanoseconds> wall_left() const;
  bool interrupted() const;  // Runner::Interrupt() was called
  // Writes to the run's stdout / stderr sinks, counted against its output
  // budget; false (nothing written) when the budget cannot take it or a
  // wall deadline of the call's scope has passed.
  bool Stdout(std::string_view text);
  bool Stderr(std::string_view text);
  // Where the guest's call is.
  int line() const { return line_; }
  int column() const { return column_; }

  // mty makes each call's HostCall. One made with a null Impl (to test a
  // host function outside a run) is unlimited and not interrupted, and its
  // Stdout / Stderr write nothing (false).
  struct Impl;
  HostCall(std::string_view function, std::vector<Value> args, Impl* impl, int line, int column)
      : function_(function), args_(std::move(args)), impl_(impl), line_(line), column_(column) {}

 private:
  std::string_view function_;
  std::vector<Value> args_;
  Impl* impl_;
  int line_, column_;
};

// The completion of an async host function. Resolve it once, from any
// thread; the calling task waits (other agents run) until then, the run's
// wall deadline, or Runner::Interrupt(). Dropping it unresolved makes the
// call trap (MT5022). Resolving after the run ended does nothing.
class HostPromise {
 public:
  struct State;
  explicit HostPromise(std::shared_ptr<State> state) : state_(std::move(state)) {}
  HostPromise(HostPromise&&) noexcept = default;
  HostPromise& operator=(HostPromise&&) noexcept;
  HostPromise(const HostPromise&) = delete;
  HostPromise& operator=(const HostPromise&) = delete;
  ~HostPromise();
  // A value (checked against the signature's result type), or an error
  // status: the call traps MT5022 with its message.
  void Resolve(absl::StatusOr<Value> result);

 private:
  std::shared_ptr<State> state_;
};

// A synchronous host function: a value (its signature's result type; for
// a Result, Value::Ok / Value::Err), or an error status, which traps the
// calling task (MT5022, the status message).
using HostFunction = std::function<absl::StatusOr<Value>(HostCall&)>;
// An async host function: resolves `promise` later, on any thread.
using AsyncHostFunction = std::function<void(HostCall&, HostPromise promise)>;

// The host functions a program may call, defined before compiling (like
// wasmtime's Linker or lua_register). A compile takes a snapshot: defining
// more later does not change programs compiled already. Thread-safe for
// concurrent compiles; Define is not thread-safe with them.
class Linker {
 public:
  Linker();
  ~Linker();
  Linker(const Linker&);
  Linker& operator=(const Linker&);
  // `path`: `host.` then dotted identifiers (`host.kv.get`); `family`: the
  // capability a run must grant (`Grants` `host` list, manifest
  // `host = ["kv"]`, `mty run --allow-host=kv`); deny by default.
  // kInvalidArgument for a malformed path or family, kAlreadyExists for a
  // path defined already.
  absl::Status Define(std::string_view path, std::string_view family, HostSignature signature,
                      HostFunction fn);
  absl::Status DefineAsync(std::string_view path, std::string_view family, HostSignature signature,
                           AsyncHostFunction fn);
  // `host.kv.get(Str) -> Option[Str]  [kv]`, one per function.
  std::vector<std::string> Describe() const;

  // What a compile keeps (opaque outside mty).
  struct Table;
  std::shared_ptr<const Table> snapshot() const { return table_; }

 private:
  absl::Status Add(std::string_view path, std::string_view family, HostSignature signature,
                   HostFunction fn, AsyncHostFunction async_fn);
  std::shared_ptr<Table> table_;
};

// ---- Compiling -----------------------------------------------------------

// A secondary span of a diagnostic (the opener of an unclosed delimiter,
// ...), with its message; positions as Diagnostic's.
struct DiagnosticLabel {
  int line = 0;
  int column = 0;
  int end_line = 0;  // inclusive
  int end_column = 0;
  std::string message;
};

// One compile error or warning (runtime.md §7), located in the source.
struct Diagnostic {
  enum class Severity : uint8_t { kError, kWarning, kNote };
  Severity severity = Severity::kError;
  std::string code;  // `MT0001`, `MT2001`, ...; "" for MtyIR text errors
  std::string file;
  int line = 0;  // 1-based; 0 when the error has no location
  int column = 0;
  int end_line = 0;  // the primary span's end (inclusive): its last column
  int end_column = 0;
  std::string message;
  std::string label;                    // the primary span's own message ("" when none)
  std::vector<DiagnosticLabel> labels;  // secondary spans, in the order given
  std::vector<std::string> notes;       // `help:` and `note:` lines
};

struct CompileOptions {
  // The host functions calls may name (`host.kv.get(k)`); none when null.
  const Linker* linker = nullptr;
  // Filled with every diagnostic: the errors and warnings when the compile
  // fails (the status then holds the rendered text, rustc style), the
  // warnings when it succeeds.
  std::vector<Diagnostic>* diagnostics = nullptr;
  // Warnings fail the compile: each becomes an error (with a note saying
  // why), rendered and counted as one.
  bool deny_warnings = false;
  // Renders the status text and *rendered_warnings with ANSI colours
  // (rustc's); control characters from the source are escaped either way.
  bool color = false;
  // Set when the compile succeeds: the warnings rendered as the status text
  // of a failure would be, ending with `warning: N warning(s) emitted`;
  // "" when there are none.
  std::string* rendered_warnings = nullptr;
  // The memory budget of the runs the program is compiled for (bytes; the
  // `memory` limit): compiling is held to the real-heap ceiling such a run
  // has, 2 x the budget + 16 MiB; with none, 4 GiB or half the machine's
  // memory. Passing it (or the host failing to allocate) fails the compile:
  // kResourceExhausted, diagnostic MT0033 (runtime.md §2).
  std::optional<uint64_t> memory_budget = std::nullopt;
  // Mighty source only: the line number each line of the text is reported
  // as, like C's `#line`: line n is line_numbers[n - 1] (a line past the
  // end keeps its own number; each must be at least 1, else the compile is
  // kInvalidArgument). For a host that compiles text it put together (a
  // REPL's input wrapped in a function, its earlier definitions after it),
  // so that every location is the line of the part as it was typed: the
  // diagnostics (the structured ones, the status text and
  // *rendered_warnings, whose snippets still show the text's own lines)
  // and every location of the program (backtraces, events, Effects(),
  // CheckAgainst()). Empty: the text's own lines.
  std::vector<int> line_numbers = {};
};

// ---- Events -------------------------------------------------------------

// What happened during a run, as it happens (RunOptions::on_event), on the
// run's thread. With no on_event set, none is made.
struct Event {
  enum class Kind : uint8_t {
    kDenied,          // an effect or host function the grants do not admit
    kAgentFailed,     // an agent's turn or initialiser trapped or breached
    kRestarted,       // a supervisor restarted a child
    kEscalated,       // a supervisor escalated (the run ends kEscalated)
    kEffect,          // an effect or host-function call, allowed or denied (after kDenied)
    kSpawned,         // an agent or supervisor was spawned
    kSandboxEntered,  // a task entered a sandbox scope
    kSandboxLeft,     // ... and left it (a breach ends it instead)
    kSandboxBreach,   // a limit of a sandbox went over (the task ends)
  };
  Kind kind = Kind::kDenied;
  // kDenied, kEffect: the call (`std.fs.read`, `host.kv.get`), its family
  // (`fs.read`, `host kv`; "" for std.time and std.env.args), what it asked
  // for (a path, `host:port`, a variable name, a sleep's duration, the host
  // family; "" for none), where the call is. Sandbox events: where the task
  // was.
  std::string effect;
  std::string family;
  std::string target;
  int line = 0;
  int column = 0;
  // kEffect: whether the grants admitted it.
  bool allowed = true;
  // kDenied: the sandbox whose grants refused it; "" for the run's own
  // grants (RunOptions::policy, or the host's default file caps). kEffect:
  // the innermost sandbox the call runs in ("" for none). Sandbox events:
  // the sandbox.
  std::string sandbox;
  // Agent events: the agent (`Worker#2`); with kAgentFailed, kEscalated and
  // kSandboxBreach the trap code and message.
  std::string agent;
  TrapCode code = TrapCode::kNone;
  std::string message;
  // kSandboxBreach: the limit's key (`steps`, `wall`, ...).
  std::string limit;
};

// ---- Record and replay ----------------------------------------------------

// Every nondeterministic input one run consumed, in order (docs/embedding.md,
// Record and replay): what each effect and host function returned and each
// reading of the scheduler's clock (which decides when timers fire, ask
// deadlines pass and restart windows close); a header with what the run
// was (a hash of the program's MtyIR, the entry, args, params and policy);
// and an end (outcome, exit code, steps, a hash of stdout and of stderr).
// Its text form is JSON lines, one per item (`mty run --record`).
class Program;
class Recording {
 public:
  Recording();
  ~Recording();
  Recording(const Recording&);
  Recording& operator=(const Recording&);
  Recording(Recording&&) noexcept;
  Recording& operator=(Recording&&) noexcept;

  // The header line, one line per input, the end line (when the run ended).
  std::string ToJsonLines() const;
  // Parses that text; kInvalidArgument naming the line of a malformed one.
  static absl::StatusOr<Recording> FromJsonLines(std::string_view text);

  // The header: what a replay runs with.
  const std::string& program_hash() const;  // 16 hex digits (CRC-64 of the MtyIR text)
  const std::string& file() const;          // the program's source file name
  const std::string& entry() const;
  const std::vector<std::string>& args() const;
  const std::vector<Value>& params() const;
  const Policy& policy() const;
  size_t inputs() const;  // lines between the header and the end
  bool ended() const;     // has its end line
  // Whether `program` is the one recorded: its MtyIR has the header's hash.
  bool Records(const Program& program) const;

  // Its contents (opaque outside mty; the run fills and reads them).
  struct Impl;
  Impl& impl() const { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

struct RunOptions {
  // The run's limits and grants. An unset limit is unlimited (depth
  // defaults to 10000 frames, mailbox to 1024 messages). Grants deny by
  // default: an unset or empty `net` or `env` list allows nothing; an unset
  // `fs.read` / `fs.write` list falls back to the process-wide default caps
  // (stdlib InstallDefaultReadCap, installed only by the host; they deny
  // unless it installed one). `Grants::All()` grants everything.
  // Combine a manifest with flags by Policy::Intersect.
  Policy policy;
  // A policy the run's narrows (a worker's grant around a job's manifest):
  // its file lists are the host's, resolved when the run starts, and the
  // run's own file lists are resolved beneath them, so the run can never
  // name what they could not open (a symlink in an outer root that points
  // out of it grants nothing). Its limits and other lists apply too (the
  // tightest, the intersection). Unset: the run's lists are the host's.
  std::optional<Policy> outer_policy;
  std::string entry = "main";
  // The entry function's parameters, in order, each checked against the
  // parameter's declared type (a mismatch: kInvalid naming it). Parameters
  // of type Fs, Net or Env are not listed: they receive the run's grants.
  std::vector<Value> params;
  std::vector<std::string> args;  // what std.env.args() returns (after `--`)
  bool deny_is_trap = false;      // the first denial traps MT5015
  // One line per denied effect (`mty run --trace`).
  std::function<void(std::string_view)> on_trace;
  // Every effect call, denials, spawns, agent failures, restarts,
  // escalations, sandbox entries, exits and breaches as they happen (Event).
  std::function<void(const Event&)> on_event;
  // The kinds on_event receives (EventBit(kind) ORed; default: every kind).
  // A kind not asked for is never made: with neither kEffect nor a sandbox
  // kind asked for, effect calls and sandbox scopes cost nothing extra.
  uint32_t event_kinds = ~0u;
  static constexpr uint32_t EventBit(Event::Kind kind) {
    return uint32_t{1} << static_cast<unsigned>(kind);
  }
  // Record: the run writes its header, each nondeterministic input it
  // consumes and its end into *record (replacing what it held).
  Recording* record = nullptr;
  // Replay: the run takes every effect and host-function result and every
  // scheduler clock reading from *replay, in order, and touches no file,
  // network, environment variable or clock for them (sleeps do not wait).
  // It runs with the recording's entry, args, params and policy (these
  // options' are ignored). When the run asks for something other than the
  // next input (another effect, other arguments: the program changed), it
  // stops there; RunResult::divergence then says where. Not with record.
  const Recording* replay = nullptr;
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

  // OK, or kInvalidArgument naming the first field that is out of range
  // (a limit below its minimum or above the largest quantity, a malformed
  // grant entry, both a callback and a descriptor for one stream, ...).
  // Run checks this first; an invalid run ends Outcome::kInvalid.
  absl::Status Validate() const;
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
  std::string value;  // kOk: Debug form of the returned value
  // kOk and kMainErr: the returned value itself (kMainErr: the `Err(e)`),
  // always set then. A value that cannot be returned ends the run
  // otherwise: one not of the entry's declared result type or nested
  // deeper than 512 levels is kTrap MT5016; one whose copy would pass the
  // memory limit (256 MiB without one) is kBreach of memory, subject
  // "returned value".
  std::optional<Value> returned;
  std::string message;                 // what `mty run` prints after the code
  std::vector<std::string> backtrace;  // "fn (file:line:col)", innermost first
  int exit_code = 0;                   // as `mty run` exits (docs/runtime.md, mty::Exit)
  // Usage, from the run's tracker. steps_used: statements executed, counted
  // when some step limit applies (else 0). mem_used: the estimated bytes
  // the run charged (runtime.md §2), counted with or without a limit.
  // mem_limit: the memory limit (0: none). On a breach of steps or memory
  // they are the breach's: steps_used / mem_used its observed (the count
  // that went over, the step or allocation that breached included),
  // mem_limit its bound; the breached sandbox's when it was one.
  uint64_t steps_used = 0;
  uint64_t mem_used = 0;
  uint64_t mem_limit = 0;
  uint64_t output_bytes = 0;  // counted when some output limit applies
  uint64_t agents_spawned = 0;
  // The most heap the run really held (bytes, the accounting allocator).
  uint64_t heap_peak = 0;
  uint64_t wall_ns = 0;  // from the start of Run to its end
  uint64_t cpu_ns = 0;   // CPU time of the thread that ran it, during Run
  // kBreach: the sandbox whose limit went over ("" for the run's own).
  const std::string& sandbox() const;
  // A replay (RunOptions::replay) that did not reproduce its recording:
  // the first difference, e.g. `input 3 (line 4) of the recording is
  // std.fs.read("a.txt") at prog.mty:3:9; the run asked for
  // std.fs.read("b.txt") at prog.mty:4:9 (the program changed since the
  // recording)`, or a different outcome, exit code, step count or output
  // at the end. "" when it reproduced it (or for a run that is no replay).
  std::string divergence;

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
  // location, the source lines with `^^^` under the span and `---` labels),
  // ending with `error: aborting due to N previous error(s)`.
  static absl::StatusOr<std::shared_ptr<const Program>> FromSource(std::string_view text,
                                                                   std::string_view file_name);
  // Compiles by file extension: `.mtyir` as MtyIR text, anything else as source.
  static absl::StatusOr<std::shared_ptr<const Program>> FromFile(std::string_view text,
                                                                 std::string_view file_name);
  // The same, with host functions and structured diagnostics
  // (CompileOptions).
  static absl::StatusOr<std::shared_ptr<const Program>> FromIrText(std::string_view text,
                                                                   std::string_view file_name,
                                                                   const CompileOptions& options);
  static absl::StatusOr<std::shared_ptr<const Program>> FromSource(std::string_view text,
                                                                   std::string_view file_name,
                                                                   const CompileOptions& options);
  static absl::StatusOr<std::shared_ptr<const Program>> FromFile(std::string_view text,
                                                                 std::string_view file_name,
                                                                 const CompileOptions& options);
  // The parsed AST of Mighty source, for `mty dump --ast` (diagnostics as
  // for FromSource).
  static absl::StatusOr<std::string> SourceAst(std::string_view text, std::string_view file_name);
  // The same, with the options' diagnostics, colour and warning handling.
  static absl::StatusOr<std::string> SourceAst(std::string_view text, std::string_view file_name,
                                               const CompileOptions& options);
  // How `mty repl` reads an input (docs/cli.md, REPL): as items when the
  // text parses as a file of items, else as the statements of a block
  // body. Errors are kInvalidArgument with the rendered diagnostics
  // (located in `text`), or kOutOfRange when the text ends inside an
  // unclosed delimiter, string or comment (more lines may complete it).
  struct Statement {
    enum class Kind : uint8_t { kLet, kExpr, kEmpty };
    Kind kind = Kind::kExpr;
    size_t offset = 0;  // the byte offset of its first token in the text
    // kLet: the names its pattern binds, in order, and whether each is `mut`.
    std::vector<std::pair<std::string, bool>> names;
    bool has_semi = false;  // kExpr: `e;`
  };
  struct SourceInput {
    bool items = false;
    std::vector<std::string> item_names;  // items: the names they define (not impls)
    std::vector<Statement> statements;    // otherwise
  };
  static absl::StatusOr<SourceInput> ReadSourceInput(std::string_view text,
                                                     std::string_view file_name);
  ~Program();

  // Runs the entry function to completion. Thread-safe: one program may be
  // run many times, also concurrently; each run has fresh state.
  RunResult Run(const RunOptions& options) const;
  // Runs `entry(params...)` (RunOptions::entry and ::params).
  RunResult Run(std::string_view entry, std::vector<Value> params, RunOptions options = {}) const;

  // The effect calls a program can make (`mty caps`, `mty check
  // --manifest`): family (fs.read, fs.write, net, env; `host` for a host
  // function, whose `literal` is then its host family), effect path, the
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

  // The source file its locations are in (backtraces, events): the name
  // it was compiled under, or an MtyIR `source "x.mty"` line's.
  const std::string& source_file() const;
  // The declared type of local `local` of function `function` (a
  // parameter or a `let`; of several of that name, the last declared), in
  // MtyIR's spelling: `I64`, `[Str]`, `Option[I64]`, `Duration`, `Any`
  // where the compiler does not know it. nullopt when there is no such
  // function or it has no local of that name.
  std::optional<std::string> LocalType(std::string_view function, std::string_view local) const;
  std::string IrText() const;       // canonical .mtyir
  std::string Disassembly() const;  // bytecode listing

  struct Impl;
  explicit Program(std::unique_ptr<Impl> impl);

 private:
  std::unique_ptr<Impl> impl_;
  friend class Runner;
  static absl::StatusOr<std::shared_ptr<const Program>> FromIrTextUnguarded(
      std::string_view text, std::string_view file_name, const CompileOptions& options);
  static absl::StatusOr<std::shared_ptr<const Program>> FromSourceUnguarded(
      std::string_view text, std::string_view file_name, const CompileOptions& options);
  static absl::StatusOr<SourceInput> ReadSourceInputUnguarded(std::string_view text,
                                                              std::string_view file_name);
};

// A run that another thread can interrupt. One Runner is one run: Run()
// runs the program once; calling it again returns kInvalid ("a Runner runs
// once"), so an Interrupt() can never leak into a later run. Make a new
// Runner (cheap: no compile) for each run.
class Runner {
 public:
  // A null program makes a Runner whose Run() is kInvalid ("program: null").
  Runner(std::shared_ptr<const Program> program, RunOptions options);
  ~Runner();
  RunResult Run();
  // Thread-safe, also before Run() starts (the run then ends kCancelled at
  // once): the run stops at its next safepoint, and every wait of the run
  // (a sleep, an ask, a late host function, an HTTP request, a blocked
  // output write) ends within milliseconds.
  void Interrupt();

 private:
  RunResult RunUnguarded();
  static RunResult OutOfMemory();
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace mty
