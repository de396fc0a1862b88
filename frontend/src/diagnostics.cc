// Compile diagnostics: collection and the rustc-style rendering (header line,
// ` --> file:line:col`, the source line and a caret under the column).
#include "mty/frontend/diagnostics.h"

#include <algorithm>
#include <string>
#include <utility>

namespace mty::frontend {

std::string_view SourceFile::Line(uint32_t n) const {
  if (n == 0) return {};
  std::string_view t = text;
  size_t start = 0;
  for (uint32_t line = 1; line < n; ++line) {
    size_t nl = t.find('\n', start);
    if (nl == std::string_view::npos) return {};
    start = nl + 1;
  }
  if (start > t.size()) return {};
  size_t end = t.find('\n', start);
  if (end == std::string_view::npos) end = t.size();
  std::string_view line = t.substr(start, end - start);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF = LF
  return line;
}

void Diagnostics::Error(std::string code, Loc loc, std::string message, std::string help) {
  list_.push_back(Diagnostic{std::move(code), std::move(message), loc, std::move(help)});
}

namespace {

size_t Digits(uint32_t n) {
  size_t d = 1;
  while (n >= 10) {
    n /= 10;
    ++d;
  }
  return d;
}

// The padding that puts a caret under 1-based column `col` (UTF-8 scalars) of
// `line`: tabs are copied so the caret lines up in a terminal.
std::string CaretPad(std::string_view line, uint32_t col) {
  std::string pad;
  uint32_t scalar = 1;
  for (size_t i = 0; i < line.size() && scalar < col; ++i) {
    unsigned char c = static_cast<unsigned char>(line[i]);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte
    pad += c == '\t' ? '\t' : ' ';
    ++scalar;
  }
  // A column past the end of the line (end of file, a missing token).
  while (scalar < col) {
    pad += ' ';
    ++scalar;
  }
  return pad;
}

}  // namespace

std::string RenderOne(const SourceFile& file, const Diagnostic& d) {
  std::string out = "error[" + d.code + "]: " + d.message + "\n";
  if (d.loc.line == 0) {
    out += " --> " + file.name + "\n";
    if (!d.help.empty()) out += "  = help: " + d.help + "\n";
    return out;
  }
  const std::string gutter(Digits(d.loc.line), ' ');
  const std::string line_no = std::to_string(d.loc.line);
  std::string_view line = file.Line(d.loc.line);
  out += gutter + "--> " + file.name + ":" + line_no + ":" + std::to_string(d.loc.col) + "\n";
  out += gutter + " |\n";
  out += line_no + " |";
  if (!line.empty()) out += " " + std::string(line);
  out += "\n";
  out += gutter + " | " + CaretPad(line, d.loc.col == 0 ? 1 : d.loc.col) + "^\n";
  if (!d.help.empty()) out += gutter + " = help: " + d.help + "\n";
  return out;
}

std::string Diagnostics::Render(const SourceFile& file) const {
  if (list_.empty()) return "";
  // In source order, whichever pass found them.
  std::vector<Diagnostic> sorted = list_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.col < b.loc.col;
  });
  std::string out;
  for (const Diagnostic& d : sorted) out += RenderOne(file, d) + "\n";
  out += "error: aborting due to ";
  out += list_.size() == 1 ? "1 previous error" : std::to_string(list_.size()) + " previous errors";
  out += "\n";
  return out;
}

}  // namespace mty::frontend
