#include "args.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "mty/vocab/suggest.h"

namespace mty::driver {

bool ParsedCommand::Has(std::string_view name) const {
  return std::any_of(given.begin(), given.end(), [&](const auto& g) { return g.first == name; });
}

std::optional<std::string> ParsedCommand::Last(std::string_view name) const {
  for (auto it = given.rbegin(); it != given.rend(); ++it)
    if (it->first == name) return it->second.value_or("");
  return std::nullopt;
}

std::vector<std::string> SplitList(std::string_view value) {
  std::vector<std::string> out;
  for (absl::string_view part : absl::StrSplit(std::string(value), ',', absl::SkipEmpty()))
    out.emplace_back(part);
  return out;
}

namespace {

bool NamesProgram(std::string_view word) {
  auto ends = [&](std::string_view suffix) {
    return word.size() > suffix.size() && word.substr(word.size() - suffix.size()) == suffix;
  };
  return word == "-" || ends(".mty") || ends(".mtyir");
}

const OptionSpec* FindLong(const CommandSpec& c, std::string_view name) {
  for (const OptionSpec& o : c.options)
    if (o.name == name) return &o;
  return nullptr;
}

const OptionSpec* FindShort(const CommandSpec& c, char name) {
  for (const OptionSpec& o : c.options)
    if (o.short_name != 0 && o.short_name == name) return &o;
  return nullptr;
}

absl::Status UnknownOption(const CommandSpec& c, std::string_view word) {
  std::vector<std::string> names;
  for (const OptionSpec& o : c.options) names.push_back(absl::StrCat("--", o.name));
  names.push_back("--help");
  std::string near = ir::Nearest(word, names);
  return absl::InvalidArgumentError(
      absl::StrCat("unknown option '", std::string(word), "'",
                   near.empty() ? absl::StrCat(" (`mty help ", c.name, "` lists them)")
                                : absl::StrCat("; did you mean '", near, "'?")));
}

absl::Status CheckChoice(const OptionSpec& o, std::string_view value) {
  if (o.choices.empty() || std::find(o.choices.begin(), o.choices.end(), value) != o.choices.end())
    return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("--", o.name, ": expected ",
                                                 absl::StrJoin(o.choices, ", "), ", got '",
                                                 std::string(value), "'"));
}

}  // namespace

absl::StatusOr<ParsedCommand> ParseCommand(const CommandSpec& command,
                                           const std::vector<std::string>& words) {
  ParsedCommand out;
  out.command = &command;
  bool have_operand = false, options_done = false;
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (have_operand && command.program_args) {
      // Everything after the program is the program's; one `--` right
      // after it is the separator.
      if (!(w == "--" && out.program_args.empty() && i > 0 && words[i - 1] == out.operand))
        out.program_args.push_back(w);
      continue;
    }
    if (!options_done && w == "--") {
      options_done = true;
      continue;
    }
    if (!options_done && w.size() > 1 && w[0] == '-') {
      if (w == "--help" || w == "-h") {
        out.help = true;
        continue;
      }
      const OptionSpec* o = nullptr;
      std::optional<std::string> value;
      if (w[1] == '-') {
        std::string_view body = std::string_view(w).substr(2);
        size_t eq = body.find('=');
        o = FindLong(command, body.substr(0, eq));
        if (!o)
          return UnknownOption(command,
                               w.substr(0, eq == std::string_view::npos ? w.size() : eq + 2));
        if (eq != std::string_view::npos) value = std::string(body.substr(eq + 1));
      } else {
        if (w.size() != 2 || !(o = FindShort(command, w[1]))) return UnknownOption(command, w);
      }
      switch (o->kind) {
        case ValueKind::kNone:
          if (value)
            return absl::InvalidArgumentError(absl::StrCat("--", o->name, " takes no value"));
          break;
        case ValueKind::kRequired:
          if (!value) {
            if (i + 1 >= words.size())
              return absl::InvalidArgumentError(
                  absl::StrCat("--", o->name, " needs a value (", o->value_name, ")"));
            value = words[++i];
          }
          if (value->empty())
            return absl::InvalidArgumentError(
                absl::StrCat("--", o->name, " needs a value (", o->value_name, ")"));
          break;
        case ValueKind::kList:
          if (!value && i + 1 < words.size() && !words[i + 1].empty() && words[i + 1][0] != '-' &&
              !NamesProgram(words[i + 1]))
            value = words[++i];
          if (value && SplitList(*value).empty())
            return absl::InvalidArgumentError(absl::StrCat("--", o->name, "=: an empty list (give ",
                                                           o->value_name, "s, or no `=` for all)"));
          break;
        case ValueKind::kOptional: break;
      }
      if (value) {
        if (absl::Status s = CheckChoice(*o, *value); !s.ok()) return s;
      }
      out.given.emplace_back(o->name, std::move(value));
      continue;
    }
    if (command.operand.empty() || have_operand)
      return absl::InvalidArgumentError(absl::StrCat("unexpected argument '", w, "'"));
    out.operand = w;
    have_operand = true;
  }
  if (out.help) return out;
  if (!command.operand.empty() && !have_operand)
    return absl::InvalidArgumentError(absl::StrCat("missing ", command.operand));
  if (!command.one_of.empty()) {
    size_t n = 0;
    for (const std::string& name : command.one_of) n += out.Has(name) ? 1 : 0;
    if (n != 1) {
      std::vector<std::string> flags;
      for (const std::string& name : command.one_of) flags.push_back(absl::StrCat("--", name));
      return absl::InvalidArgumentError(
          absl::StrCat(command.name, " needs exactly one of ", absl::StrJoin(flags, ", ")));
    }
  }
  return out;
}

std::string UsageLine(const CommandSpec& c) {
  std::string line = absl::StrCat("usage: mty ", c.name);
  if (!c.one_of.empty()) {
    std::vector<std::string> flags;
    for (const std::string& name : c.one_of) flags.push_back(absl::StrCat("--", name));
    absl::StrAppend(&line, " ", absl::StrJoin(flags, "|"));
  }
  if (c.options.size() > c.one_of.size()) absl::StrAppend(&line, " [OPTIONS]");
  if (!c.operand.empty()) absl::StrAppend(&line, " ", c.operand);
  if (c.program_args) absl::StrAppend(&line, " ", c.rest.empty() ? "[--] [ARGS...]" : c.rest);
  return line;
}

namespace {

std::string OptionForm(const OptionSpec& o) {
  std::string form = o.short_name ? absl::StrCat("-", std::string(1, o.short_name), ", ") : "";
  absl::StrAppend(&form, "--", o.name);
  switch (o.kind) {
    case ValueKind::kNone: break;
    case ValueKind::kRequired: absl::StrAppend(&form, " ", o.value_name); break;
    case ValueKind::kList: absl::StrAppend(&form, "[=", o.value_name, ",...]"); break;
    case ValueKind::kOptional: absl::StrAppend(&form, "[=", o.value_name, "]"); break;
  }
  return form;
}

}  // namespace

std::string CommandHelp(const CommandSpec& c) {
  std::string out = absl::StrCat(UsageLine(c), "\n\n", c.summary, "\n");
  if (!c.operand.empty()) absl::StrAppend(&out, "\n  ", c.operand, "  ", c.operand_help, "\n");
  std::vector<std::pair<std::string, std::string>> rows;
  for (const OptionSpec& o : c.options) rows.emplace_back(OptionForm(o), o.help);
  rows.emplace_back("-h, --help", "Print this help");
  size_t width = 0;
  for (const auto& r : rows) width = std::max(width, r.first.size());
  absl::StrAppend(&out, "\noptions:\n");
  for (const auto& [form, help] : rows)
    absl::StrAppend(&out, "  ", form, std::string(width - form.size() + 2, ' '), help, "\n");
  return out;
}

std::string TopHelp(const std::vector<CommandSpec>& commands) {
  std::string out =
      "mty: run Mighty programs (.mty) and MtyIR (.mtyir) under budgets and capabilities\n\n"
      "usage: mty COMMAND [OPTIONS] ...\n\ncommands:\n";
  size_t width = 4;  // "help"
  for (const CommandSpec& c : commands) width = std::max(width, c.name.size());
  for (const CommandSpec& c : commands)
    absl::StrAppend(&out, "  ", c.name, std::string(width - c.name.size() + 2, ' '), c.summary,
                    "\n");
  absl::StrAppend(&out, "  help", std::string(width - 2, ' '),
                  "Print a command's options (mty help run)\n\n"
                  "  -h, --help     Print this help\n"
                  "  -V, --version  Print the version\n\n"
                  "docs/cli.md and `man mty` describe every command.\n");
  return out;
}

const CommandSpec* FindCommand(const std::vector<CommandSpec>& commands, std::string_view name) {
  for (const CommandSpec& c : commands)
    if (c.name == name) return &c;
  return nullptr;
}

std::string UnknownCommand(const std::vector<CommandSpec>& commands, std::string_view name) {
  std::vector<std::string> names;
  for (const CommandSpec& c : commands) names.push_back(c.name);
  names.push_back("help");
  std::string near = ir::Nearest(name, names);
  if (!near.empty())
    return absl::StrCat("unknown command '", std::string(name), "'; did you mean '", near, "'?");
  return absl::StrCat("unknown command '", std::string(name), "'; the commands are ",
                      absl::StrJoin(names, ", "));
}

// ---- Generated files ---------------------------------------------------------

namespace {

std::vector<std::string> Words(const CommandSpec& c) {
  std::vector<std::string> w;
  for (const OptionSpec& o : c.options) {
    w.push_back(absl::StrCat("--", o.name));
    if (o.short_name) w.push_back(absl::StrCat("-", std::string(1, o.short_name)));
  }
  w.push_back("--help");
  return w;
}

}  // namespace

// A leading `.` or `'` and every `\` or `-` escaped.
std::string Roff(std::string_view text) {
  std::string out;
  for (char ch : text) {
    if (ch == '\\')
      out += "\\e";
    else if (ch == '-')
      out += "\\-";
    else
      out += ch;
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out.insert(0, "\\&");
  return out;
}

std::string BashCompletion(const std::vector<CommandSpec>& commands) {
  std::string out =
      "# bash completion for mty (generated by `mty completions bash`)\n"
      "_mty() {\n"
      "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" cmd=\"${COMP_WORDS[1]}\"\n"
      "  if [ \"$COMP_CWORD\" -eq 1 ]; then\n";
  std::vector<std::string> names;
  for (const CommandSpec& c : commands) names.push_back(c.name);
  names.push_back("help");
  absl::StrAppend(&out, "    COMPREPLY=($(compgen -W \"", absl::StrJoin(names, " "),
                  " --help --version\" -- \"$cur\"))\n    return\n  fi\n  case \"$cmd\" in\n");
  for (const CommandSpec& c : commands) {
    absl::StrAppend(&out, "    ", c.name, ")\n      if [[ \"$cur\" == -* ]]; then\n",
                    "        COMPREPLY=($(compgen -W \"", absl::StrJoin(Words(c), " "),
                    "\" -- \"$cur\"))\n      else\n");
    if (c.operand.empty())
      absl::StrAppend(&out, "        COMPREPLY=()\n");
    else
      absl::StrAppend(&out, "        COMPREPLY=($(compgen -f -- \"$cur\"))\n");
    absl::StrAppend(&out, "      fi\n      ;;\n");
  }
  absl::StrAppend(&out, "    help)\n      COMPREPLY=($(compgen -W \"", absl::StrJoin(names, " "),
                  "\" -- \"$cur\"))\n      ;;\n  esac\n}\ncomplete -o filenames -F _mty mty\n");
  return out;
}

std::string ZshCompletion(const std::vector<CommandSpec>& commands) {
  auto quote = [](std::string_view s) {
    std::string q;
    for (char ch : s) {
      if (ch == '\'')
        q += "'\\''";
      else if (ch == '[' || ch == ']' || ch == ':') {
        q += '\\';
        q += ch;
      } else
        q += ch;
    }
    return q;
  };
  std::string out =
      "#compdef mty\n# zsh completion for mty (generated by `mty completions zsh`)\n"
      "_mty() {\n  local -a commands\n  commands=(\n";
  for (const CommandSpec& c : commands)
    absl::StrAppend(&out, "    '", c.name, ":", quote(c.summary), "'\n");
  absl::StrAppend(
      &out, "    'help:print a command''s options'\n  )\n",
      "  if (( CURRENT == 2 )); then\n    _describe command commands\n    return\n  fi\n",
      "  case ${words[2]} in\n");
  for (const CommandSpec& c : commands) {
    absl::StrAppend(&out, "    ", c.name, ")\n      _arguments -s \\\n");
    for (const OptionSpec& o : c.options) {
      std::string value = o.kind == ValueKind::kRequired ? absl::StrCat(":", o.value_name, ":")
                          : o.kind == ValueKind::kNone   ? ""
                                                         : "";
      if (o.kind == ValueKind::kRequired) value += o.value_name == "FILE" ? "_files" : " ";
      std::string name = o.kind == ValueKind::kList || o.kind == ValueKind::kOptional
                             ? absl::StrCat("--", o.name, "=-")
                             : absl::StrCat("--", o.name);
      absl::StrAppend(&out, "        '", name, "[", quote(o.help), "]", value, "' \\\n");
    }
    if (!c.operand.empty()) absl::StrAppend(&out, "        '1:", c.operand, ":_files' \\\n");
    if (c.program_args) absl::StrAppend(&out, "        '*::args:' \\\n");
    absl::StrAppend(&out, "        '--help[print help]'\n      ;;\n");
  }
  absl::StrAppend(&out, "  esac\n}\n_mty \"$@\"\n");
  return out;
}

std::string ManPage(const std::vector<CommandSpec>& commands, std::string_view version,
                    std::string_view tail) {
  std::string out = absl::StrCat(
      ".\\\" generated by `mty man` from the command table (driver/src/commands.cc)\n"
      ".TH MTY 1 \"\" \"mty ",
      std::string(version),
      "\" \"User Commands\"\n.SH NAME\nmty \\- run Mighty programs and MtyIR under budgets and "
      "capabilities\n.SH SYNOPSIS\n");
  for (const CommandSpec& c : commands)
    absl::StrAppend(&out, ".B ", Roff(UsageLine(c).substr(7)), "\n.br\n");
  absl::StrAppend(&out,
                  ".B mty help\n.I COMMAND\n.SH DESCRIPTION\n"
                  "mty compiles Mighty source (.mty) or MtyIR text (.mtyir) and runs it inside "
                  "the budgets and capabilities its flags and manifest give. "
                  "Everything is denied unless granted.\n.SH COMMANDS\n");
  for (const CommandSpec& c : commands) {
    absl::StrAppend(&out, ".SS ", Roff(absl::StrCat("mty ", c.name)), "\n", Roff(c.summary), "\n");
    if (!c.operand.empty())
      absl::StrAppend(&out, ".TP\n.I ", Roff(c.operand), "\n", Roff(c.operand_help), "\n");
    for (const OptionSpec& o : c.options)
      absl::StrAppend(&out, ".TP\n.B ", Roff(OptionForm(o)), "\n", Roff(o.help), "\n");
  }
  absl::StrAppend(&out, std::string(tail));
  return out;
}

}  // namespace mty::driver
