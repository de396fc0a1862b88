// Compile diagnostics for Mighty source: codes, locations and the
// rustc-style rendering (`error[MT0001]: ...`, ` --> file:line:col`, the
// source line and a caret).
#pragma once

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

struct Diagnostic {
  std::string code;     // MT0001 ...
  std::string message;  // one line, no trailing period
  Loc loc;
  std::string help;  // optional extra line (`help: ...`)
};

class Diagnostics {
 public:
  void Error(std::string code, Loc loc, std::string message, std::string help = "");
  bool HasErrors() const { return !list_.empty(); }
  size_t Count() const { return list_.size(); }
  const std::vector<Diagnostic>& list() const { return list_; }
  // Every diagnostic rendered in order, then `error: aborting due to N
  // previous error(s)`.
  std::string Render(const SourceFile& file) const;

 private:
  std::vector<Diagnostic> list_;
};

// Renders one diagnostic:
//   error[MT0001]: expected ')', found '}'
//    --> prog.mty:3:14
//     |
//   3 |     let x = (1, 2
//     |              ^
std::string RenderOne(const SourceFile& file, const Diagnostic& d);

}  // namespace mty::frontend
