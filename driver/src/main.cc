// The `mty` command line: run, check and dump programs. Uses only the public
// API (include/mty/mty.h).
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "CLI/CLI.hpp"
#include "absl/strings/str_cat.h"
#include "manifest.h"
#include "mty/mty.h"

namespace {

constexpr int kExitUsage = 64;
constexpr int kExitDataErr = 65;  // a malformed manifest
constexpr int kExitNoInput = 66;

// Loads a manifest; returns an exit code on failure (nothing runs).
int LoadManifestFile(const std::string& path, std::optional<mty::Manifest>* out) {
  if (path.empty()) return 0;
  auto m = mty::driver::LoadManifest(path);
  if (!m.ok()) {
    std::cerr << m.status().message() << "\n";
    return m.status().code() == absl::StatusCode::kNotFound ? kExitNoInput : kExitDataErr;
  }
  *out = *m;
  return 0;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return false;
  *out = ss.str();
  return true;
}

// Loads and compiles a program (.mtyir as MtyIR text, anything else as
// Mighty source); returns an exit code on failure.
int Load(const std::string& path, std::shared_ptr<const mty::Program>* out) {
  std::string text;
  if (!ReadFile(path, &text)) {
    std::cerr << "error: cannot read " << path << "\n";
    return kExitNoInput;
  }
  auto p = mty::Program::FromFile(text, path);
  if (!p.ok()) {
    std::string msg(p.status().message());
    std::cerr << msg << (msg.empty() || msg.back() != '\n' ? "\n" : "");
    return 1;
  }
  *out = *p;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mty: run Mighty programs (MtyIR) under budgets and capabilities", "mty"};
  app.set_version_flag("--version", std::string("mty ") + mty::kVersion);
  app.require_subcommand(1);

  auto* run = app.add_subcommand("run", "Run a program (.mty source or .mtyir)");
  std::string run_file;
  std::vector<std::string> run_args;
  uint64_t steps = 0, spawned = 0;
  std::string memory, wall, cpu, mailbox, mb_policy, run_manifest;
  uint32_t depth = 0;
  run->add_option("--manifest", run_manifest,
                  "Sandbox manifest (TOML, a [sandbox] table); combines with the flags by "
                  "tightest limit and intersection")
      ->type_name("FILE");
  run->add_option("--steps", steps, "Step budget: MtyIR statements + terminators (0 = unlimited)")
      ->check(CLI::NonNegativeNumber);
  run->add_option("--memory", memory, "Memory budget (estimated bytes), e.g. 88B, 64KiB, 1MiB");
  run->add_option("--wall", wall, "Wall-clock budget, e.g. 150ms, 2s, 1m");
  run->add_option("--cpu", cpu, "CPU-time budget, e.g. 150ms, 2s");
  run->add_option("--spawned", spawned, "Agents that may be spawned")
      ->check(CLI::NonNegativeNumber);
  run->add_option("--mailbox", mailbox, "Mailbox capacity per agent, e.g. 16, 1k");
  run->add_option("--mb-policy", mb_policy, "When a mailbox is full: block, drop or fail")
      ->check(CLI::IsMember({"block", "drop", "fail"}));
  run->add_option("--depth", depth, "Call depth limit (default 10000)")
      ->check(CLI::Range(1u, 1000000u));
  std::vector<std::string> allow_read, allow_write, allow_net, allow_env;
  bool allow_all = false, deny_is_trap = false, trace = false;
  run->add_option("--allow-read", allow_read, "Allow reading files under PATH (repeatable)")
      ->type_name("PATH");
  run->add_option("--allow-write", allow_write, "Allow writing files under PATH (repeatable)")
      ->type_name("PATH");
  run->add_option("--allow-net", allow_net, "Allow HOST[:PORT] or *.SUFFIX (repeatable)")
      ->type_name("HOST");
  run->add_option("--allow-env", allow_env, "Allow reading environment variable NAME")
      ->type_name("NAME");
  run->add_flag("--allow-all", allow_all, "Allow every file, host and variable (trusted code)");
  run->add_flag("--deny-is-trap", deny_is_trap, "Trap MT5015 at the first denied effect");
  run->add_flag("--trace", trace, "Report each denied effect on stderr");
  run->add_option("file", run_file, "Program file (.mty or .mtyir)")->required();
  run->add_option("args", run_args, "Arguments for the program (after --)");

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
    std::cerr << "error: " << e.what() << "\n";
    std::cerr << "usage: mty run [--manifest FILE] [--steps N] [--memory SIZE] [--wall DUR] "
                 "[--cpu DUR] [--allow-* ...] FILE [-- ARGS] | mty check [--manifest FILE] FILE | "
                 "mty caps FILE | mty dump --ast|--ir|--bytecode FILE | mty --help\n";
    return kExitUsage;
  }

  if (*run) {
    mty::RunOptions opts;
    opts.budget.steps = steps;
    opts.budget.depth = depth;
    opts.args = run_args;
    opts.allow_read = allow_read;
    opts.allow_write = allow_write;
    opts.allow_net = allow_net;
    opts.allow_env = allow_env;
    opts.allow_all = allow_all;
    opts.deny_is_trap = deny_is_trap;
    if (trace) opts.on_trace = [](std::string_view s) { std::cerr << "trace: " << s << "\n"; };
    if (!memory.empty()) {
      auto m = mty::ParseSize(memory);
      if (!m.ok()) {
        std::cerr << "error: --memory: " << m.status().message() << "\n";
        std::cerr << "usage: mty run [--steps N] [--memory SIZE] [--depth N] FILE\n";
        return kExitUsage;
      }
      opts.budget.memory = static_cast<uint64_t>(*m);
    }
    auto duration = [](const char* flag, const std::string& text, int64_t* out) {
      if (text.empty()) return true;
      auto d = mty::ParseDuration(text);
      if (!d.ok() || *d <= 0) {
        std::cerr << "error: " << flag << ": "
                  << (d.ok() ? "must be positive" : d.status().message()) << "\n";
        std::cerr << "usage: mty run [--wall DUR] [--cpu DUR] FILE (DUR like 150ms, 2s)\n";
        return false;
      }
      *out = *d;
      return true;
    };
    if (!duration("--wall", wall, &opts.budget.wall_ns)) return kExitUsage;
    if (!duration("--cpu", cpu, &opts.budget.cpu_ns)) return kExitUsage;
    if (!mailbox.empty()) {
      auto n = mty::ParseSize(mailbox);
      if (!n.ok() || *n <= 0) {
        std::cerr << "error: --mailbox: " << (n.ok() ? "must be positive" : n.status().message())
                  << "\n";
        std::cerr << "usage: mty run [--mailbox N] FILE (N like 16 or 1k)\n";
        return kExitUsage;
      }
      opts.budget.mailbox = static_cast<uint64_t>(*n);
    }
    opts.budget.spawned = spawned;
    opts.budget.mb_policy = mb_policy;
    if (int rc = LoadManifestFile(run_manifest, &opts.manifest); rc != 0) return rc;
    std::shared_ptr<const mty::Program> program;
    if (int rc = Load(run_file, &program); rc != 0) return rc;
    opts.on_stdout = [](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stdout); };
    opts.on_stderr = [](std::string_view s) { std::fwrite(s.data(), 1, s.size(), stderr); };
    mty::RunResult r = program->Run(opts);
    std::fflush(stdout);
    std::string report = r.Report();
    std::fwrite(report.data(), 1, report.size(), stderr);
    return r.exit_code;
  }
  if (*check) {
    std::optional<mty::Manifest> manifest;
    if (int rc = LoadManifestFile(check_manifest, &manifest); rc != 0) return rc;
    std::shared_ptr<const mty::Program> program;
    if (int rc = Load(check_file, &program); rc != 0) return rc;
    if (!manifest) return 0;
    std::vector<std::string> findings = program->CheckAgainst(*manifest);
    for (const std::string& f : findings) std::cerr << f << "\n";
    if (!findings.empty()) {
      std::cerr << "error: " << findings.size() << " effect(s) not granted by " << check_manifest
                << "\n";
      return 1;
    }
    return 0;
  }
  if (*caps) {
    std::shared_ptr<const mty::Program> program;
    if (int rc = Load(caps_file, &program); rc != 0) return rc;
    std::vector<mty::Program::EffectUse> uses = program->Effects();
    if (uses.empty()) {
      std::cout << "no effects: this program touches no file, host or environment variable\n";
      return 0;
    }
    for (const char* family : {"fs.read", "fs.write", "net", "env"}) {
      bool header = false;
      for (const mty::Program::EffectUse& u : uses) {
        if (u.family != family) continue;
        if (!header) std::cout << family << ":\n";
        header = true;
        std::string what = u.literal.empty() ? "(computed at run time)" : u.literal;
        std::cout << "  " << what << "  " << u.effect << " at " << caps_file << ":" << u.line << ":"
                  << u.col << "\n";
      }
    }
    return 0;
  }
  if (*dump) {
    if (dump_bytecode + dump_ir + dump_ast != 1) {
      std::cerr << "error: dump needs exactly one of --ast, --ir or --bytecode\n";
      std::cerr << "usage: mty dump --ast|--ir|--bytecode FILE\n";
      return kExitUsage;
    }
    if (dump_ast) {
      std::string text;
      if (!ReadFile(dump_file, &text)) {
        std::cerr << "error: cannot read " << dump_file << "\n";
        return kExitNoInput;
      }
      auto ast = mty::Program::SourceAst(text, dump_file);
      if (!ast.ok()) {
        std::cerr << ast.status().message();
        return 1;
      }
      std::cout << *ast;
      return 0;
    }
    std::shared_ptr<const mty::Program> program;
    if (int rc = Load(dump_file, &program); rc != 0) return rc;
    std::cout << (dump_bytecode ? program->Disassembly() : program->IrText());
    return 0;
  }
  return kExitUsage;
}
