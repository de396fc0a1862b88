// The `mty` command line: run, check, list capabilities of and dump programs.
// One function per subcommand; uses only the public API (include/mty/mty.h).
// The limit and grant flags are made from the policy table, so they take
// the same keys and units as manifests and sandbox entries.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <thread>

#include "CLI/CLI.hpp"
#include "absl/strings/str_cat.h"
#include "input.h"
#include "mty/mty.h"

namespace {

constexpr int kExitUsage = 64;
constexpr int kExitDataErr = 65;  // a malformed manifest
constexpr int kExitNoInput = 66;

constexpr char kUsage[] =
    "usage: mty run [--manifest FILE] [--steps N] [--memory SIZE] [--wall DUR] [--cpu DUR] "
    "[--allow-* ...] FILE [-- ARGS] | mty check [--manifest FILE] FILE | mty caps FILE | mty "
    "dump --ast|--ir|--bytecode FILE | mty --help";

int UsageError(const std::string& message) {
  std::cerr << "error: " << message << "\n" << kUsage << "\n";
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

// Reads an input program (a regular file of at most kMaxProgramBytes);
// returns an exit code on failure.
int ReadInput(const std::string& path, std::string* text) {
  auto read = mty::driver::ReadInputFile(path, mty::kMaxProgramBytes);
  if (!read.ok()) {
    std::cerr << "error: cannot read " << path << ": " << read.status().message() << "\n";
    return kExitNoInput;
  }
  *text = std::move(*read);
  return 0;
}

// Loads and compiles a program (.mtyir as MtyIR text, anything else as
// Mighty source); returns an exit code on failure.
int Load(const std::string& path, std::shared_ptr<const mty::Program>* out) {
  std::string text;
  if (int rc = ReadInput(path, &text); rc != 0) return rc;
  auto p = mty::Program::FromFile(text, path);
  if (!p.ok()) {
    std::string msg(p.status().message());
    std::cerr << msg << (msg.empty() || msg.back() != '\n' ? "\n" : "");
    return 1;
  }
  *out = *p;
  return 0;
}

// ---- mty run ----------------------------------------------------------------

struct RunFlags {
  std::string file, manifest;
  std::vector<std::string> args;
  // One text per limit row of the policy table (`--steps 10k`, `--wall 2s`).
  std::array<std::string, mty::ir::kNumLimits> limits;
  std::string mb_policy;
  // One list per grant row (`--allow-read PATH`).
  std::array<std::vector<std::string>, mty::ir::kNumGrants> grants;
  bool allow_all = false, deny_is_trap = false, trace = false;
};

void AddRunFlags(CLI::App* run, RunFlags& f) {
  run->add_option("--manifest", f.manifest,
                  "Sandbox manifest (TOML, a [sandbox] table); combines with the flags by "
                  "tightest limit and intersection")
      ->type_name("FILE");
  for (const mty::ir::LimitInfo& l : mty::ir::kLimits) {
    run->add_option(absl::StrCat("--", l.key), f.limits[static_cast<size_t>(l.id)],
                    absl::StrCat(l.doc, ": ", mty::ir::UnitExpectation(l.unit)))
        ->type_name(l.unit == mty::ir::Unit::kDuration ? "DUR"
                    : l.unit == mty::ir::Unit::kSize   ? "SIZE"
                                                       : "N");
  }
  run->add_option("--mb-policy", f.mb_policy, mty::ir::kMbPolicyChoice.doc)
      ->type_name("block|drop|fail");
  for (const mty::ir::GrantInfo& g : mty::ir::kGrants) {
    const char* what = g.entry == mty::ir::EntryKind::kPath   ? "PATH"
                       : g.entry == mty::ir::EntryKind::kHost ? "HOST"
                                                              : "NAME";
    run->add_option(
           absl::StrCat("--", g.flag), f.grants[static_cast<size_t>(g.id)],
           absl::StrCat("Allow ", g.doc, ": ", what, " (repeatable; the `", g.key, "` grant)"))
        ->type_name(what);
  }
  run->add_flag("--allow-all", f.allow_all, "Allow every file, host and variable (trusted code)");
  run->add_flag("--deny-is-trap", f.deny_is_trap, "Trap MT5015 at the first denied effect");
  run->add_flag("--trace", f.trace, "Report each denied effect on stderr");
  run->add_option("file", f.file, "Program file (.mty or .mtyir)")->required();
  run->add_option("args", f.args, "Arguments for the program (after --)");
}

// The flags as a policy: each limit through the table's parser, each grant
// flag an entry of its family (`--allow-all`: every family).
int FlagsPolicy(const RunFlags& f, mty::Policy* out) {
  for (const mty::ir::LimitInfo& l : mty::ir::kLimits) {
    const std::string& text = f.limits[static_cast<size_t>(l.id)];
    if (text.empty()) continue;
    absl::StatusOr<uint64_t> v = mty::ir::ParseLimitValue(l.id, text);
    if (!v.ok()) return UsageError(absl::StrCat("--", l.key, ": ", v.status().message()));
    out->limits.Set(l.id, *v);
  }
  if (!f.mb_policy.empty()) {
    std::optional<mty::MailboxPolicy> p = mty::ir::ParseMailboxPolicy(f.mb_policy);
    if (!p)
      return UsageError(absl::StrCat("--mb-policy: expected ",
                                     mty::ir::ChoiceList(mty::ir::kMbPolicyChoice), ", got '",
                                     f.mb_policy, "'"));
    out->limits.mb_policy = p;
  }
  if (f.allow_all) out->grants = mty::Grants::All();
  for (const mty::ir::GrantInfo& g : mty::ir::kGrants) {
    for (const std::string& entry : f.grants[static_cast<size_t>(g.id)]) {
      if (absl::Status s = mty::ir::CheckGrantEntry(g.id, entry); !s.ok())
        return UsageError(absl::StrCat("--", g.flag, ": ", s.message()));
      if (!f.allow_all) out->grants.Add(g.id, entry);
    }
  }
  return 0;
}

// Ctrl-C while a program runs (docs/cli.md): SIGINT is blocked in every
// thread and one thread waits for it; the first interrupts the run (it ends
// at its next safepoint or wait, and `mty run` prints where it was and exits
// 130); a second one ends the process at once.
class CtrlC {
 public:
  // Blocks SIGINT before any thread of the run exists (threads inherit the
  // mask), so only this one receives it.
  CtrlC() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set_, &old_);
    thread_ = std::thread([this] {
      for (;;) {
        int sig = 0;
        if (sigwait(&set_, &sig) != 0) continue;
        if (done_.load()) return;
        if (fired_.exchange(true)) _exit(130);  // the second Ctrl-C
        std::lock_guard<std::mutex> lock(mu_);
        if (runner_) runner_->Interrupt();
      }
    });
  }
  ~CtrlC() {
    done_.store(true);
    pthread_kill(thread_.native_handle(), SIGINT);
    thread_.join();
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }
  // The run a Ctrl-C interrupts (one that came before is applied now).
  void Arm(mty::Runner* runner) {
    std::lock_guard<std::mutex> lock(mu_);
    runner_ = runner;
    if (runner_ && fired_.load()) runner_->Interrupt();
  }
  bool fired() const { return fired_.load(); }

 private:
  sigset_t set_, old_;
  std::atomic<bool> done_{false}, fired_{false};
  std::mutex mu_;
  mty::Runner* runner_ = nullptr;
  std::thread thread_;
};

int RunCommand(const RunFlags& f) {
  CtrlC ctrl_c;
  mty::Policy policy;
  if (int rc = FlagsPolicy(f, &policy); rc != 0) return rc;
  std::optional<mty::Policy> manifest;
  if (int rc = LoadManifestFile(f.manifest, &manifest); rc != 0) return rc;
  if (manifest) policy = mty::Policy::Intersect(policy, *manifest);
  // The run's file grants double as the process-wide default caps (the
  // original design's mechanism), installed once here, by the host.
  mty::InstallDefaultFsCaps(policy.grants);

  std::shared_ptr<const mty::Program> program;
  if (int rc = Load(f.file, &program); rc != 0) return rc;
  mty::RunOptions opts;
  opts.policy = std::move(policy);
  opts.args = f.args;
  opts.deny_is_trap = f.deny_is_trap;
  if (f.trace) opts.on_trace = [](std::string_view s) { std::cerr << "trace: " << s << "\n"; };
  // The run writes 1 and 2 itself: a stdout or stderr nobody drains never
  // holds it past its wall deadline.
  std::fflush(stdout);
  opts.stdout_fd = STDOUT_FILENO;
  opts.stderr_fd = STDERR_FILENO;
  mty::Runner runner(program, std::move(opts));
  ctrl_c.Arm(&runner);
  mty::RunResult r = runner.Run();
  ctrl_c.Arm(nullptr);
  bool interrupted = ctrl_c.fired() && r.outcome == mty::Outcome::kCancelled;
  if (interrupted) r.message = "interrupted (Ctrl-C)";
  std::string report = r.Report();
  // The report too gives up on a stderr nobody drains (after 500 ms).
  mty::WriteOutput(STDERR_FILENO, report, std::chrono::milliseconds(500));
  if (interrupted) return 130;
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

int DumpCommand(const std::string& file, bool bytecode, bool ir, bool ast) {
  if (bytecode + ir + ast != 1)
    return UsageError("dump needs exactly one of --ast, --ir or --bytecode");
  if (ast) {
    std::string text;
    if (int rc = ReadInput(file, &text); rc != 0) return rc;
    auto tree = mty::Program::SourceAst(text, file);
    if (!tree.ok()) {
      std::cerr << tree.status().message();
      return 1;
    }
    std::cout << *tree;
    return 0;
  }
  std::shared_ptr<const mty::Program> program;
  if (int rc = Load(file, &program); rc != 0) return rc;
  std::cout << (bytecode ? program->Disassembly() : program->IrText());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mty: run Mighty programs (MtyIR) under budgets and capabilities", "mty"};
  app.set_version_flag("--version", std::string("mty ") + mty::kVersion);
  app.require_subcommand(1);

  auto* run = app.add_subcommand("run", "Run a program (.mty source or .mtyir)");
  RunFlags run_flags;
  AddRunFlags(run, run_flags);

  auto* check = app.add_subcommand("check", "Report a program's diagnostics without running it");
  std::string check_file, check_manifest;
  check
      ->add_option("--manifest", check_manifest,
                   "Also report every effect the manifest does not grant")
      ->type_name("FILE");
  check->add_option("file", check_file, "Program file (.mty or .mtyir)")->required();

  auto* caps =
      app.add_subcommand("caps", "List the files, hosts and variables a program can touch");
  std::string caps_file;
  caps->add_option("file", caps_file, "Program file (.mty or .mtyir)")->required();

  auto* dump = app.add_subcommand("dump", "Print a program's AST, IR or bytecode");
  std::string dump_file;
  bool dump_bytecode = false, dump_ir = false, dump_ast = false;
  dump->add_flag("--bytecode", dump_bytecode, "Disassemble the bytecode");
  dump->add_flag("--ir", dump_ir, "Print the canonical MtyIR text");
  dump->add_flag("--ast", dump_ast, "Print the parsed syntax tree (.mty only)");
  dump->add_option("file", dump_file, "Program file (.mty or .mtyir)")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return UsageError(e.what());
  }

  if (*run) return RunCommand(run_flags);
  if (*check) return CheckCommand(check_file, check_manifest);
  if (*caps) return CapsCommand(caps_file);
  if (*dump) return DumpCommand(dump_file, dump_bytecode, dump_ir, dump_ast);
  return kExitUsage;
}
