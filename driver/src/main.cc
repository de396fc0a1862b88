// The `mty` command line: run, check, list capabilities of and dump programs.
// One function per subcommand; uses only the public API (include/mty/mty.h).
// The grammar (every subcommand's options, usage, help, completions and man
// page) is one table, commands.cc; the limit and grant flags come from the
// policy table, so they take the same keys and units as manifests and
// sandbox entries.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <future>
#include <iostream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "args.h"
#include "commands.h"
#include "ctrl_c.h"
#include "input.h"
#include "mty/client.h"
#include "mty/cluster/worker.h"
#include "mty/denial_hints.h"
#include "mty/exit_codes.h"
#include "mty/mty.h"
#include "nlohmann/json.hpp"
#include "output.h"
#include "repl.h"

namespace {

// The driver's own exit codes (mty/exit_codes.h, the one table; a run's
// come from RunResult::exit_code).
constexpr int kExitReplayDiverged = mty::ExitCode(mty::Exit::kReplayDiverged);
constexpr int kExitUsage = mty::ExitCode(mty::Exit::kUsage);
constexpr int kExitDataErr = mty::ExitCode(mty::Exit::kDataErr);
constexpr int kExitNoInput = mty::ExitCode(mty::Exit::kNoInput);
constexpr int kExitCantCreate = mty::ExitCode(mty::Exit::kCantCreate);
constexpr int kExitInterrupted = mty::ExitCode(mty::Exit::kInterrupted);

// A usage error: the message, then the command's usage line (exit 64).
int UsageError(const std::string& message, const mty::driver::CommandSpec* command = nullptr) {
  std::cerr << "error: " << message << "\n"
            << (command ? mty::driver::UsageLine(*command)
                        : std::string("usage: mty COMMAND [OPTIONS] ... (mty --help lists them)"))
            << "\n";
  return kExitUsage;
}

// Loads a manifest; returns an exit code on failure (nothing runs).
int LoadManifestFile(const std::string& path, std::optional<mty::Policy>* out) {
  if (path.empty()) return 0;
  auto m = mty::driver::LoadManifestFile(path);
  if (!m.ok()) {
    std::cerr << m.status().message() << "\n";
    // Malformed text is 65; a file that cannot be read (missing, not a
    // regular file, too large) is 66.
    return m.status().code() == absl::StatusCode::kInvalidArgument ? kExitDataErr : kExitNoInput;
  }
  *out = *m;
  return 0;
}

// The name diagnostics use for an input ("-" is standard input).
std::string DisplayName(const std::string& path) { return path == "-" ? "<stdin>" : path; }

// Reads an input program (a regular file of at most kMaxProgramBytes);
// returns an exit code on failure.
int ReadInput(const std::string& path, std::string* text) {
  auto read = path == "-" ? mty::driver::ReadStandardInput(mty::kMaxProgramBytes)
                          : mty::driver::ReadInputFile(path, mty::kMaxProgramBytes);
  if (!read.ok()) {
    std::cerr << "error: cannot read " << path << ": " << read.status().message() << "\n";
    return kExitNoInput;
  }
  *text = std::move(*read);
  return 0;
}

// A JSON line; text from the program that is not UTF-8 is replaced.
std::string Json(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// How compile diagnostics are printed (`--error-format`, `--color`,
// `--deny-warnings`): rendered, rustc style, or one JSON object per
// diagnostic and line. Set once, from the command.
bool json_errors = false;
bool color = false;
bool deny_warnings = false;

// `--color`: always, never, or (auto, the default) when stderr is a
// terminal, NO_COLOR is unset or empty (no-color.org) and TERM is not
// `dumb`. An explicit `always` beats NO_COLOR, as in cargo and ls.
bool UseColor(const std::optional<std::string>& when) {
  if (when == "always") return true;
  if (when == "never") return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  if (term && std::string_view(term) == "dumb") return false;
  return isatty(STDERR_FILENO) == 1;
}

// One diagnostic as a JSON line (docs/cli.md, Diagnostics).
std::string DiagnosticJson(const mty::Diagnostic& d) {
  const char* severity = d.severity == mty::Diagnostic::Severity::kError     ? "error"
                         : d.severity == mty::Diagnostic::Severity::kWarning ? "warning"
                                                                             : "note";
  nlohmann::json spans = nlohmann::json::array();
  auto span = [&](int line, int column, int end_line, int end_column, bool primary,
                  const std::string& label) {
    spans.push_back({{"file", d.file},
                     {"line", line},
                     {"column", column},
                     {"end_line", end_line},
                     {"end_column", end_column},
                     {"primary", primary},
                     {"label", label}});
  };
  span(d.line, d.column, d.end_line, d.end_column, true, d.label);
  for (const mty::DiagnosticLabel& l : d.labels)
    span(l.line, l.column, l.end_line, l.end_column, false, l.message);
  nlohmann::json j = {{"code", d.code}, {"severity", severity}, {"message", d.message},
                      {"file", d.file}, {"line", d.line},       {"column", d.column},
                      {"spans", spans}, {"notes", d.notes}};
  return Json(j);
}

// The compile options the diagnostics flags ask for, filling `diagnostics`
// and `warnings`.
mty::CompileOptions DiagnosticOptions(std::vector<mty::Diagnostic>* diagnostics,
                                      std::string* warnings) {
  mty::CompileOptions o;
  o.diagnostics = diagnostics;
  o.deny_warnings = deny_warnings;
  o.color = color;
  o.rendered_warnings = warnings;
  return o;
}

// Prints a compile's diagnostics on stderr: `rendered` (a failure's status
// text, or a success's rendered warnings), or with --error-format=json one
// JSON line per diagnostic.
void PrintDiagnostics(const std::vector<mty::Diagnostic>& diagnostics, std::string_view rendered) {
  if (json_errors && !diagnostics.empty()) {
    for (const mty::Diagnostic& d : diagnostics) std::cerr << DiagnosticJson(d);
    return;
  }
  if (rendered.empty()) return;
  std::cerr << rendered << (rendered.back() != '\n' ? "\n" : "");
}

// Loads and compiles a program (.mtyir as MtyIR text, anything else as
// Mighty source), held to the real-heap ceiling of a run with `policy`'s
// memory budget; returns an exit code on failure. Warnings are printed.
int Load(const std::string& path, std::shared_ptr<const mty::Program>* out,
         const mty::Policy& policy = {}) {
  std::string text;
  if (int rc = ReadInput(path, &text); rc != 0) return rc;
  std::vector<mty::Diagnostic> diagnostics;
  std::string warnings;
  mty::CompileOptions options = DiagnosticOptions(&diagnostics, &warnings);
  options.memory_budget = policy.limits.Get(mty::LimitId::kMemory);
  auto p = mty::Program::FromFile(text, DisplayName(path), options);
  if (!p.ok()) {
    PrintDiagnostics(diagnostics, std::string(p.status().message()));
    return 1;
  }
  PrintDiagnostics(diagnostics, warnings);
  *out = *p;
  return 0;
}

// ---- mty run ----------------------------------------------------------------

using mty::driver::ParsedCommand;

// The flags as a policy, in the order given: each limit through the
// table's parser, each grant flag entries of its family (alone: every
// entry), `--allow-all` every family.
int FlagsPolicy(const ParsedCommand& cmd, mty::Policy* out) {
  bool all = false;
  for (const auto& [name, value] : cmd.given) {
    if (name == "allow-all") all = true;
    for (const mty::ir::LimitInfo& l : mty::ir::kLimits) {
      if (name != mty::driver::FlagName(l.key)) continue;
      absl::StatusOr<uint64_t> v = mty::ir::ParseLimitValue(l.id, *value);
      if (!v.ok())
        return UsageError(absl::StrCat("--", l.key, ": ", v.status().message()), cmd.command);
      out->limits.Set(l.id, *v);
    }
    if (name == mty::driver::FlagName(mty::ir::kMbPolicyChoice.key))
      out->limits.mb_policy = mty::ir::ParseMailboxPolicy(*value);  // a choice: checked
    for (const mty::ir::GrantInfo& g : mty::ir::kGrants) {
      if (name != g.flag) continue;
      std::vector<std::string> entries = value
                                             ? mty::driver::SplitList(*value)
                                             : std::vector<std::string>{mty::ir::EveryEntry(g.id)};
      for (const std::string& entry : entries) {
        if (absl::Status s = mty::ir::CheckGrantEntry(g.id, entry); !s.ok())
          return UsageError(absl::StrCat("--", g.flag, ": ", s.message()), cmd.command);
        out->grants.Add(g.id, entry);
      }
    }
  }
  if (all) out->grants = mty::Grants::All();
  return 0;
}

using mty::driver::CtrlC;

using mty::DenialHint;
using mty::ShellWord;
std::string Printable(std::string_view text) { return mty::PrintableText(text); }

// A manifest and the flags that together grant nothing of a family both
// grant something of (docs/cli.md): one warning line each.
void WarnEmptyIntersections(const mty::Policy& flags, const mty::Policy& manifest,
                            const mty::Policy& both, const std::string& manifest_path) {
  for (const mty::ir::GrantInfo& g : mty::ir::kGrants) {
    const auto& a = flags.grants.Get(g.id);
    const auto& b = manifest.grants.Get(g.id);
    const auto& c = both.grants.Get(g.id);
    if (a && b && !a->empty() && !b->empty() && c && c->empty())
      std::cerr << "mty: warning: --" << g.flag << " and `" << g.key << "` in " << manifest_path
                << " have nothing in common: the run may use no " << g.key << "\n";
  }
}

// `--stats`: the run's usage (docs/cli.md), one line of text or one JSON
// object, on stderr after the report.
std::string Stats(const mty::RunResult& r, bool json) {
  if (json) {
    nlohmann::json j = {{"outcome", mty::ir::OutcomeName(r.outcome)},
                        {"exit_code", r.exit_code},
                        {"steps", r.steps_used},
                        {"memory_bytes", r.mem_used},
                        {"heap_peak_bytes", r.heap_peak},
                        {"output_bytes", r.output_bytes},
                        {"wall_ns", r.wall_ns},
                        {"cpu_ns", r.cpu_ns},
                        {"agents_spawned", r.agents_spawned}};
    if (r.breach) {
      j["breach"] = {{"limit", r.breach->Key()}, {"sandbox", r.sandbox()}};
    }
    return j.dump() + "\n";
  }
  return absl::StrCat("mty: stats: ", r.steps_used, " steps, ", r.mem_used, " B estimated, ",
                      r.heap_peak, " B real peak, ", r.output_bytes, " B output, wall ",
                      absl::StrFormat("%.3f", r.wall_ns / 1e6), " ms, cpu ",
                      absl::StrFormat("%.3f", r.cpu_ns / 1e6), " ms, ", r.agents_spawned,
                      " agents\n");
}

// `--trace=json`: one line per event (docs/cli.md).
std::string EventJson(const mty::Event& e, const std::string& file) {
  nlohmann::json j;
  const nlohmann::json at = {{"file", file}, {"line", e.line}, {"column", e.column}};
  switch (e.kind) {
    case mty::Event::Kind::kDenied:
    case mty::Event::Kind::kEffect:
      j = {{"event", e.kind == mty::Event::Kind::kDenied ? "denied" : "effect"},
           {"effect", e.effect},
           {"family", e.family},
           {"target", e.target},
           {"sandbox", e.sandbox}};
      if (e.kind == mty::Event::Kind::kEffect) j["allowed"] = e.allowed;
      j.update(at);
      break;
    case mty::Event::Kind::kSpawned: j = {{"event", "spawned"}, {"agent", e.agent}}; break;
    case mty::Event::Kind::kAgentFailed:
    case mty::Event::Kind::kRestarted:
    case mty::Event::Kind::kEscalated:
      j = {{"event", e.kind == mty::Event::Kind::kAgentFailed ? "agent_failed"
                     : e.kind == mty::Event::Kind::kRestarted ? "restarted"
                                                              : "escalated"},
           {"agent", e.agent},
           {"message", e.message}};
      if (e.code != mty::TrapCode::kNone) j["code"] = mty::TrapText(e.code);
      break;
    case mty::Event::Kind::kSandboxEntered:
    case mty::Event::Kind::kSandboxLeft:
      j = {{"event",
            e.kind == mty::Event::Kind::kSandboxEntered ? "sandbox_entered" : "sandbox_left"},
           {"sandbox", e.sandbox}};
      j.update(at);
      break;
    case mty::Event::Kind::kSandboxBreach:
      j = {{"event", "sandbox_breach"},
           {"sandbox", e.sandbox},
           {"limit", e.limit},
           {"code", mty::TrapText(e.code)},
           {"message", e.message}};
      j.update(at);
      break;
  }
  return Json(j);
}

// `--trace` (text): one line per event; a denial is the runtime's own
// `trace: MT5015 denied ...` line (RunOptions::on_trace), so kDenied and a
// denied kEffect add none.
std::string EventText(const mty::Event& e, const std::string& file) {
  const std::string at = absl::StrCat(" at ", file, ":", e.line, ":", e.column);
  const std::string in = e.sandbox.empty() ? "" : absl::StrCat(" in sandbox ", e.sandbox);
  switch (e.kind) {
    case mty::Event::Kind::kDenied: return "";
    case mty::Event::Kind::kEffect:
      if (!e.allowed) return "";
      return absl::StrCat("trace: effect ", e.effect,
                          e.target.empty() ? "" : absl::StrCat(" ", Printable(e.target)),
                          " allowed", e.family.empty() ? "" : absl::StrCat(" (", e.family, ")"), in,
                          at, "\n");
    case mty::Event::Kind::kSpawned: return absl::StrCat("trace: spawned ", e.agent, "\n");
    case mty::Event::Kind::kAgentFailed:
      return absl::StrCat("trace: agent ", e.agent, " failed: ", mty::TrapText(e.code), " ",
                          Printable(e.message), "\n");
    case mty::Event::Kind::kRestarted: return absl::StrCat("trace: restarted ", e.agent, "\n");
    case mty::Event::Kind::kEscalated:
      return absl::StrCat("trace: escalated ", e.agent, ": ", mty::TrapText(e.code), " ",
                          Printable(e.message), "\n");
    case mty::Event::Kind::kSandboxEntered:
      return absl::StrCat("trace: sandbox ", e.sandbox, " entered", at, "\n");
    case mty::Event::Kind::kSandboxLeft:
      return absl::StrCat("trace: sandbox ", e.sandbox, " left", at, "\n");
    case mty::Event::Kind::kSandboxBreach:
      return absl::StrCat("trace: sandbox ", e.sandbox, " breached ", e.limit, ": ",
                          mty::TrapText(e.code), " ", Printable(e.message), at, "\n");
  }
  return "";
}

using mty::driver::HostOutput;

// Creates a file mty writes (--trace-file, --record) before the run; the
// exit code (73) with the error printed when it cannot be.
int CreateOutput(const std::string& path, HostOutput::InUse* in_use, const char* what,
                 std::optional<HostOutput>* out) {
  absl::StatusOr<HostOutput> o = HostOutput::Create(path, *in_use);
  if (!o.ok()) {
    std::cerr << "error: " << o.status().message() << "\n";
    return kExitCantCreate;
  }
  out->emplace(std::move(*o));
  in_use->emplace_back(path, what);
  return 0;
}

// The run's report for stderr: none when the reader of its output went
// away (MT5024: closing the pipe was the reader's choice, docs/cli.md).
std::string ReportOf(const mty::RunResult& r) {
  return r.code == mty::TrapCode::kOutputClosed ? "" : r.Report();
}

int RunCommand(const ParsedCommand& f) {
  CtrlC ctrl_c(CtrlC::Mode::kOneRun);
  mty::Policy policy;
  if (int rc = FlagsPolicy(f, &policy); rc != 0) return rc;
  std::optional<mty::Policy> manifest;
  if (int rc = LoadManifestFile(f.Last("manifest").value_or(""), &manifest); rc != 0) return rc;
  // Steps and output are counted only under some limit: --stats sets the
  // largest one where none is given, so that they are counted.
  std::optional<std::string> stats = f.Last("stats");
  const std::optional<std::string> record_path = f.Last("record");
  const mty::Policy flags = policy;
  // A recording compares steps and output when replayed: they are counted.
  if (stats || record_path)
    for (mty::LimitId id : {mty::LimitId::kSteps, mty::LimitId::kOutput})
      if (!policy.limits.Get(id)) policy.limits.Set(id, mty::ir::kMaxQuantity);
  const std::string manifest_path = f.Last("manifest").value_or("");
  if (manifest) {
    policy = mty::Policy::Intersect(policy, *manifest);
    WarnEmptyIntersections(flags, *manifest, policy, manifest_path);
  }
  // The run's file grants double as the process-wide default caps (the
  // original design's mechanism), installed once here, by the host.
  mty::InstallDefaultFsCaps(policy.grants);

  std::shared_ptr<const mty::Program> program;
  if (int rc = Load(f.operand, &program, policy); rc != 0) return rc;
  mty::RunOptions opts;
  opts.policy = std::move(policy);
  // The manifest narrows the command line's grants: its paths are resolved
  // beneath the flags' roots, never on their own (docs/security.md).
  if (manifest) opts.outer_policy = flags;
  opts.args = f.program_args;
  opts.deny_is_trap = f.Has("deny-is-trap");
  // --trace: text lines (denials) or JSON lines (every event), on stderr or
  // in --trace-file.
  const std::optional<std::string> trace = f.Last("trace");
  const bool trace_json = trace == "json";
  // The files mty writes are created before the run (nothing runs when one
  // cannot be), never over the program, the manifest or each other.
  HostOutput::InUse in_use = {{f.operand, "the program"}};
  if (!manifest_path.empty()) in_use.emplace_back(manifest_path, "the manifest");
  std::optional<HostOutput> trace_file, record_file;
  if (std::optional<std::string> path = f.Last("trace-file"))
    if (int rc = CreateOutput(*path, &in_use, "the trace file", &trace_file); rc != 0) return rc;
  // --record: written after the run.
  mty::Recording recording;
  if (record_path) {
    if (int rc = CreateOutput(*record_path, &in_use, "the recording", &record_file); rc != 0)
      return rc;
    opts.record = &recording;
  }
  // Every trace line is checked: the first that cannot be written stops
  // the run (the trace asked for would be lost from there on).
  HostOutput trace_stderr(STDERR_FILENO, "stderr");
  HostOutput& trace_out = trace_file ? *trace_file : trace_stderr;
  mty::Runner* running = nullptr;
  auto emit = [&trace_out, &running](std::string_view line) {
    if (!trace_out.Write(line, std::chrono::milliseconds(500)) && running) running->Interrupt();
  };
  if (trace && !trace_json)
    opts.on_trace = [emit](std::string_view s) {
      emit(absl::StrCat("trace: ", std::string(s), "\n"));
    };
  // One hint per denied target, unless --quiet (mty::DenialHints).
  const std::string display =
      program->source_file().empty() ? DisplayName(f.operand) : program->source_file();
  mty::DenialHints hinter(display, flags, manifest_path, manifest);
  const bool hints = !f.Has("quiet");
  // The hints need only the denials: no other event is made then.
  if (!trace) opts.event_kinds = mty::RunOptions::EventBit(mty::Event::Kind::kDenied);
  if (hints || trace)
    opts.on_event = [&](const mty::Event& e) {
      if (trace_json) {
        emit(EventJson(e, display));
      } else if (trace) {
        if (std::string line = EventText(e, display); !line.empty()) emit(line);
      }
      if (!hints) return;
      if (std::string line = hinter.Line(e); !line.empty())
        mty::WriteOutput(STDERR_FILENO, line, std::chrono::milliseconds(500));
    };
  // The run writes 1 and 2 itself: a stdout or stderr nobody drains never
  // holds it past its wall deadline.
  std::cout << std::flush;
  std::fflush(stdout);
  opts.stdout_fd = STDOUT_FILENO;
  opts.stderr_fd = STDERR_FILENO;
  mty::Runner runner(program, std::move(opts));
  running = &runner;
  ctrl_c.Arm(&runner);
  mty::RunResult r = runner.Run();
  ctrl_c.Arm(nullptr);
  running = nullptr;
  bool interrupted = ctrl_c.interrupted() && r.outcome == mty::Outcome::kCancelled;
  if (interrupted) r.message = "interrupted (Ctrl-C)";
  // Stopped by a trace line that could not be written: the report says so.
  if (!interrupted && !trace_out.ok() && r.outcome == mty::Outcome::kCancelled)
    r.message = trace_out.Error();
  std::string report = ReportOf(r);
  // The report too gives up on a stderr nobody drains (after 500 ms).
  if (stats) report += Stats(r, *stats == "json");
  if (trace_json) {
    nlohmann::json end = {{"event", "end"},
                          {"outcome", mty::ir::OutcomeName(r.outcome)},
                          {"exit_code", interrupted ? 130 : r.exit_code}};
    if (r.code != mty::TrapCode::kNone) end["code"] = mty::TrapText(r.code);
    if (r.breach) end["breach"] = {{"limit", r.breach->Key()}, {"sandbox", r.sandbox()}};
    emit(Json(end));
  }
  mty::WriteOutput(STDERR_FILENO, report, std::chrono::milliseconds(500));
  if (record_file) record_file->Write(recording.ToJsonLines(), std::chrono::seconds(10));
  // A file mty writes that failed (a write or its close): its exit code
  // (74; 141 when the reader went away), whatever the run's own status,
  // which the report above gives.
  for (std::optional<HostOutput>* out : {&trace_file, &record_file})
    if (*out) (*out)->Close();
  for (const HostOutput* out : {&trace_out, record_file ? &*record_file : nullptr}) {
    if (!out || out->ok()) continue;
    // When the failure stopped the run, the report has said it already.
    return r.message == out->Error() ? out->ExitCode() : out->Report();
  }
  if (interrupted) return kExitInterrupted;
  return r.exit_code;
}

// ---- mty repl -----------------------------------------------------------------

// The session (repl.cc) under the flags' and manifest's policy, with
// `mty run`'s denial hints.
int ReplCommand(const ParsedCommand& f) {
  mty::Policy policy;
  if (int rc = FlagsPolicy(f, &policy); rc != 0) return rc;
  const mty::Policy flags = policy;
  std::optional<mty::Policy> manifest;
  const std::string manifest_path = f.Last("manifest").value_or("");
  if (int rc = LoadManifestFile(manifest_path, &manifest); rc != 0) return rc;
  if (manifest) {
    policy = mty::Policy::Intersect(policy, *manifest);
    WarnEmptyIntersections(flags, *manifest, policy, manifest_path);
  }
  mty::InstallDefaultFsCaps(policy.grants);
  mty::driver::ReplOptions opts;
  opts.policy = std::move(policy);
  if (manifest) opts.outer_policy = flags;
  opts.deny_is_trap = f.Has("deny-is-trap");
  if (!f.Has("quiet"))
    opts.on_event = [flags, manifest_path, manifest](const mty::Event& e) {
      if (e.kind != mty::Event::Kind::kDenied) return;
      mty::WriteOutput(STDERR_FILENO, DenialHint(e, "<repl>", flags, manifest_path, manifest),
                       std::chrono::milliseconds(500));
    };
  return mty::driver::Repl(opts);
}

// ---- mty replay ---------------------------------------------------------------

// The largest recording `mty replay` reads.
constexpr uint64_t kMaxRecordingBytes = uint64_t{1} << 30;

// The program a recording names (`mty replay REC` alone). A recording is
// data anyone may have written: the file it names runs only when it
// compiles to the recorded program, and nothing read from it is shown
// otherwise (no diagnostic, no source line, no token): exit 65, the
// recording does not fit the file it names.
int LoadRecorded(const mty::Recording& rec, const std::string& rec_path,
                 std::shared_ptr<const mty::Program>* out) {
  const std::string name = Printable(rec.file());
  auto refuse = [&](std::string_view why, int rc) {
    std::cerr << "error: " << DisplayName(rec_path) << " names the program " << name << ", which "
              << why << "; to replay it against a program, name it: mty replay "
              << DisplayName(rec_path) << " PROGRAM\n";
    return rc;
  };
  auto text = mty::driver::ReadInputFile(rec.file(), mty::kMaxProgramBytes);
  if (!text.ok())
    return refuse(absl::StrCat("cannot be read: ", text.status().message()), kExitNoInput);
  std::vector<mty::Diagnostic> diagnostics;
  std::string warnings;
  mty::CompileOptions options = DiagnosticOptions(&diagnostics, &warnings);
  options.memory_budget = rec.policy().limits.Get(mty::LimitId::kMemory);  // the run's
  auto p = mty::Program::FromFile(*text, rec.file(), options);
  if (!p.ok()) return refuse("does not compile", kExitDataErr);
  if (!rec.Records(**p))
    return refuse("is not the recorded program (it changed since the recording)", kExitDataErr);
  PrintDiagnostics(diagnostics, warnings);
  *out = *p;
  return 0;
}

int ReplayCommand(const ParsedCommand& f) {
  if (f.program_args.size() > 1)
    return UsageError(absl::StrCat("replay takes a recording and at most one program; got '",
                                   f.program_args[1], "' too"),
                      f.command);
  auto text = f.operand == "-" ? mty::driver::ReadStandardInput(kMaxRecordingBytes)
                               : mty::driver::ReadInputFile(f.operand, kMaxRecordingBytes);
  if (!text.ok()) {
    std::cerr << "error: cannot read " << f.operand << ": " << text.status().message() << "\n";
    return kExitNoInput;
  }
  absl::StatusOr<mty::Recording> recording = mty::Recording::FromJsonLines(*text);
  if (!recording.ok()) {
    std::cerr << "error: " << DisplayName(f.operand) << ": " << recording.status().message()
              << "\n";
    return kExitDataErr;
  }
  // The program: the one named, else the file the recording names.
  if (f.program_args.empty() && recording->file().empty())
    return UsageError("the recording names no program file: give it", f.command);
  CtrlC ctrl_c(CtrlC::Mode::kOneRun);
  std::shared_ptr<const mty::Program> program;
  if (int rc = f.program_args.empty() ? LoadRecorded(*recording, f.operand, &program)
                                      : Load(f.program_args[0], &program, recording->policy());
      rc != 0)
    return rc;
  mty::RunOptions opts;
  opts.replay = &*recording;
  std::cout << std::flush;
  std::fflush(stdout);
  opts.stdout_fd = STDOUT_FILENO;
  opts.stderr_fd = STDERR_FILENO;
  mty::Runner runner(program, std::move(opts));
  ctrl_c.Arm(&runner);
  mty::RunResult r = runner.Run();
  ctrl_c.Arm(nullptr);
  const bool interrupted = ctrl_c.interrupted() && r.outcome == mty::Outcome::kCancelled;
  if (interrupted) r.message = "interrupted (Ctrl-C)";
  // A divergence that stopped the run says where itself (the trap or the
  // cancellation it caused is not the program's).
  const bool stopped = !r.divergence.empty() && (r.outcome == mty::Outcome::kCancelled ||
                                                 r.message.rfind("replay diverged", 0) == 0);
  std::string report = stopped ? "" : ReportOf(r);
  if (std::optional<std::string> stats = f.Last("stats")) report += Stats(r, *stats == "json");
  if (!r.divergence.empty())
    report += absl::StrCat("mty: replay diverged: ", Printable(r.divergence), "\n");
  mty::WriteOutput(STDERR_FILENO, report, std::chrono::milliseconds(500));
  if (interrupted) return kExitInterrupted;
  if (!r.divergence.empty()) return kExitReplayDiverged;
  return r.exit_code;
}

// ---- mty check ----------------------------------------------------------------

int CheckCommand(const std::string& file, const std::string& manifest_path) {
  std::optional<mty::Policy> manifest;
  if (int rc = LoadManifestFile(manifest_path, &manifest); rc != 0) return rc;
  std::shared_ptr<const mty::Program> program;
  if (int rc = Load(file, &program); rc != 0) return rc;
  if (!manifest) return 0;
  std::vector<std::string> findings = program->CheckAgainst(manifest->grants);
  for (const std::string& f : findings) std::cerr << f << "\n";
  if (!findings.empty()) {
    std::cerr << "error: " << findings.size() << " effect(s) not granted by " << manifest_path
              << "\n";
    return 1;
  }
  return 0;
}

// ---- mty caps -----------------------------------------------------------------

int CapsCommand(const std::string& file) {
  std::shared_ptr<const mty::Program> program;
  if (int rc = Load(file, &program); rc != 0) return rc;
  std::vector<mty::Program::EffectUse> uses = program->Effects();
  if (uses.empty()) {
    std::cout << "no effects: this program touches no file, host or environment variable\n";
    return 0;
  }
  for (const mty::ir::GrantInfo& g : mty::ir::kGrants) {
    bool header = false;
    for (const mty::Program::EffectUse& u : uses) {
      if (u.family != g.key) continue;
      if (!header) std::cout << g.key << ":\n";
      header = true;
      std::string what = u.literal.empty() ? "(computed at run time)" : u.literal;
      std::cout << "  " << what << "  " << u.effect << " at " << file << ":" << u.line << ":"
                << u.col << "\n";
    }
  }
  return 0;
}

// ---- mty dump -----------------------------------------------------------------

int DumpCommand(const ParsedCommand& cmd) {
  const std::string& file = cmd.operand;
  const bool bytecode = cmd.Has("bytecode");
  if (cmd.Has("ast")) {
    if (file.size() > 6 && file.substr(file.size() - 6) == ".mtyir")
      return UsageError(
          absl::StrCat("--ast needs Mighty source, and ", file, " is MtyIR text (try --ir)"),
          cmd.command);
    std::string text;
    if (int rc = ReadInput(file, &text); rc != 0) return rc;
    std::vector<mty::Diagnostic> diagnostics;
    std::string warnings;
    auto tree = mty::Program::SourceAst(text, DisplayName(file),
                                        DiagnosticOptions(&diagnostics, &warnings));
    if (!tree.ok()) {
      PrintDiagnostics(diagnostics, std::string(tree.status().message()));
      return 1;
    }
    PrintDiagnostics(diagnostics, warnings);
    std::cout << *tree;
    return 0;
  }
  std::shared_ptr<const mty::Program> program;
  if (int rc = Load(file, &program); rc != 0) return rc;
  std::cout << (bytecode ? program->Disassembly() : program->IrText());
  return 0;
}

// ---- mty worker, submit, result (docs/scaling.md) -----------------------------

constexpr int kExitUnavailable = mty::ExitCode(mty::Exit::kUnavailable);
constexpr int kExitTempFail = mty::ExitCode(mty::Exit::kTempFail);
constexpr int kExitRejected = mty::ExitCode(mty::Exit::kRejected);

// The cluster settings of `--nats` (or MTY_NATS_URL, which keeps a URL's
// credentials out of `ps`), the credential files, `--verify-key`,
// `--replicas`, `--ack-wait`, `--max-deliver`; returns an exit code on a
// usage error.
int ClusterFlags(const ParsedCommand& f, mty::ClusterOptions* o) {
  std::optional<std::string> url = f.Last("nats");
  if (!url) {
    const char* env = std::getenv("MTY_NATS_URL");
    if (env) url = env;
  }
  if (!url || url->empty())
    return UsageError("--nats URL (or MTY_NATS_URL) is required", f.command);
  o->url = *url;
  o->creds_file = f.Last("creds").value_or("");
  o->nkey_file = f.Last("nkey").value_or("");
  o->tls_ca = f.Last("tls-ca").value_or("");
  o->tls_cert = f.Last("tls-cert").value_or("");
  o->tls_key = f.Last("tls-key").value_or("");
  o->inbox_prefix = f.Last("inbox-prefix").value_or("");
  for (const auto& [name, value] : f.given)
    if (name == "verify-key" && value) o->verify_keys.push_back(*value);
  auto count = [&](const char* flag, int lo, int hi, int* out) -> int {
    std::optional<std::string> v = f.Last(flag);
    if (!v) return 0;
    int n = 0;
    if (!absl::SimpleAtoi(*v, &n) || n < lo || n > hi)
      return UsageError(
          absl::StrCat("--", flag, ": expected a number from ", lo, " to ", hi, ", got '", *v, "'"),
          f.command);
    *out = n;
    return 0;
  };
  if (int rc = count("replicas", 1, 5, &o->replicas); rc != 0) return rc;
  if (int rc = count("max-deliver", 1, 1000, &o->max_deliver); rc != 0) return rc;
  if (std::optional<std::string> v = f.Last("ack-wait")) {
    absl::StatusOr<int64_t> ns = mty::ParseDuration(*v);
    if (!ns.ok() || *ns < 1'000'000)
      return UsageError(absl::StrCat("--ack-wait: ",
                                     ns.ok() ? "at least 1ms" : std::string(ns.status().message())),
                        f.command);
    o->ack_wait = std::chrono::nanoseconds(*ns);
  }
  return 0;
}

// `--timeout DUR` (0: no limit); returns an exit code on a usage error.
int TimeoutFlag(const ParsedCommand& f, std::chrono::milliseconds* out) {
  std::optional<std::string> v = f.Last("timeout");
  if (!v) return 0;
  absl::StatusOr<int64_t> ns = mty::ParseDuration(*v);
  if (!ns.ok()) return UsageError(absl::StrCat("--timeout: ", ns.status().message()), f.command);
  *out = std::chrono::milliseconds(std::max<int64_t>(1, *ns / 1'000'000));
  return 0;
}

// A failed cluster request: a bad job id or job is a usage error, no
// result in time 75, a result refused or an id held by another job 76, a
// server that cannot be used 69.
int ClusterError(const absl::Status& s) {
  std::cerr << "error: " << s.message() << "\n";
  if (s.code() == absl::StatusCode::kInvalidArgument) return kExitUsage;
  if (s.code() == absl::StatusCode::kUnauthenticated ||
      s.code() == absl::StatusCode::kAlreadyExists)
    return kExitRejected;
  if (s.code() == absl::StatusCode::kOutOfRange) return kExitDataErr;
  return s.code() == absl::StatusCode::kDeadlineExceeded ? kExitTempFail : kExitUnavailable;
}

// Prints a result as `mty run` would have printed the run: the program's
// stdout, then on stderr its diagnostics, its stderr and the report; the
// run's exit code.
int PrintResult(const mty::JobResult& r) {
  std::cout << std::flush;
  std::fflush(stdout);
  HostOutput out(STDOUT_FILENO, "stdout");
  out.Write(r.stdout_text, std::chrono::seconds(10));
  mty::WriteOutput(STDERR_FILENO, absl::StrCat(r.diagnostics, r.stderr_text, r.report),
                   std::chrono::seconds(10));
  return out.ok() ? r.exit_code : out.Report();
}

int WorkerCommand(const ParsedCommand& f) {
  mty::cluster::WorkerOptions o;
  if (int rc = ClusterFlags(f, &o.cluster); rc != 0) return rc;
  if (std::optional<std::string> v = f.Last("concurrency")) {
    if (!absl::SimpleAtoi(*v, &o.concurrency) || o.concurrency < 1 || o.concurrency > 1024)
      return UsageError(absl::StrCat("--concurrency: expected 1 to 1024 threads, got '", *v, "'"),
                        f.command);
  }
  std::optional<mty::Policy> manifest;
  if (int rc = LoadManifestFile(f.Last("manifest").value_or(""), &manifest); rc != 0) return rc;
  if (manifest) o.policy = *manifest;
  o.name = f.Last("name").value_or("");
  o.sign_key = f.Last("sign-key").value_or("");
  o.scratch = f.Last("scratch").value_or("");
  if (!f.Has("quiet"))
    o.log = [](std::string_view line) {
      mty::WriteOutput(STDERR_FILENO, absl::StrCat("mty worker: ", std::string(line), "\n"),
                       std::chrono::milliseconds(500));
    };
  // SIGTERM and SIGINT: blocked in every thread (before any exists), waited
  // for by this one. The first drains (no more pulls; the jobs in hand
  // finish and are acked), a second interrupts them (nak'ed: delivered
  // again elsewhere).
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  const std::string shown_url = mty::RedactUrl(o.cluster.url);
  // The signal thread starts before the worker takes jobs (a thread made
  // once its jobs have used up the address space could not be); it waits
  // for the worker, the signals staying pending until then.
  std::promise<mty::cluster::Worker*> started;
  std::atomic<bool> joined{false};
  std::thread signals([&, ready = started.get_future()]() mutable {
    mty::cluster::Worker* worker = ready.get();
    if (!worker) return;  // it did not start
    int signals_seen = 0;
    for (;;) {
      int sig = 0;
      if (sigwait(&set, &sig) != 0) continue;
      if (joined.load()) return;
      ++signals_seen;
      std::cerr << "mty worker: " << (signals_seen == 1 ? "draining" : "stopping now") << "\n";
      worker->Stop(/*hard=*/signals_seen > 1);
    }
  });
  auto worker = mty::cluster::Worker::Start(std::move(o));
  started.set_value(worker.ok() ? worker->get() : nullptr);
  if (!worker.ok()) {
    signals.join();
    return ClusterError(worker.status());
  }
  std::cerr << "mty worker: " << (*worker)->name() << " pulling from " << shown_url << "\n";
  (*worker)->Join();
  joined.store(true);
  pthread_kill(signals.native_handle(), SIGTERM);
  signals.join();
  std::cerr << "mty worker: " << (*worker)->name() << " stopped after " << (*worker)->jobs_done()
            << " job(s)\n";
  return 0;
}

// `--verify-key` is required where results are read.
int NeedVerifyKey(const ParsedCommand& f, const mty::ClusterOptions& co) {
  if (!co.verify_keys.empty()) return 0;
  return UsageError(
      "--verify-key FILE is required: results are accepted only when a worker key signed them",
      f.command);
}

int SubmitCommand(const ParsedCommand& f) {
  mty::ClusterOptions co;
  if (int rc = ClusterFlags(f, &co); rc != 0) return rc;
  if (!f.Has("detach"))
    if (int rc = NeedVerifyKey(f, co); rc != 0) return rc;
  std::chrono::milliseconds timeout(0);
  if (int rc = TimeoutFlag(f, &timeout); rc != 0) return rc;
  mty::Job job;
  if (int rc = ReadInput(f.operand, &job.program); rc != 0) return rc;
  job.file = DisplayName(f.operand);
  job.args = f.program_args;
  job.id = f.Last("id").value_or("");
  if (std::optional<std::string> path = f.Last("manifest")) {
    // Checked here (a malformed manifest exits 65 as with mty run) and sent as text.
    std::optional<mty::Policy> manifest;
    if (int rc = LoadManifestFile(*path, &manifest); rc != 0) return rc;
    auto text = mty::driver::ReadInputFile(*path, mty::kMaxManifestBytes);
    if (!text.ok()) return kExitNoInput;
    job.manifest = std::move(*text);
  }
  auto client = mty::Client::Connect(co);
  if (!client.ok()) return ClusterError(client.status());
  if (f.Has("by-hash")) {
    auto hash = (*client)->StoreProgram(job.program);
    if (!hash.ok()) return ClusterError(hash.status());
    job.program.clear();
    job.program_hash = *hash;
  }
  auto id = (*client)->Submit(std::move(job));
  if (!id.ok()) return ClusterError(id.status());
  if (f.Has("detach")) {
    std::cout << *id << "\n";
    return 0;
  }
  auto r = (*client)->Wait(*id, timeout);
  if (!r.ok()) return ClusterError(r.status());
  return PrintResult(*r);
}

int ResultCommand(const ParsedCommand& f) {
  mty::ClusterOptions co;
  if (int rc = ClusterFlags(f, &co); rc != 0) return rc;
  if (int rc = NeedVerifyKey(f, co); rc != 0) return rc;
  std::chrono::milliseconds timeout(0);
  if (int rc = TimeoutFlag(f, &timeout); rc != 0) return rc;
  auto client = mty::Client::Connect(co);
  if (!client.ok()) return ClusterError(client.status());
  std::optional<mty::JobResult> r;
  if (f.Has("wait")) {
    auto w = (*client)->Wait(f.operand, timeout);
    if (!w.ok()) return ClusterError(w.status());
    r = std::move(*w);
  } else {
    auto got = (*client)->Fetch(f.operand);
    if (!got.ok()) return ClusterError(got.status());
    if (!*got) {
      std::cerr << "error: no result for job " << f.operand << " (yet; --wait waits for it)\n";
      return kExitTempFail;
    }
    r = std::move(**got);
  }
  if (f.Has("json")) {
    std::cout << r->json << "\n";
    return 0;
  }
  return PrintResult(*r);
}

int Main(int argc, char** argv) {
  using mty::driver::Commands;
  using mty::driver::CommandSpec;
  std::vector<std::string> words(argv + 1, argv + argc);
  if (words.empty()) return UsageError("no command given");
  const std::string& first = words[0];
  if (first == "--help" || first == "-h") {
    std::cout << mty::driver::TopHelp(Commands());
    return 0;
  }
  if (first == "--version" || first == "-V") {
    std::cout << "mty " << mty::kVersion << "\n";
    return 0;
  }
  if (first == "help") {
    if (words.size() == 1) {
      std::cout << mty::driver::TopHelp(Commands());
      return 0;
    }
    if (const CommandSpec* c = mty::driver::FindCommand(Commands(), words[1])) {
      std::cout << mty::driver::CommandHelp(*c);
      return 0;
    }
    if (words[1] == "help") {
      std::cout << "usage: mty help [COMMAND]\n";
      return 0;
    }
    return UsageError(mty::driver::UnknownCommand(Commands(), words[1]));
  }
  const CommandSpec* spec = mty::driver::FindCommand(Commands(), first);
  if (!spec) {
    if (first.size() > 1 && first[0] == '-')
      return UsageError(absl::StrCat("'", first, "' before a command (options follow it: mty run ",
                                     first, " FILE)"));
    return UsageError(mty::driver::UnknownCommand(Commands(), first));
  }
  absl::StatusOr<ParsedCommand> cmd =
      mty::driver::ParseCommand(*spec, std::vector<std::string>(words.begin() + 1, words.end()));
  if (!cmd.ok()) return UsageError(std::string(cmd.status().message()), spec);
  if (cmd->help) {
    std::cout << mty::driver::CommandHelp(*spec);
    return 0;
  }
  json_errors = cmd->Last("error-format") == "json";
  color = UseColor(cmd->Last("color"));
  deny_warnings = cmd->Has("deny-warnings");
  const std::string& name = spec->name;
  if (name == "run") return RunCommand(*cmd);
  if (name == "repl") return ReplCommand(*cmd);
  if (name == "replay") return ReplayCommand(*cmd);
  if (name == "check") return CheckCommand(cmd->operand, cmd->Last("manifest").value_or(""));
  if (name == "caps") return CapsCommand(cmd->operand);
  if (name == "dump") return DumpCommand(*cmd);
  if (name == "worker") return WorkerCommand(*cmd);
  if (name == "submit") return SubmitCommand(*cmd);
  if (name == "result") return ResultCommand(*cmd);
  if (name == "completions") {
    if (cmd->operand == "bash")
      std::cout << mty::driver::BashCompletion(Commands());
    else if (cmd->operand == "zsh")
      std::cout << mty::driver::ZshCompletion(Commands());
    else
      return UsageError(absl::StrCat("no completions for '", cmd->operand, "': bash or zsh"), spec);
    return 0;
  }
  if (name == "man") {
    std::cout << mty::driver::ManPage(Commands(), mty::kVersion, mty::driver::ManTail());
    return 0;
  }
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  mty::driver::PrepareProcess();
  // What the host cannot allocate outside a run (reading the program,
  // printing the report) ends mty as the memory breach too, never with an
  // abort (runtime.md §2). Nothing here allocates.
  try {
    return mty::driver::FinishStdout(Main(argc, argv));
  } catch (const std::bad_alloc&) {
    static constexpr char kText[] =
        "mty: memory budget exceeded: real heap: the host could not allocate\n";
    (void)!write(STDERR_FILENO, kText, sizeof kText - 1);
    return mty::ir::Limit(mty::LimitId::kMemory).exit_code;
  }
}
