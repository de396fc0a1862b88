// `mty repl` (docs/cli.md, REPL). Uses only the public API: each input is
// read by Program::ReadSourceInput (the parser's statements and items),
// compiled with Program::FromSource together with the session's items, and
// run by a fresh Runner under the command line's policy.
#include "repl.h"

#include <editline/readline.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "ctrl_c.h"
#include "mty/vocab/utf8.h"

namespace mty::driver {

namespace {

constexpr char kFile[] = "<repl>";
constexpr char kEntry[] = "__repl";
constexpr char kValue[] = "__repl_v";
constexpr char kPrompt[] = "mty> ";
constexpr char kMore[] = "...  ";

// ---- Standard input, and Ctrl-C at the prompt ---------------------------

CtrlC* g_ctrl_c = nullptr;
bool g_prompt_interrupted = false;

// Waits for a byte of standard input or a Ctrl-C at the prompt: the byte,
// -1 at end of input or error, -2 for a Ctrl-C.
int NextByte() {
  static unsigned char buf[4096];
  static size_t have = 0, at = 0;
  if (at < have) return buf[at++];
  for (;;) {
    pollfd fds[2] = {{STDIN_FILENO, POLLIN, 0}, {g_ctrl_c->prompt_fd(), POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (fds[1].revents & POLLIN) {
      g_ctrl_c->Drain();
      return -2;
    }
    if (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) {
      ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
      if (n > 0) {
        have = static_cast<size_t>(n);
        at = 1;
        return buf[0];
      }
      if (n < 0 && errno == EINTR) continue;
      return -1;
    }
  }
}

// libedit's input: a Ctrl-C ends the line being edited (readline returns
// NULL, told apart from end of input by the flag).
int EditGetc(FILE*) {
  int c = NextByte();
  if (c == -2) g_prompt_interrupted = true;
  return c < 0 ? EOF : c;
}

// ---- Reading lines -----------------------------------------------------

class LineReader {
 public:
  LineReader() : tty_(isatty(STDIN_FILENO) == 1) {
    if (!tty_) return;
    const char* env = std::getenv("MTY_HISTORY");
    const char* home = std::getenv("HOME");
    if (env)
      history_ = env;  // set and empty: no history
    else if (home && *home)
      history_ = absl::StrCat(home, "/.mty_history");
    rl_catch_signals = 0;
    rl_getc_function = EditGetc;
    rl_readline_name = "mty";
    rl_initialize();
    using_history();
    stifle_history(1000);
    if (!history_.empty()) read_history(history_.c_str());
  }
  bool tty() const { return tty_; }
  // One line without its newline; nullopt at end of input. *interrupted:
  // a Ctrl-C dropped the line.
  std::optional<std::string> Read(bool more, bool* interrupted) {
    *interrupted = false;
    if (!tty_) {
      std::string line;
      for (;;) {
        int c = NextByte();
        if (c == -2) {
          *interrupted = true;
          return std::string();
        }
        if (c == -1 && line.empty()) return std::nullopt;
        if (c == -1 || c == '\n') break;
        // A line longer than any program: the rest of it is skipped.
        if (line.size() <= kMaxProgramBytes) line += static_cast<char>(c);
      }
      if (line.size() > kMaxProgramBytes) {
        std::cerr << "mty: an input line over " << kMaxProgramBytes << " bytes: skipped\n"
                  << std::flush;
        *interrupted = true;  // dropped, as a Ctrl-C drops it
        return std::string();
      }
      return line;
    }
    g_prompt_interrupted = false;
    char* got = readline(more ? kMore : kPrompt);
    if (!got) {
      if (g_prompt_interrupted) {
        *interrupted = true;
        std::cout << "\n" << std::flush;
        return std::string();
      }
      std::cout << "\n" << std::flush;
      return std::nullopt;
    }
    std::string line(got);
    std::free(got);
    return line;
  }
  void Remember(const std::string& input) {
    if (!tty_ || absl::StripAsciiWhitespace(input).empty()) return;
    add_history(input.c_str());
    if (history_.empty()) return;
    if (write_history(history_.c_str()) == 0) chmod(history_.c_str(), 0600);
  }

 private:
  bool tty_;
  std::string history_;
};

// ---- Values and their types ----------------------------------------------

// The Mighty type a binding's value is declared with in the next input
// (`T`, the entry's generic parameter, where no element tells it);
// *opaque when some part of it has no host form.
std::string TypeOf(const Value& v, bool* opaque) {
  using K = Value::Kind;
  auto common = [&](auto begin, auto end, auto get) {
    std::optional<std::string> t;
    for (auto it = begin; it != end; ++it) {
      std::string e = TypeOf(get(*it), opaque);
      if (t && *t != e) return std::string("T");
      t = std::move(e);
    }
    return t.value_or("T");
  };
  switch (v.kind()) {
    case K::kUnit: return "()";
    case K::kBool: return "Bool";
    case K::kInt: return "I64";
    case K::kFloat: return "F64";
    case K::kChar: return "Char";
    case K::kStr: return "Str";
    case K::kBytes: return "[U8]";
    case K::kVec:
      return absl::StrCat("[",
                          common(v.items().begin(), v.items().end(),
                                 [](const Value& x) -> const Value& { return x; }),
                          "]");
    case K::kMap: {
      std::string key = common(v.entries().begin(), v.entries().end(),
                               [](const auto& e) -> const Value& { return e.first; });
      std::string val = common(v.entries().begin(), v.entries().end(),
                               [](const auto& e) -> const Value& { return e.second; });
      return absl::StrCat("Map[", key, ", ", val, "]");
    }
    case K::kTuple: {
      if (v.items().size() < 2) return "T";
      std::vector<std::string> parts;
      for (const Value& x : v.items()) parts.push_back(TypeOf(x, opaque));
      return absl::StrCat("(", absl::StrJoin(parts, ", "), ")");
    }
    case K::kStruct: {
      for (const Value& x : v.items()) TypeOf(x, opaque);
      return v.type_name();
    }
    case K::kEnum: {
      std::vector<std::string> fields;
      for (const Value& x : v.items()) fields.push_back(TypeOf(x, opaque));
      const std::string inner = fields.size() == 1 ? fields[0] : "T";
      if (v.type_name() == "Option") return absl::StrCat("Option[", inner, "]");
      if (v.type_name() == "Result")
        return v.variant() == "Ok" ? absl::StrCat("Result[", inner, ", T]")
                                   : absl::StrCat("Result[T, ", inner, "]");
      return v.type_name();
    }
    case K::kOpaque: *opaque = true; return "T";
  }
  return "T";
}

// The debug text of the first part of `v` with no host form.
std::string OpaqueText(const Value& v) {
  if (v.is(Value::Kind::kOpaque)) return v.as_str();
  for (const Value& x : v.items())
    if (std::string t = OpaqueText(x); !t.empty()) return t;
  for (const auto& [k, x] : v.entries())
    if (std::string t = OpaqueText(x); !t.empty()) return t;
  return "";
}

// The first struct or enum of `names` that `v` or a part of it is of ("":
// none).
std::string UsesType(const Value& v, const std::vector<std::string>& names) {
  if (v.is(Value::Kind::kStruct) || v.is(Value::Kind::kEnum))
    for (const std::string& n : names)
      if (v.type_name() == n) return n;
  for (const Value& x : v.items())
    if (std::string t = UsesType(x, names); !t.empty()) return t;
  for (const auto& [k, x] : v.entries()) {
    if (std::string t = UsesType(k, names); !t.empty()) return t;
    if (std::string t = UsesType(x, names); !t.empty()) return t;
  }
  return "";
}

// ---- The session ---------------------------------------------------------

struct Binding {
  std::string name;
  bool is_mut = false;
  Value value;
  std::string type;  // what the next input declares it with
  std::string cast;  // `Duration` / `Size`: restored by a cast (they cross as I64)
};

struct Item {
  std::vector<std::string> names;
  std::string text;
};

int Lines(std::string_view text) {
  int n = 1;
  for (char ch : text) n += ch == '\n';
  return n;
}

// The line numbers of a generated text (CompileOptions::line_numbers):
// each part that was typed (the input, the input that defined an item) is
// reported from its own line 1; the lines around them keep their own.
class LineNumbers {
 public:
  // The next lines are lines first..last of what was typed.
  void Typed(int first, int last) {
    for (int l = first; l <= last; ++l) numbers_.push_back(l);
  }
  // Lines up to `line` of the text keep their own numbers.
  void Own(int line) {
    while (static_cast<int>(numbers_.size()) < line)
      numbers_.push_back(static_cast<int>(numbers_.size()) + 1);
  }
  // Compiles `source` so that its locations are the typed lines.
  absl::StatusOr<std::shared_ptr<const Program>> Compile(const std::string& source) const {
    CompileOptions options;
    options.line_numbers = numbers_;
    return Program::FromSource(source, kFile, options);
  }

 private:
  std::vector<int> numbers_;
};

// The program one input compiles to.
struct Generated {
  std::string source;
  LineNumbers lines;
  std::vector<std::string> returned;  // the bindings it returns, in order
  std::vector<bool> returned_mut;
  bool has_value = false;
};

// The functions of an MtyIR text or bytecode listing that the input made
// (the entry and its closures, `__repl...`).
std::string InputFunctions(const std::string& text) {
  std::string out;
  bool keep = false;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    std::string l(line);
    if (absl::StartsWith(l, "fn ") || absl::StartsWith(l, "once fn ")) {
      std::string rest = l.substr(l.find("fn ") + 3);
      keep = absl::StartsWith(rest, kEntry);
      if (keep && !out.empty()) out += "\n";
    } else if (!l.empty() && l[0] != ' ' && l != "}" && !absl::StartsWith(l, "bb")) {
      keep = false;  // another top-level line
    }
    if (keep) absl::StrAppend(&out, l, "\n");
    if (keep && l == "}") keep = false;
  }
  return out;
}

constexpr char kHelp[] =
    "Type an expression to see its value, a `let` to bind names for later\n"
    "inputs, or an item (fn, struct, enum, impl, trait, const, agent, ...)\n"
    "to add it to the session. Input continues on `...` lines while a\n"
    "delimiter, string or comment is open. Each input runs under the\n"
    "command line's budgets and grants; an error, trap or breach is\n"
    "reported and the session goes on unchanged.\n"
    "  :type EXPR      the type of EXPR (static when the compiler knows it,\n"
    "                  else the type of its value: it is then run)\n"
    "  :ir [INPUT]     the MtyIR INPUT compiles to (alone: the session's items)\n"
    "  :bytecode [INPUT]  the same as bytecode\n"
    "  :vars           the session's bindings and their types\n"
    "  :help           this text\n"
    "  :quit           end the session (also Ctrl-D); Ctrl-C stops a running\n"
    "                  input or drops the one being typed\n";

class Session {
 public:
  Session(const ReplOptions& options, CtrlC* ctrl_c, bool tty)
      : options_(options), ctrl_c_(ctrl_c), tty_(tty) {}

  // Whether `input` is complete (false: read another line).
  bool Complete(const std::string& input) {
    if (absl::StartsWith(absl::StripLeadingAsciiWhitespace(input), ":")) return true;
    absl::StatusOr<Program::SourceInput> read = Program::ReadSourceInput(input, kFile);
    return read.ok() || read.status().code() != absl::StatusCode::kOutOfRange;
  }

  // Runs one input; false for `:quit`.
  bool Eval(const std::string& input) {
    const std::string text(absl::StripAsciiWhitespace(input));
    if (text.empty()) return true;
    if (text[0] == ':') return Command(text);
    absl::StatusOr<Program::SourceInput> read = Program::ReadSourceInput(input, kFile);
    if (!read.ok()) {
      Error(std::string(read.status().message()));
      return true;
    }
    if (read->items) {
      AddItems(input, read->item_names);
      return true;
    }
    Line(input, read->statements, Mode::kRun);
    return true;
  }

 private:
  enum class Mode { kRun, kType, kIr, kBytecode };

  void Error(std::string text) {
    if (!text.empty() && text.back() != '\n') text += "\n";
    std::cout << std::flush;
    std::cerr << text << std::flush;
  }

  // The session's items (but those sharing a name with `except`), for the
  // text after the lines *lines has numbered; their numbers go to *lines.
  std::string ItemsText(LineNumbers* lines, const std::vector<std::string>& except = {}) const {
    std::string out;
    for (const Item& it : items_) {
      if (Shares(it.names, except)) continue;
      lines->Typed(1, Lines(it.text));
      absl::StrAppend(&out, it.text, "\n");
    }
    return out;
  }

  static bool Shares(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    for (const std::string& x : a)
      for (const std::string& y : b)
        if (x == y) return true;
    return false;
  }

  // An item replaces the session's item of the same name (fn f typed
  // again); the new one is compiled first in the text, so that its errors
  // have the lines typed.
  void AddItems(const std::string& text, const std::vector<std::string>& names) {
    LineNumbers lines;
    lines.Typed(1, Lines(text));
    const std::string rest = ItemsText(&lines, names);
    absl::StatusOr<std::shared_ptr<const Program>> p =
        lines.Compile(absl::StrCat(text, "\n", rest));
    if (!p.ok()) {
      Error(std::string(p.status().message()));
      return;
    }
    std::vector<Item> kept;
    for (Item& it : items_)
      if (!Shares(it.names, names)) kept.push_back(std::move(it));
    kept.push_back({names, text});
    items_ = std::move(kept);
    // A binding of a type just redefined cannot cross into the new program.
    for (size_t i = 0; i < bindings_.size();) {
      std::string type = UsesType(bindings_[i].value, names);
      if (type.empty()) {
        ++i;
        continue;
      }
      Error(absl::StrCat("mty: `", bindings_[i].name, "` is dropped: its value is of the old `",
                         type, "`"));
      bindings_.erase(bindings_.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }

  Generated Generate(const std::string& text, const std::vector<Program::Statement>& stmts,
                     bool keep_bindings) const {
    Generated g;
    // Each earlier binding comes in, and the value and bindings go out, as
    // `Any`: checked where the statement uses them (docs/language.md §6).
    std::string header = absl::StrCat("fn ", kEntry, "(");
    std::string prelude;
    for (size_t i = 0; i < bindings_.size(); ++i) {
      const Binding& b = bindings_[i];
      absl::StrAppend(&header, i ? ", " : "", "__repl_p", i, ": Any");
      absl::StrAppend(&prelude, " let ", b.is_mut ? "mut " : "", b.name, ": ",
                      b.cast.empty() ? b.type : b.cast, " = __repl_p", i,
                      b.cast.empty() ? "" : absl::StrCat(" as ", b.cast), ";");
    }
    absl::StrAppend(&header, ") -> Any {", prelude);
    // The value: the last statement, when it is an expression without `;`.
    const Program::Statement* last = stmts.empty() ? nullptr : &stmts.back();
    g.has_value = last && last->kind == Program::Statement::Kind::kExpr && !last->has_semi;
    // The value's statement becomes a block's (so that it keeps its own
    // locations): `let __repl_v = {` ends the header line when the
    // statement starts the input, else the line before it, which then
    // breaks, the statement staying in its column.
    std::string body = text;
    int split = 0;  // the typed line the value's statement starts on (0: none)
    if (g.has_value) {
      const std::string let = absl::StrCat("let ", kValue, " = {");
      if (last->offset == 0) {
        absl::StrAppend(&header, " ", let);
      } else {
        const size_t line_start = text.rfind('\n', last->offset - 1);
        const size_t from = line_start == std::string::npos ? 0 : line_start + 1;
        std::string pad;
        for (char ch : text.substr(from, last->offset - from))
          if (ir::StartsScalar(ch)) pad += ch == '\t' ? '\t' : ' ';
        body =
            absl::StrCat(text.substr(0, last->offset), let, "\n", pad, text.substr(last->offset));
        split = Lines(text.substr(0, last->offset));
      }
      body += "\n}";
    }
    // Returned: every mutable binding (it may have changed) and every name
    // a top-level `let` binds (the last of each name).
    if (keep_bindings) {
      for (const Binding& b : bindings_)
        if (b.is_mut) {
          g.returned.push_back(b.name);
          g.returned_mut.push_back(true);
        }
      for (const Program::Statement& s : stmts)
        for (const auto& [name, is_mut] : s.names) {
          if (name == "_") continue;
          bool found = false;
          for (size_t i = 0; i < g.returned.size(); ++i)
            if (g.returned[i] == name) {
              g.returned_mut[i] = is_mut;
              found = true;
            }
          if (!found) {
            g.returned.push_back(name);
            g.returned_mut.push_back(is_mut);
          }
        }
    }
    std::string tail = absl::StrCat("(", kValue, ", format!(\"{:?}\", ", kValue, "), 0");
    for (const std::string& n : g.returned) absl::StrAppend(&tail, ", ", n);
    g.source = absl::StrCat(header, "\n", body, "\n", g.has_value ? "" : "let __repl_v = ()\n",
                            tail, ")\n}\n");
    // The header's line, then the input's (the split one twice).
    g.lines.Own(1);
    if (split == 0) {
      g.lines.Typed(1, Lines(text));
    } else {
      g.lines.Typed(1, split);
      g.lines.Typed(split, Lines(text));
    }
    g.lines.Own(Lines(g.source) - 1);
    g.source += ItemsText(&g.lines);
    return g;
  }

  void Line(const std::string& text, const std::vector<Program::Statement>& stmts, Mode mode) {
    Generated g = Generate(text, stmts, mode == Mode::kRun);
    if (mode == Mode::kType && !g.has_value) {
      Error(":type wants an expression");
      return;
    }
    absl::StatusOr<std::shared_ptr<const Program>> p = g.lines.Compile(g.source);
    if (!p.ok()) {
      Error(std::string(p.status().message()));
      return;
    }
    if (mode == Mode::kIr || mode == Mode::kBytecode) {
      std::cout << InputFunctions(mode == Mode::kIr ? (*p)->IrText() : (*p)->Disassembly())
                << std::flush;
      return;
    }
    // The value's static type, when the compiler knows it.
    const std::string stat = (*p)->LocalType(kEntry, kValue).value_or("");
    if (mode == Mode::kType && !stat.empty() && stat.find("Any") == std::string::npos) {
      std::cout << stat << "\n" << std::flush;
      return;
    }
    std::vector<Value> params;
    for (const Binding& b : bindings_) params.push_back(b.value);
    RunOptions opts;
    opts.policy = options_.policy;
    opts.outer_policy = options_.outer_policy;
    opts.entry = kEntry;
    opts.params = std::move(params);
    opts.deny_is_trap = options_.deny_is_trap;
    opts.on_event = options_.on_event;  // its lines are the typed ones (line_numbers)
    std::cout << std::flush;
    std::fflush(stdout);
    opts.stdout_fd = STDOUT_FILENO;
    opts.stderr_fd = STDERR_FILENO;
    Runner runner(*p, std::move(opts));
    ctrl_c_->Arm(&runner);
    RunResult r = runner.Run();
    ctrl_c_->Arm(nullptr);
    if (r.outcome != Outcome::kOk) {
      if (ctrl_c_->interrupted() && r.outcome == Outcome::kCancelled) {
        // After the terminal's `^C`.
        Error(absl::StrCat(tty_ ? "\n" : "", "interrupted (Ctrl-C); the session goes on"));
        return;
      }
      // The report `mty run` prints, and the status it would exit with.
      Error(absl::StrCat(r.Report(), "mty: `mty run` would exit ", r.exit_code,
                         "; the session is unchanged"));
      return;
    }
    if (!r.returned || !r.returned->is(Value::Kind::kTuple) ||
        r.returned->items().size() != 3 + g.returned.size()) {
      // The value or a binding could not be copied to the host (too large).
      Error(
          "mty: the input's value and bindings are too large to keep (a copy over the memory "
          "limit, or 256 MiB); the session is unchanged");
      return;
    }
    const std::vector<Value>& out = r.returned->items();
    if (mode == Mode::kType) {
      bool opaque = false;
      std::string t = TypeOf(out[0], &opaque);
      std::cout << (opaque ? stat : t)
                << "  (of the value: the compiler cannot tell it statically)\n"
                << std::flush;
      return;
    }
    // The new bindings.
    for (size_t i = 0; i < g.returned.size(); ++i) {
      const std::string& name = g.returned[i];
      Binding b;
      b.name = name;
      b.is_mut = g.returned_mut[i];
      b.value = out[3 + i];
      bool opaque = false;
      b.type = TypeOf(b.value, &opaque);
      const std::string declared = (*p)->LocalType(kEntry, name).value_or("");
      if (b.value.is(Value::Kind::kInt) && (declared == "Duration" || declared == "Size"))
        b.cast = declared;
      if (opaque) {
        Drop(name);
        Error(absl::StrCat("mty: `", name, "` holds ", OpaqueText(b.value),
                           ", which cannot be kept between inputs (closures, agent handles and "
                           "capabilities have no host form); use it within the one input"));
        continue;
      }
      Binding* old = Find(name);
      if (old)
        *old = std::move(b);
      else
        bindings_.push_back(std::move(b));
    }
    if (g.has_value && !out[0].is(Value::Kind::kUnit))
      std::cout << out[1].as_str() << "\n" << std::flush;
  }

  Binding* Find(const std::string& name) {
    for (Binding& b : bindings_)
      if (b.name == name) return &b;
    return nullptr;
  }

  void Drop(const std::string& name) {
    for (size_t i = 0; i < bindings_.size(); ++i)
      if (bindings_[i].name == name) {
        bindings_.erase(bindings_.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
  }

  bool Command(const std::string& text) {
    const std::string word = text.substr(0, text.find_first_of(" \t\n"));
    const std::string arg(absl::StripAsciiWhitespace(text.substr(word.size())));
    if (word == ":quit" || word == ":q" || word == ":exit") return false;
    if (word == ":help" || word == ":h" || word == ":?") {
      std::cout << kHelp << std::flush;
      return true;
    }
    if (word == ":vars") {
      for (const Binding& b : bindings_)
        std::cout << (b.is_mut ? "mut " : "") << b.name << ": "
                  << (b.cast.empty() ? b.type : b.cast) << "\n";
      std::cout << std::flush;
      return true;
    }
    const bool type = word == ":type" || word == ":t";
    const bool ir = word == ":ir";
    const bool bytecode = word == ":bytecode" || word == ":bc";
    if (!type && !ir && !bytecode) {
      Error(absl::StrCat("mty: unknown command '", word, "' (:help lists them)"));
      return true;
    }
    if (arg.empty()) {
      if (type) {
        Error("usage: :type EXPR");
        return true;
      }
      LineNumbers lines;
      absl::StatusOr<std::shared_ptr<const Program>> p = lines.Compile(ItemsText(&lines));
      if (!p.ok()) {
        Error(std::string(p.status().message()));
        return true;
      }
      std::cout << (ir ? (*p)->IrText() : (*p)->Disassembly()) << std::flush;
      return true;
    }
    absl::StatusOr<Program::SourceInput> read = Program::ReadSourceInput(arg, kFile);
    if (!read.ok()) {
      Error(std::string(read.status().message()));
      return true;
    }
    if (read->items) {
      if (type) {
        Error(":type wants an expression");
        return true;
      }
      LineNumbers lines;
      lines.Typed(1, Lines(arg));
      absl::StatusOr<std::shared_ptr<const Program>> p =
          lines.Compile(absl::StrCat(arg, "\n", ItemsText(&lines, read->item_names)));
      if (!p.ok()) {
        Error(std::string(p.status().message()));
        return true;
      }
      std::cout << (ir ? (*p)->IrText() : (*p)->Disassembly()) << std::flush;
      return true;
    }
    Line(arg, read->statements, type ? Mode::kType : ir ? Mode::kIr : Mode::kBytecode);
    return true;
  }

  const ReplOptions& options_;
  CtrlC* ctrl_c_;
  bool tty_;
  std::vector<Item> items_;
  std::vector<Binding> bindings_;
};

}  // namespace

int Repl(const ReplOptions& options) {
  CtrlC ctrl_c(CtrlC::Mode::kSession);
  g_ctrl_c = &ctrl_c;
  LineReader reader;
  Session session(options, &ctrl_c, reader.tty());
  if (reader.tty())
    std::cout << "mty " << kVersion << " repl; :help for help, :quit or Ctrl-D to leave\n"
              << std::flush;
  std::string input;
  for (;;) {
    bool interrupted = false;
    std::optional<std::string> line = reader.Read(!input.empty(), &interrupted);
    if (interrupted) {
      input.clear();
      continue;
    }
    if (!line) {
      if (!input.empty()) {
        // The end of input inside an open delimiter: its error.
        session.Eval(input);
        reader.Remember(input);
      }
      break;
    }
    input += input.empty() ? *line : absl::StrCat("\n", *line);
    if (!session.Complete(input)) continue;
    reader.Remember(input);
    const bool go_on = session.Eval(input);
    input.clear();
    if (!go_on) break;
  }
  g_ctrl_c = nullptr;
  return 0;
}

}  // namespace mty::driver
