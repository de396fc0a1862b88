// The command line's grammar: the Deno-style permission flags, program
// arguments after the file, value forms, errors with suggestions, and the
// generated usage, help, completions and man page.
#include "args.h"

#include <string>
#include <vector>

#include "commands.h"
#include "gtest/gtest.h"
#include "mty/vocab/policy.h"
#include "mty/vocab/suggest.h"

namespace {

using mty::driver::Commands;
using mty::driver::FindCommand;
using mty::driver::ParseCommand;
using mty::driver::ParsedCommand;

ParsedCommand ParseRun(std::vector<std::string> words) {
  auto r = ParseCommand(*FindCommand(Commands(), "run"), words);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *r : ParsedCommand{};
}

std::string RunError(std::vector<std::string> words) {
  auto r = ParseCommand(*FindCommand(Commands(), "run"), words);
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : std::string(r.status().message());
}

using Given = std::vector<std::pair<std::string, std::optional<std::string>>>;

TEST(Args, TheSynopsisOfDocsCliPassesArgumentsToTheProgram) {
  ParsedCommand c = ParseRun({"--allow-read=inputs", "prog.mty", "--", "x", "y"});
  EXPECT_EQ(c.operand, "prog.mty");
  EXPECT_EQ(c.program_args, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(c.given, (Given{{"allow-read", "inputs"}}));
}

TEST(Args, WordsAfterTheProgramAreTheProgramsEvenWithoutDashes) {
  ParsedCommand c =
      ParseRun({"--allow-read=inputs", "prog.mty", "a", "b", "--help", "--steps", "1"});
  EXPECT_EQ(c.operand, "prog.mty");
  EXPECT_EQ(c.program_args, (std::vector<std::string>{"a", "b", "--help", "--steps", "1"}));
  EXPECT_FALSE(c.help);
  EXPECT_EQ(c.given.size(), 1u);
  // Only the first `--` right after the program is the separator.
  EXPECT_EQ(ParseRun({"p.mty", "--", "--", "z"}).program_args,
            (std::vector<std::string>{"--", "z"}));
  EXPECT_EQ(ParseRun({"p.mty", "a", "--"}).program_args, (std::vector<std::string>{"a", "--"}));
  // `--` before the program ends the options.
  ParsedCommand d = ParseRun({"--", "--odd-name.mty", "x"});
  EXPECT_EQ(d.operand, "--odd-name.mty");
  EXPECT_EQ(d.program_args, (std::vector<std::string>{"x"}));
}

TEST(Args, AllowFlagsTakeAListOneSpacedValueOrNothing) {
  // A comma list after `=`.
  EXPECT_EQ(ParseRun({"--allow-read=inputs,outputs", "p.mty"}).given,
            (Given{{"allow-read", "inputs,outputs"}}));
  EXPECT_EQ(mty::driver::SplitList("inputs,outputs"),
            (std::vector<std::string>{"inputs", "outputs"}));
  // One value after a space.
  ParsedCommand c = ParseRun({"--allow-read", "inputs", "p.mty", "b"});
  EXPECT_EQ(c.given, (Given{{"allow-read", "inputs"}}));
  EXPECT_EQ(c.operand, "p.mty");
  EXPECT_EQ(c.program_args, (std::vector<std::string>{"b"}));
  // Bare before the program: every path, the program stays the program.
  ParsedCommand bare = ParseRun({"--allow-read", "p.mty"});
  EXPECT_EQ(bare.given, (Given{{"allow-read", std::nullopt}}));
  EXPECT_EQ(bare.operand, "p.mty");
  EXPECT_EQ(ParseRun({"--allow-read", "p.mtyir"}).operand, "p.mtyir");
  EXPECT_EQ(ParseRun({"--allow-read", "-"}).operand, "-");
  // Bare before another flag: the next flag is not swallowed.
  ParsedCommand two = ParseRun({"--allow-read", "--allow-write=x", "p.mty"});
  EXPECT_EQ(two.given, (Given{{"allow-read", std::nullopt}, {"allow-write", "x"}}));
  // Repeatable; -A for --allow-all.
  EXPECT_EQ(ParseRun({"--allow-net=a.com", "--allow-net", "b.com", "-A", "p.mty"}).given,
            (Given{{"allow-net", "a.com"}, {"allow-net", "b.com"}, {"allow-all", std::nullopt}}));
  // An empty list after `=` is an error, not "everything".
  EXPECT_NE(RunError({"--allow-read=", "p.mty"}).find("empty list"), std::string::npos);
  EXPECT_NE(RunError({"--allow-read=,", "p.mty"}).find("empty list"), std::string::npos);
}

TEST(Args, ValueFlagsTakeExactlyOneValue) {
  EXPECT_EQ(ParseRun({"--steps", "10k", "p.mty"}).given, (Given{{"steps", "10k"}}));
  EXPECT_EQ(ParseRun({"--steps=10k", "p.mty"}).given, (Given{{"steps", "10k"}}));
  EXPECT_EQ(ParseRun({"--mb-policy", "drop", "p.mty"}).given, (Given{{"mb-policy", "drop"}}));
  // After the program: the program's.
  EXPECT_EQ(ParseRun({"p.mty", "--steps"}).program_args, (std::vector<std::string>{"--steps"}));
  EXPECT_EQ(RunError({"--steps"}), "--steps needs a value (N)");
  EXPECT_EQ(RunError({"--steps=", "p.mty"}), "--steps needs a value (N)");
  EXPECT_EQ(RunError({"--mb-policy", "explode", "p.mty"}),
            "--mb-policy: expected block, drop, fail, got 'explode'");
  EXPECT_EQ(RunError({"--deny-is-trap=yes", "p.mty"}), "--deny-is-trap takes no value");
}

TEST(Args, ErrorsNameTheWordAndSuggest) {
  EXPECT_EQ(RunError({"--alow-read=x", "p.mty"}),
            "unknown option '--alow-read'; did you mean '--allow-read'?");
  EXPECT_EQ(RunError({"--stpes", "5", "p.mty"}),
            "unknown option '--stpes'; did you mean '--steps'?");
  EXPECT_EQ(RunError({"--zzzzzzzz", "p.mty"}),
            "unknown option '--zzzzzzzz' (`mty help run` lists them)");
  EXPECT_EQ(RunError({"-Z", "p.mty"}), "unknown option '-Z' (`mty help run` lists them)");
  EXPECT_EQ(RunError({}), "missing FILE");
  EXPECT_EQ(mty::driver::UnknownCommand(Commands(), "rnu"),
            "unknown command 'rnu'; did you mean 'run'?");
  EXPECT_NE(mty::driver::UnknownCommand(Commands(), "frobnicate").find("the commands are run,"),
            std::string::npos);
  auto caps = ParseCommand(*FindCommand(Commands(), "caps"), {"a.mty", "b.mty"});
  ASSERT_FALSE(caps.ok());
  EXPECT_EQ(caps.status().message(), "unexpected argument 'b.mty'");
}

TEST(Args, DumpNeedsExactlyOneKind) {
  const auto& dump = *FindCommand(Commands(), "dump");
  EXPECT_TRUE(ParseCommand(dump, {"--ir", "f.mty"}).ok());
  EXPECT_EQ(ParseCommand(dump, {"f.mty"}).status().message(),
            "dump needs exactly one of --ast, --ir, --bytecode");
  EXPECT_EQ(ParseCommand(dump, {"--ir", "--ast", "f.mty"}).status().message(),
            "dump needs exactly one of --ast, --ir, --bytecode");
  // --help wins over a missing operand.
  auto help = ParseCommand(dump, {"--help"});
  ASSERT_TRUE(help.ok());
  EXPECT_TRUE(help->help);
}

TEST(Args, UsageLinesAreOnePerCommand) {
  EXPECT_EQ(mty::driver::UsageLine(*FindCommand(Commands(), "run")),
            "usage: mty run [OPTIONS] FILE [--] [ARGS...]");
  EXPECT_EQ(mty::driver::UsageLine(*FindCommand(Commands(), "dump")),
            "usage: mty dump --ast|--ir|--bytecode [OPTIONS] FILE");
  EXPECT_EQ(mty::driver::UsageLine(*FindCommand(Commands(), "caps")),
            "usage: mty caps [OPTIONS] FILE");
  EXPECT_EQ(mty::driver::UsageLine(*FindCommand(Commands(), "man")), "usage: mty man");
}

TEST(Args, HelpCompletionsAndManPageListEveryOptionOfTheTable) {
  const std::string bash = mty::driver::BashCompletion(Commands());
  const std::string zsh = mty::driver::ZshCompletion(Commands());
  const std::string man = mty::driver::ManPage(Commands(), "0.1.0", mty::driver::ManTail());
  EXPECT_EQ(man.rfind(".\\\"", 0), 0u);
  EXPECT_NE(man.find(".TH MTY 1"), std::string::npos);
  for (const auto& c : Commands()) {
    const std::string help = mty::driver::CommandHelp(c);
    EXPECT_NE(bash.find(c.name + ")"), std::string::npos) << c.name;
    EXPECT_NE(zsh.find("'" + c.name + ":"), std::string::npos) << c.name;
    EXPECT_NE(man.find(".SS mty " + c.name), std::string::npos) << c.name;
    for (const auto& o : c.options) {
      EXPECT_NE(help.find("--" + o.name), std::string::npos) << o.name;
      EXPECT_NE(bash.find("--" + o.name), std::string::npos) << o.name;
      EXPECT_NE(zsh.find("--" + o.name), std::string::npos) << o.name;
      EXPECT_NE(man.find(mty::driver::Roff("--" + o.name)), std::string::npos) << o.name;
    }
  }
  // The limit flags are the policy table's rows.
  const std::string run = mty::driver::CommandHelp(*FindCommand(Commands(), "run"));
  for (const auto& l : mty::ir::kLimits)
    EXPECT_NE(run.find("--" + mty::driver::FlagName(l.key) + " "), std::string::npos) << l.key;
  for (const auto& g : mty::ir::kGrants)
    EXPECT_NE(run.find(std::string("--") + g.flag + "[="), std::string::npos) << g.flag;
}

TEST(Suggest, NearestByEditDistance) {
  using mty::ir::EditDistance;
  using mty::ir::Nearest;
  EXPECT_EQ(EditDistance("lenght", "length"), 1u);  // a transposition
  EXPECT_EQ(EditDistance("totl", "total"), 1u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  // Ties (distance 1 each) go to the earlier candidate.
  EXPECT_EQ(Nearest("totl", {"count", "total", "tot"}), "total");
  EXPECT_EQ(Nearest("totl", {"tot", "total"}), "tot");
  EXPECT_EQ(Nearest("lenght", {"len", "length"}), "length");
  EXPECT_EQ(Nearest("LEN", {"len"}), "len");
  EXPECT_EQ(Nearest("len", {"len", "lens"}), "");  // an exact match needs no suggestion
  EXPECT_EQ(Nearest("xyzzy", {"total", "len"}), "");
  EXPECT_EQ(Nearest("", {"a"}), "");
}

}  // namespace
