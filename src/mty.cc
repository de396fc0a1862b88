// The embedding API: a facade over ir (parse, verify) and interp (compile,
// run). The driver uses only this.
#include "mty/mty.h"

#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "mty/frontend/lower.h"
#include "mty/frontend/parser.h"
#include "mty/interp/bytecode.h"
#include "mty/interp/vm.h"
#include "mty/ir/text.h"
#include "mty/runtime/agents.h"
#include "mty/runtime/budget.h"
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

absl::StatusOr<std::shared_ptr<const Program>> Program::FromIrText(std::string_view text,
                                                                   std::string_view file_name) {
  auto parsed = ir::ParseText(text, file_name);
  if (!parsed.ok()) return parsed.status();
  auto module = interp::Compile(*parsed, file_name);
  if (!module.ok()) return module.status();
  auto impl = std::make_unique<Impl>();
  impl->ir = std::move(*parsed);
  impl->module = std::move(*module);
  return std::make_shared<const Program>(std::move(impl));
}

absl::StatusOr<std::shared_ptr<const Program>> Program::FromSource(std::string_view text,
                                                                   std::string_view file_name) {
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
  frontend::SourceFile file{std::string(file_name), std::string(text)};
  frontend::Diagnostics diags;
  frontend::Module m = frontend::Parse(file, diags);
  if (diags.HasErrors()) return absl::InvalidArgumentError(diags.Render(file));
  return frontend::DumpAst(m);
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

// The capability family an effect needs ("" for none: std.time, std.env.args).
std::string EffectFamily(std::string_view path) {
  if (path.starts_with("std.fs.")) {
    std::string_view op = path.substr(7);
    bool writes = op == "write" || op == "write_file" || op == "append" || op == "create_dir_all" ||
                  op == "remove_file" || op == "remove_dir_all";
    return writes ? "fs.write" : "fs.read";
  }
  if (path.starts_with("std.net.") || path.starts_with("std.http.")) return "net";
  if (path == "std.env.var") return "env";
  return "";
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

class CallbackHost : public interp::Host {
 public:
  explicit CallbackHost(const RunOptions& o) : o_(o) {}
  void Stdout(std::string_view s) override {
    if (o_.on_stdout) o_.on_stdout(s);
  }
  void Stderr(std::string_view s) override {
    if (o_.on_stderr) o_.on_stderr(s);
  }

 private:
  const RunOptions& o_;
};

std::string Where(const std::string& file, const interp::BacktraceFrame& f) {
  // Library functions of the Mighty prelude have no user source location.
  if (f.function.rfind("__mty_", 0) == 0) return absl::StrCat(f.function, " (prelude)");
  return absl::StrCat(f.function, " (", file, ":", f.loc.line, ":", f.loc.col, ")");
}

stdlib::HostOptions MakeHostOptions(const RunOptions& o) {
  stdlib::HostOptions h;
  h.args = o.args;
  h.deny_is_trap = o.deny_is_trap;
  h.trace = o.on_trace;
  h.grants = o.policy.grants;
  return h;
}

}  // namespace

struct Runner::State {
  std::shared_ptr<const Program> program;
  RunOptions options;
  CallbackHost out;
  stdlib::StdHost host;
  runtime::Scheduler scheduler;  // main and the agents (wall/CPU: the shared watchdog)
  State(std::shared_ptr<const Program> p, RunOptions o)
      : program(std::move(p)),
        options(std::move(o)),
        out(options),
        host(&out, MakeHostOptions(options)),
        scheduler(program->impl_->module, AgentOptionsOf(options.policy.limits), &host, ForkHost,
                  &runtime::Watchdog::Shared()) {}

  static runtime::AgentOptions AgentOptionsOf(const Limits& l) {
    runtime::AgentOptions a;
    a.limits.steps = l.Get(LimitId::kSteps);
    a.limits.memory = l.Get(LimitId::kMemory);
    a.limits.depth = static_cast<uint32_t>(
        std::min<uint64_t>(l.Get(LimitId::kDepth).value_or(ir::kDefaultDepth), UINT32_MAX));
    if (auto w = l.Get(LimitId::kWall)) a.limits.wall_ns = static_cast<int64_t>(*w);
    if (auto c = l.Get(LimitId::kCpu)) a.limits.cpu_ns = static_cast<int64_t>(*c);
    a.spawned = l.Get(LimitId::kSpawned);
    a.mailbox = l.Get(LimitId::kMailbox).value_or(ir::kDefaultMailbox);
    a.mb_policy = l.mb_policy.value_or(MailboxPolicy::kBlock);
    return a;
  }
  // An agent's host: the capabilities of the task that spawned it, as they
  // are at the spawn (inside a sandbox, the sandbox's).
  static std::unique_ptr<interp::Host> ForkHost(interp::Host& spawner) {
    return static_cast<stdlib::StdHost&>(spawner).Fork();
  }
};

Runner::Runner(std::shared_ptr<const Program> program, RunOptions options)
    : state_(std::make_unique<State>(std::move(program), std::move(options))) {}
Runner::~Runner() = default;

void Runner::Interrupt() { state_->scheduler.Interrupt(); }

RunResult Runner::Run() {
  RunResult r;
  const interp::Module& m = *state_->program->impl_->module;
  int entry = m.FindFunction(state_->options.entry);
  if (entry < 0) {
    r.kind = RunResult::Kind::kNoMain;
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
        r.kind = RunResult::Kind::kTrap;
        r.code = TrapCode::kType;
        r.message = absl::StrCat("fn ", state_->options.entry,
                                 " can only take capabilities (Fs, Net, Env); parameter ", i,
                                 " is ", ir::PrintType(f->locals[i].type));
        r.exit_code = 1;
        return r;
      }
      auto* c = new interp::CapObj();
      c->family = family;
      main_args.push_back(interp::Value::Heap(c));
    }
  }
  std::string err;
  interp::ExecOutcome o = state_->scheduler.Run(entry, std::move(main_args), &err);
  if (!err.empty()) {
    r.kind = RunResult::Kind::kTrap;
    r.code = TrapCode::kType;
    r.message = err;
    r.exit_code = 1;
    return r;
  }
  r.sandbox = o.sandbox;
  r.mem_used = o.mem_used;
  r.mem_limit = o.mem_limit;
  r.steps_used = o.steps_used;
  r.code = o.code;
  r.message = o.message;
  for (const auto& f : o.backtrace) r.backtrace.push_back(Where(m.source, f));
  using K = interp::ExecOutcome::Kind;
  switch (o.kind) {
    case K::kOk: {
      r.kind = RunResult::Kind::kOk;
      r.value = interp::Debug(m, o.value);
      const interp::Value& v = o.value;
      if (v.Is(interp::Tag::kInt)) {
        r.exit_code = static_cast<int>(std::clamp<int64_t>(v.i(), 0, 255));
      } else if (v.Is(interp::Tag::kAdt)) {
        auto* a = static_cast<interp::AdtObj*>(v.h());
        if (a->adt == interp::kAdtResult && a->variant == 1) {
          r.exit_code = 1;
          r.code = TrapCode::kMainErr;
          r.message = absl::StrCat("main returned Err(", interp::Debug(m, a->fields[0]), ")");
        }
      }
      break;
    }
    case K::kTrap:
      r.kind = RunResult::Kind::kTrap;
      r.exit_code = 1;
      if (state_->scheduler.main_breach() == "escalated") {
        r.kind = RunResult::Kind::kEscalated;
        r.exit_code = 8;
      } else if (!state_->scheduler.main_breach().empty()) {  // spawn or mailbox limit (exit 7)
        r.kind = RunResult::Kind::kBudgetExceeded;
        r.budget = state_->scheduler.main_breach() == "spawned" ? RunResult::BudgetKind::kSpawned
                                                                : RunResult::BudgetKind::kMailbox;
        r.exit_code = 7;
      }
      break;
    case K::kStepBudget:
      r.kind = RunResult::Kind::kBudgetExceeded;
      r.budget = RunResult::BudgetKind::kSteps;
      r.exit_code = 3;
      break;
    case K::kMemBudget:
      r.kind = RunResult::Kind::kMemBudgetExceeded;
      r.budget = RunResult::BudgetKind::kMemory;
      r.exit_code = 4;
      break;
    case K::kWallBudget:
      r.kind = RunResult::Kind::kBudgetExceeded;
      r.budget = RunResult::BudgetKind::kWall;
      r.exit_code = 5;
      break;
    case K::kCpuBudget:
      r.kind = RunResult::Kind::kBudgetExceeded;
      r.budget = RunResult::BudgetKind::kCpu;
      r.exit_code = 6;
      break;
    case K::kInterrupted:
      r.kind = RunResult::Kind::kCancelled;
      r.code = TrapCode::kNone;
      r.message = "run cancelled by the host";
      r.exit_code = 1;
      break;
    case K::kSuspended:
    case K::kPreempted: break;  // the scheduler resumes these
  }
  return r;
}

RunResult Program::Run(const RunOptions& options) const {
  // The Program is owned by a shared_ptr (FromIrText); a non-owning alias
  // keeps this call free of ownership assumptions.
  std::shared_ptr<const Program> self(std::shared_ptr<const Program>(), this);
  Runner runner(self, options);
  return runner.Run();
}

std::string RunResult::Report() const {
  switch (kind) {
    case Kind::kOk:
      if (code == TrapCode::kMainErr)
        return absl::StrCat("error ", TrapText(code), ": ", message, "\n");
      return "";
    case Kind::kNoMain: return absl::StrCat("error: ", message, "\n");
    case Kind::kCancelled: return absl::StrCat("error: ", message, "\n");
    default: {
      std::string s = absl::StrCat("trap ", TrapText(code), ": ", message, "\n");
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
  switch (kind) {
    case Kind::kOk:
      if (code == TrapCode::kMainErr) return absl::AbortedError(message);
      return absl::OkStatus();
    case Kind::kTrap:
    case Kind::kEscalated: return absl::AbortedError(absl::StrCat(TrapText(code), ": ", message));
    case Kind::kNoMain: return absl::NotFoundError(message);
    case Kind::kBudgetExceeded:
    case Kind::kMemBudgetExceeded:
      return absl::ResourceExhaustedError(absl::StrCat(TrapText(code), ": ", message));
    case Kind::kCancelled: return absl::CancelledError(message);
  }
  return absl::UnknownError("unknown result");
}

}  // namespace mty
