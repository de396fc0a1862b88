// The `mty` command line: run and dump MtyIR programs. Uses only the public
// API (include/mty/mty.h) plus the IR layer's size parser.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "CLI/CLI.hpp"
#include "absl/strings/str_cat.h"
#include "mty/ir/text.h"
#include "mty/mty.h"

namespace {

constexpr int kExitUsage = 64;
constexpr int kExitNoInput = 66;

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return false;
  *out = ss.str();
  return true;
}

// Loads and compiles a program; returns an exit code on failure.
int Load(const std::string& path, std::shared_ptr<const mty::Program>* out) {
  std::string text;
  if (!ReadFile(path, &text)) {
    std::cerr << "error: cannot read " << path << "\n";
    return kExitNoInput;
  }
  if (path.size() < 6 || path.substr(path.size() - 6) != ".mtyir") {
    std::cerr << "error: " << path
              << ": only MtyIR text (.mtyir) is supported by this mty; Mighty source "
                 "(.mty) comes with the front end\n";
    return 1;
  }
  auto p = mty::Program::FromIrText(text, path);
  if (!p.ok()) {
    std::cerr << p.status().message() << "\n";
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

  auto* run = app.add_subcommand("run", "Run a program (.mtyir)");
  std::string run_file;
  uint64_t steps = 0;
  std::string memory;
  uint32_t depth = 0;
  run->add_option("--steps", steps, "Step budget: MtyIR statements + terminators (0 = unlimited)");
  run->add_option("--memory", memory, "Memory budget (estimated bytes), e.g. 88B, 64KiB, 1MiB");
  run->add_option("--depth", depth, "Call depth limit (default 10000)")
      ->check(CLI::Range(1u, 1000000u));
  run->add_option("file", run_file, "Program file (.mtyir)")->required();

  auto* dump = app.add_subcommand("dump", "Print a program's IR or bytecode");
  std::string dump_file;
  bool dump_bytecode = false, dump_ir = false;
  dump->add_flag("--bytecode", dump_bytecode, "Disassemble the bytecode");
  dump->add_flag("--ir", dump_ir, "Print the canonical MtyIR text");
  dump->add_option("file", dump_file, "Program file (.mtyir)")->required();

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
    std::cerr << "usage: mty run [--steps N] [--memory SIZE] [--depth N] FILE | mty dump "
                 "--bytecode|--ir FILE | mty --help\n";
    return kExitUsage;
  }

  if (*run) {
    mty::RunOptions opts;
    opts.budget.steps = steps;
    opts.budget.depth = depth;
    if (!memory.empty()) {
      auto m = mty::ir::ParseSize(memory);
      if (!m.ok()) {
        std::cerr << "error: --memory: " << m.status().message() << "\n";
        std::cerr << "usage: mty run [--steps N] [--memory SIZE] [--depth N] FILE\n";
        return kExitUsage;
      }
      opts.budget.memory = static_cast<uint64_t>(*m);
    }
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
  if (*dump) {
    if (dump_bytecode == dump_ir) {
      std::cerr << "error: dump needs exactly one of --bytecode or --ir\n";
      std::cerr << "usage: mty dump --bytecode|--ir FILE\n";
      return kExitUsage;
    }
    std::shared_ptr<const mty::Program> program;
    if (int rc = Load(dump_file, &program); rc != 0) return rc;
    std::cout << (dump_bytecode ? program->Disassembly() : program->IrText());
    return 0;
  }
  return kExitUsage;
}
