// The Mighty lexer: identifiers, keywords, numbers (with suffixes, durations
// and sizes), strings, chars, punctuation and newline tokens; comments are
// trivia. Errors are reported once and lexing continues.
#include "lexer.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "mty/vocab/policy.h"
#include "mty/vocab/utf8.h"

namespace mty::frontend {

namespace {

// Hard keywords only; `agent`, `protocol`, `supervisor`, `sandbox`, `arena`,
// `macro`, `on`, `child`, `restart`, ... are contextual (see the parser).
constexpr std::string_view kKeywords[] = {
    "as",   "break", "const",  "continue", "else", "enum",  "false",  "fn",  "for",
    "if",   "impl",  "in",     "let",      "loop", "match", "mut",    "pub", "return",
    "self", "spawn", "struct", "trait",    "true", "type",  "unsafe", "use", "while"};

bool IsIdentStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool IsIdentChar(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int DigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

using ir::AppendUtf8;

// Unit suffixes (durations, sizes, counts) are the policy table's
// (ir::kUnitSuffixes): `2s`, `64MiB`, `1TB`, `10k`. A count multiplier makes
// a size value, as a bare count does in a sandbox entry.
std::string UnitSuffixHelp() {
  std::string durations, sizes;
  for (const ir::UnitSuffix& u : ir::kUnitSuffixes)
    absl::StrAppend(u.unit == ir::Unit::kDuration ? &durations : &sizes, " ", u.text);
  return absl::StrCat("durations", durations, "; sizes", sizes);
}

bool IsIntSuffix(std::string_view s) {
  static constexpr std::array<std::string_view, 12> k = {
      "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize"};
  for (std::string_view x : k)
    if (x == s) return true;
  return false;
}

class Lexer {
 public:
  Lexer(std::string_view text, Diagnostics& diags) : src_(text), diags_(diags) {}

  // Lexes the first token only (TokenLength): no UTF-8 check, no BOM.
  size_t FirstTokenLength() {
    if (!src_.empty()) Next();
    if (out_.tokens.empty() || out_.tokens.front().kind == Tok::kNewline) return 0;
    return out_.tokens.front().end_offset;
  }

  LexResult Run() {
    // Source text is UTF-8 (one decoder, ir/utf8.h): the first ill-formed
    // byte is MT0009 and nothing is lexed, so no raw byte reaches a literal.
    size_t bad = 0;
    ir::Utf8Error why = ir::Utf8Error::kNone;
    if (!ir::ValidUtf8(src_, &bad, &why)) {
      Loc at;
      ir::Utf8LineCol(src_, bad, &at.line, &at.col);
      // One column: the first ill-formed sequence, not the run after it.
      diags_
          .Error("MT0009", at, std::string("invalid UTF-8 (") + ir::Utf8ErrorText(why) + ")",
                 "Mighty source must be UTF-8; save the file as UTF-8")
          .end = at;
      out_.eof_error = true;
      Token eof;
      eof.kind = Tok::kEof;
      eof.loc = at;
      out_.tokens.push_back(std::move(eof));
      return std::move(out_);
    }
    // A UTF-8 byte order mark is skipped, as rustc does.
    if (src_.substr(0, 3) == "\xEF\xBB\xBF") Advance(3);
    while (pos_ < src_.size()) Next();
    Token eof;
    eof.kind = Tok::kEof;
    eof.offset = eof.end_offset = static_cast<uint32_t>(src_.size());
    eof.loc = last_end_.line ? last_end_ : Loc{1, 1};
    out_.tokens.push_back(std::move(eof));
    return std::move(out_);
  }

 private:
  char Cur(size_t ahead = 0) const {
    return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0';
  }
  Loc Here() const { return Loc{line_, col_}; }

  // Advances over n bytes, keeping line/column (columns count UTF-8 scalars).
  void Advance(size_t n = 1) {
    for (size_t i = 0; i < n && pos_ < src_.size(); ++i) {
      char c = src_[pos_++];
      if (c == '\n') {
        ++line_;
        col_ = 1;
      } else if (ir::StartsScalar(c)) {
        ++col_;
      }
    }
  }

  void Error(const char* code, Loc loc, std::string msg, std::string help = "") {
    diags_.Error(code, loc, std::move(msg), std::move(help));
  }

  Token& Push(Tok kind, Loc loc, size_t start) {
    Token t;
    t.kind = kind;
    t.loc = loc;
    t.offset = static_cast<uint32_t>(start);
    t.end_offset = static_cast<uint32_t>(pos_);
    t.end = kind == Tok::kNewline || col_ <= 1 ? loc : Loc{line_, col_ - 1};
    if (kind != Tok::kNewline) last_end_ = Here();
    out_.tokens.push_back(std::move(t));
    return out_.tokens.back();
  }

  void PushNewline(Loc loc, size_t start) {
    // Consecutive newlines (blank and comment-only lines) collapse into one.
    if (!out_.tokens.empty() && out_.tokens.back().kind == Tok::kNewline) return;
    if (out_.tokens.empty()) return;  // leading newlines carry no meaning
    Push(Tok::kNewline, loc, start);
  }

  void Next() {
    char c = Cur();
    size_t start = pos_;
    Loc loc = Here();
    if (c == '\n') {
      Advance();
      PushNewline(loc, start);
      return;
    }
    if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      Advance();
      return;
    }
    if (c == '/' && Cur(1) == '/') {
      while (pos_ < src_.size() && Cur() != '\n') Advance();
      return;
    }
    if (c == '/' && Cur(1) == '*') {
      BlockComment(loc, start);
      return;
    }
    if (c == 'b' && (Cur(1) == '\'' || Cur(1) == '"')) {
      ByteLiteral(loc, start);
      return;
    }
    if (c == 'r' && (Cur(1) == '"' || (Cur(1) == '#' && (Cur(2) == '"' || Cur(2) == '#')))) {
      RawString(loc, start);
      return;
    }
    if (IsIdentStart(c)) {
      while (IsIdentChar(Cur())) Advance();
      std::string word(src_.substr(start, pos_ - start));
      Token& t = Push(IsKeyword(word) ? Tok::kKeyword : Tok::kIdent, loc, start);
      t.text = std::move(word);
      return;
    }
    if (IsDigit(c)) {
      Number(loc, start);
      return;
    }
    if (c == '"') {
      String(loc, start);
      return;
    }
    if (c == '\'' && IsIdentStart(Cur(1))) {
      // `'outer` (no closing quote after the name) is a loop label, as in
      // Rust; `'a'` stays a character.
      size_t n = 1;
      while (IsIdentChar(Cur(n))) ++n;
      if (Cur(n) != '\'') {
        Advance(n);
        Token& t = Push(Tok::kLabel, loc, start);
        t.text = std::string(src_.substr(start + 1, n - 1));
        return;
      }
    }
    if (c == '\'') {
      Char(loc, start);
      return;
    }
    if (Punct(loc, start)) return;
    // Anything else: one diagnostic for a run of unexpected characters.
    while (pos_ < src_.size()) {
      char d = Cur();
      if (d == '\n' || d == ' ' || d == '\t' || d == '\r' || IsIdentChar(d) || d == '"' ||
          d == '\'' || IsPunctStart(d))
        break;
      Advance(ir::ScalarLength(src_, pos_));  // one whole scalar
    }
    std::string what(src_.substr(start, pos_ - start));
    unsigned char b = static_cast<unsigned char>(what[0]);
    std::string shown = what.substr(0, ir::DecodeUtf8(what, 0).length);
    if (b < 0x20 || b == 0x7F)
      shown = "\\x" + std::string(1, "0123456789abcdef"[b >> 4]) +
              std::string(1, "0123456789abcdef"[b & 15]);
    Error("MT0005", loc, "unexpected character '" + shown + "'");
    Token& t = Push(Tok::kError, loc, start);
    t.text = std::move(what);
  }

  static bool IsPunctStart(char c) {
    static constexpr std::string_view kStarts = "(){}[],;:.@?!#&|^=<>+-*/%";
    return kStarts.find(c) != std::string_view::npos;
  }

  void BlockComment(Loc loc, size_t start) {
    int depth = 0;
    bool saw_newline = false;
    Loc nl_loc;
    while (pos_ < src_.size()) {
      if (Cur() == '/' && Cur(1) == '*') {
        ++depth;
        Advance(2);
      } else if (Cur() == '*' && Cur(1) == '/') {
        Advance(2);
        if (--depth == 0) break;
      } else {
        if (Cur() == '\n' && !saw_newline) {
          saw_newline = true;
          nl_loc = Here();
        }
        Advance();
      }
    }
    if (depth > 0) {
      Error("MT0004", loc, "unterminated block comment", "add `*/` to close the comment");
      out_.eof_error = true;
      return;
    }
    // A comment that spans lines separates statements like a newline does.
    if (saw_newline) PushNewline(nl_loc, start);
  }

  // Reads an escape after the backslash at pos_; appends its UTF-8 to `out`.
  // Returns false (after reporting) for an unknown or malformed escape.
  bool Escape(std::string& out, uint32_t* scalar) {
    Loc loc = Here();
    Advance();  // backslash
    char e = Cur();
    uint32_t cp = 0;
    switch (e) {
      case 'n': cp = '\n'; break;
      case 't': cp = '\t'; break;
      case 'r': cp = '\r'; break;
      case '\\': cp = '\\'; break;
      case '"': cp = '"'; break;
      case '\'': cp = '\''; break;
      case '0': cp = 0; break;
      case 'u': {
        Advance();
        if (Cur() != '{') {
          Error("MT0003", loc, "invalid unicode escape", "write it as `\\u{HHHH}`");
          return false;
        }
        Advance();
        int digits = 0;
        while (DigitValue(Cur()) < 16 || Cur() == '_') {
          if (Cur() != '_') {
            cp = cp * 16 + static_cast<uint32_t>(DigitValue(Cur()));
            ++digits;
          }
          Advance();
          if (digits > 6) break;
        }
        if (Cur() != '}' || digits == 0 || digits > 6) {
          Error("MT0003", loc, "invalid unicode escape", "write it as `\\u{HHHH}` (1 to 6 digits)");
          return false;
        }
        Advance();
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
          Error("MT0003", loc, "invalid unicode escape: not a Unicode scalar value");
          return false;
        }
        AppendUtf8(out, cp);
        if (scalar) *scalar = cp;
        return true;
      }
      case '\r':
      case '\n': {
        // A backslash at the end of a line skips the newline and the next
        // line's leading whitespace, as in Rust.
        while (Cur() == '\n' || Cur() == ' ' || Cur() == '\t' || Cur() == '\r') Advance();
        if (scalar) *scalar = 0xFFFFFFFF;
        return true;
      }
      default: {
        std::string shown = e == '\0' ? "" : std::string(1, e);
        Error("MT0003", loc, "unknown character escape: '\\" + shown + "'",
              "valid escapes are \\n \\t \\r \\\\ \\\" \\' \\0 \\u{HHHH}");
        if (e != '\0' && e != '\n') Advance();
        return false;
      }
    }
    Advance();
    AppendUtf8(out, cp);
    if (scalar) *scalar = cp;
    return true;
  }

  void String(Loc loc, size_t start) {
    Advance();  // opening quote
    std::string value;
    bool bad = false;
    size_t first_nl = std::string_view::npos;
    Loc first_nl_loc;
    while (pos_ < src_.size() && Cur() != '"') {
      if (Cur() == '\\') {
        if (!Escape(value, nullptr)) bad = true;
        continue;
      }
      if (Cur() == '\n' && first_nl == std::string_view::npos) {
        first_nl = pos_;
        first_nl_loc = Here();
      }
      if (Cur() != '\r' || Cur(1) != '\n') value += Cur();  // CRLF = LF
      Advance();
    }
    if (pos_ >= src_.size()) {
      Error("MT0002", loc, "unterminated double quote string", "add a closing `\"`");
      // Recover: end the string at the end of its first line, so the rest of
      // the file still lexes (and parses) normally.
      if (first_nl != std::string_view::npos) {
        pos_ = first_nl;
        line_ = first_nl_loc.line;
        col_ = first_nl_loc.col;
        value = std::string(src_.substr(start + 1, first_nl - start - 1));
      } else {
        out_.eof_error = true;
      }
      Token& t = Push(Tok::kStr, loc, start);
      t.text = std::move(value);
      t.bad = true;
      return;
    }
    Advance();  // closing quote
    Token& t = Push(Tok::kStr, loc, start);
    t.text = std::move(value);
    t.bad = bad;
  }

  // Rust's byte literals: `b'a'` is the U8 integer 97; `b"hi"` the array
  // of its bytes, `[104_u8, 105_u8]` (lexed as those tokens). Only ASCII
  // may be written in them, as in Rust.
  void ByteLiteral(Loc loc, size_t start) {
    Advance();  // b
    const bool single = Cur() == '\'';
    if (single) {
      Char(loc, start);
    } else {
      String(loc, start);
    }
    Token lit = std::move(out_.tokens.back());
    out_.tokens.pop_back();
    bool ascii = true;
    if (single) {
      ascii = lit.uint_value < 0x80;
    } else {
      for (unsigned char b : lit.text) ascii = ascii && b < 0x80;
    }
    if (!lit.bad && !ascii)
      Error("MT0008", loc,
            single ? "non-ASCII character in byte literal"
                   : "non-ASCII character in byte string literal",
            "write the byte as a number (`0xC3_u8`), or use a string");
    auto byte = [&](uint64_t v) {
      Token& t = Push(Tok::kInt, loc, start);
      t.text = absl::StrCat(v, "u8");
      t.suffix_len = 2;
      t.uint_value = v;
      t.bad = lit.bad;
    };
    if (single) {
      byte(lit.uint_value);
      return;
    }
    Push(Tok::kLBracket, loc, start);
    for (size_t i = 0; i < lit.text.size(); ++i) {
      if (i > 0) Push(Tok::kComma, loc, start);
      byte(static_cast<unsigned char>(lit.text[i]));
    }
    Push(Tok::kRBracket, loc, start);
  }

  void RawString(Loc loc, size_t start) {
    Advance();  // r
    size_t hashes = 0;
    while (Cur() == '#') {
      ++hashes;
      Advance();
    }
    if (Cur() != '"') {
      Error("MT0002", loc, "invalid raw string: expected '\"' after `r#`");
      Token& t = Push(Tok::kStr, loc, start);
      t.bad = true;
      return;
    }
    Advance();
    std::string value;
    while (pos_ < src_.size()) {
      if (Cur() == '"') {
        size_t n = 0;
        while (n < hashes && Cur(1 + n) == '#') ++n;
        if (n == hashes) {
          Advance(1 + hashes);
          Token& t = Push(Tok::kStr, loc, start);
          t.text = std::move(value);
          return;
        }
      }
      if (Cur() != '\r' || Cur(1) != '\n') value += Cur();
      Advance();
    }
    Error("MT0002", loc, "unterminated raw string", "add a closing `\"`");
    out_.eof_error = true;
    Token& t = Push(Tok::kStr, loc, start);
    t.text = std::move(value);
    t.bad = true;
  }

  void Char(Loc loc, size_t start) {
    Advance();  // opening quote
    std::string value;
    uint32_t cp = 0;
    int count = 0;
    bool bad = false;
    while (pos_ < src_.size() && Cur() != '\'' && Cur() != '\n') {
      if (Cur() == '\\') {
        if (!Escape(value, &cp)) bad = true;
      } else {
        ir::Utf8Decoded d = ir::DecodeUtf8(src_, pos_);  // the text is valid UTF-8
        cp = d.scalar;
        Advance(d.length);
      }
      ++count;
    }
    if (Cur() != '\'') {
      Error("MT0002", loc, "unterminated character literal", "add a closing `'`");
      Token& t = Push(Tok::kChar, loc, start);
      t.bad = true;
      return;
    }
    Advance();
    if (!bad && count != 1) {
      Error("MT0008", loc,
            count == 0 ? "empty character literal"
                       : "character literal may only contain one codepoint",
            count == 0 ? "" : "if you meant to write a string literal, use double quotes");
      bad = true;
    }
    Token& t = Push(Tok::kChar, loc, start);
    t.uint_value = bad ? 0 : cp;
    t.bad = bad;
  }

  void Number(Loc loc, size_t start) {
    int base = 10;
    if (Cur() == '0' && (Cur(1) == 'x' || Cur(1) == 'o' || Cur(1) == 'b')) {
      base = Cur(1) == 'x' ? 16 : Cur(1) == 'o' ? 8 : 2;
      Advance(2);
    }
    std::string digits;
    bool trailing_underscore = false;
    auto scan_digits = [&](int b) {
      while (true) {
        char c = Cur();
        if (c == '_') {
          // `42_u8`: an underscore followed by a letter starts the suffix.
          if (IsIdentStart(Cur(1)) && Cur(1) != '_' && !(b == 16 && DigitValue(Cur(1)) < 16)) break;
          trailing_underscore = !IsIdentChar(Cur(1)) || Cur(1) == '_';
          Advance();
          continue;
        }
        int v = DigitValue(c);
        if (b == 16 ? v >= 16 : !IsDigit(c)) break;
        digits += c;
        trailing_underscore = false;
        Advance();
      }
    };
    scan_digits(base);
    bool bad = false;
    bool is_float = false;
    std::string float_text = digits;
    // After `.` (tuple field `t.0.1`) only an integer is lexed.
    bool after_dot = !out_.tokens.empty() && out_.tokens.back().kind == Tok::kDot;
    if (base == 10 && !after_dot) {
      if (Cur() == '.' && IsDigit(Cur(1))) {
        is_float = true;
        Advance();
        std::string frac;
        std::swap(frac, digits);
        scan_digits(10);
        float_text += "." + digits;
        digits = std::move(frac);
      }
      if ((Cur() == 'e' || Cur() == 'E') &&
          (IsDigit(Cur(1)) || ((Cur(1) == '+' || Cur(1) == '-') && IsDigit(Cur(2))))) {
        is_float = true;
        float_text += 'e';
        Advance();
        if (Cur() == '+' || Cur() == '-') {
          float_text += Cur();
          Advance();
        }
        std::string mant;
        std::swap(mant, digits);
        scan_digits(10);
        float_text += digits;
        digits = std::move(mant);
      }
    }
    // Optional suffix: `_u8`, `i64`, `f32`, a duration or size unit.
    std::string suffix;
    if (Cur() == '_' && IsIdentStart(Cur(1))) Advance();
    if (IsIdentStart(Cur())) {
      size_t s = pos_;
      while (IsIdentChar(Cur())) Advance();
      suffix = std::string(src_.substr(s, pos_ - s));
    }
    if (trailing_underscore && suffix.empty()) {
      Error("MT0006", loc, "invalid number literal: trailing '_'");
      bad = true;
    }
    if (digits.empty() && !is_float) {
      Error("MT0006", loc,
            "invalid number literal: no digits after '" + std::string(src_.substr(start, 2)) + "'");
      bad = true;
    }
    Tok kind = is_float ? Tok::kFloat : Tok::kInt;
    if (!suffix.empty() && !bad) {
      if (suffix == "f32" || suffix == "f64") {
        if (base != 10) {
          Error("MT0006", loc, "invalid suffix '" + suffix + "' for a non-decimal literal");
          bad = true;
        }
        kind = Tok::kFloat;
        if (!is_float) float_text = digits;
      } else if (IsIntSuffix(suffix) && !is_float) {
        // kInt with suffix.
      } else {
        const ir::UnitSuffix* u = ir::FindUnitSuffix(suffix);
        if (u && !is_float && base == 10) {
          kind = u->unit == ir::Unit::kDuration ? Tok::kDuration : Tok::kSize;
        } else {
          Error(
              "MT0006", loc,
              "invalid suffix '" + suffix + "' for " + (is_float ? "float" : "number") + " literal",
              "valid suffixes: i8..i128, u8..u128, isize, usize, f32, f64; " + UnitSuffixHelp());
          bad = true;
        }
      }
    }
    Token& t = Push(kind, loc, start);
    t.text = std::string(src_.substr(start, pos_ - start));
    t.bad = bad;
    if (bad) return;
    if (kind == Tok::kFloat) {
      t.suffix_len = static_cast<uint8_t>(suffix.size());
      t.float_value = std::strtod(float_text.c_str(), nullptr);
      if (!std::isfinite(t.float_value)) {
        Error("MT0006", loc, "float literal is out of range");
        t.bad = true;
      }
      return;
    }
    uint64_t v = 0;
    for (char c : digits) {
      uint64_t d = static_cast<uint64_t>(DigitValue(c));
      if (d >= static_cast<uint64_t>(base)) {
        Error("MT0006", loc,
              "invalid digit '" + std::string(1, c) + "' in a base " + std::to_string(base) +
                  " literal");
        t.bad = true;
        return;
      }
      if (v > (std::numeric_limits<uint64_t>::max() - d) / static_cast<uint64_t>(base)) {
        Error("MT0006", loc, "integer literal is too large");
        t.bad = true;
        return;
      }
      v = v * static_cast<uint64_t>(base) + d;
    }
    if (kind == Tok::kInt) {
      t.suffix_len = static_cast<uint8_t>(suffix.size());
      t.uint_value = v;
      return;
    }
    // The one units parser (ir/policy.h) gives the value.
    absl::StatusOr<uint64_t> q =
        ir::ParseQuantity(kind == Tok::kDuration ? ir::Unit::kDuration : ir::Unit::kSize,
                          absl::StrCat(digits, suffix));
    if (!q.ok()) {
      Error("MT0006", loc,
            std::string(kind == Tok::kDuration ? "duration" : "size") +
                " literal: " + std::string(q.status().message()));
      t.bad = true;
      return;
    }
    t.suffix_len = static_cast<uint8_t>(suffix.size());
    t.uint_value = *q;
  }

  bool Punct(Loc loc, size_t start) {
    struct P {
      std::string_view s;
      Tok k;
    };
    // Longest first.
    static constexpr P kPuncts[] = {
        {"<<=", Tok::kShlEq},     {">>=", Tok::kShrEq},    {"..=", Tok::kDotDotEq},
        {"::", Tok::kColonColon}, {"..", Tok::kDotDot},    {"=>", Tok::kFatArrow},
        {"->", Tok::kArrow},      {"&&", Tok::kAmpAmp},    {"||", Tok::kPipePipe},
        {"==", Tok::kEqEq},       {"!=", Tok::kNe},        {"<=", Tok::kLe},
        {">=", Tok::kGe},         {"<<", Tok::kShl},       {">>", Tok::kShr},
        {"+=", Tok::kPlusEq},     {"-=", Tok::kMinusEq},   {"*=", Tok::kStarEq},
        {"/=", Tok::kSlashEq},    {"%=", Tok::kPercentEq}, {"&=", Tok::kAmpEq},
        {"|=", Tok::kPipeEq},     {"^=", Tok::kCaretEq},   {"(", Tok::kLParen},
        {")", Tok::kRParen},      {"{", Tok::kLBrace},     {"}", Tok::kRBrace},
        {"[", Tok::kLBracket},    {"]", Tok::kRBracket},   {",", Tok::kComma},
        {";", Tok::kSemi},        {":", Tok::kColon},      {".", Tok::kDot},
        {"@", Tok::kAt},          {"?", Tok::kQuestion},   {"!", Tok::kBang},
        {"#", Tok::kHash},        {"&", Tok::kAmp},        {"|", Tok::kPipe},
        {"^", Tok::kCaret},       {"=", Tok::kEq},         {"<", Tok::kLt},
        {">", Tok::kGt},          {"+", Tok::kPlus},       {"-", Tok::kMinus},
        {"*", Tok::kStar},        {"/", Tok::kSlash},      {"%", Tok::kPercent},
    };
    std::string_view rest = src_.substr(pos_);
    for (const P& p : kPuncts) {
      if (rest.substr(0, p.s.size()) == p.s) {
        Advance(p.s.size());
        Token& t = Push(p.k, loc, start);
        t.text = std::string(p.s);
        return true;
      }
    }
    return false;
  }

  std::string_view src_;
  Diagnostics& diags_;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  uint32_t col_ = 1;
  Loc last_end_;  // just past the last real token: where "end of file" points
  LexResult out_;
};

}  // namespace

bool IsKeyword(std::string_view word) {
  for (std::string_view k : kKeywords)
    if (k == word) return true;
  return false;
}

LexResult Lex(std::string_view text, Diagnostics& diags) { return Lexer(text, diags).Run(); }

size_t TokenLength(std::string_view text) {
  Diagnostics scratch;
  return Lexer(text, scratch).FirstTokenLength();
}

std::string TokSpelling(Tok kind) {
  switch (kind) {
    case Tok::kEof: return "end of file";
    case Tok::kNewline: return "newline";
    case Tok::kError: return "unexpected character";
    case Tok::kIdent: return "identifier";
    case Tok::kKeyword: return "keyword";
    case Tok::kInt: return "integer literal";
    case Tok::kFloat: return "float literal";
    case Tok::kStr: return "string literal";
    case Tok::kChar: return "character literal";
    case Tok::kDuration: return "duration literal";
    case Tok::kSize: return "size literal";
    case Tok::kLabel: return "loop label";
    case Tok::kLParen: return "'('";
    case Tok::kRParen: return "')'";
    case Tok::kLBrace: return "'{'";
    case Tok::kRBrace: return "'}'";
    case Tok::kLBracket: return "'['";
    case Tok::kRBracket: return "']'";
    case Tok::kComma: return "','";
    case Tok::kSemi: return "';'";
    case Tok::kColon: return "':'";
    case Tok::kColonColon: return "'::'";
    case Tok::kDot: return "'.'";
    case Tok::kDotDot: return "'..'";
    case Tok::kDotDotEq: return "'..='";
    case Tok::kFatArrow: return "'=>'";
    case Tok::kArrow: return "'->'";
    case Tok::kAt: return "'@'";
    case Tok::kQuestion: return "'?'";
    case Tok::kBang: return "'!'";
    case Tok::kHash: return "'#'";
    case Tok::kAmp: return "'&'";
    case Tok::kAmpAmp: return "'&&'";
    case Tok::kPipe: return "'|'";
    case Tok::kPipePipe: return "'||'";
    case Tok::kCaret: return "'^'";
    case Tok::kEq: return "'='";
    case Tok::kEqEq: return "'=='";
    case Tok::kNe: return "'!='";
    case Tok::kLt: return "'<'";
    case Tok::kLe: return "'<='";
    case Tok::kGt: return "'>'";
    case Tok::kGe: return "'>='";
    case Tok::kShl: return "'<<'";
    case Tok::kShr: return "'>>'";
    case Tok::kPlus: return "'+'";
    case Tok::kMinus: return "'-'";
    case Tok::kStar: return "'*'";
    case Tok::kSlash: return "'/'";
    case Tok::kPercent: return "'%'";
    case Tok::kPlusEq: return "'+='";
    case Tok::kMinusEq: return "'-='";
    case Tok::kStarEq: return "'*='";
    case Tok::kSlashEq: return "'/='";
    case Tok::kPercentEq: return "'%='";
    case Tok::kAmpEq: return "'&='";
    case Tok::kPipeEq: return "'|='";
    case Tok::kCaretEq: return "'^='";
    case Tok::kShlEq: return "'<<='";
    case Tok::kShrEq: return "'>>='";
  }
  return "token";
}

std::string Describe(const Token& t) {
  switch (t.kind) {
    case Tok::kIdent:
    case Tok::kKeyword:
    case Tok::kInt:
    case Tok::kFloat:
    case Tok::kDuration:
    case Tok::kSize: return "'" + t.text + "'";
    case Tok::kLabel: return "loop label '" + t.text;
    default: return TokSpelling(t.kind);
  }
}

}  // namespace mty::frontend
