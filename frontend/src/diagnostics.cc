// Compile diagnostics: collection and the rustc-style rendering (header line,
// ` --> file:line:col`, the source lines, `^^^` under the primary span and
// `---` under each label, with their messages; optionally in colour). What
// is echoed never carries a control character or a byte that is not UTF-8:
// those are shown escaped, so a hostile source cannot drive the terminal
// (the only escape sequences are the colours the renderer adds).
#include "mty/frontend/diagnostics.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "lexer.h"
#include "mty/vocab/utf8.h"

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
  Diagnostic d;
  d.code = std::move(code);
  d.message = std::move(message);
  d.loc = loc;
  d.help = std::move(help);
  return list_.emplace_back(std::move(d));
}

Diagnostic& Diagnostics::Warning(std::string code, Loc loc, std::string message, std::string help) {
  Diagnostic d;
  d.severity = Severity::kWarning;
  d.code = std::move(code);
  d.message = std::move(message);
  d.loc = loc;
  d.help = std::move(help);
  return list_.emplace_back(std::move(d));
}

Diagnostic& Diagnostics::Add(Diagnostic d) {
  if (d.severity == Severity::kError) ++errors_;
  return list_.emplace_back(std::move(d));
}

void Diagnostics::DropRepeats(size_t from) {
  if (from >= list_.size()) return;
  auto key = [](const Diagnostic& d) {
    return absl::StrCat(static_cast<int>(d.severity), " ", d.code, " ", d.loc.line, ":", d.loc.col,
                        " ", d.message);
  };
  absl::flat_hash_set<std::string> seen;
  for (size_t i = 0; i < from; ++i) seen.insert(key(list_[i]));
  size_t out = from;
  for (size_t i = from; i < list_.size(); ++i) {
    if (!seen.insert(key(list_[i])).second) {
      if (list_[i].severity == Severity::kError) --errors_;
      continue;
    }
    if (out != i) list_[out] = std::move(list_[i]);
    ++out;
  }
  list_.resize(out);
}

void Diagnostics::DenyWarnings(const std::string& note) {
  for (Diagnostic& d : list_) {
    if (d.severity != Severity::kWarning) continue;
    d.severity = Severity::kError;
    if (d.note.empty()) d.note = note;
    ++errors_;
  }
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
// `\xHH`. With `cells` set, it gets one entry per 1-based column (columns
// count scalars, an ill-formed run one, as the lexer does): the width the
// column takes when shown, or kTab for a tab (copied, so that underlines line
// up in a terminal).
constexpr uint32_t kTab = 0;
std::string Shown(std::string_view line, std::vector<uint32_t>* cells = nullptr) {
  std::string out;
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
    if (cells)
      cells->push_back(d.ok() && d.scalar == '\t' ? kTab
                       : escaped                  ? static_cast<uint32_t>(out.size() - before)
                                                  : 1);
    i += d.length;
  }
  return out;
}

}  // namespace

namespace {

// ANSI styles (rustc's colours).
constexpr std::string_view kRed = "1;91";
constexpr std::string_view kYellow = "1;93";
constexpr std::string_view kBlue = "1;94";
constexpr std::string_view kBold = "1";

class Painter {
 public:
  explicit Painter(bool on) : on_(on) {}
  std::string operator()(std::string_view style, std::string_view text) const {
    if (!on_ || text.empty() || style.empty()) return std::string(text);
    std::string out = "\x1b[";
    out += style;
    out += 'm';
    out += text;
    out += "\x1b[0m";
    return out;
  }

 private:
  bool on_;
};

// A source line as shown: its escaped text and each column's width.
struct ShownLine {
  std::string text;
  std::vector<uint32_t> cells;

  // Column `col` (1-based) shown as `ch`: a tab stays a tab, an escaped
  // character takes its escape's width; past the end, one character.
  void Cell(uint32_t col, char ch, std::string& out) const {
    const uint32_t w = col >= 1 && col <= cells.size() ? cells[col - 1] : 1;
    if (w == kTab)
      out += '\t';
    else
      out.append(w, ch);
  }
  // The padding that puts the next character under column `col`, from
  // column `from`.
  std::string Pad(uint32_t from, uint32_t col) const {
    std::string out;
    for (uint32_t c = from; c < col; ++c) Cell(c, ' ', out);
    return out;
  }
  uint32_t Columns() const { return static_cast<uint32_t>(cells.size()); }
};

ShownLine ShowLine(std::string_view line) {
  ShownLine s;
  s.text = Shown(line, &s.cells);
  return s;
}

// One underlined span: the primary (`^`) or a label (`-`).
struct Ann {
  Loc begin, end;  // end inclusive, never before begin
  std::string message;
  bool primary = false;
};

// A source file's lines, indexed once per rendering: SourceFile::Line scans
// from the start, and a file with thousands of diagnostics asks for
// thousands of lines.
class SourceLines {
 public:
  explicit SourceLines(const SourceFile& file) : file_(file) {
    starts_.push_back(0);
    for (size_t i = 0; i < file.text.size(); ++i)
      if (file.text[i] == '\n') starts_.push_back(i + 1);
  }
  const std::string& name() const { return file_.name; }
  std::string_view text() const { return file_.text; }
  // As SourceFile::Line: 1-based line n without its newline (nor a CR).
  std::string_view Line(uint32_t n) const {
    if (n == 0 || n > starts_.size()) return {};
    const size_t start = starts_[n - 1];
    size_t end = n < starts_.size() ? starts_[n] - 1 : file_.text.size();
    std::string_view line = std::string_view(file_.text).substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
  }
  size_t Start(uint32_t n) const { return starts_[n - 1]; }  // n in 1..Lines()
  uint32_t Lines() const { return static_cast<uint32_t>(starts_.size()); }

 private:
  const SourceFile& file_;
  std::vector<size_t> starts_;
};

// The byte offset of 1-based column `col` of 1-based line `line` (npos past
// the end of the line).
size_t OffsetOf(const SourceLines& file, Loc loc) {
  std::string_view line = file.Line(loc.line);
  if (loc.line == 0 || line.empty()) return std::string_view::npos;
  size_t i = 0;
  for (uint32_t c = 1; c < loc.col && i < line.size(); ++c) i += ir::DecodeUtf8(line, i).length;
  if (i >= line.size()) return std::string_view::npos;
  return file.Start(loc.line) + i;
}

// The last column of the token at `loc`: its span when a diagnostic gives
// none. A position past the end of its line (end of file, a missing token)
// or on whitespace is one column.
Loc TokenEnd(const SourceLines& file, Loc loc) {
  const size_t at = OffsetOf(file, loc);
  if (at == std::string_view::npos) return loc;
  std::string_view rest = file.text().substr(at);
  const size_t len = TokenLength(rest);
  if (len == 0) return loc;
  Loc end = loc;
  Loc last = loc;
  for (size_t i = 0; i < len;) {
    last = end;
    const ir::Utf8Decoded d = ir::DecodeUtf8(rest, i);
    if (rest[i] == '\n') {
      ++end.line;
      end.col = 1;
    } else {
      ++end.col;
    }
    i += d.length;
  }
  // `last` is the position of the token's final character; a final `\r`
  // (of a CRLF inside a string) is not shown: the column before it.
  if (rest[len - 1] == '\r' && last.col > 1) --last.col;
  return last;
}

bool Before(Loc a, Loc b) { return a.line != b.line ? a.line < b.line : a.col < b.col; }

Loc ResolvedEnd(const SourceLines& file, Loc begin, Loc end) {
  if (begin.line == 0) return begin;
  if (begin.col == 0) begin.col = 1;
  Loc e = end.line == 0 ? TokenEnd(file, begin) : end;
  if (e.col == 0) e.col = 1;
  return Before(e, begin) ? begin : e;
}

Ann MakeAnn(const SourceLines& file, Loc begin, Loc end, std::string message, bool primary) {
  Ann a;
  a.begin = begin;
  if (a.begin.col == 0) a.begin.col = 1;
  a.end = ResolvedEnd(file, a.begin, end);
  // Within the text: a column at most one past its line's end, a line at
  // most the last (a wrong position never makes a huge row).
  auto columns = [&](uint32_t line) { return ShowLine(file.Line(line)).Columns(); };
  a.begin.col = std::min(a.begin.col, columns(a.begin.line) + 1);
  a.end.line = std::max(a.begin.line, std::min(a.end.line, file.Lines()));
  a.end.col = std::min(a.end.col, columns(a.end.line) + 1);
  if (Before(a.end, a.begin)) a.end = a.begin;
  a.message = std::move(message);
  a.primary = primary;
  return a;
}

// Writes the rows of one diagnostic's source snippet.
class Snippet {
 public:
  Snippet(const SourceLines& file, const Painter& paint, std::string_view primary_style,
          std::span<const int> numbers)
      : file_(file), paint_(paint), primary_style_(primary_style), numbers_(numbers) {}

  void Add(Ann a) { anns_.push_back(std::move(a)); }

  // The gutter width: the widest line number shown.
  size_t Width() {
    Prepare();
    uint32_t max = 1;
    for (size_t i = 0; i < lines_.size(); ++i) {
      max = std::max(max, ShownLineNumber(numbers_, lines_[i]));
      // The one line between two shown (Render) is shown too.
      if (i > 0 && lines_[i] == lines_[i - 1] + 2)
        max = std::max(max, ShownLineNumber(numbers_, lines_[i] - 1));
    }
    return Digits(max);
  }

  std::string Render() {
    Prepare();
    width_ = Width();
    std::string out;
    uint32_t prev = 0;
    for (uint32_t line : lines_) {
      if (prev != 0 && line > prev + 1) {
        if (line == prev + 2)
          SourceRow(prev + 1, out);
        else
          out += paint_(kBlue, "...") + "\n";
      }
      SourceRow(line, out);
      Annotations(line, out);
      prev = line;
    }
    return out;
  }

 private:
  // Picks the one span drawn over several lines (the primary if it is one)
  // and clips any other to its first line; collects the lines shown.
  void Prepare() {
    if (prepared_) return;
    prepared_ = true;
    std::stable_sort(anns_.begin(), anns_.end(),
                     [](const Ann& a, const Ann& b) { return a.primary > b.primary; });
    for (size_t i = 0; i < anns_.size(); ++i) {
      Ann& a = anns_[i];
      if (a.end.line == a.begin.line) continue;
      if (multi_ < 0) {
        multi_ = static_cast<int>(i);
        continue;
      }
      a.end =
          Loc{a.begin.line, std::max(a.begin.col, ShowLine(file_.Line(a.begin.line)).Columns())};
    }
    for (const Ann& a : anns_) lines_.push_back(a.begin.line);
    if (multi_ >= 0) {
      const Ann& m = anns_[static_cast<size_t>(multi_)];
      // At most two lines at each end of a long span.
      for (uint32_t l : {m.begin.line + 1, m.end.line - 1, m.end.line})
        if (l > m.begin.line && l <= m.end.line) lines_.push_back(l);
      // Drawn with `/` when it starts at the line's first character.
      std::string_view text = file_.Line(m.begin.line);
      size_t lead = 0;
      while (lead < text.size() && (text[lead] == ' ' || text[lead] == '\t')) ++lead;
      slash_ = m.begin.col == lead + 1;
    }
    std::sort(lines_.begin(), lines_.end());
    lines_.erase(std::unique(lines_.begin(), lines_.end()), lines_.end());
  }

  const Ann* Multi() const { return multi_ < 0 ? nullptr : &anns_[static_cast<size_t>(multi_)]; }
  std::string_view Style(const Ann& a) const { return a.primary ? primary_style_ : kBlue; }

  // `N | ` or `  | ` with the margin: the start of every row.
  std::string Gutter(uint32_t line_no) const {
    std::string n = line_no ? std::to_string(ShownLineNumber(numbers_, line_no)) : "";
    if (n.size() < width_) n.append(width_ - n.size(), ' ');
    return paint_(kBlue, n + " |");
  }
  // The two margin characters of a row on `line` (`source`: the line
  // itself, else an annotation row under it).
  std::string Margin(uint32_t line, bool source) const {
    const Ann* m = Multi();
    if (!m) return "";
    std::string_view style = Style(*m);
    if (line == m->begin.line && source) return slash_ ? paint_(style, "/") + " " : "  ";
    if (line >= m->begin.line && line <= m->end.line) return paint_(style, "|") + " ";
    return "  ";
  }

  static void Row(std::string& out, std::string row) {
    while (!row.empty() && row.back() == ' ') row.pop_back();
    out += row;
    out += '\n';
  }

  void SourceRow(uint32_t line, std::string& out) const {
    std::string text = Shown(file_.Line(line));
    std::string row = Gutter(line);
    std::string margin = Margin(line, true);
    if (!text.empty() || !margin.empty()) row += absl::StrCat(" ", margin, text);
    Row(out, std::move(row));
  }

  void Annotations(uint32_t line, std::string& out) const {
    const Ann* m = Multi();
    const ShownLine shown = ShowLine(file_.Line(line));
    const std::string blank = Gutter(0) + " ";
    // The multi-line span's first line, unless drawn with `/`: ` ___^`.
    if (m && line == m->begin.line && !slash_) {
      std::string under;
      for (uint32_t c = 1; c < m->begin.col; ++c) shown.Cell(c, '_', under);
      Row(out, blank + paint_(Style(*m), absl::StrCat(" _", under, m->primary ? "^" : "-")));
    }
    std::vector<const Ann*> here;
    for (const Ann& a : anns_)
      if (&a != m && a.begin.line == line) here.push_back(&a);
    std::stable_sort(here.begin(), here.end(),
                     [](const Ann* a, const Ann* b) { return a->begin.col < b->begin.col; });
    if (!here.empty()) SingleLine(shown, here, blank + Margin(line, false), out);
    // Its last line: `|___^ message`.
    if (m && line == m->end.line) {
      std::string under;
      for (uint32_t c = 1; c < m->end.col; ++c) shown.Cell(c, '_', under);
      std::string row =
          blank + paint_(Style(*m), absl::StrCat("|_", under, m->primary ? "^" : "-"));
      if (!m->message.empty()) absl::StrAppend(&row, " ", paint_(Style(*m), Shown(m->message)));
      Row(out, std::move(row));
    }
  }

  // The underlines of the spans on one line, then the messages that do
  // not fit after the last one, each on its own row with `|` connectors.
  void SingleLine(const ShownLine& shown, const std::vector<const Ann*>& here,
                  const std::string& prefix, std::string& out) const {
    uint32_t last_col = 0;
    for (const Ann* a : here) last_col = std::max(last_col, a->end.col);
    std::vector<const Ann*> owner(last_col + 1, nullptr);
    for (const Ann* a : here)
      for (uint32_t c = a->begin.col; c <= a->end.col; ++c)
        if (!owner[c] || a->primary) owner[c] = a;
    std::string row = prefix;
    for (uint32_t c = 1; c <= last_col;) {
      if (!owner[c]) {
        shown.Cell(c, ' ', row);
        ++c;
        continue;
      }
      const Ann* a = owner[c];
      std::string run;
      for (; c <= last_col && owner[c] == a; ++c) shown.Cell(c, a->primary ? '^' : '-', run);
      row += paint_(Style(*a), run);
    }
    // The rightmost span's message goes after the underlines when no other
    // span reaches past its start.
    std::vector<const Ann*> below;
    for (const Ann* a : here)
      if (!a->message.empty()) below.push_back(a);
    if (!below.empty()) {
      const Ann* last = below.back();
      bool alone = last == here.back();
      for (const Ann* a : here)
        if (a != last && a->end.col >= last->begin.col) alone = false;
      if (alone) {
        absl::StrAppend(&row, " ", paint_(Style(*last), Shown(last->message)));
        below.pop_back();
      }
    }
    Row(out, std::move(row));
    if (below.empty()) return;
    auto connectors = [&](size_t n) {
      std::string r = prefix;
      uint32_t at = 1;
      for (size_t i = 0; i < n; ++i) {
        r += shown.Pad(at, below[i]->begin.col) + paint_(Style(*below[i]), "|");
        at = below[i]->begin.col + 1;
      }
      return std::make_pair(r, at);
    };
    Row(out, connectors(below.size()).first);
    for (size_t i = below.size(); i-- > 0;) {
      auto [r, at] = connectors(i);
      r += shown.Pad(at, below[i]->begin.col) + paint_(Style(*below[i]), Shown(below[i]->message));
      Row(out, std::move(r));
    }
  }

  const SourceLines& file_;
  const Painter& paint_;
  std::string_view primary_style_;
  std::span<const int> numbers_;
  std::vector<Ann> anns_;
  std::vector<uint32_t> lines_;
  int multi_ = -1;
  bool slash_ = false;
  bool prepared_ = false;
  size_t width_ = 1;
};

std::string RenderWith(const SourceLines& file, const Diagnostic& d, const RenderOptions& options) {
  const Painter paint(options.color);
  const bool error = d.severity == Severity::kError;
  const std::string_view style = error ? kRed : kYellow;
  std::string level = error ? "error" : "warning";
  if (!d.code.empty()) absl::StrAppend(&level, "[", d.code, "]");
  std::string out =
      absl::StrCat(paint(style, level), paint(kBold, absl::StrCat(": ", Shown(d.message))), "\n");
  auto extra = [&](const std::string& gutter) {
    std::string s;
    if (!d.help.empty())
      s += gutter + paint(kBlue, "= ") + paint(kBold, "help") + ": " + Shown(d.help) + "\n";
    if (!d.note.empty())
      s += gutter + paint(kBlue, "= ") + paint(kBold, "note") + ": " + Shown(d.note) + "\n";
    return s;
  };
  if (d.loc.line == 0) {
    absl::StrAppend(&out, " ", paint(kBlue, "-->"), " ", file.name(), "\n");
    return out + extra("  ");
  }
  Snippet snippet(file, paint, style, options.line_numbers);
  snippet.Add(MakeAnn(file, d.loc, d.end, d.label, true));
  for (const Label& l : d.labels)
    if (l.loc.line != 0) snippet.Add(MakeAnn(file, l.loc, l.end, l.message, false));
  const std::string gutter(snippet.Width(), ' ');
  out += gutter + paint(kBlue, "-->") + " " + file.name() + ":" +
         std::to_string(ShownLineNumber(options.line_numbers, d.loc.line)) + ":" +
         std::to_string(d.loc.col == 0 ? 1 : d.loc.col) + "\n";
  out += paint(kBlue, gutter + " |") + "\n";
  out += snippet.Render();
  if (!d.help.empty() || !d.note.empty())
    out += paint(kBlue, gutter + " |") + "\n" + extra(gutter + " ");
  return out;
}

}  // namespace

uint32_t ShownLineNumber(std::span<const int> numbers, uint32_t n) {
  return n >= 1 && n <= numbers.size() ? static_cast<uint32_t>(numbers[n - 1]) : n;
}

Loc SpanEnd(const SourceFile& file, Loc begin, Loc end) {
  return ResolvedEnd(SourceLines(file), begin, end);
}

void Diagnostics::ResolveSpans(const SourceFile& file) {
  const SourceLines lines(file);
  for (Diagnostic& d : list_) {
    d.end = ResolvedEnd(lines, d.loc, d.end);
    for (Label& l : d.labels) l.end = ResolvedEnd(lines, l.loc, l.end);
  }
}

std::string RenderOne(const SourceFile& file, const Diagnostic& d, const RenderOptions& options) {
  return RenderWith(SourceLines(file), d, options);
}

std::string Diagnostics::Render(const SourceFile& file, const RenderOptions& options) const {
  if (list_.empty()) return "";
  // In source order, whichever pass found them.
  std::vector<const Diagnostic*> sorted;
  for (const Diagnostic& d : list_) sorted.push_back(&d);
  std::stable_sort(sorted.begin(), sorted.end(), [](const Diagnostic* a, const Diagnostic* b) {
    return a->loc.line != b->loc.line ? a->loc.line < b->loc.line : a->loc.col < b->loc.col;
  });
  std::string out;
  const SourceLines lines(file);
  for (const Diagnostic* d : sorted) out += RenderWith(lines, *d, options) + "\n";
  const Painter paint(options.color);
  const size_t warnings = WarningCount();
  const std::string emitted =
      warnings == 1 ? "1 warning emitted" : std::to_string(warnings) + " warnings emitted";
  if (errors_ > 0) {
    std::string text = ": aborting due to ";
    text += errors_ == 1 ? "1 previous error" : std::to_string(errors_) + " previous errors";
    if (warnings > 0) absl::StrAppend(&text, "; ", emitted);
    out += paint(kRed, "error") + paint(kBold, text) + "\n";
  } else {
    absl::StrAppend(&out, paint(kYellow, "warning"), paint(kBold, absl::StrCat(": ", emitted)),
                    "\n");
  }
  return out;
}

}  // namespace mty::frontend
