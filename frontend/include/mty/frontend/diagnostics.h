// Compile diagnostics for Mighty source: codes, locations and the
// rustc-style rendering (`error[MT0001]: ...`, ` --> file:line:col`, the
// source line and a caret).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mty/frontend/ast.h"

namespace mty::frontend {

struct SourceFile {
  std::string name;  // as given on the command line
  std::string text;
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
  Loc end;           // the primary span's last column (inclusive); line 0 = just `loc`
  std::vector<Label> labels;
};

class Diagnostics {
 public:
  // Each returns the diagnostic just added, to set its span (`end`) and
  // labels; the reference is good until the next diagnostic is added.
  Diagnostic& Error(std::string code, Loc loc, std::string message, std::string help = "");
  Diagnostic& Warning(std::string code, Loc loc, std::string message, std::string help = "");
  bool HasErrors() const { return errors_ > 0; }
  size_t Count() const { return errors_; }  // errors only
  size_t WarningCount() const { return list_.size() - errors_; }
  const std::vector<Diagnostic>& list() const { return list_; }  // errors and warnings
  // Every diagnostic rendered in order, then `error: aborting due to N
  // previous error(s)` (when there are errors).
  std::string Render(const SourceFile& file) const;

 private:
  std::vector<Diagnostic> list_;
  size_t errors_ = 0;
};

// Renders one diagnostic:
//   error[MT0001]: expected ')', found '}'
//    --> prog.mty:3:14
//     |
//   3 |     let x = (1, 2
//     |              ^
std::string RenderOne(const SourceFile& file, const Diagnostic& d);

}  // namespace mty::frontend
