// The command line's grammar, one table for everything that reads it: the
// parser, each subcommand's usage line and help, `mty help CMD`, the shell
// completions and the man page (docs/cli.md). Deno-style permission flags:
// `--allow-read` alone grants every path, `--allow-read=a,b` a list,
// `--allow-read a` one path; words after the program file (or after `--`)
// always reach the program.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace mty::driver {

enum class ValueKind : uint8_t {
  kNone,      // a flag: `--deny-is-trap`
  kRequired,  // `--steps N` or `--steps=N`
  // An allow-list: `--allow-read` (every entry), `--allow-read=A,B`, or
  // `--allow-read A` (one entry; the next word is taken unless it starts
  // with `-` or names a program: `.mty`, `.mtyir`).
  kList,
  kOptional,  // `--trace` or `--trace=json`: a value only after `=`
};

struct OptionSpec {
  std::string name;     // without the dashes: "allow-read"
  char short_name = 0;  // 'A' for -A; 0 for none
  ValueKind kind = ValueKind::kNone;
  std::string value_name;            // "PATH", "N", "FILE"
  std::string help;                  // one line
  std::vector<std::string> choices;  // the only values accepted, when fixed
};

struct CommandSpec {
  std::string name;  // "run"
  std::string summary;
  std::vector<OptionSpec> options;
  // The operand ("FILE"); "" when the command takes none.
  std::string operand;
  std::string operand_help;
  // Words after the operand are the program's (ARGS).
  bool program_args = false;
  // How the usage line shows those words when they are not the program's
  // ARGS ("" : `[--] [ARGS...]`; replay: `[PROGRAM]`).
  std::string rest;
  // Exactly one of these options must be given (dump: --ast|--ir|--bytecode).
  std::vector<std::string> one_of;
};

struct ParsedCommand {
  const CommandSpec* command = nullptr;
  // Each option as given, in order: its name and its value (nullopt: bare).
  std::vector<std::pair<std::string, std::optional<std::string>>> given;
  std::string operand;  // "-" for standard input
  std::vector<std::string> program_args;
  bool help = false;  // --help / -h before the operand

  bool Has(std::string_view name) const;
  // The last value given to `name` ("" for a bare one; nullopt: not given).
  std::optional<std::string> Last(std::string_view name) const;
};

// Parses the words after the subcommand's name. Errors are one line naming
// the word (`unknown option '--alow-read'; did you mean '--allow-read'?`),
// kInvalidArgument.
absl::StatusOr<ParsedCommand> ParseCommand(const CommandSpec& command,
                                           const std::vector<std::string>& words);

// `mty run [OPTIONS] FILE [--] [ARGS...]`.
std::string UsageLine(const CommandSpec& command);
// The usage line, the summary and one line per option.
std::string CommandHelp(const CommandSpec& command);
// `mty --help`: every subcommand with its summary.
std::string TopHelp(const std::vector<CommandSpec>& commands);
// The subcommand named `name`; nullptr when none.
const CommandSpec* FindCommand(const std::vector<CommandSpec>& commands, std::string_view name);
// `unknown subcommand 'rnu'; did you mean 'run'?` (or the list of them).
std::string UnknownCommand(const std::vector<CommandSpec>& commands, std::string_view name);

// A list value's entries (`a,b` -> {a, b}; empty parts dropped).
std::vector<std::string> SplitList(std::string_view value);

// Generated from the same table: bash and zsh completion scripts and the
// man page (roff, section 1; `tail`: the sections after the commands, in
// roff).
std::string BashCompletion(const std::vector<CommandSpec>& commands);
std::string ZshCompletion(const std::vector<CommandSpec>& commands);
std::string ManPage(const std::vector<CommandSpec>& commands, std::string_view version,
                    std::string_view tail);
// Text escaped for roff.
std::string Roff(std::string_view text);

}  // namespace mty::driver
