#include "commands.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "mty/exit_codes.h"
#include "mty/mty.h"
#include "mty/vocab/traps.h"

namespace mty::driver {

namespace {

OptionSpec Flag(std::string name, char short_name, std::string help) {
  return {std::move(name), short_name, ValueKind::kNone, "", std::move(help), {}};
}

// An option with a value (`kind`: kRequired or kOptional), `choices` when fixed.
OptionSpec Valued(std::string name, ValueKind kind, std::string value_name, std::string help,
                  std::vector<std::string> choices = {}) {
  return {std::move(name), 0, kind, std::move(value_name), std::move(help), std::move(choices)};
}

CommandSpec Command(std::string name, std::string summary, std::string operand = "",
                    std::string operand_help = "") {
  CommandSpec c;
  c.name = std::move(name);
  c.summary = std::move(summary);
  c.operand = std::move(operand);
  c.operand_help = std::move(operand_help);
  return c;
}

constexpr char kProgram[] = "the program (.mty or .mtyir); - reads stdin";

// Every command that compiles a program takes it.
OptionSpec ErrorFormat() {
  return {"error-format",
          0,
          ValueKind::kRequired,
          "FORMAT",
          "Compile diagnostics as human (rustc style, the default) or json (one object per line)",
          {"human", "json"}};
}

// So does the diagnostics' look and strictness.
void AddDiagnosticOptions(CommandSpec& c) {
  c.options.push_back(ErrorFormat());
  c.options.push_back(Valued("color", ValueKind::kRequired, "WHEN",
                             "Colour diagnostics: auto (on a terminal, unless NO_COLOR is set), "
                             "always or never",
                             {"auto", "always", "never"}));
  c.options.push_back(Flag("deny-warnings", 0, "Compile warnings are errors (exit 1)"));
}

// The budgets and grants of a run: `mty run`'s and `mty repl`'s (each
// input), from the policy table.
void PolicyOptions(CommandSpec* spec) {
  CommandSpec& c = *spec;
  c.options.push_back({"manifest",
                       0,
                       ValueKind::kRequired,
                       "FILE",
                       "Sandbox manifest (TOML, a [sandbox] table); combines with the flags by "
                       "tightest limit and intersection",
                       {}});
  for (const ir::LimitInfo& l : ir::kLimits)
    c.options.push_back({l.key,
                         0,
                         ValueKind::kRequired,
                         ir::Info(l.unit).placeholder,
                         absl::StrCat(l.doc, ": ", ir::UnitExpectation(l.unit)),
                         {}});
  std::vector<std::string> policies = absl::StrSplit(ir::kMbPolicyChoice.values, '|');
  c.options.push_back({FlagName(ir::kMbPolicyChoice.key), 0, ValueKind::kRequired, "POLICY",
                       ir::kMbPolicyChoice.doc, policies});
  for (const ir::GrantInfo& g : ir::kGrants)
    c.options.push_back({g.flag,
                         0,
                         ValueKind::kList,
                         ir::EntryPlaceholder(g.entry),
                         absl::StrCat("Allow ", g.doc, " (the `", g.key,
                                      "` grant); alone: all of them; repeatable"),
                         {}});
  c.options.push_back(Flag("allow-all", 'A', "Allow every file, host, variable and host family"));
}

CommandSpec Run() {
  CommandSpec c =
      Command("run", "Run a program (.mty source or .mtyir) under budgets and capabilities", "FILE",
              "the program: .mtyir is MtyIR text, anything else Mighty source; - reads stdin");
  c.program_args = true;
  PolicyOptions(&c);
  AddDiagnosticOptions(c);
  c.options.push_back(Flag("deny-is-trap", 0, "Trap MT5015 at the first denied effect"));
  c.options.push_back(Flag("quiet", 'q', "No hint on stderr when an effect is denied"));
  c.options.push_back(Valued("trace", ValueKind::kOptional, "FORMAT",
                             "Report every event as a text or (json) a JSON line: effect calls "
                             "(allowed or denied), spawns, agent failures, restarts, escalations, "
                             "sandbox entries, exits and breaches, the end",
                             {"text", "json"}));
  c.options.push_back(Valued("trace-file", ValueKind::kRequired, "FILE",
                             "Write the trace to FILE instead of stderr"));
  c.options.push_back(Valued("stats", ValueKind::kOptional, "FORMAT",
                             "After the run, print its usage on stderr: steps, estimated and real "
                             "bytes, output, wall and CPU time, agents (text, or json: one object)",
                             {"text", "json"}));
  c.options.push_back(Valued("record", ValueKind::kRequired, "FILE",
                             "Write every nondeterministic input the run consumes (effect results, "
                             "clock readings) to FILE as JSON lines, for mty replay"));
  return c;
}

CommandSpec Replay() {
  CommandSpec c = Command("replay",
                          "Run a program again from a recording (mty run --record), touching "
                          "nothing outside; report the first divergence",
                          "RECORDING", "the recording (JSON lines written by mty run --record)");
  c.program_args = true;
  c.rest = "[PROGRAM]";
  c.options.push_back(ErrorFormat());
  c.options.push_back(Valued("stats", ValueKind::kOptional, "FORMAT",
                             "After the replay, print its usage on stderr (text, or json)",
                             {"text", "json"}));
  return c;
}

CommandSpec Repl() {
  CommandSpec c = Command("repl",
                          "Read and run Mighty expressions and items interactively, each input "
                          "under the budgets and capabilities given");
  PolicyOptions(&c);
  c.options.push_back(Flag("deny-is-trap", 0, "Trap MT5015 at the first denied effect"));
  c.options.push_back(Flag("quiet", 'q', "No hint on stderr when an effect is denied"));
  return c;
}

CommandSpec Check() {
  CommandSpec c =
      Command("check", "Report a program's diagnostics without running it", "FILE", kProgram);
  c.options.push_back({"manifest",
                       0,
                       ValueKind::kRequired,
                       "FILE",
                       "Also report every effect call the manifest does not grant",
                       {}});
  AddDiagnosticOptions(c);
  return c;
}

CommandSpec Caps() {
  CommandSpec c =
      Command("caps", "List the files, hosts, variables and host families a program can touch",
              "FILE", kProgram);
  AddDiagnosticOptions(c);
  return c;
}

CommandSpec Dump() {
  CommandSpec c = Command("dump", "Print a program's syntax tree, MtyIR or bytecode", "FILE",
                          "the program (.mty or .mtyir; --ast needs .mty); - reads stdin");
  c.options.push_back(Flag("ast", 0, "Print the parsed syntax tree (Mighty source only)"));
  c.options.push_back(Flag("ir", 0, "Print the canonical MtyIR text"));
  c.options.push_back(Flag("bytecode", 0, "Disassemble the bytecode"));
  AddDiagnosticOptions(c);
  c.one_of = {"ast", "ir", "bytecode"};
  return c;
}

// `--nats URL` and the connection's credentials: every cluster command
// takes them (docs/scaling.md, Credentials).
void AddNatsOptions(CommandSpec& c) {
  c.options.push_back(Valued("nats", ValueKind::kRequired, "URL",
                             "The NATS server(s), comma-separated (nats://127.0.0.1:4222); "
                             "required unless MTY_NATS_URL is set"));
  c.options.push_back(Valued("creds", ValueKind::kRequired, "FILE",
                             "Connect with the NATS user credentials (JWT and nkey seed) in FILE"));
  c.options.push_back(Valued("nkey", ValueKind::kRequired, "FILE",
                             "Connect as the user whose nkey seed is in FILE"));
  c.options.push_back(
      Valued("tls-ca", ValueKind::kRequired, "FILE",
             "Use TLS; the server's certificate must chain to the PEM CAs in FILE"));
  c.options.push_back(Valued("tls-cert", ValueKind::kRequired, "FILE",
                             "Use TLS with the PEM client certificate (chain) in FILE"));
  c.options.push_back(
      Valued("tls-key", ValueKind::kRequired, "FILE", "The PEM private key of --tls-cert"));
  c.options.push_back(Valued("inbox-prefix", ValueKind::kRequired, "PREFIX",
                             "Receive replies on PREFIX.> instead of _INBOX.> (per-user "
                             "permissions)"));
}

// `--verify-key FILE`: the commands that read results.
OptionSpec VerifyKey() {
  return Valued("verify-key", ValueKind::kRequired, "FILE",
                "The workers' Ed25519 public key(s) (PEM): a result must be signed by one; "
                "repeatable; required to read results");
}

CommandSpec Worker() {
  CommandSpec c = Command("worker",
                          "Run jobs from a NATS JetStream work queue, each under its manifest "
                          "intersected with this worker's, storing one result per job");
  AddNatsOptions(c);
  c.options.push_back(Valued("sign-key", ValueKind::kRequired, "FILE",
                             "The worker's Ed25519 private key (PEM), which signs every result; "
                             "required"));
  c.options.push_back(Valued("scratch", ValueKind::kRequired, "DIR",
                             "Make each job's scratch directory under DIR (default $TMPDIR or "
                             "/tmp)"));
  c.options.push_back(Valued("concurrency", ValueKind::kRequired, "N",
                             "Run up to N jobs at once, on N threads (default 1)"));
  c.options.push_back(Valued("manifest", ValueKind::kRequired, "FILE",
                             "The worker's manifest: what its jobs may use at most (a family it "
                             "leaves out is denied to every job)"));
  c.options.push_back(
      Valued("name", ValueKind::kRequired, "NAME", "The name in results (default host-pid)"));
  c.options.push_back(Valued("ack-wait", ValueKind::kRequired, "DUR",
                             "When creating the consumer: redeliver a job not acked within DUR "
                             "(default 30s; in-progress acks keep running jobs)"));
  c.options.push_back(Valued("max-deliver", ValueKind::kRequired, "N",
                             "When creating the consumer: deliver a job at most N times "
                             "(default 5)"));
  c.options.push_back(Valued("replicas", ValueKind::kRequired, "N",
                             "When creating the stream, consumer and buckets: N replicas "
                             "(default 1; 3 on a three-node cluster)"));
  c.options.push_back(Flag("quiet", 'q', "No line on stderr per job"));
  return c;
}

CommandSpec Submit() {
  CommandSpec c = Command("submit",
                          "Run a program on the workers of a NATS JetStream cluster: enqueue it, "
                          "wait for its result, print its output and exit as mty run would",
                          "FILE", kProgram);
  c.program_args = true;
  AddNatsOptions(c);
  c.options.push_back(VerifyKey());
  c.options.push_back(Valued("manifest", ValueKind::kRequired, "FILE",
                             "The job's manifest (held to its worker's)"));
  c.options.push_back(Flag("detach", 'd', "Print the job id and exit without waiting"));
  c.options.push_back(Valued("timeout", ValueKind::kRequired, "DUR",
                             "Give up waiting after DUR (exit 75; default: no limit)"));
  c.options.push_back(
      Flag("by-hash", 0, "Store the program in the programs bucket and send only its hash"));
  c.options.push_back(Valued("id", ValueKind::kRequired, "ID",
                             "The job id (letters, digits, _ and -; default: a random one)"));
  c.options.push_back(Valued("replicas", ValueKind::kRequired, "N",
                             "When creating the stream and buckets: N replicas (default 1)"));
  return c;
}

CommandSpec Result() {
  CommandSpec c =
      Command("result", "Print a job's stored result (mty submit --detach)", "ID", "the job id");
  AddNatsOptions(c);
  c.options.push_back(VerifyKey());
  c.options.push_back(Flag("wait", 'w', "Wait for the result when there is none yet"));
  c.options.push_back(
      Valued("timeout", ValueKind::kRequired, "DUR", "With --wait: give up after DUR (exit 75)"));
  c.options.push_back(Flag("json", 0, "Print the result document (JSON) instead"));
  return c;
}

CommandSpec Completions() {
  return Command("completions", "Print the shell completion script (bash or zsh)", "SHELL",
                 "bash or zsh");
}

CommandSpec Man() { return Command("man", "Print the man page (roff)"); }

}  // namespace

std::string FlagName(std::string_view key) {
  std::string flag(key);
  for (char& ch : flag)
    if (ch == '_') ch = '-';
  return flag;
}

const std::vector<CommandSpec>& Commands() {
  static const std::vector<CommandSpec> commands = {Run(),    Repl(),        Replay(), Check(),
                                                    Caps(),   Dump(),        Worker(), Submit(),
                                                    Result(), Completions(), Man()};
  return commands;
}

std::string ManTail() {
  // Every status: the driver's own (include/mty/exit_codes.h), each limit's breach
  // (policy.def) and each trap's that is neither 1 nor a limit's (traps.def).
  std::map<int, std::vector<std::string>> rows;
  for (const ExitInfo& e : kExits) rows[ExitCode(e.exit)].push_back(e.meaning);
  for (const ir::LimitInfo& l : ir::kLimits)
    if (l.exit_code > ExitCode(Exit::kNoMain))
      rows[l.exit_code].push_back(absl::StrCat("the ", l.key, " limit: ", l.doc));
  for (const ir::TrapInfo& t : ir::kTraps)
    if (t.exit_code != ExitCode(Exit::kFailed))
      rows[t.exit_code].push_back(absl::StrCat(t.text, " ", t.doc));
  std::string out = ".SH EXIT STATUS\n";
  for (const auto& [code, meanings] : rows)
    absl::StrAppend(&out, ".TP\n", code, "\n", Roff(absl::StrJoin(meanings, "; ")), "\n");
  absl::StrAppend(&out,
                  ".SH SEE ALSO\ndocs/cli.md, docs/language.md, "
                  "docs/sandboxing.md and docs/runtime.md in the mty sources\n");
  return out;
}

}  // namespace mty::driver
