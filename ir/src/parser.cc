// The .mtyir parser: a hand-written lexer and recursive-descent parser that
// reports the first error as `file:line:col: error: message`.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "mty/ir/policy.h"
#include "mty/ir/text.h"
#include "mty/ir/utf8.h"

namespace mty::ir {
namespace {

enum class Tok : uint8_t {
  kEof,
  kNewline,
  kIdent,     // identifiers, keywords, _N locals, bbN labels
  kInt,       // unsigned magnitude in u
  kFloat,     // f
  kDuration,  // i ns
  kSize,      // i bytes
  kStr,       // text
  kChar,      // u scalar
  kPunct,     // text: one of the punctuation spellings
};

struct Token {
  Tok kind = Tok::kEof;
  std::string text;
  uint64_t u = 0;
  double f = 0;
  int64_t i = 0;
  Loc loc;
};

class ParseError {};  // thrown internally; converted to a Status at the top

class Lexer {
 public:
  Lexer(std::string_view src, std::string_view file) : src_(src), file_(file) {}

  const std::string& error() const { return error_; }

  [[noreturn]] void Fail(Loc loc, std::string_view msg) {
    error_ = absl::StrCat(std::string(file_), ":", loc.line, ":", loc.col,
                          ": error: ", std::string(msg));
    throw ParseError();
  }

  Token Next() {
    Token t = Lex();
    after_dot_ = t.kind == Tok::kPunct && t.text == ".";
    return t;
  }

 private:
  Token Lex() {
    SkipSpace();
    Token t;
    t.loc = {line_, col_};
    if (pos_ >= src_.size()) return t;
    char c = src_[pos_];
    if (c == '\n') {
      Advance();
      t.kind = Tok::kNewline;
      return t;
    }
    if (IsIdentStart(c)) {
      size_t start = pos_;
      while (pos_ < src_.size() && IsIdentChar(src_[pos_])) Advance();
      t.kind = Tok::kIdent;
      t.text = std::string(src_.substr(start, pos_ - start));
      return t;
    }
    if (absl::ascii_isdigit(static_cast<unsigned char>(c))) return Number(t);
    if (c == '"') return String(t);
    if (c == '\'') return CharLit(t);
    static constexpr const char* kPuncts[] = {
        "=>", "->", "::", "==", "!=", "<=", ">=", "<<", ">>", "&", "|", "^", "+", "-", "*", "/",
        "%",  "<",  ">",  "=",  "!",  "(",  ")",  "[",  "]",  "{", "}", ",", ":", ".", "@", ";"};
    for (const char* p : kPuncts) {
      size_t n = std::strlen(p);
      if (src_.substr(pos_, n) == p) {
        for (size_t k = 0; k < n; ++k) Advance();
        t.kind = Tok::kPunct;
        t.text = p;
        return t;
      }
    }
    Fail(t.loc, absl::StrCat("unexpected character '", std::string(1, c), "'"));
  }

  static bool IsIdentStart(char c) {
    return absl::ascii_isalpha(static_cast<unsigned char>(c)) || c == '_';
  }
  static bool IsIdentChar(char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_';
  }

  void Advance() {
    if (src_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else if ((static_cast<unsigned char>(src_[pos_]) & 0xC0) != 0x80) {
      ++col_;
    }
    ++pos_;
  }

  void SkipSpace() {
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\r') {
        Advance();
      } else if (c == '/' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '/') {
        while (pos_ < src_.size() && src_[pos_] != '\n') Advance();
      } else {
        break;
      }
    }
  }

  Token Number(Token t) {
    size_t start = pos_;
    while (pos_ < src_.size() &&
           (absl::ascii_isdigit(static_cast<unsigned char>(src_[pos_])) || src_[pos_] == '_'))
      Advance();
    bool is_float = false;
    // After a '.', digits are a tuple index: `_1.0.1` is two projections.
    if (!after_dot_ && pos_ + 1 < src_.size() && src_[pos_] == '.' &&
        absl::ascii_isdigit(static_cast<unsigned char>(src_[pos_ + 1]))) {
      is_float = true;
      Advance();
      while (pos_ < src_.size() && absl::ascii_isdigit(static_cast<unsigned char>(src_[pos_])))
        Advance();
    }
    if (!after_dot_ && pos_ < src_.size() && (src_[pos_] == 'e' || src_[pos_] == 'E')) {
      size_t save = pos_;
      uint32_t save_col = col_;
      Advance();
      if (pos_ < src_.size() && (src_[pos_] == '+' || src_[pos_] == '-')) Advance();
      if (pos_ < src_.size() && absl::ascii_isdigit(static_cast<unsigned char>(src_[pos_]))) {
        is_float = true;
        while (pos_ < src_.size() && absl::ascii_isdigit(static_cast<unsigned char>(src_[pos_])))
          Advance();
      } else {
        pos_ = save;
        col_ = save_col;
      }
    }
    std::string digits;
    for (char ch : src_.substr(start, pos_ - start))
      if (ch != '_') digits += ch;
    if (is_float) {
      t.kind = Tok::kFloat;
      auto r = std::from_chars(digits.data(), digits.data() + digits.size(), t.f);
      if (r.ec != std::errc()) Fail(t.loc, "malformed float literal");
      return t;
    }
    auto r = std::from_chars(digits.data(), digits.data() + digits.size(), t.u);
    if (r.ec != std::errc()) Fail(t.loc, "integer literal out of range");
    // A unit suffix directly after the digits makes a duration or a size
    // (policy.h's table; a count multiplier such as `1k` makes a size).
    size_t ustart = pos_;
    while (pos_ < src_.size() && absl::ascii_isalpha(static_cast<unsigned char>(src_[pos_])))
      Advance();
    std::string_view unit = src_.substr(ustart, pos_ - ustart);
    t.text = std::string(src_.substr(start, pos_ - start));
    if (unit.empty()) {
      t.kind = Tok::kInt;
      return t;
    }
    const UnitSuffix* suffix = FindUnitSuffix(unit);
    if (!suffix)
      Fail(t.loc, absl::StrCat("unknown unit suffix '", std::string(unit), "' in '", t.text, "' (",
                               UnitSuffixNames(), ")"));
    Unit kind = suffix->unit == Unit::kDuration ? Unit::kDuration : Unit::kSize;
    absl::StatusOr<uint64_t> v = ParseQuantity(kind, t.text);
    if (!v.ok()) Fail(t.loc, std::string(v.status().message()));
    t.kind = kind == Unit::kDuration ? Tok::kDuration : Tok::kSize;
    t.i = static_cast<int64_t>(*v);
    return t;
  }

  static std::string UnitSuffixNames() {
    std::string out = "durations:";
    for (const UnitSuffix& u : kUnitSuffixes)
      if (u.unit == Unit::kDuration) absl::StrAppend(&out, " ", u.text);
    absl::StrAppend(&out, "; sizes:");
    for (const UnitSuffix& u : kUnitSuffixes)
      if (u.unit != Unit::kDuration) absl::StrAppend(&out, " ", u.text);
    return out;
  }

  uint32_t Escape(Loc at) {
    // Called with pos_ just after the backslash.
    if (pos_ >= src_.size()) Fail(at, "unterminated escape");
    char e = src_[pos_];
    Advance();
    switch (e) {
      case 'n': return '\n';
      case 't': return '\t';
      case 'r': return '\r';
      case '\\': return '\\';
      case '"': return '"';
      case '\'': return '\'';
      case '0': return 0;
      case 'u': {
        if (pos_ >= src_.size() || src_[pos_] != '{') Fail(at, "expected '{' after \\u");
        Advance();
        uint32_t v = 0;
        int n = 0;
        while (pos_ < src_.size() && src_[pos_] != '}') {
          char h = src_[pos_];
          if (!absl::ascii_isxdigit(static_cast<unsigned char>(h)) || ++n > 6)
            Fail(at, "malformed \\u{...} escape");
          v = v * 16 + (absl::ascii_isdigit(static_cast<unsigned char>(h))
                            ? h - '0'
                            : absl::ascii_tolower(h) - 'a' + 10);
          Advance();
        }
        if (pos_ >= src_.size() || n == 0) Fail(at, "malformed \\u{...} escape");
        Advance();
        if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
          Fail(at, "\\u{...} is not a Unicode scalar value");
        return v;
      }
      default: Fail(at, absl::StrCat("unknown escape '\\", std::string(1, e), "'"));
    }
  }

  // Decodes one UTF-8 scalar at pos_ (validating it) and advances past it.
  uint32_t DecodeUtf8(Loc at) {
    unsigned char c = static_cast<unsigned char>(src_[pos_]);
    int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || pos_ + n > src_.size()) Fail(at, "invalid UTF-8 in literal");
    uint32_t v = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (int k = 1; k < n; ++k) {
      unsigned char cc = static_cast<unsigned char>(src_[pos_ + k]);
      if ((cc & 0xC0) != 0x80) Fail(at, "invalid UTF-8 in literal");
      v = (v << 6) | (cc & 0x3F);
    }
    for (int k = 0; k < n; ++k) Advance();
    return v;
  }

  Token String(Token t) {
    Advance();
    t.kind = Tok::kStr;
    while (true) {
      if (pos_ >= src_.size() || src_[pos_] == '\n') Fail(t.loc, "unterminated string literal");
      char c = src_[pos_];
      if (c == '"') {
        Advance();
        return t;
      }
      if (c == '\\') {
        Loc at{line_, col_};
        Advance();
        AppendUtf8(t.text, Escape(at));
      } else {
        AppendUtf8(t.text, DecodeUtf8(t.loc));
      }
    }
  }

  Token CharLit(Token t) {
    Advance();
    t.kind = Tok::kChar;
    if (pos_ >= src_.size() || src_[pos_] == '\n' || src_[pos_] == '\'')
      Fail(t.loc, "empty or unterminated char literal");
    if (src_[pos_] == '\\') {
      Loc at{line_, col_};
      Advance();
      t.u = Escape(at);
    } else {
      t.u = DecodeUtf8(t.loc);
    }
    if (pos_ >= src_.size() || src_[pos_] != '\'') Fail(t.loc, "unterminated char literal");
    Advance();
    return t;
  }

  std::string_view src_;
  std::string_view file_;
  std::string error_;
  bool after_dot_ = false;
  size_t pos_ = 0;
  uint32_t line_ = 1;
  uint32_t col_ = 1;
};

class Parser {
 public:
  Parser(std::string_view src, std::string_view file) : lex_(src, file) {}

  absl::StatusOr<Program> Run() {
    try {
      Bump();
      Program p;
      ParseProgram(p);
      return p;
    } catch (const ParseError&) {
      return absl::InvalidArgumentError(lex_.error());
    }
  }

 private:
  // ---- token helpers ----
  void Bump() { tok_ = lex_.Next(); }
  [[noreturn]] void Fail(std::string_view msg) { lex_.Fail(tok_.loc, msg); }
  [[noreturn]] void FailAt(Loc loc, std::string_view msg) { lex_.Fail(loc, msg); }

  std::string Describe() const {
    switch (tok_.kind) {
      case Tok::kEof: return "end of file";
      case Tok::kNewline: return "end of line";
      case Tok::kIdent: return absl::StrCat("'", tok_.text, "'");
      case Tok::kPunct: return absl::StrCat("'", tok_.text, "'");
      case Tok::kStr: return "a string";
      case Tok::kChar: return "a char";
      default: return "a number";
    }
  }

  bool IsPunct(std::string_view p) const { return tok_.kind == Tok::kPunct && tok_.text == p; }
  bool IsIdent(std::string_view w) const { return tok_.kind == Tok::kIdent && tok_.text == w; }

  void Expect(std::string_view p) {
    if (!IsPunct(p)) Fail(absl::StrCat("expected '", std::string(p), "', found ", Describe()));
    Bump();
  }
  void ExpectWord(std::string_view w) {
    if (!IsIdent(w)) Fail(absl::StrCat("expected '", std::string(w), "', found ", Describe()));
    Bump();
  }
  bool EatPunct(std::string_view p) {
    if (!IsPunct(p)) return false;
    Bump();
    return true;
  }
  bool EatWord(std::string_view w) {
    if (!IsIdent(w)) return false;
    Bump();
    return true;
  }
  void SkipNewlines() {
    while (tok_.kind == Tok::kNewline) Bump();
  }
  void ExpectEol() {
    if (tok_.kind != Tok::kNewline && tok_.kind != Tok::kEof)
      Fail(absl::StrCat("expected end of line, found ", Describe()));
    SkipNewlines();
  }

  std::string Ident(std::string_view what) {
    if (tok_.kind != Tok::kIdent)
      Fail(absl::StrCat("expected ", std::string(what), ", found ", Describe()));
    std::string s = tok_.text;
    Bump();
    return s;
  }

  // A name with `::` separators (functions such as Point::norm).
  std::string Path(std::string_view what) {
    std::string s = Ident(what);
    while (IsPunct("::")) {
      Bump();
      absl::StrAppend(&s, "::", Ident(what));
    }
    return s;
  }

  // A dotted path (std.fs.read, fs.read).
  std::string DottedPath(std::string_view what) {
    std::string s = Ident(what);
    while (IsPunct(".")) {
      Bump();
      absl::StrAppend(&s, ".", Ident(what));
    }
    return s;
  }

  static bool NumberedIdent(const std::string& s, std::string_view prefix, uint32_t* out) {
    if (s.size() <= prefix.size() || s.compare(0, prefix.size(), prefix) != 0) return false;
    uint64_t v = 0;
    for (size_t i = prefix.size(); i < s.size(); ++i) {
      if (!absl::ascii_isdigit(static_cast<unsigned char>(s[i]))) return false;
      v = v * 10 + (s[i] - '0');
      if (v > 0xFFFFFF) return false;
    }
    *out = static_cast<uint32_t>(v);
    return true;
  }

  bool AtLocal() const {
    uint32_t n;
    return tok_.kind == Tok::kIdent && NumberedIdent(tok_.text, "_", &n);
  }

  uint32_t Local() {
    uint32_t n;
    if (tok_.kind != Tok::kIdent || !NumberedIdent(tok_.text, "_", &n))
      Fail(absl::StrCat("expected a local like _1, found ", Describe()));
    Bump();
    return n;
  }

  uint32_t BlockRef() {
    uint32_t n;
    if (tok_.kind != Tok::kIdent || !NumberedIdent(tok_.text, "bb", &n))
      Fail(absl::StrCat("expected a block like bb1, found ", Describe()));
    Bump();
    return n;
  }

  uint32_t SmallInt(std::string_view what) {
    if (tok_.kind != Tok::kInt || tok_.u > 0xFFFFFF)
      Fail(absl::StrCat("expected ", std::string(what), ", found ", Describe()));
    uint32_t v = static_cast<uint32_t>(tok_.u);
    Bump();
    return v;
  }

  int64_t SignedInt() {
    bool neg = EatPunct("-");
    if (tok_.kind != Tok::kInt) Fail(absl::StrCat("expected an integer, found ", Describe()));
    uint64_t u = tok_.u;
    uint64_t lim = neg ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
    if (u > lim) Fail("integer literal out of range for I64");
    Bump();
    return neg ? static_cast<int64_t>(0 - u) : static_cast<int64_t>(u);
  }

  // ---- grammar ----
  void ParseProgram(Program& p) {
    SkipNewlines();
    if (EatWord("mtyir")) {
      Loc at = tok_.loc;
      uint32_t v = SmallInt("a format version");
      if (v != 1)
        FailAt(at, absl::StrCat("unsupported mtyir version ", v, " (this mty reads version 1)"));
      ExpectEol();
    }
    while (tok_.kind != Tok::kEof) {
      if (IsIdent("source")) {
        Bump();
        if (tok_.kind != Tok::kStr) Fail("expected a file name string after 'source'");
        p.source = tok_.text;
        Bump();
        ExpectEol();
      } else if (IsIdent("struct")) {
        ParseStruct(p);
      } else if (IsIdent("enum")) {
        ParseEnum(p);
      } else if (IsIdent("fn")) {
        ParseFunction(p);
      } else if (IsIdent("sandbox")) {
        ParseSandbox(p);
      } else {
        Fail(absl::StrCat("expected 'struct', 'enum', 'sandbox', 'fn' or 'source', found ",
                          Describe()));
      }
    }
  }

  // sandbox "Name" { key = value, ... } (runtime.md §4).
  void ParseSandbox(Program& p) {
    SandboxDecl d;
    d.loc = tok_.loc;
    Bump();
    if (tok_.kind != Tok::kStr)
      Fail(absl::StrCat("expected a sandbox name string, found ", Describe()));
    d.name = tok_.text;
    if (d.name.empty()) Fail("a sandbox name cannot be empty");
    if (p.FindSandbox(d.name)) Fail(absl::StrCat("duplicate sandbox \"", d.name, "\""));
    Bump();
    Expect("{");
    SkipNewlines();
    std::vector<std::string> seen;
    while (!IsPunct("}")) {
      Loc at = tok_.loc;
      std::string key = DottedPath("a sandbox entry such as steps or fs.read");
      std::string canonical = FindKey(key) ? FindKey(key)->name : key;
      if (std::find(seen.begin(), seen.end(), canonical) != seen.end())
        FailAt(at, absl::StrCat("duplicate sandbox entry '", key, "'"));
      seen.push_back(canonical);
      Expect("=");
      std::optional<Key> k = FindKey(key);
      if (!k)
        FailAt(at, absl::StrCat("unknown sandbox entry '", key, "' (known: ", KnownKeys(), ")"));
      switch (k->kind) {
        case Key::Kind::kLimit: {
          if (tok_.kind != Tok::kInt && tok_.kind != Tok::kSize && tok_.kind != Tok::kDuration)
            Fail(absl::StrCat("sandbox entry '", key, "' needs ",
                              UnitExpectation(Limit(k->limit).unit), ", found ", Describe()));
          const LimitInfo& info = Limit(k->limit);
          absl::StatusOr<uint64_t> v = ParseQuantity(info.unit, tok_.text);
          if (!v.ok())
            Fail(absl::StrCat("sandbox entry '", key, "' needs ", UnitExpectation(info.unit),
                              ", found '", tok_.text, "'"));
          if (absl::Status s = CheckLimitValue(k->limit, *v); !s.ok())
            FailAt(at, absl::StrCat("sandbox entry ", s.message()));
          d.policy.limits.Set(k->limit, *v);
          Bump();
          break;
        }
        case Key::Kind::kMbPolicy: {
          std::optional<MailboxPolicy> mp;
          if (tok_.kind == Tok::kStr) mp = ParseMailboxPolicy(tok_.text);
          if (!mp)
            Fail(absl::StrCat("sandbox entry 'mb_policy' needs ", ChoiceList(kMbPolicyChoice),
                              ", found ", Describe()));
          d.policy.limits.mb_policy = mp;
          Bump();
          break;
        }
        case Key::Kind::kGrant: {
          std::vector<std::string> out;
          Expect("[");
          while (!IsPunct("]")) {
            if (tok_.kind != Tok::kStr)
              Fail(absl::StrCat("sandbox entry '", key, "' needs a list of strings, found ",
                                Describe()));
            if (absl::Status s = CheckGrantEntry(k->grant, tok_.text); !s.ok())
              Fail(std::string(s.message()));
            out.push_back(tok_.text);
            Bump();
            if (!EatPunct(",")) break;
          }
          Expect("]");
          d.policy.grants.Set(k->grant, std::move(out));
          break;
        }
      }
      SkipNewlines();
      if (!EatPunct(",")) break;
      SkipNewlines();
    }
    Expect("}");
    ExpectEol();
    p.sandboxes.push_back(std::move(d));
  }

  void CheckNewAdt(Program& p, const std::string& name, Loc at) {
    if (p.FindAdtIndex(name) >= 0) FailAt(at, absl::StrCat("duplicate ADT '", name, "'"));
  }

  void ParseStruct(Program& p) {
    Adt a;
    a.loc = tok_.loc;
    Bump();
    Loc at = tok_.loc;
    a.name = Ident("a struct name");
    CheckNewAdt(p, a.name, at);
    Variant v;
    v.name = a.name;
    Expect("{");
    SkipNewlines();
    while (!IsPunct("}")) {
      Field f;
      Loc fat = tok_.loc;
      f.name = Ident("a field name");
      for (const Field& g : v.fields)
        if (g.name == f.name) FailAt(fat, absl::StrCat("duplicate field '", f.name, "'"));
      Expect(":");
      f.type = ParseType();
      v.fields.push_back(std::move(f));
      SkipNewlines();
      if (!EatPunct(",")) break;
      SkipNewlines();
    }
    Expect("}");
    ExpectEol();
    a.variants.push_back(std::move(v));
    p.adts.push_back(std::move(a));
  }

  void ParseEnum(Program& p) {
    Adt a;
    a.is_enum = true;
    a.loc = tok_.loc;
    Bump();
    Loc at = tok_.loc;
    a.name = Ident("an enum name");
    CheckNewAdt(p, a.name, at);
    Expect("{");
    SkipNewlines();
    while (!IsPunct("}")) {
      Variant v;
      Loc vat = tok_.loc;
      v.name = Ident("a variant name");
      for (const Variant& w : a.variants)
        if (w.name == v.name) FailAt(vat, absl::StrCat("duplicate variant '", v.name, "'"));
      if (EatPunct("(")) {
        while (!IsPunct(")")) {
          Field f;
          f.type = ParseType();
          v.fields.push_back(std::move(f));
          if (!EatPunct(",")) break;
        }
        Expect(")");
      }
      a.variants.push_back(std::move(v));
      SkipNewlines();
      if (!EatPunct(",")) break;
      SkipNewlines();
    }
    Expect("}");
    ExpectEol();
    if (a.variants.empty()) FailAt(a.loc, "an enum needs at least one variant");
    p.adts.push_back(std::move(a));
  }

  Type ParseType() {
    if (++depth_ > kMaxDepth) Fail("type nested too deeply");
    Type t;
    if (EatPunct("(")) {
      t.kind = Type::Kind::kTuple;
      while (!IsPunct(")")) {
        t.args.push_back(ParseType());
        if (!EatPunct(",")) break;
      }
      Expect(")");
    } else if (EatPunct("[")) {
      t.kind = Type::Kind::kArray;
      t.args.push_back(ParseType());
      Expect("]");
    } else if (EatPunct("&")) {
      t.kind = Type::Kind::kRef;
      t.is_mut = EatWord("mut");
      t.args.push_back(ParseType());
    } else if (IsIdent("fn")) {
      Bump();
      t.kind = Type::Kind::kFn;
      Expect("(");
      while (!IsPunct(")")) {
        t.args.push_back(ParseType());
        if (!EatPunct(",")) break;
      }
      Expect(")");
      Expect("->");
      t.args.push_back(ParseType());
    } else {
      t.name = Path("a type");
      if (EatPunct("[")) {
        while (!IsPunct("]")) {
          t.args.push_back(ParseType());
          if (!EatPunct(",")) break;
        }
        Expect("]");
      }
    }
    --depth_;
    return t;
  }

  void ParseFunction(Program& p) {
    Function f;
    f.loc = tok_.loc;
    Bump();
    Loc nat = tok_.loc;
    f.name = Path("a function name");
    if (p.FindFunctionIndex(f.name) >= 0)
      FailAt(nat, absl::StrCat("duplicate function '", f.name, "'"));
    f.locals.emplace_back();  // _0, typed below
    Expect("(");
    while (!IsPunct(")")) {
      Loc at = tok_.loc;
      uint32_t n = Local();
      if (n != f.locals.size())
        FailAt(at, absl::StrCat("parameter must be _", f.locals.size(),
                                " (parameters are numbered from _1 in order)"));
      Expect(":");
      ::mty::ir::Local l;
      l.type = ParseType();
      if (tok_.kind == Tok::kStr) {
        l.name = tok_.text;
        Bump();
      }
      f.locals.push_back(std::move(l));
      if (!EatPunct(",")) break;
    }
    Expect(")");
    f.num_params = static_cast<uint32_t>(f.locals.size() - 1);
    Expect("->");
    f.locals[0].type = ParseType();
    f.locals[0].is_mut = true;
    Expect("{");
    ExpectEol();
    while (IsIdent("let")) {
      Bump();
      ::mty::ir::Local l;
      l.is_mut = EatWord("mut");
      Loc at = tok_.loc;
      uint32_t n = Local();
      if (n != f.locals.size())
        FailAt(at, absl::StrCat("local must be _", f.locals.size(),
                                " (locals are numbered in order after the parameters)"));
      Expect(":");
      l.type = ParseType();
      if (tok_.kind == Tok::kStr) {
        l.name = tok_.text;
        Bump();
      }
      f.locals.push_back(std::move(l));
      ExpectEol();
    }
    while (!IsPunct("}")) {
      if (tok_.kind == Tok::kEof) Fail(absl::StrCat("unexpected end of file in fn ", f.name));
      Loc at = tok_.loc;
      uint32_t b = BlockRef();
      if (b != f.blocks.size())
        FailAt(at, absl::StrCat("block must be bb", f.blocks.size(),
                                " (blocks are numbered in order)"));
      Expect(":");
      ExpectEol();
      f.blocks.push_back(ParseBlock());
    }
    if (f.blocks.empty()) Fail(absl::StrCat("fn ", f.name, " has no blocks"));
    Bump();
    ExpectEol();
    p.functions.push_back(std::move(f));
  }

  static bool IsTerminatorWord(const std::string& w) {
    return w == "goto" || w == "if" || w == "switch_int" || w == "switch_variant" ||
           w == "return" || w == "panic" || w == "unreachable" || w == "try_return_err" ||
           w == "suspend";
  }

  Block ParseBlock() {
    Block b;
    while (true) {
      if (tok_.kind == Tok::kIdent && IsTerminatorWord(tok_.text)) {
        b.term = ParseTerminator();
        return b;
      }
      if (tok_.kind != Tok::kIdent || IsPunct("}"))
        Fail(absl::StrCat("expected a statement or a terminator, found ", Describe()));
      uint32_t n;
      if (NumberedIdent(tok_.text, "bb", &n))
        Fail(absl::StrCat("block ends without a terminator before ", Describe()));
      b.stmts.push_back(ParseStatement());
    }
  }

  void ParseLocSuffix(Loc& loc, bool& is_explicit) {
    if (!EatPunct("@")) return;
    uint32_t line = SmallInt("a line number");
    Expect(":");
    uint32_t col = SmallInt("a column number");
    loc = {line, col};
    is_explicit = true;
  }

  Statement ParseStatement() {
    Statement s;
    s.loc = tok_.loc;
    if (EatWord("drop")) {
      s.kind = Statement::Kind::kDrop;
      s.place = ParsePlace();
    } else if (EatWord("storage_live")) {
      s.kind = Statement::Kind::kStorageLive;
      s.place.local = Local();
    } else if (EatWord("storage_dead")) {
      s.kind = Statement::Kind::kStorageDead;
      s.place.local = Local();
    } else if (EatWord("arena_push")) {
      s.kind = Statement::Kind::kArenaPush;
      s.arena = SmallInt("an arena number");
    } else if (EatWord("arena_pop")) {
      s.kind = Statement::Kind::kArenaPop;
      s.arena = SmallInt("an arena number");
    } else if (EatWord("nop")) {
      s.kind = Statement::Kind::kNop;
    } else if (EatWord("sandbox_enter")) {
      s.kind = Statement::Kind::kSandboxEnter;
      if (tok_.kind != Tok::kStr)
        Fail(absl::StrCat("expected a sandbox name string, found ", Describe()));
      s.path = tok_.text;
      Bump();
    } else if (EatWord("sandbox_exit")) {
      s.kind = Statement::Kind::kSandboxExit;
    } else if (IsIdent("effect")) {
      s.kind = Statement::Kind::kEffectInvoke;
      ParseEffect(s);
    } else if (AtLocal()) {
      s.place = ParsePlace();
      Expect("=");
      if (IsIdent("effect")) {
        s.kind = Statement::Kind::kEffectInvoke;
        s.has_dest = true;
        ParseEffect(s);
      } else {
        s.kind = Statement::Kind::kAssign;
        s.rvalue = ParseRvalue();
      }
    } else {
      Fail(absl::StrCat("expected a statement, found ", Describe()));
    }
    ParseLocSuffix(s.loc, s.loc_explicit);
    ExpectEol();
    return s;
  }

  void ParseEffect(Statement& s) {
    Bump();  // effect
    s.path = DottedPath("an effect path like std.fs.read");
    s.args = ParseArgs("(", ")");
  }

  Place ParsePlace() {
    Place p;
    p.local = Local();
    while (true) {
      if (IsPunct("[")) {
        Bump();
        Projection pr;
        pr.kind = Projection::Kind::kIndex;
        pr.index = Local();
        Expect("]");
        p.proj.push_back(pr);
        continue;
      }
      if (!IsPunct(".")) break;
      Bump();
      Projection pr;
      if (EatPunct("*")) {
        pr.kind = Projection::Kind::kDeref;
      } else if (tok_.kind == Tok::kInt) {
        pr.kind = Projection::Kind::kTupleIndex;
        pr.index = SmallInt("a tuple index");
      } else {
        uint32_t n;
        if (tok_.kind == Tok::kIdent && NumberedIdent(tok_.text, "f", &n)) {
          Bump();
          pr.kind = Projection::Kind::kField;
          pr.index = n;
        } else if (tok_.kind == Tok::kIdent && NumberedIdent(tok_.text, "v", &n)) {
          Bump();
          pr.kind = Projection::Kind::kVariantField;
          pr.variant = n;
          Expect(".");
          uint32_t f;
          if (tok_.kind != Tok::kIdent || !NumberedIdent(tok_.text, "f", &f))
            Fail(absl::StrCat("expected a field like f0 after .v", n, ", found ", Describe()));
          Bump();
          pr.index = f;
        } else {
          Fail(absl::StrCat("expected a projection (.fN, .N, .vV.fN, .*), found ", Describe()));
        }
      }
      p.proj.push_back(pr);
    }
    return p;
  }

  bool AtOperandStart() const {
    switch (tok_.kind) {
      case Tok::kInt:
      case Tok::kFloat:
      case Tok::kDuration:
      case Tok::kSize:
      case Tok::kStr:
      case Tok::kChar: return true;
      case Tok::kIdent:
        return tok_.text == "copy" || tok_.text == "move" || tok_.text == "true" ||
               tok_.text == "false" || tok_.text == "fn" || tok_.text == "inf" ||
               tok_.text == "nan";
      case Tok::kPunct: return tok_.text == "(" || tok_.text == "-";
      default: return false;
    }
  }

  Operand ParseOperand() {
    if (EatWord("copy")) return Operand::Copy(ParsePlace());
    if (EatWord("move")) return Operand::Move(ParsePlace());
    return Operand::Const(ParseConstant());
  }

  Constant ParseConstant() {
    switch (tok_.kind) {
      case Tok::kInt: return Constant::Int(SignedInt());
      case Tok::kFloat: {
        double f = tok_.f;
        Bump();
        return Constant::Float(f);
      }
      case Tok::kDuration: {
        int64_t v = tok_.i;
        Bump();
        return Constant::Duration(v);
      }
      case Tok::kSize: {
        int64_t v = tok_.i;
        Bump();
        return Constant::Size(v);
      }
      case Tok::kStr: {
        std::string s = tok_.text;
        Bump();
        return Constant::Str(std::move(s));
      }
      case Tok::kChar: {
        uint32_t c = static_cast<uint32_t>(tok_.u);
        Bump();
        return Constant::Char(c);
      }
      default: break;
    }
    if (EatWord("true")) return Constant::Bool(true);
    if (EatWord("false")) return Constant::Bool(false);
    if (EatWord("inf")) return Constant::Float(std::numeric_limits<double>::infinity());
    if (EatWord("nan")) return Constant::Float(std::numeric_limits<double>::quiet_NaN());
    if (EatWord("fn")) return Constant::Fn(Path("a function name"));
    if (IsPunct("(")) {
      Bump();
      Expect(")");
      return Constant::Unit();
    }
    if (IsPunct("-")) {
      Bump();
      if (tok_.kind == Tok::kFloat) {
        double f = tok_.f;
        Bump();
        return Constant::Float(-f);
      }
      if (EatWord("inf")) return Constant::Float(-std::numeric_limits<double>::infinity());
      if (tok_.kind == Tok::kInt) {
        uint64_t u = tok_.u;
        if (u > (uint64_t{1} << 63)) Fail("integer literal out of range for I64");
        Bump();
        return Constant::Int(static_cast<int64_t>(0 - u));
      }
      Fail(absl::StrCat("expected a number after '-', found ", Describe()));
    }
    Fail(absl::StrCat("expected an operand (copy P, move P or a constant), found ", Describe()));
  }

  std::vector<Operand> ParseArgs(std::string_view open, std::string_view close) {
    Expect(open);
    std::vector<Operand> ops;
    while (!IsPunct(close)) {
      ops.push_back(ParseOperand());
      if (!EatPunct(",")) break;
    }
    Expect(close);
    return ops;
  }

  static std::optional<BinOp> BinOpOf(const Token& t) {
    if (t.kind != Tok::kPunct) return std::nullopt;
    static constexpr std::pair<const char*, BinOp> kOps[] = {
        {"+", BinOp::kAdd},  {"-", BinOp::kSub},    {"*", BinOp::kMul},   {"/", BinOp::kDiv},
        {"%", BinOp::kRem},  {"&", BinOp::kBitAnd}, {"|", BinOp::kBitOr}, {"^", BinOp::kBitXor},
        {"<<", BinOp::kShl}, {">>", BinOp::kShr},   {"==", BinOp::kEq},   {"!=", BinOp::kNe},
        {"<", BinOp::kLt},   {"<=", BinOp::kLe},    {">", BinOp::kGt},    {">=", BinOp::kGe}};
    for (const auto& [s, op] : kOps)
      if (t.text == s) return op;
    return std::nullopt;
  }

  Rvalue ParseRvalue() {
    Rvalue r;
    if (tok_.kind == Tok::kIdent) {
      const std::string w = tok_.text;
      if (w == "new") {
        Bump();
        r.kind = Rvalue::Kind::kAdtInit;
        r.name = Ident("an ADT name");
        if (EatPunct("::")) r.name2 = Ident("a variant name");
        r.ops = ParseArgs("(", ")");
        return r;
      }
      if (w == "tuple") {
        Bump();
        r.kind = Rvalue::Kind::kTupleInit;
        r.ops = ParseArgs("(", ")");
        return r;
      }
      if (w == "map") {
        Bump();
        r.kind = Rvalue::Kind::kMapInit;
        Expect("{");
        while (!IsPunct("}")) {
          r.ops.push_back(ParseOperand());
          Expect(":");
          r.ops.push_back(ParseOperand());
          if (!EatPunct(",")) break;
        }
        Expect("}");
        return r;
      }
      if (w == "field" || w == "tuple_get") {
        Bump();
        r.kind = w == "field" ? Rvalue::Kind::kFieldRead : Rvalue::Kind::kTupleRead;
        r.ops.push_back(ParseOperand());
        Expect(",");
        r.index = SmallInt("a field index");
        return r;
      }
      if (w == "index") {
        Bump();
        r.kind = Rvalue::Kind::kIndexRead;
        r.ops.push_back(ParseOperand());
        Expect(",");
        r.ops.push_back(ParseOperand());
        return r;
      }
      if (w == "call") {
        Bump();
        r.kind = Rvalue::Kind::kCall;
        r.is_builtin = EatPunct("@");
        r.name = r.is_builtin ? Ident("a builtin name") : Path("a function name");
        r.ops = ParseArgs("(", ")");
        return r;
      }
      if (w == "call_indirect") {
        Bump();
        r.kind = Rvalue::Kind::kCallIndirect;
        r.ops.push_back(ParseOperand());
        for (Operand& o : ParseArgs("(", ")")) r.ops.push_back(std::move(o));
        return r;
      }
      if (w == "method") {
        Bump();
        r.kind = Rvalue::Kind::kMethodCall;
        r.place = ParsePlace();
        Expect(",");
        r.name = Ident("a method name");
        r.ops = ParseArgs("(", ")");
        return r;
      }
      if (w == "closure") {
        Bump();
        r.kind = Rvalue::Kind::kClosure;
        r.name = Path("a function name");
        r.ops = ParseArgs("(", ")");
        return r;
      }
      if (w == "spawn") {
        Bump();
        r.kind = Rvalue::Kind::kAgentSpawn;
        r.name = Ident("an agent name");
        r.ops = ParseArgs("(", ")");
        return r;
      }
      if (w == "send" || w == "ask") {
        Bump();
        r.kind = w == "send" ? Rvalue::Kind::kSend : Rvalue::Kind::kAsk;
        r.ops.push_back(ParseOperand());
        Expect(",");
        r.name = Ident("a message name");
        for (Operand& o : ParseArgs("(", ")")) r.ops.push_back(std::move(o));
        if (r.kind == Rvalue::Kind::kAsk && EatWord("within")) r.deadline = ParseOperand();
        return r;
      }
      if (w == "cap") {
        Bump();
        r.kind = Rvalue::Kind::kCapValue;
        r.name = DottedPath("a capability family like fs.read");
        if (tok_.kind != Tok::kStr)
          Fail("expected a constraint string after the capability family");
        r.name2 = tok_.text;
        Bump();
        return r;
      }
      if (w == "cast") {
        Bump();
        r.kind = Rvalue::Kind::kCast;
        r.ops.push_back(ParseOperand());
        ExpectWord("as");
        r.type = ParseType();
        return r;
      }
      if (w == "len") {
        Bump();
        r.kind = Rvalue::Kind::kLen;
        r.ops.push_back(ParseOperand());
        return r;
      }
    }
    if (IsPunct("&")) {
      Bump();
      r.kind = Rvalue::Kind::kRef;
      r.is_mut = EatWord("mut");
      r.place = ParsePlace();
      return r;
    }
    if (IsPunct("*")) {
      Bump();
      r.kind = Rvalue::Kind::kDeref;
      r.ops.push_back(ParseOperand());
      return r;
    }
    if (IsPunct("[")) {
      r.kind = Rvalue::Kind::kArrayInit;
      r.ops = ParseArgs("[", "]");
      return r;
    }
    if (IsPunct("!")) {
      Bump();
      r.kind = Rvalue::Kind::kUnOp;
      r.un = UnOp::kNot;
      r.ops.push_back(ParseOperand());
      return r;
    }
    if (IsPunct("-")) {
      // `-5` is a constant; `-copy _1` is a negation.
      Bump();
      if (IsIdent("copy") || IsIdent("move")) {
        r.kind = Rvalue::Kind::kUnOp;
        r.un = UnOp::kNeg;
        r.ops.push_back(ParseOperand());
        return r;
      }
      Constant c;
      if (tok_.kind == Tok::kFloat) {
        c = Constant::Float(-tok_.f);
        Bump();
      } else if (EatWord("inf")) {
        c = Constant::Float(-std::numeric_limits<double>::infinity());
      } else if (tok_.kind == Tok::kInt) {
        if (tok_.u > (uint64_t{1} << 63)) Fail("integer literal out of range for I64");
        c = Constant::Int(static_cast<int64_t>(0 - tok_.u));
        Bump();
      } else {
        Fail(absl::StrCat("expected a number or an operand after '-', found ", Describe()));
      }
      return FinishBinary(Operand::Const(c));
    }
    if (!AtOperandStart()) Fail(absl::StrCat("expected an rvalue, found ", Describe()));
    return FinishBinary(ParseOperand());
  }

  Rvalue FinishBinary(Operand lhs) {
    Rvalue r;
    r.ops.push_back(std::move(lhs));
    if (auto op = BinOpOf(tok_)) {
      Bump();
      r.kind = Rvalue::Kind::kBinOp;
      r.bin = *op;
      r.ops.push_back(ParseOperand());
    }
    return r;
  }

  std::vector<SwitchCase> ParseCases(uint32_t& default_target) {
    Expect("{");
    std::vector<SwitchCase> cases;
    bool has_default = false;
    while (!IsPunct("}")) {
      if (has_default) Fail("the default case '_ => bbN' must come last");
      if (EatWord("_")) {
        Expect("=>");
        default_target = BlockRef();
        has_default = true;
      } else {
        Loc at = tok_.loc;
        SwitchCase c;
        c.value = SignedInt();
        for (const SwitchCase& d : cases)
          if (d.value == c.value) FailAt(at, absl::StrCat("duplicate case ", c.value));
        Expect("=>");
        c.target = BlockRef();
        cases.push_back(c);
      }
      if (!EatPunct(",")) break;
    }
    Expect("}");
    if (!has_default) Fail("a switch needs a default case '_ => bbN'");
    return cases;
  }

  Terminator ParseTerminator() {
    Terminator t;
    t.loc = tok_.loc;
    std::string w = tok_.text;
    Bump();
    if (w == "goto") {
      t.kind = Terminator::Kind::kGoto;
      t.target = BlockRef();
    } else if (w == "if") {
      t.kind = Terminator::Kind::kIf;
      t.op = ParseOperand();
      ExpectWord("then");
      t.target = BlockRef();
      ExpectWord("else");
      t.target2 = BlockRef();
    } else if (w == "switch_int" || w == "switch_variant") {
      t.kind = w == "switch_int" ? Terminator::Kind::kSwitchInt : Terminator::Kind::kSwitchVariant;
      t.op = ParseOperand();
      t.cases = ParseCases(t.target);
    } else if (w == "return") {
      t.kind = Terminator::Kind::kReturn;
    } else if (w == "panic") {
      t.kind = Terminator::Kind::kPanic;
      t.op = ParseOperand();
    } else if (w == "unreachable") {
      t.kind = Terminator::Kind::kUnreachable;
    } else if (w == "try_return_err") {
      t.kind = Terminator::Kind::kTryReturnErr;
      t.op = ParseOperand();
    } else {  // suspend
      t.kind = Terminator::Kind::kSuspend;
      ExpectWord("resume");
      t.target = BlockRef();
    }
    ParseLocSuffix(t.loc, t.loc_explicit);
    ExpectEol();
    return t;
  }

  static constexpr int kMaxDepth = 200;
  Lexer lex_;
  Token tok_;
  int depth_ = 0;
};

}  // namespace

absl::StatusOr<int64_t> ParseSize(std::string_view text) {
  absl::StatusOr<uint64_t> v = ParseQuantity(Unit::kSize, text);
  if (!v.ok()) return v.status();
  return static_cast<int64_t>(*v);
}

absl::StatusOr<int64_t> ParseDuration(std::string_view text) {
  absl::StatusOr<uint64_t> v = ParseQuantity(Unit::kDuration, text);
  if (!v.ok()) return v.status();
  return static_cast<int64_t>(*v);
}

absl::StatusOr<Program> ParseText(std::string_view text, std::string_view file_name) {
  Parser parser(text, file_name);
  return parser.Run();
}

}  // namespace mty::ir
