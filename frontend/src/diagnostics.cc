// Compile diagnostics: collection and the rustc-style rendering (header line,
// ` --> file:line:col`, the source line and a caret under the column). What
// is echoed never carries a control character or a byte that is not UTF-8:
// those are shown escaped, so a hostile source cannot drive the terminal.
#include "mty/frontend/diagnostics.h"

#include <algorithm>
#include <string>
#include <utility>

#include "mty/ir/utf8.h"

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

Diagnostic& Diagnostics::Error(std::string code, Loc loc, std::string message, std::string help) {
  ++errors_;
  return list_.emplace_back(Diagnostic{
      Severity::kError, std::move(code), std::move(message), loc, std::move(help), {}, {}});
}

Diagnostic& Diagnostics::Warning(std::string code, Loc loc, std::string message, std::string help) {
  return list_.emplace_back(Diagnostic{
      Severity::kWarning, std::move(code), std::move(message), loc, std::move(help), {}, {}});
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

// Whether scalar `c` is shown escaped: a C0 control other than tab, DEL and
// the C1 controls (U+0080..U+009F), any of which could drive a terminal.
bool IsControl(uint32_t c) { return (c < 0x20 && c != '\t') || (c >= 0x7F && c <= 0x9F); }

void AppendHexByte(std::string& out, unsigned char b) {
  out += "\\x";
  out += "0123456789abcdef"[b >> 4];
  out += "0123456789abcdef"[b & 15];
}

// Text of the source (or of a message) as it is echoed: control characters
// escaped (`\x1b`, `\u{9b}`) and each byte of an ill-formed UTF-8 sequence as
// `\xHH`. With `pad` set, *pad becomes the padding that puts a caret under
// 1-based column `col` (columns count scalars, an ill-formed run one, as
// the lexer does): one space per character shown, tabs copied so the caret
// lines up in a terminal.
std::string Shown(std::string_view line, uint32_t col = 0, std::string* pad = nullptr) {
  std::string out;
  uint32_t scalar = 1;
  for (size_t i = 0; i < line.size();) {
    const size_t before = out.size();
    bool escaped = true;
    ir::Utf8Decoded d = ir::DecodeUtf8(line, i);
    if (!d.ok()) {
      for (uint32_t k = 0; k < d.length; ++k)
        AppendHexByte(out, static_cast<unsigned char>(line[i + k]));
    } else if (d.scalar < 0x80 && IsControl(d.scalar)) {
      AppendHexByte(out, static_cast<unsigned char>(d.scalar));
    } else if (IsControl(d.scalar)) {
      out += "\\u{";
      out += "0123456789abcdef"[d.scalar >> 4];
      out += "0123456789abcdef"[d.scalar & 15];
      out += "}";
    } else {
      out.append(line.substr(i, d.length));
      escaped = false;
    }
    if (pad && scalar < col) {
      if (d.ok() && d.scalar == '\t')
        *pad += '\t';
      else
        pad->append(escaped ? out.size() - before : 1, ' ');
    }
    ++scalar;
    i += d.length;
  }
  // A column past the end of the line (end of file, a missing token).
  if (pad) {
    while (scalar < col) {
      *pad += ' ';
      ++scalar;
    }
  }
  return out;
}

}  // namespace

std::string RenderOne(const SourceFile& file, const Diagnostic& d) {
  std::string out = std::string(d.severity == Severity::kError ? "error[" : "warning[") + d.code +
                    "]: " + Shown(d.message) + "\n";
  if (d.loc.line == 0) {
    out += " --> " + file.name + "\n";
    if (!d.help.empty()) out += "  = help: " + Shown(d.help) + "\n";
    return out;
  }
  const std::string gutter(Digits(d.loc.line), ' ');
  const std::string line_no = std::to_string(d.loc.line);
  std::string_view line = file.Line(d.loc.line);
  out += gutter + "--> " + file.name + ":" + line_no + ":" + std::to_string(d.loc.col) + "\n";
  out += gutter + " |\n";
  std::string pad;
  std::string shown = Shown(line, d.loc.col == 0 ? 1 : d.loc.col, &pad);
  out += line_no + " |";
  if (!line.empty()) out += " " + shown;
  out += "\n";
  out += gutter + " | " + pad + "^\n";
  if (!d.help.empty()) out += gutter + " = help: " + Shown(d.help) + "\n";
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
  if (errors_ > 0) {
    out += "error: aborting due to ";
    out += errors_ == 1 ? "1 previous error" : std::to_string(errors_) + " previous errors";
    out += "\n";
  }
  return out;
}

}  // namespace mty::frontend
