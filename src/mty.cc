// The embedding API: a facade over ir (parse, verify) and interp (compile,
// run). The driver uses only this.
#include "mty/mty.h"

#include <algorithm>
#include <atomic>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
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

namespace mty {

struct Program::Impl {
  ir::Program ir;
  std::shared_ptr<const interp::Module> module;
};

Program::Program(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Program::~Program() = default;

namespace {

// No std::bad_alloc leaves the API (runtime.md §2): compiling that cannot
// allocate is kResourceExhausted.
template <typename F>
auto Guarded(F&& f) -> decltype(f()) {
  // Compiling is bounded in real bytes too (strict: every allocation past
  // the ceiling is refused; the front end is exception safe).
  interp::HeapAccount heap(interp::DefaultHeapCeiling(), /*strict=*/true);
  interp::HeapScope scope(&heap);
  try {
    return f();
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError("out of memory while compiling the program");
  } catch (const std::length_error&) {
    return absl::ResourceExhaustedError("out of memory while compiling the program");
  }
}

}  // namespace

absl::StatusOr<std::shared_ptr<const Program>> Program::FromIrText(std::string_view text,
                                                                   std::string_view file_name) {
  return Guarded([&] { return FromIrTextUnguarded(text, file_name); });
}

absl::StatusOr<std::shared_ptr<const Program>> Program::FromSource(std::string_view text,
                                                                   std::string_view file_name) {
  return Guarded([&] { return FromSourceUnguarded(text, file_name); });
}

absl::StatusOr<std::shared_ptr<const Program>> Program::FromIrTextUnguarded(
    std::string_view text, std::string_view file_name) {
  auto parsed = ir::ParseText(text, file_name);
  if (!parsed.ok()) return parsed.status();
  auto module = interp::Compile(*parsed, file_name);
  if (!module.ok()) return module.status();
  auto impl = std::make_unique<Impl>();
  impl->ir = std::move(*parsed);
  impl->module = std::move(*module);
  return std::make_shared<const Program>(std::move(impl));
}

absl::StatusOr<std::shared_ptr<const Program>> Program::FromSourceUnguarded(
    std::string_view text, std::string_view file_name) {
  frontend::SourceFile file{std::string(file_name), std::string(text)};
  frontend::Diagnostics diags;
  ir::Program p = frontend::CompileSource(file, diags);
  if (diags.HasErrors()) return absl::InvalidArgumentError(diags.Render(file));
  auto module = interp::Compile(p, file_name);
  if (!module.ok()) return module.status();
  auto impl = std::make_unique<Impl>();
  impl->ir = std::move(p);
  impl->module = std::move(*module);
  return std::make_shared<const Program>(std::move(impl));
}

absl::StatusOr<std::shared_ptr<const Program>> Program::FromFile(std::string_view text,
                                                                 std::string_view file_name) {
  if (file_name.size() >= 6 && file_name.substr(file_name.size() - 6) == ".mtyir")
    return FromIrText(text, file_name);
  return FromSource(text, file_name);
}

absl::StatusOr<std::string> Program::SourceAst(std::string_view text, std::string_view file_name) {
  return Guarded([&]() -> absl::StatusOr<std::string> {
    frontend::SourceFile file{std::string(file_name), std::string(text)};
    frontend::Diagnostics diags;
    frontend::Module m = frontend::Parse(file, diags);
    if (diags.HasErrors()) return absl::InvalidArgumentError(diags.Render(file));
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
        if (family.empty()) continue;
        EffectUse u;
        u.family = family;
        u.effect = s.path;
        u.line = static_cast<int>(s.loc.line);
        u.col = static_cast<int>(s.loc.col);
        // The path, URL or name is the first argument, or the second after
        // an explicit capability (`std.fs.read(fs, "p")`).
        size_t at = 0;
        if (s.args.size() > 1 && s.args[0].kind != ir::Operand::Kind::kConst &&
            s.args[0].place.local < f.locals.size()) {
          const std::string& t = f.locals[s.args[0].place.local].type.name;
          if (t == "Fs" || t == "Net" || t == "Env" || t == "Cap") at = 1;
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
class CallbackHost : public interp::Host {
 public:
  explicit CallbackHost(const RunOptions& o) : o_(o) {
    if (!o.on_stdout && o.stdout_fd >= 0) out_.emplace(o.stdout_fd, true);
    if (!o.on_stderr && o.stderr_fd >= 0) err_.emplace(o.stderr_fd, false);
  }
  // The root tracker (its wall deadline) and the run's interrupt flag.
  void Bind(const runtime::BudgetTracker* root, const std::atomic<bool>* cancel) {
    root_ = root;
    cancel_ = cancel;
  }
  void Stdout(std::string_view s) override {
    if (o_.on_stdout) {
      o_.on_stdout(s);
    } else if (out_) {
      if (err_) err_->Flush(Deadline(), cancel_);
      out_->Write(s, Deadline(), cancel_);
    }
  }
  void Stderr(std::string_view s) override {
    if (o_.on_stderr) {
      o_.on_stderr(s);
    } else if (err_) {
      if (out_) out_->Flush(Deadline(), cancel_);  // keep the two streams in order
      err_->Write(s, Deadline(), cancel_);
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
      (*st)->Flush(deadline, cancel);
      if ((*st)->ended() == runtime::WriteEnd::kDeadline) e = runtime::WriteEnd::kDeadline;
    }
    return e;
  }

 private:
  std::optional<int64_t> Deadline() const { return root_ ? root_->WallDeadlineNs() : std::nullopt; }
  const RunOptions& o_;
  std::optional<runtime::FdStream> out_, err_;
  const runtime::BudgetTracker* root_ = nullptr;
  const std::atomic<bool>* cancel_ = nullptr;
};

std::string Where(const std::string& file, const interp::BacktraceFrame& f) {
  // Library functions of the Mighty prelude have no user source location.
  if (f.function.rfind("__mty_", 0) == 0) return absl::StrCat(f.function, " (prelude)");
  return absl::StrCat(f.function, " (", file, ":", f.loc.line, ":", f.loc.col, ")");
}

stdlib::HostOptions MakeHostOptions(const RunOptions& o, const std::atomic<bool>* cancel) {
  stdlib::HostOptions h;
  h.cancel = cancel;
  h.args = o.args;
  h.deny_is_trap = o.deny_is_trap;
  h.trace = o.on_trace;
  return h;
}

// The run's root tracker: the options' policy, with what a root means for
// unset entries (docs/sandboxing.md): an unset net or env list allows
// nothing (an unset fs list falls back to the default caps), an unset depth
// is the default 10000 frames.
std::shared_ptr<runtime::BudgetTracker> RootTracker(const Policy& p) {
  Policy root = p;
  for (GrantId id : {GrantId::kNet, GrantId::kEnv})
    if (!root.grants.Get(id)) root.grants.Set(id, std::vector<std::string>{});
  if (!root.limits.Get(LimitId::kDepth)) root.limits.Set(LimitId::kDepth, ir::kDefaultDepth);
  return std::make_shared<runtime::BudgetTracker>(std::move(root));
}

}  // namespace

struct Runner::State {
  std::atomic<bool> interrupted{false};  // Runner::Interrupt
  // Real bytes: counted while Run() runs (mty/interp/heap.h).
  interp::HeapAccount heap;
  std::shared_ptr<const Program> program;
  RunOptions options;
  CallbackHost out;
  stdlib::StdHost host;
  std::shared_ptr<runtime::BudgetTracker> root;
  runtime::Scheduler scheduler;  // main and the agents (wall/CPU: the shared watchdog)
  State(std::shared_ptr<const Program> p, RunOptions o)
      : heap(o.heap_ceiling ? o.heap_ceiling
                            : interp::HeapCeilingFor(o.policy.limits.Get(LimitId::kMemory))),
        program(std::move(p)),
        options(std::move(o)),
        out(options),
        host(&out, MakeHostOptions(options, &interrupted)),
        root(RootTracker(options.policy)),
        scheduler(program->impl_->module, runtime::AgentOptions{}, root, &host,
                  &runtime::Watchdog::Shared()) {
    out.Bind(root.get(), &interrupted);
  }
};

Runner::Runner(std::shared_ptr<const Program> program, RunOptions options)
    : state_(std::make_unique<State>(std::move(program), std::move(options))) {}
Runner::~Runner() = default;

void Runner::Interrupt() {
  state_->interrupted.store(true);
  state_->scheduler.Interrupt();
}

RunResult Runner::Run() {
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
  // Past the ceiling with no safepoint after it: still the breach.
  if (state_->heap.over() && (r.outcome == Outcome::kOk || r.outcome == Outcome::kMainErr ||
                              (r.outcome == Outcome::kTrap && r.code == TrapCode::kBudget))) {
    ir::Breach b = interp::RealHeapBreach(state_->heap);
    r.outcome = Outcome::kBreach;
    r.code = b.Code();
    r.message = b.Message();
    r.exit_code = b.ExitCode();
    r.mem_used = b.observed;
    r.mem_limit = b.bound;
    r.breach = std::move(b);
  }
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
    r.exit_code = 2;
    return r;
  }
  // `fn main(fs: Fs, net: Net, env: Env)` receives the run's capabilities as
  // values (the full grant of each family; `fs.ro(p)` etc. narrow them).
  std::vector<interp::Value> main_args;
  if (const ir::Function* f = state_->program->impl_->ir.FindFunction(state_->options.entry)) {
    for (uint32_t i = 1; i <= f->num_params && i < f->locals.size(); ++i) {
      const std::string& tn = f->locals[i].type.name;
      const char* family = tn == "Fs" ? "fs" : tn == "Net" ? "net" : tn == "Env" ? "env" : nullptr;
      if (!family) {
        r.outcome = Outcome::kTrap;
        r.code = TrapCode::kType;
        r.message = absl::StrCat("fn ", state_->options.entry,
                                 " can only take capabilities (Fs, Net, Env); parameter ", i,
                                 " is ", ir::PrintType(f->locals[i].type));
        r.exit_code = ir::Trap(r.code).exit_code;
        return r;
      }
      auto* c = new interp::CapObj();
      c->family = family;
      main_args.push_back(interp::Value::Heap(c));
    }
  }
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
  r.steps_used = root.steps_used();
  r.mem_used = root.memory_used();
  r.mem_limit = root.policy().limits.Get(LimitId::kMemory).value_or(0);
  r.output_bytes = root.output_used();
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
      r.value = interp::Debug(m, o.value);
      const interp::Value& v = o.value;
      if (v.Is(interp::Tag::kInt)) {
        r.exit_code = static_cast<int>(std::clamp<int64_t>(v.i(), 0, 255));
      } else if (v.Is(interp::Tag::kAdt)) {
        auto* a = static_cast<interp::AdtObj*>(v.h());
        if (a->adt == interp::kAdtResult && a->variant == 1) {
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
      if (r.breach) {
        r.exit_code = r.breach->ExitCode();
        if (r.breach->limit == LimitId::kMemory) {
          r.mem_used = r.breach->observed;
          r.mem_limit = r.breach->bound;
        }
      }
      break;
    case Outcome::kCancelled:
      r.outcome = Outcome::kCancelled;
      r.code = TrapCode::kNone;
      r.message = "run cancelled by the host";
      r.exit_code = 1;
      break;
    case Outcome::kTrap:
    case Outcome::kEscalated:
      r.outcome = o.kind;
      r.exit_code = ir::Trap(o.code).exit_code;
      break;
    case Outcome::kMainErr:
    case Outcome::kNoEntry:
    case Outcome::kSuspended:
    case Outcome::kPreempted:
    case Outcome::kDeadlinePassed:
      // Never how the scheduler's main ends.
      r.outcome = Outcome::kTrap;
      r.code = TrapCode::kType;
      r.message = absl::StrCat("internal: main ended as ", ir::OutcomeName(o.kind));
      r.exit_code = 1;
      break;
  }
  return r;
}

bool WriteOutput(int fd, std::string_view data, std::chrono::nanoseconds max_wait) {
  return runtime::WriteBefore(fd, data, runtime::SteadyNowNs() + max_wait.count(), nullptr) ==
         runtime::WriteEnd::kDone;
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
    case Outcome::kNoEntry: return absl::StrCat("error: ", message, "\n");
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
    default: break;
  }
  return absl::Status(ir::Trap(code).status, absl::StrCat(TrapText(code), ": ", message));
}

}  // namespace mty
