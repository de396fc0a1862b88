// Compile diagnostics for Mighty source: codes, spans, labels and the
// rustc-style rendering (`error[MT0001]: ...`, ` --> file:line:col`, the
// source lines with `^^^` under the primary span and `---` under each
// label, optionally in colour).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mty/frontend/ast.h"

namespace mty::frontend {

struct SourceFile {
  std::string name;  // as given on the command line
  std::string text;
  // A library source of the front end (the std collections, lower_std.cc):
  // its code carries no location (line 0), so a trap inside it shows the
  // function and `(std)` in the backtrace.
  bool library = false;
  // The text of 1-based line n without its newline ("" when out of range).
  std::string_view Line(uint32_t n) const;
};

enum class Severity : uint8_t { kError, kWarning };

// A secondary label: another span the diagnostic points at (the definition
// of a wrongly called function, the `let` of an immutable local, the opener
// of an unclosed delimiter), underlined with `-` and its message.
struct Label {
  Loc loc;
  Loc end;  // last column covered (inclusive); line 0 = just `loc`
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::kError;
  std::string code;     // MT0001 ...
  std::string message;  // one line, no trailing period
  Loc loc;
  std::string help;  // optional extra line (`help: ...`)
  // The primary span's last column (inclusive). Line 0: the whole token
  // that starts at `loc` (re-lexed from the source when rendering).
  Loc end;
  std::vector<Label> labels;
  std::string label;  // optional: the primary span's own message, after its `^^^`
  std::string note;   // optional extra line (`note: ...`), after the help
};

struct RenderOptions {
  bool color = false;  // ANSI colours as rustc's: bold red errors, yellow warnings, blue gutter
  // The number line n of the file is shown as (` --> file:N:C`, the
  // gutter): line_numbers[n - 1]; a line past its end keeps its own. The
  // text shown is still line n's (mty::CompileOptions::line_numbers).
  std::span<const int> line_numbers;
};

// The number line n is shown as: numbers[n - 1], or n past the end (0,
// no line, stays 0).
uint32_t ShownLineNumber(std::span<const int> numbers, uint32_t n);

class Diagnostics {
 public:
  // Each returns the diagnostic just added, to set its span (`end`) and
  // labels; the reference is good until the next diagnostic is added.
  Diagnostic& Error(std::string code, Loc loc, std::string message, std::string help = "");
  Diagnostic& Warning(std::string code, Loc loc, std::string message, std::string help = "");
  // Adds a diagnostic as it is (an error or a warning, spans and labels).
  Diagnostic& Add(Diagnostic d);
  // Sets every `end` left unset (line 0), of the primary spans and the
  // labels, to the whole token's (SpanEnd), indexing the file once.
  void ResolveSpans(const SourceFile& file);
  // Makes every warning an error (`--deny-warnings`), each with `note`.
  void DenyWarnings(const std::string& note);
  // Drops each diagnostic from index `from` on that repeats one before it
  // (the same severity, code, place and message): a body lowered once per
  // type reports its mistake once.
  void DropRepeats(size_t from);
  // The diagnostic added last (to add a label), null when there is none.
  Diagnostic* Last() { return list_.empty() ? nullptr : &list_.back(); }
  bool HasErrors() const { return errors_ > 0; }
  size_t Count() const { return errors_; }  // errors only
  size_t WarningCount() const { return list_.size() - errors_; }
  const std::vector<Diagnostic>& list() const { return list_; }  // errors and warnings
  // Every diagnostic rendered in source order, then the summary: `error:
  // aborting due to N previous error(s)[; M warning(s) emitted]`, or
  // `warning: M warning(s) emitted` when there are only warnings.
  std::string Render(const SourceFile& file, const RenderOptions& options = {}) const;

 private:
  std::vector<Diagnostic> list_;
  size_t errors_ = 0;
};

// The last column (inclusive) of the span that starts at `begin` and ends
// at `end`: `end` itself, or (line 0) the end of the whole token at `begin`,
// re-lexed from the source; never before `begin`.
Loc SpanEnd(const SourceFile& file, Loc begin, Loc end);

// Renders one diagnostic:
//   error[MT0001]: expected ')', found 'log'
//    --> prog.mty:3:5
//     |
//   2 |     let x = max(1, (2 + 3)
//     |                - unclosed delimiter
//   3 |     log(x)
//     |     ^^^
// Labels on one line share it (`|` connectors, rightmost message inline);
// a primary span over several lines is drawn in the margin (`/`, `|_^`);
// lines between annotated ones are shown when one, else `...`. Control
// characters in the echoed source and messages are escaped.
std::string RenderOne(const SourceFile& file, const Diagnostic& d,
                      const RenderOptions& options = {});

}  // namespace mty::frontend
