// The embedding API: a facade over ir (parse, verify) and interp (compile,
// run). The driver uses only this.
#include "mty/mty.h"

#include <condition_variable>
#include <mutex>
#include <thread>

#include "absl/strings/str_cat.h"
#include "mty/frontend/lower.h"
#include "mty/frontend/parser.h"
#include "mty/interp/bytecode.h"
#include "mty/interp/vm.h"
#include "mty/ir/text.h"
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

absl::StatusOr<int64_t> ParseSize(std::string_view text) { return ir::ParseSize(text); }
absl::StatusOr<int64_t> ParseDuration(std::string_view text) { return ir::ParseDuration(text); }

std::string Program::IrText() const { return ir::PrintText(impl_->ir); }
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
  stdlib::Grants& g = h.grants;
  if (o.allow_all) {
    g.has_fs = true;
    g.read = stdlib::FsCap::Unrestricted();
    g.write = stdlib::FsCap::Unrestricted();
    g.all_net = true;
    g.all_env = true;
    return h;
  }
  g.has_fs = !o.use_default_fs_caps;
  g.read = stdlib::FsCap::Rooted(o.allow_read);
  g.write = stdlib::FsCap::Rooted(o.allow_write);
  g.net = o.allow_net;
  g.env = o.allow_env;
  return h;
}

}  // namespace

struct Runner::State {
  std::shared_ptr<const Program> program;
  RunOptions options;
  CallbackHost out;
  stdlib::StdHost host;
  interp::Task task;
  State(std::shared_ptr<const Program> p, RunOptions o)
      : program(std::move(p)),
        options(std::move(o)),
        out(options),
        host(&out, MakeHostOptions(options)),
        task(program->impl_->module, &host,
             interp::Limits{options.budget.steps, options.budget.memory,
                            options.budget.depth ? options.budget.depth : 10000}) {}
};

Runner::Runner(std::shared_ptr<const Program> program, RunOptions options)
    : state_(std::make_unique<State>(std::move(program), std::move(options))) {}
Runner::~Runner() = default;

void Runner::Interrupt() { state_->task.Interrupt(); }

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
        r.code = "MT5016";
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
  if (!state_->task.Start(entry, std::move(main_args), &err)) {
    r.kind = RunResult::Kind::kTrap;
    r.code = "MT5016";
    r.message = err;
    r.exit_code = 1;
    return r;
  }
  // Wall-clock budget: a watchdog sets the task's interrupt flag at the
  // deadline (read at safepoints: one load); blocking host calls give up at
  // the same deadline.
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::atomic<bool> wall_fired{false};
  std::thread watchdog;
  std::string wall_text = ir::FormatDuration(state_->options.budget.wall_ns);
  if (state_->options.budget.wall_ns > 0) {
    auto deadline =
        std::chrono::steady_clock::now() + std::chrono::nanoseconds(state_->options.budget.wall_ns);
    state_->host.SetDeadline(deadline, wall_text);
    watchdog = std::thread([&, deadline] {
      std::unique_lock<std::mutex> lock(mu);
      if (!cv.wait_until(lock, deadline, [&] { return done; })) {
        wall_fired = true;
        state_->task.Interrupt();
      }
    });
  }
  interp::ExecOutcome o;
  do {
    // No scheduler yet: a suspended task (a `suspend` terminator) resumes at once.
    o = state_->task.Run();
  } while (o.kind == interp::ExecOutcome::Kind::kSuspended);
  if (watchdog.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mu);
      done = true;
    }
    cv.notify_all();
    watchdog.join();
  }
  bool wall_breach = (wall_fired && o.kind == interp::ExecOutcome::Kind::kInterrupted) ||
                     (o.kind == interp::ExecOutcome::Kind::kTrap && o.code == "MT5009" &&
                      o.message.rfind("wall-clock budget exceeded", 0) == 0);
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
          r.code = "MT5006";
          r.message = absl::StrCat("main returned Err(", interp::Debug(m, a->fields[0]), ")");
        }
      }
      break;
    }
    case K::kTrap:
      r.kind = wall_breach ? RunResult::Kind::kBudgetExceeded : RunResult::Kind::kTrap;
      r.exit_code = wall_breach ? 5 : 1;
      break;
    case K::kStepBudget:
      r.kind = RunResult::Kind::kBudgetExceeded;
      r.exit_code = 3;
      break;
    case K::kMemBudget:
      r.kind = RunResult::Kind::kMemBudgetExceeded;
      r.exit_code = 4;
      break;
    case K::kInterrupted:
      if (wall_breach) {
        r.kind = RunResult::Kind::kBudgetExceeded;
        r.code = "MT5009";
        r.message = absl::StrCat("wall-clock budget exceeded: ", wall_text);
        r.exit_code = 5;
        break;
      }
      r.kind = RunResult::Kind::kCancelled;
      r.code = "";
      r.message = "run cancelled by the host";
      r.exit_code = 1;
      break;
    case K::kSuspended: break;
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
      if (code == "MT5006") return absl::StrCat("error MT5006: ", message, "\n");
      return "";
    case Kind::kNoMain: return absl::StrCat("error: ", message, "\n");
    case Kind::kCancelled: return absl::StrCat("error: ", message, "\n");
    default: {
      std::string s = absl::StrCat("trap ", code, ": ", message, "\n");
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
      if (code == "MT5006") return absl::AbortedError(message);
      return absl::OkStatus();
    case Kind::kTrap: return absl::AbortedError(absl::StrCat(code, ": ", message));
    case Kind::kNoMain: return absl::NotFoundError(message);
    case Kind::kBudgetExceeded:
    case Kind::kMemBudgetExceeded:
      return absl::ResourceExhaustedError(absl::StrCat(code, ": ", message));
    case Kind::kCancelled: return absl::CancelledError(message);
  }
  return absl::UnknownError("unknown result");
}

}  // namespace mty
