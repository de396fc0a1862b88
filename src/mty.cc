// The embedding API: a facade over ir (parse, verify) and interp (compile,
// run). The driver uses only this.
#include "mty/mty.h"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <functional>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "api_internal.h"
#include "mty/exit_codes.h"
#include "mty/frontend/lower.h"
#include "mty/frontend/parser.h"
#include "mty/interp/bytecode.h"
#include "mty/interp/heap.h"
#include "mty/interp/vm.h"
#include "mty/ir/builtins.h"
#include "mty/ir/text.h"
#include "mty/runtime/agents.h"
#include "mty/runtime/budget.h"
#include "mty/runtime/output.h"
#include "mty/runtime/watchdog.h"
#include "mty/stdlib/fs_cap.h"
#include "mty/stdlib/host.h"
#include "replay.h"

namespace mty {

struct Program::Impl {
  ir::Program ir;
  std::shared_ptr<const interp::Module> module;
  std::shared_ptr<const Linker::Table> host;  // the linker's snapshot (null: none)
};

Program::Program(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Program::~Program() = default;

namespace {

// A front-end diagnostic (its spans resolved) as the API's, its lines as
// `options.line_numbers` shows them (below).
Diagnostic PublicDiagnostic(const frontend::SourceFile& file, const frontend::Diagnostic& fd,
                            const CompileOptions& options);

// No std::bad_alloc leaves the API (runtime.md §2): compiling that cannot
// allocate is kResourceExhausted, the diagnostic MT0033.
template <typename F>
auto Guarded(std::string_view file_name, const CompileOptions& options, F&& f) -> decltype(f()) {
  // Compiling is bounded in real bytes too, by the ceiling a run with the
  // options' memory budget has (strict: every allocation past it is
  // refused; the front end is exception safe).
  interp::HeapAccount heap(interp::HeapCeilingFor(options.memory_budget), /*strict=*/true);
  {
    interp::HeapScope scope(&heap);
    try {
      return f();
    } catch (const std::bad_alloc&) {
    } catch (const std::length_error&) {
    }
  }
  // Outside the scope (what compiling held is freed): the diagnostic.
  frontend::Diagnostics diags;
  diags.Error("MT0033", frontend::Loc{},
              absl::StrCat("out of memory while compiling the program: ",
                           heap.over() ? interp::RealHeapBreach(heap).Message()
                                       : std::string("allocation too large")),
              options.memory_budget
                  ? "compiling is held to the real-heap ceiling of the run's memory budget (2 x "
                    "the budget + 16 MiB)"
                  : "compiling is held to the default real-heap ceiling (4 GiB or half the "
                    "machine's memory); a memory budget lowers it");
  const frontend::SourceFile file{std::string(file_name), ""};
  if (options.diagnostics)
    options.diagnostics->push_back(PublicDiagnostic(file, diags.list().back(), options));
  frontend::RenderOptions render;
  render.color = options.color;
  return absl::ResourceExhaustedError(diags.Render(file, render));
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Program>> Program::FromIrText(std::string_view text,
                                                                   std::string_view file_name) {
  return FromIrText(text, file_name, CompileOptions{});
}
absl::StatusOr<std::shared_ptr<const Program>> Program::FromSource(std::string_view text,
                                                                   std::string_view file_name) {
  return FromSource(text, file_name, CompileOptions{});
}
absl::StatusOr<std::shared_ptr<const Program>> Program::FromFile(std::string_view text,
                                                                 std::string_view file_name) {
  return FromFile(text, file_name, CompileOptions{});
}

absl::StatusOr<std::shared_ptr<const Program>> Program::FromIrText(std::string_view text,
                                                                   std::string_view file_name,
                                                                   const CompileOptions& options) {
  return Guarded(file_name, options, [&] { return FromIrTextUnguarded(text, file_name, options); });
}

absl::StatusOr<std::shared_ptr<const Program>> Program::FromSource(std::string_view text,
                                                                   std::string_view file_name,
                                                                   const CompileOptions& options) {
  return Guarded(file_name, options, [&] { return FromSourceUnguarded(text, file_name, options); });
}

absl::StatusOr<std::shared_ptr<const Program>> Program::FromFile(std::string_view text,
                                                                 std::string_view file_name,
                                                                 const CompileOptions& options) {
  if (file_name.size() >= 6 && file_name.substr(file_name.size() - 6) == ".mtyir")
    return FromIrText(text, file_name, options);
  return FromSource(text, file_name, options);
}

namespace {

// A located MtyIR error (`file:line:col: error: message`) as a diagnostic.
Diagnostic IrDiagnostic(std::string_view file, std::string_view text) {
  Diagnostic d;
  d.file = std::string(file);
  d.message = std::string(text);
  if (text.substr(0, file.size()) != file || text.size() <= file.size() || text[file.size()] != ':')
    return d;
  const char* p = text.data() + file.size() + 1;
  const char* end = text.data() + text.size();
  int line = 0, col = 0;
  auto [q, e1] = std::from_chars(p, end, line);
  if (e1 != std::errc() || q == end || *q != ':') return d;
  auto [r, e2] = std::from_chars(q + 1, end, col);
  if (e2 != std::errc() || r == end || *r != ':') return d;
  std::string_view msg(r + 1, static_cast<size_t>(end - r - 1));
  while (!msg.empty() && msg.front() == ' ') msg.remove_prefix(1);
  if (msg.substr(0, 6) == "error:") msg.remove_prefix(6);
  while (!msg.empty() && msg.front() == ' ') msg.remove_prefix(1);
  d.line = d.end_line = line;
  d.column = d.end_column = col;
  d.message = std::string(msg);
  return d;
}

std::shared_ptr<const Linker::Table> HostTable(const CompileOptions& o) {
  if (!o.linker) return nullptr;
  return o.linker->snapshot();
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Program>> Program::FromIrTextUnguarded(
    std::string_view text, std::string_view file_name, const CompileOptions& options) {
  auto fail = [&](const absl::Status& s) {
    if (options.diagnostics)
      options.diagnostics->push_back(IrDiagnostic(file_name, std::string(s.message())));
    return s;
  };
  if (options.rendered_warnings) options.rendered_warnings->clear();
  auto parsed = ir::ParseText(text, file_name);
  if (!parsed.ok()) return fail(parsed.status());
  std::shared_ptr<const Linker::Table> host = HostTable(options);
  auto module = interp::Compile(*parsed, file_name, host ? &host->decls : nullptr);
  if (!module.ok()) return fail(module.status());
  auto impl = std::make_unique<Impl>();
  impl->ir = std::move(*parsed);
  impl->module = std::move(*module);
  impl->host = std::move(host);
  return std::make_shared<const Program>(std::move(impl));
}

namespace {

int Int(uint32_t v) { return static_cast<int>(v); }

// A line as CompileOptions::line_numbers shows it.
uint32_t Shown(const CompileOptions& options, uint32_t line) {
  return frontend::ShownLineNumber(options.line_numbers, line);
}

// A front-end diagnostic (its spans resolved) as the API's.
Diagnostic PublicDiagnostic(const frontend::SourceFile& file, const frontend::Diagnostic& fd,
                            const CompileOptions& options) {
  Diagnostic d;
  d.severity = fd.severity == frontend::Severity::kWarning ? Diagnostic::Severity::kWarning
                                                           : Diagnostic::Severity::kError;
  d.code = fd.code;
  d.file = file.name;
  d.line = Int(Shown(options, fd.loc.line));
  d.column = Int(fd.loc.col);
  d.end_line = Int(Shown(options, fd.end.line));  // resolved (ResolveSpans)
  d.end_column = Int(fd.end.col);
  d.message = fd.message;
  d.label = fd.label;
  for (const frontend::Label& l : fd.labels)
    d.labels.push_back(DiagnosticLabel{Int(Shown(options, l.loc.line)), Int(l.loc.col),
                                       Int(Shown(options, l.end.line)), Int(l.end.col), l.message});
  if (!fd.help.empty()) d.notes.push_back(absl::StrCat("help: ", fd.help));
  if (!fd.note.empty()) d.notes.push_back(absl::StrCat("note: ", fd.note));
  return d;
}

// kInvalidArgument for a line number below 1 in CompileOptions::line_numbers.
absl::Status CheckLineNumbers(const CompileOptions& options) {
  for (size_t i = 0; i < options.line_numbers.size(); ++i)
    if (options.line_numbers[i] < 1)
      return absl::InvalidArgumentError(absl::StrCat("CompileOptions::line_numbers[", i, "] is ",
                                                     options.line_numbers[i],
                                                     ": line numbers start at 1"));
  return absl::OkStatus();
}

// Every location of a compiled program as CompileOptions::line_numbers
// shows it (what backtraces, events and Effects() report).
void ShowLines(const CompileOptions& options, ir::Program& p) {
  if (options.line_numbers.empty()) return;
  auto show = [&](ir::Loc& loc) { loc.line = Shown(options, loc.line); };
  for (ir::Function& f : p.functions) {
    show(f.loc);
    for (ir::Block& b : f.blocks) {
      for (ir::Statement& st : b.stmts) show(st.loc);
      show(b.term.loc);
    }
  }
  for (ir::Adt& a : p.adts) show(a.loc);
  for (ir::SandboxDecl& d : p.sandboxes) show(d.loc);
}

// Applies the options to a front end's diagnostics: --deny-warnings, the
// structured copies, and (no error) the rendered warnings. Returns the
// failure to report, or OK.
absl::Status FinishDiagnostics(const frontend::SourceFile& file, frontend::Diagnostics& diags,
                               const CompileOptions& options) {
  if (options.deny_warnings)
    diags.DenyWarnings("warnings are denied: this warning fails the compile");
  if (options.diagnostics) {
    diags.ResolveSpans(file);
    for (const frontend::Diagnostic& fd : diags.list())
      options.diagnostics->push_back(PublicDiagnostic(file, fd, options));
  }
  frontend::RenderOptions render;
  render.color = options.color;
  render.line_numbers = options.line_numbers;
  if (diags.HasErrors()) return absl::InvalidArgumentError(diags.Render(file, render));
  if (options.rendered_warnings)
    *options.rendered_warnings = diags.WarningCount() ? diags.Render(file, render) : "";
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Program>> Program::FromSourceUnguarded(
    std::string_view text, std::string_view file_name, const CompileOptions& options) {
  if (absl::Status s = CheckLineNumbers(options); !s.ok()) return s;
  frontend::SourceFile file{std::string(file_name), std::string(text)};
  frontend::Diagnostics diags;
  std::shared_ptr<const Linker::Table> host = HostTable(options);
  ir::Program p = frontend::CompileSource(file, diags, host ? &host->decls : nullptr);
  if (absl::Status s = FinishDiagnostics(file, diags, options); !s.ok()) return s;
  ShowLines(options, p);
  auto module = interp::Compile(p, file_name, host ? &host->decls : nullptr);
  if (!module.ok()) {
    if (options.diagnostics)
      options.diagnostics->push_back(
          IrDiagnostic(file_name, std::string(module.status().message())));
    return module.status();
  }
  auto impl = std::make_unique<Impl>();
  impl->ir = std::move(p);
  impl->module = std::move(*module);
  impl->host = std::move(host);
  return std::make_shared<const Program>(std::move(impl));
}

absl::StatusOr<std::string> Program::SourceAst(std::string_view text, std::string_view file_name) {
  return SourceAst(text, file_name, CompileOptions{});
}

absl::StatusOr<std::string> Program::SourceAst(std::string_view text, std::string_view file_name,
                                               const CompileOptions& options) {
  return Guarded(file_name, options, [&]() -> absl::StatusOr<std::string> {
    if (absl::Status s = CheckLineNumbers(options); !s.ok()) return s;
    frontend::SourceFile file{std::string(file_name), std::string(text)};
    frontend::Diagnostics diags;
    frontend::Module m = frontend::Parse(file, diags);
    if (absl::Status s = FinishDiagnostics(file, diags, options); !s.ok()) return s;
    return frontend::DumpAst(m);
  });
}

void InstallDefaultFsCaps(const Grants& grants) {
  const auto& read = grants.Get(GrantId::kFsRead);
  const auto& write = grants.Get(GrantId::kFsWrite);
  stdlib::InstallDefaultReadCap(read ? stdlib::FsCap::Rooted(*read) : stdlib::FsCap::None());
  stdlib::InstallDefaultWriteCap(write ? stdlib::FsCap::Rooted(*write) : stdlib::FsCap::None());
}

absl::StatusOr<int64_t> ParseSize(std::string_view text) { return ir::ParseSize(text); }
absl::StatusOr<int64_t> ParseDuration(std::string_view text) { return ir::ParseDuration(text); }

std::string Program::IrText() const { return ir::PrintText(impl_->ir); }

const std::string& Program::source_file() const { return impl_->ir.source; }

std::optional<std::string> Program::LocalType(std::string_view function,
                                              std::string_view local) const {
  const ir::Function* f = impl_->ir.FindFunction(function);
  if (!f) return std::nullopt;
  for (size_t i = f->locals.size(); i-- > 1;)  // [0] is the return slot
    if (f->locals[i].name == local) return ir::PrintType(f->locals[i].type);
  return std::nullopt;
}

namespace {

// The capability family an effect needs ("" for none: std.time,
// std.env.args, and effects no row of the builtin table names).
std::string EffectFamily(std::string_view path) {
  const ir::EffectInfo* e = ir::FindEffect(path);
  return e ? e->family : "";
}

}  // namespace

std::vector<Program::EffectUse> Program::Effects() const {
  std::vector<EffectUse> out;
  for (const ir::Function& f : impl_->ir.functions)
    for (const ir::Block& b : f.blocks)
      for (const ir::Statement& s : b.stmts) {
        if (s.kind != ir::Statement::Kind::kEffectInvoke) continue;
        std::string family = EffectFamily(s.path);
        // A host function: family `host`, its host family as the literal.
        const int host_fn = impl_->host ? ir::FindHostFn(&impl_->host->decls, s.path) : -1;
        if (host_fn >= 0) family = "host";
        if (family.empty()) continue;
        EffectUse u;
        u.family = family;
        u.effect = s.path;
        u.line = static_cast<int>(s.loc.line);
        u.col = static_cast<int>(s.loc.col);
        if (host_fn >= 0) {
          u.literal = impl_->host->decls[host_fn].family;
          out.push_back(std::move(u));
          continue;
        }
        // The path, URL or name is the first argument, or the second after
        // an explicit capability (`std.fs.read(fs, "p")`).
        size_t at = 0;
        if (s.args.size() > 1 && s.args[0].kind != ir::Operand::Kind::kConst &&
            s.args[0].place.local < f.locals.size()) {
          const std::string& t = f.locals[s.args[0].place.local].type.name;
          if (ir::FindCapType(t) || ir::RecvOfTypeName(t) == ir::Recv::kCap) at = 1;
        }
        if (at < s.args.size() && s.args[at].kind == ir::Operand::Kind::kConst &&
            s.args[at].constant.kind == ir::Constant::Kind::kStr)
          u.literal = s.args[at].constant.s;
        out.push_back(std::move(u));
      }
  std::stable_sort(out.begin(), out.end(), [](const EffectUse& a, const EffectUse& b) {
    return std::tie(a.line, a.col) < std::tie(b.line, b.col);
  });
  return out;
}

std::vector<std::string> Program::CheckAgainst(const Grants& grants) const {
  std::vector<std::string> findings;
  const std::string& file = impl_->module->source;
  for (const EffectUse& u : Effects()) {
    std::optional<ir::Key> key = ir::FindKey(u.family);
    if (!key || key->kind != ir::Key::Kind::kGrant) continue;
    const std::optional<std::vector<std::string>>& list = grants.Get(key->grant);
    std::string where = absl::StrCat(file, ":", u.line, ":", u.col, ": error: ");
    if (!list || list->empty()) {
      findings.push_back(absl::StrCat(where, u.effect, " needs ", u.family,
                                      ", which the manifest does not grant"));
      continue;
    }
    if (u.literal.empty()) continue;
    // The request exactly as the run checks it: a URL's `host:port` as
    // libcurl parses it; paths and names as written.
    std::string what = u.literal;
    if (key->grant == GrantId::kNet) {
      absl::StatusOr<std::string> host_port = stdlib::UrlHostPort(u.literal);
      if (!host_port.ok()) continue;  // the run returns Err for it, not a denial
      what = *host_port;
    }
    if (!ir::ListAllows(key->grant, *list, what))
      findings.push_back(absl::StrCat(where, u.effect, "(\"", u.literal, "\"): ", what,
                                      " is outside the manifest's ", u.family, " list"));
  }
  return findings;
}
std::string Program::Disassembly() const { return interp::Disassemble(*impl_->module); }

namespace {

// Where a run's stdout and stderr go: the options' callbacks, else the
// options' file descriptors, written so that a stream nobody drains never
// holds the run past its wall deadline or an interrupt (runtime/output.h).
// The first write a descriptor refuses (a full disk, EFBIG, EPIPE, EIO,
// EBADF) stops the run; Run() then ends it with ir::OutputTrap.
class CallbackHost : public interp::Host {
 public:
  struct Failure {
    const char* stream;  // "stdout", "stderr"
    int err;             // errno
  };
  explicit CallbackHost(const RunOptions& o) : o_(o) {
    if (!o.on_stdout && o.stdout_fd >= 0) out_.emplace(o.stdout_fd, true);
    if (!o.on_stderr && o.stderr_fd >= 0) err_.emplace(o.stderr_fd, false);
  }
  // The root tracker (its wall deadline), the run's interrupt flag, and
  // what stops the run at a failed write.
  void Bind(const runtime::BudgetTracker* root, const std::atomic<bool>* cancel,
            std::function<void()> stop) {
    root_ = root;
    cancel_ = cancel;
    stop_ = std::move(stop);
  }
  void Stdout(std::string_view s) override {
    if (o_.on_stdout) {
      o_.on_stdout(s);
    } else if (out_) {
      if (err_) Check(*err_, err_->Flush(Deadline(), cancel_));
      Check(*out_, out_->Write(s, Deadline(), cancel_));
    }
  }
  void Stderr(std::string_view s) override {
    if (o_.on_stderr) {
      o_.on_stderr(s);
    } else if (err_) {
      if (out_) Check(*out_, out_->Flush(Deadline(), cancel_));  // keep the two streams in order
      Check(*err_, err_->Write(s, Deadline(), cancel_));
    }
  }
  // Writes what is buffered at the end of the run; kDeadline when the wall
  // deadline passed first. After an interrupt it still tries, for 100 ms.
  runtime::WriteEnd Flush() {
    runtime::WriteEnd e = runtime::WriteEnd::kDone;
    std::optional<int64_t> deadline = Deadline();
    const std::atomic<bool>* cancel = cancel_;
    if (cancel_ && cancel_->load()) {
      int64_t grace = runtime::SteadyNowNs() + 100'000'000;
      deadline = deadline ? std::min(*deadline, grace) : grace;
      cancel = nullptr;
    }
    for (std::optional<runtime::FdStream>* st : {&out_, &err_}) {
      if (!*st) continue;
      Check(**st, (*st)->Flush(deadline, cancel));
      if ((*st)->ended() == runtime::WriteEnd::kDeadline) e = runtime::WriteEnd::kDeadline;
    }
    return e;
  }
  // The first write a descriptor refused, if any.
  const std::optional<Failure>& failure() const { return failure_; }

 private:
  void Check(const runtime::FdStream& st, runtime::WriteEnd e) {
    if (e != runtime::WriteEnd::kError || failure_) return;
    failure_ = Failure{out_ && &st == &*out_ ? "stdout" : "stderr", st.error()};
    if (stop_) stop_();
  }
  std::optional<int64_t> Deadline() const { return root_ ? root_->WallDeadlineNs() : std::nullopt; }
  const RunOptions& o_;
  std::optional<runtime::FdStream> out_, err_;
  const runtime::BudgetTracker* root_ = nullptr;
  const std::atomic<bool>* cancel_ = nullptr;
  std::function<void()> stop_;
  std::optional<Failure> failure_;
};

std::string Where(const std::string& file, const interp::BacktraceFrame& f) {
  // Library functions of the Mighty prelude have no user source location.
  if (f.function.rfind("__mty_", 0) == 0) return absl::StrCat(f.function, " (prelude)");
  // The std collections (frontend/src/lower_std.cc) have none either.
  if (f.loc.line == 0) return absl::StrCat(f.function, " (std)");
  return absl::StrCat(f.function, " (", file, ":", f.loc.line, ":", f.loc.col, ")");
}

// The event of an effect call or denial (stdlib::EffectCall, stdlib::Denial).
template <typename Call>
Event EffectEvent(Event::Kind kind, const Call& c) {
  Event e;
  e.kind = kind;
  e.effect = std::string(c.effect);
  e.family = std::string(c.family);
  e.target = std::string(c.target);
  e.line = static_cast<int>(c.loc.line);
  e.column = static_cast<int>(c.loc.col);
  e.sandbox = std::string(c.sandbox);
  return e;
}

stdlib::HostOptions MakeHostOptions(const RunOptions& o, const std::atomic<bool>* cancel,
                                    stdlib::HostFnDispatch* host_fns) {
  stdlib::HostOptions h;
  h.cancel = cancel;
  h.args = o.args;
  h.deny_is_trap = o.deny_is_trap;
  h.trace = o.on_trace;
  h.host_fns = host_fns;
  if (o.on_event && (o.event_kinds & RunOptions::EventBit(Event::Kind::kDenied)))
    h.on_denied = [cb = o.on_event](const stdlib::Denial& d) {
      cb(EffectEvent(Event::Kind::kDenied, d));
    };
  if (o.on_event && (o.event_kinds & RunOptions::EventBit(Event::Kind::kEffect)))
    h.on_effect = [cb = o.on_event](const stdlib::EffectCall& c) {
      Event e = EffectEvent(Event::Kind::kEffect, c);
      e.allowed = c.allowed;
      cb(e);
    };
  return h;
}

runtime::AgentOptions MakeAgentOptions(const RunOptions& o, runtime::SchedulerClock* clock) {
  runtime::AgentOptions a;
  a.clock = clock;
  constexpr uint32_t kSandboxKinds = RunOptions::EventBit(Event::Kind::kSandboxEntered) |
                                     RunOptions::EventBit(Event::Kind::kSandboxLeft) |
                                     RunOptions::EventBit(Event::Kind::kSandboxBreach);
  constexpr uint32_t kAgentKinds = RunOptions::EventBit(Event::Kind::kSpawned) |
                                   RunOptions::EventBit(Event::Kind::kAgentFailed) |
                                   RunOptions::EventBit(Event::Kind::kRestarted) |
                                   RunOptions::EventBit(Event::Kind::kEscalated);
  if (o.on_event && (o.event_kinds & kSandboxKinds))
    a.on_sandbox = [cb = o.on_event, kinds = o.event_kinds](const runtime::SandboxEvent& se) {
      Event e;
      switch (se.change) {
        case interp::Host::SandboxChange::kEntered: e.kind = Event::Kind::kSandboxEntered; break;
        case interp::Host::SandboxChange::kLeft: e.kind = Event::Kind::kSandboxLeft; break;
        case interp::Host::SandboxChange::kBreached: e.kind = Event::Kind::kSandboxBreach; break;
      }
      if (!(kinds & RunOptions::EventBit(e.kind))) return;
      e.sandbox = se.sandbox;
      e.line = static_cast<int>(se.loc.line);
      e.column = static_cast<int>(se.loc.col);
      if (se.breach) {
        e.code = se.breach->Code();
        e.message = se.breach->Message();
        e.limit = se.breach->Key();
      }
      cb(e);
    };
  if (o.on_event && (o.event_kinds & kAgentKinds))
    a.on_event = [cb = o.on_event, kinds = o.event_kinds](const runtime::AgentEvent& ae) {
      Event e;
      switch (ae.kind) {
        case runtime::AgentEvent::Kind::kSpawned: e.kind = Event::Kind::kSpawned; break;
        case runtime::AgentEvent::Kind::kFailed: e.kind = Event::Kind::kAgentFailed; break;
        case runtime::AgentEvent::Kind::kRestarted: e.kind = Event::Kind::kRestarted; break;
        case runtime::AgentEvent::Kind::kEscalated: e.kind = Event::Kind::kEscalated; break;
      }
      if (!(kinds & RunOptions::EventBit(e.kind))) return;
      e.agent = ae.agent;
      e.code = ae.code;
      e.message = ae.message;
      cb(e);
    };
  return a;
}

// The run's root tracker: the options' policy, with what a root means for
// unset entries (docs/sandboxing.md): an unset net or env list allows
// nothing (an unset fs list falls back to the default caps), an unset depth
// is the default 10000 frames.
std::shared_ptr<runtime::BudgetTracker> RootTracker(const Policy& p,
                                                    const std::optional<Policy>& outer) {
  Policy root = p;
  for (const ir::GrantInfo& g : ir::kGrants)
    if (g.entry != ir::EntryKind::kPath && !root.grants.Get(g.id))
      root.grants.Set(g.id, std::vector<std::string>{});
  if (!root.limits.Get(LimitId::kDepth)) root.limits.Set(LimitId::kDepth, ir::kDefaultDepth);
  // Its fs lists are resolved now, by the host (a granted root that is a
  // symlink is followed once, here); each sandbox's beneath them. Under an
  // outer policy (a worker's grant around a job's manifest), the outer
  // lists are the host's and the run's are resolved beneath them.
  if (!outer)
    return std::make_shared<runtime::BudgetTracker>(std::move(root), "", nullptr,
                                                    stdlib::HostFsGrants());
  auto host = std::make_shared<runtime::BudgetTracker>(*outer, "", nullptr, stdlib::HostFsGrants());
  return runtime::BudgetTracker::Child(std::move(host), std::move(root));
}

}  // namespace

struct Runner::State {
  std::atomic<bool> interrupted{false};  // Runner::Interrupt
  bool ran = false;                      // a Runner runs once
  // Real bytes: counted while Run() runs (mty/interp/heap.h).
  interp::HeapAccount heap;
  std::shared_ptr<const Program> program;
  RunOptions options;
  CallbackHost out;
  // The embedder's host functions (outlives the scheduler: late
  // completions are built through it).
  internal::RunHostFns host_fns;
  stdlib::StdHost host;
  // Record or replay (null otherwise): between the scheduler and `host`.
  std::unique_ptr<internal::RunTap> tap;
  std::shared_ptr<runtime::BudgetTracker> root;
  runtime::Scheduler scheduler;  // main and the agents (wall/CPU: the shared watchdog)
  State(std::shared_ptr<const Program> p, RunOptions o)
      : heap(o.heap_ceiling ? o.heap_ceiling
                            : interp::HeapCeilingFor(o.policy.limits.Get(LimitId::kMemory))),
        program(std::move(p)),
        options(std::move(o)),
        out(options),
        host_fns(program->impl_->host, program->impl_->module, &out, &interrupted),
        host(&out, MakeHostOptions(options, &interrupted, &host_fns)),
        tap(MakeTap()),
        root(RootTracker(options.policy, options.outer_policy)),
        scheduler(program->impl_->module, MakeAgentOptions(options, tap.get()), root,
                  tap ? static_cast<interp::Host*>(tap.get()) : &host,
                  &runtime::Watchdog::Shared()) {
    out.Bind(root.get(), &interrupted, [this] { scheduler.Interrupt(); });
    if (tap) tap->Bind(root.get(), [this] { scheduler.Interrupt(); });
  }
  std::unique_ptr<internal::RunTap> MakeTap() {
    if (!options.record && !options.replay) return nullptr;
    std::string hash = internal::ProgramHash(program->IrText());
    Recording::Impl* rec = nullptr;
    if (options.record && !options.replay) {
      rec = &options.record->impl();
      *rec = Recording::Impl();
      rec->program_hash = hash;
      rec->file = program->source_file();
      rec->entry = options.entry;
      rec->args = options.args;
      rec->params = options.params;
      rec->policy = options.policy;
    }
    return std::make_unique<internal::RunTap>(&host, program->impl_->module, std::move(hash), rec,
                                              options.replay ? &options.replay->impl() : nullptr);
  }
};

namespace {

// A replay runs as its recording's run did.
RunOptions ReplayOptions(RunOptions o) {
  if (o.replay && !o.record) {
    o.policy = o.replay->policy();
    o.entry = o.replay->entry();
    o.args = o.replay->args();
    o.params = o.replay->params();
  }
  return o;
}

}  // namespace

// A null program leaves the Runner without state: its Run() is kInvalid.
Runner::Runner(std::shared_ptr<const Program> program, RunOptions options)
    : state_(program
                 ? std::make_unique<State>(std::move(program), ReplayOptions(std::move(options)))
                 : nullptr) {}
Runner::~Runner() = default;

void Runner::Interrupt() {
  if (!state_) return;
  state_->interrupted.store(true);
  state_->scheduler.Interrupt();
}

namespace {

constexpr const char* kCancelledMessage = "run cancelled by the host";

int64_t ThreadCpuNs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

RunResult Invalid(const absl::Status& s) {
  RunResult r;
  r.outcome = Outcome::kInvalid;
  r.message = std::string(s.message());
  r.exit_code = ExitCode(Exit::kUsage);
  return r;
}

// ---- The entry's result at the boundary (docs/embedding.md) ----

// How much of a value an error message shows.
constexpr size_t kShownBytes = 200;

// The value the entry returned, as r.returned: copied out bounded in size
// (its estimate against the memory limit, else internal::kMaxCrossingBytes)
// and depth (internal::kMaxValueDepth), and checked against the entry's
// declared result type by internal::GuestFits, as its parameters are.
// False, with r the failure, when it cannot be returned: a copy too large
// (a shared structure is small in the guest and exponential as a tree) is a
// memory breach whose subject is ir::kReturnedValueSubject; a value nested
// too deep or of another type than declared is trap MT5016.
bool TakeReturned(const interp::Module& m, const ir::Function* entry, const RunOptions& options,
                  const interp::Value& v, RunResult& r) {
  const uint64_t cap =
      options.policy.limits.Get(LimitId::kMemory).value_or(internal::kMaxCrossingBytes);
  if (interp::Estimate(v) > cap) {
    ir::Breach b =
        ir::Breach::Over(LimitId::kMemory, interp::Estimate(v), cap, ir::kReturnedValueSubject);
    r.outcome = Outcome::kBreach;
    r.code = b.Code();
    r.message = b.Message();
    r.exit_code = b.ExitCode();
    r.breach = std::move(b);
    return false;
  }
  absl::StatusOr<Value> copy = internal::FromGuest(m, v, cap);
  std::string failure;
  if (!copy.ok()) {
    failure = absl::StrCat("fn ", options.entry, " returned a ", copy.status().message());
  } else if (entry && !entry->locals.empty() && !internal::GuestFits(m, v, entry->locals[0].type)) {
    failure = absl::StrCat("fn ", options.entry, " returned ", interp::Debug(m, v, kShownBytes),
                           ", which is not ", ir::PrintType(entry->locals[0].type),
                           " (its declared result type)");
  }
  if (!failure.empty()) {
    r.outcome = Outcome::kTrap;
    r.code = TrapCode::kType;
    r.message = std::move(failure);
    r.exit_code = ir::Trap(r.code).exit_code;
    return false;
  }
  r.returned = std::move(*copy);
  return true;
}

// The usage figures of a breach of steps or memory are the breach's own
// (the breached tracker's, sandboxes included): the count that went over,
// the step or bytes that breached included, and its bound. The one place
// that decides them after the run's root tracker filled them in.
void UsageOfBreach(RunResult& r) {
  if (r.outcome != Outcome::kBreach || !r.breach || !r.breach->limit) return;
  if (*r.breach->limit == LimitId::kSteps) r.steps_used = r.breach->observed;
  if (*r.breach->limit == LimitId::kMemory) {
    r.mem_used = r.breach->observed;
    r.mem_limit = r.breach->bound;
  }
}

}  // namespace

RunResult Runner::Run() {
  if (!state_) return Invalid(absl::InvalidArgumentError("program: null (no compiled Program)"));
  if (state_->ran)
    return Invalid(absl::FailedPreconditionError("a Runner runs once; make a new one"));
  state_->ran = true;
  if (absl::Status s = state_->options.Validate(); !s.ok()) return Invalid(s);
  if (state_->interrupted.load()) {  // interrupted before it started
    RunResult r;
    r.outcome = Outcome::kCancelled;
    r.message = kCancelledMessage;
    r.exit_code = ExitCode(Exit::kFailed);
    return r;
  }
  const int64_t wall0 = runtime::SteadyNowNs();
  const int64_t cpu0 = ThreadCpuNs();
  RunResult r;
  {
    interp::HeapScope scope(&state_->heap);
    try {
      r = RunUnguarded();
    } catch (const std::bad_alloc&) {
      r = OutOfMemory();
    } catch (const std::length_error&) {
      r = OutOfMemory();
    }
  }
  r.heap_peak = state_->heap.peak();
  r.wall_ns = static_cast<uint64_t>(std::max<int64_t>(0, runtime::SteadyNowNs() - wall0));
  r.cpu_ns = static_cast<uint64_t>(std::max<int64_t>(0, ThreadCpuNs() - cpu0));
  // Past the ceiling with no safepoint after it: still the breach.
  if (state_->heap.over() && (r.outcome == Outcome::kOk || r.outcome == Outcome::kMainErr ||
                              (r.outcome == Outcome::kTrap && r.code == TrapCode::kBudget))) {
    ir::Breach b = interp::RealHeapBreach(state_->heap);
    r.outcome = Outcome::kBreach;
    r.code = b.Code();
    r.message = b.Message();
    r.exit_code = b.ExitCode();
    r.breach = std::move(b);
  }
  UsageOfBreach(r);
  // Output that could not be written never ends as a success (runtime.md,
  // "Output that cannot be written"): the first refused write stopped the
  // run, or the final flush was refused.
  if (const std::optional<CallbackHost::Failure>& f = state_->out.failure();
      f && (r.outcome == Outcome::kOk || r.outcome == Outcome::kMainErr ||
            r.outcome == Outcome::kCancelled)) {
    r.outcome = Outcome::kTrap;
    r.code = ir::OutputTrap(f->err);
    r.message = absl::StrCat("cannot write ", f->stream, ": ", std::strerror(f->err));
    r.exit_code = ir::Trap(r.code).exit_code;
    r.value.clear();
    r.returned.reset();
  }
  if (state_->tap) state_->tap->End(r);
  return r;
}

// An allocation outside the loop failed (the loop's own are traps already).
RunResult Runner::OutOfMemory() {
  RunResult r;
  r.outcome = Outcome::kTrap;
  r.code = TrapCode::kBudget;
  r.message = "out of memory: the host could not allocate";
  r.exit_code = ir::Trap(r.code).exit_code;
  return r;
}

RunResult Runner::RunUnguarded() {
  RunResult r;
  const interp::Module& m = *state_->program->impl_->module;
  int entry = m.FindFunction(state_->options.entry);
  if (entry < 0) {
    r.outcome = Outcome::kNoEntry;
    r.message = absl::StrCat("program has no fn ", state_->options.entry);
    r.exit_code = ExitCode(Exit::kNoMain);
    return r;
  }
  // `fn main(fs: Fs, net: Net, env: Env)` receives the run's capabilities as
  // values (the full grant of each family; `fs.ro(p)` etc. narrow them);
  // every other parameter takes the next of options.params, checked
  // against its declared type.
  std::vector<interp::Value> main_args;
  const std::vector<Value>& params = state_->options.params;
  size_t next = 0;
  if (const ir::Function* f = state_->program->impl_->ir.FindFunction(state_->options.entry)) {
    for (uint32_t i = 1; i <= f->num_params && i < f->locals.size(); ++i) {
      const ir::Type& type = f->locals[i].type;
      const std::string& tn = type.name;
      const ir::CapInfo* cap = ir::FindCapType(tn);
      if (cap && *cap->family) {
        auto* c = new interp::CapObj();
        c->family = cap->family;
        main_args.push_back(interp::Value::Heap(c));
        continue;
      }
      const std::string field = absl::StrCat("params[", next, "]");
      if (params.empty()) {
        // A program whose entry wants values no host gave (`mty run`).
        r.outcome = Outcome::kTrap;
        r.code = TrapCode::kType;
        r.message = absl::StrCat("fn ", state_->options.entry,
                                 " can only take capabilities (Fs, Net, Env); parameter ", i,
                                 " is ", ir::PrintType(type));
        r.exit_code = ir::Trap(r.code).exit_code;
        return r;
      }
      if (next >= params.size())
        return Invalid(absl::InvalidArgumentError(
            absl::StrCat(field, ": fn ", state_->options.entry, " takes parameter ", i, " (",
                         ir::PrintType(type), "); ", params.size(), " given")));
      absl::StatusOr<interp::Value> v = internal::ToGuest(m, params[next]);
      if (v.ok() && !internal::GuestFits(m, *v, type))
        v = absl::InvalidArgumentError(absl::StrCat("fn ", state_->options.entry, " parameter ", i,
                                                    " is ", ir::PrintType(type), ", given ",
                                                    interp::Debug(m, *v, kShownBytes)));
      if (!v.ok())
        return Invalid(absl::InvalidArgumentError(absl::StrCat(field, ": ", v.status().message())));
      main_args.push_back(std::move(*v));
      ++next;
    }
  }
  if (next < params.size())
    return Invalid(absl::InvalidArgumentError(absl::StrCat("params: fn ", state_->options.entry,
                                                           " takes ", next, " value parameter(s), ",
                                                           params.size(), " given")));
  std::string err;
  interp::ExecOutcome o = state_->scheduler.Run(entry, std::move(main_args), &err);
  state_->out.Flush();
  const runtime::BudgetTracker& root = *state_->root;
  // A run whose wall deadline passed never ends as a success (runtime.md
  // §2): a host call or an output write that ran past it without a
  // safepoint after it is the wall breach.
  if (err.empty() && (o.kind == Outcome::kOk || o.kind == Outcome::kMainErr)) {
    if (std::optional<ir::Breach> b = root.Exhausted(LimitId::kWall)) {
      o.kind = Outcome::kBreach;
      o.code = b->Code();
      o.message = b->Message();
      o.breach = std::move(b);
    }
  }
  r.steps_used = root.Used(ir::LimitId::kSteps);
  r.mem_used = root.Used(ir::LimitId::kMemory);
  r.mem_limit = root.policy().limits.Get(LimitId::kMemory).value_or(0);
  r.output_bytes = root.Used(ir::LimitId::kOutput);
  r.agents_spawned = state_->scheduler.agents_spawned();
  if (!err.empty()) {
    r.outcome = Outcome::kTrap;
    r.code = TrapCode::kType;
    r.message = err;
    r.exit_code = ir::Trap(r.code).exit_code;
    return r;
  }
  r.code = o.code;
  r.message = o.message;
  for (const auto& f : o.backtrace) r.backtrace.push_back(Where(m.source, f));
  switch (o.kind) {
    case Outcome::kOk: {
      r.outcome = Outcome::kOk;
      if (!TakeReturned(m, state_->program->impl_->ir.FindFunction(state_->options.entry),
                        state_->options, o.value, r))
        break;  // r is the trap or breach
      r.value = interp::Debug(m, o.value);
      const interp::Value& v = o.value;
      if (v.Is(interp::Tag::kInt)) {
        r.exit_code = static_cast<int>(std::clamp<int64_t>(v.i(), 0, 255));
      } else if (v.Is(interp::Tag::kAdt)) {
        auto* a = static_cast<interp::AdtObj*>(v.h());
        if (a->adt == interp::kAdtResult && a->variant == ir::prelude::kErr) {
          r.outcome = Outcome::kMainErr;
          r.code = TrapCode::kMainErr;
          r.message = absl::StrCat("main returned Err(", interp::Debug(m, a->fields[0]), ")");
          r.exit_code = ir::Trap(r.code).exit_code;
        }
      }
      break;
    }
    case Outcome::kBreach:
      r.outcome = Outcome::kBreach;
      r.breach = o.breach;
      if (r.breach) r.exit_code = r.breach->ExitCode();
      break;
    case Outcome::kCancelled:
      r.outcome = Outcome::kCancelled;
      r.code = TrapCode::kNone;
      r.message = kCancelledMessage;
      r.exit_code = ExitCode(Exit::kFailed);
      break;
    case Outcome::kTrap:
    case Outcome::kEscalated:
      r.outcome = o.kind;
      r.exit_code = ir::Trap(o.code).exit_code;
      break;
    case Outcome::kMainErr:
    case Outcome::kNoEntry:
    case Outcome::kInvalid:
    case Outcome::kSuspended:
    case Outcome::kPreempted:
    case Outcome::kDeadlinePassed:
      // Never how the scheduler's main ends.
      r.outcome = Outcome::kTrap;
      r.code = TrapCode::kType;
      r.message = absl::StrCat("internal: main ended as ", ir::OutcomeName(o.kind));
      r.exit_code = ExitCode(Exit::kFailed);
      break;
  }
  return r;
}

bool WriteOutput(int fd, std::string_view data, std::chrono::nanoseconds max_wait) {
  runtime::WriteEnd e =
      runtime::WriteBefore(fd, data, runtime::SteadyNowNs() + max_wait.count(), nullptr);
  if (e == runtime::WriteEnd::kDeadline) errno = ETIMEDOUT;
  return e == runtime::WriteEnd::kDone;
}

namespace {

// The policy table's own checks (one home: manifests and flags use them).
absl::Status ValidatePolicy(const Policy& policy, const std::string& field) {
  for (const ir::LimitInfo& l : ir::kLimits)
    if (std::optional<uint64_t> v = policy.limits.Get(l.id))
      if (absl::Status s = ir::CheckLimitValue(l.id, *v); !s.ok())
        return absl::InvalidArgumentError(
            absl::StrCat(field, ".limits[", l.key, "]: ", s.message()));
  if (policy.limits.mb_policy &&
      static_cast<uint8_t>(*policy.limits.mb_policy) > static_cast<uint8_t>(MailboxPolicy::kFail))
    return absl::InvalidArgumentError(
        absl::StrCat(field, ".limits.mb_policy: not one of ", ir::ChoiceList(ir::kMbPolicyChoice)));
  for (const ir::GrantInfo& g : ir::kGrants)
    if (const auto& list = policy.grants.Get(g.id))
      for (size_t i = 0; i < list->size(); ++i)
        if (absl::Status s = ir::CheckGrantEntry(g.id, (*list)[i]); !s.ok())
          return absl::InvalidArgumentError(
              absl::StrCat(field, ".grants[", g.key, "][", i, "]: ", s.message()));
  return absl::OkStatus();
}

}  // namespace

absl::Status RunOptions::Validate() const {
  if (absl::Status s = ValidatePolicy(policy, "policy"); !s.ok()) return s;
  if (outer_policy)
    if (absl::Status s = ValidatePolicy(*outer_policy, "outer_policy"); !s.ok()) return s;
  if (entry.empty()) return absl::InvalidArgumentError("entry: empty function name");
  if (stdout_fd < -1) return absl::InvalidArgumentError("stdout_fd: not a file descriptor or -1");
  if (stderr_fd < -1) return absl::InvalidArgumentError("stderr_fd: not a file descriptor or -1");
  if (on_stdout && stdout_fd >= 0)
    return absl::InvalidArgumentError("stdout_fd: set together with on_stdout (choose one)");
  if (on_stderr && stderr_fd >= 0)
    return absl::InvalidArgumentError("stderr_fd: set together with on_stderr (choose one)");
  if (record && replay)
    return absl::InvalidArgumentError("record: set together with replay (choose one)");
  return absl::OkStatus();
}

RunResult Program::Run(std::string_view entry, std::vector<Value> params,
                       RunOptions options) const {
  options.entry = std::string(entry);
  options.params = std::move(params);
  return Run(options);
}

const std::string& RunResult::sandbox() const {
  static const std::string kNone;
  return breach ? breach->sandbox : kNone;
}

RunResult Program::Run(const RunOptions& options) const {
  // The Program is owned by a shared_ptr (FromIrText); a non-owning alias
  // keeps this call free of ownership assumptions.
  std::shared_ptr<const Program> self(std::shared_ptr<const Program>(), this);
  Runner runner(self, options);
  return runner.Run();
}

std::string RunResult::Report() const {
  switch (outcome) {
    case Outcome::kOk: return "";
    case Outcome::kMainErr: return absl::StrCat("error ", TrapText(code), ": ", message, "\n");
    case Outcome::kNoEntry:
    case Outcome::kInvalid: return absl::StrCat("error: ", message, "\n");
    default: {
      std::string s = outcome == Outcome::kCancelled
                          ? absl::StrCat("error: ", message, "\n")
                          : absl::StrCat("trap ", TrapText(code), ": ", message, "\n");
      // Deep recursion: show the innermost and outermost frames only.
      constexpr size_t kHead = 32, kTail = 16;
      for (size_t i = 0; i < backtrace.size(); ++i) {
        if (backtrace.size() > 64 && i == kHead) {
          absl::StrAppend(&s, "  ... ", backtrace.size() - kHead - kTail, " more frames\n");
          i = backtrace.size() - kTail - 1;
          continue;
        }
        absl::StrAppend(&s, "  at ", backtrace[i], "\n");
      }
      return s;
    }
  }
}

absl::Status RunResult::ToStatus() const {
  switch (outcome) {
    case Outcome::kOk: return absl::OkStatus();
    case Outcome::kBreach:
      if (breach) return breach->ToStatus();
      break;
    case Outcome::kCancelled: return absl::CancelledError(message);
    case Outcome::kNoEntry: return absl::NotFoundError(message);
    case Outcome::kInvalid: return absl::InvalidArgumentError(message);
    default: break;
  }
  return absl::Status(ir::Trap(code).status, absl::StrCat(TrapText(code), ": ", message));
}

}  // namespace mty
