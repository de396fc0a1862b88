// The .mtyir parser: a hand-written lexer and recursive-descent parser that
// reports the first error as `file:line:col: error: message`.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "mty/ir/kinds.h"
#include "mty/ir/text.h"
#include "mty/vocab/policy.h"
#include "mty/vocab/utf8.h"

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
  void CheckText() { CheckUtf8(); }

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
    for (std::string_view p : Puncts()) {
      if (src_.substr(pos_, p.size()) == p) {
        for (size_t k = 0; k < p.size(); ++k) Advance();
        t.kind = Tok::kPunct;
        t.text = std::string(p);
        return t;
      }
    }
    // The character as written (a whole scalar), a control byte escaped.
    std::string shown;
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
      shown = absl::StrCat("\\x", absl::Hex(static_cast<unsigned char>(c), absl::kZeroPad2));
    else
      shown = std::string(src_.substr(pos_, DecodeUtf8(src_, pos_).length));
    Fail(t.loc, absl::StrCat("unexpected character '", shown, "'"));
  }

  // The punctuation spellings, longest first: the grammar's own, every
  // operator's text and the rvalue keywords that are not words (kinds.def).
  static const std::vector<std::string_view>& Puncts() {
    static const std::vector<std::string_view>* puncts = [] {
      auto* v = new std::vector<std::string_view>{"=>", "->", "::", "=", "(", ")", "[", "]", "{",
                                                  "}",  ",",  ":",  ".", "@", ";", "&", "*", "-"};
      for (const BinOpInfo& o : kBinOps) v->push_back(o.text);
      for (const UnOpInfo& o : kUnOps) v->push_back(o.text);
      for (const RvalueKindInfo& k : kRvalueKinds)
        if (*k.keyword && !IsIdentStart(*k.keyword)) v->push_back(k.keyword);
      std::stable_sort(v->begin(), v->end(),
                       [](std::string_view a, std::string_view b) { return a.size() > b.size(); });
      return v;
    }();
    return *puncts;
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
    } else if (StartsScalar(src_[pos_])) {
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

  // The text is valid UTF-8 (CheckUtf8): a `file:line:col: error: invalid
  // UTF-8` at the first ill-formed byte otherwise.
  void CheckUtf8() {
    size_t bad = 0;
    Utf8Error why = Utf8Error::kNone;
    if (ValidUtf8(src_, &bad, &why)) return;
    Loc at;
    Utf8LineCol(src_, bad, &at.line, &at.col);
    Fail(at, absl::StrCat("invalid UTF-8 (", Utf8ErrorText(why), ")"));
  }

  // Decodes one UTF-8 scalar at pos_ and advances past it.
  uint32_t Scalar(Loc at) {
    Utf8Decoded d = DecodeUtf8(src_, pos_);
    if (!d.ok()) Fail(at, "invalid UTF-8 in literal");
    for (uint32_t k = 0; k < d.length; ++k) Advance();
    return d.scalar;
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
        AppendUtf8(t.text, Scalar(t.loc));
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
      t.u = Scalar(t.loc);
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

 private:
  // The names declared so far ("fn f", "adt S", "sandbox N"): duplicates
  // are errors, found without scanning (a program may declare 100 000).
  absl::flat_hash_set<std::string> names_;

 public:
  absl::StatusOr<Program> Run() {
    try {
      lex_.CheckText();
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

  // Items up to `close`, separated by commas (a trailing one allowed), then
  // `close`; `lines`: newlines may stand around the items.
  template <typename F>
  void List(std::string_view close, bool lines, F&& item) {
    if (lines) SkipNewlines();
    while (!IsPunct(close)) {
      item();
      if (lines) SkipNewlines();
      if (!EatPunct(",")) break;
      if (lines) SkipNewlines();
    }
    Expect(close);
  }

  // A name with `::` separators (functions such as Point::norm).
  std::string Path(std::string_view what) { return Joined(what, "::"); }
  // A dotted path (std.fs.read, fs.read).
  std::string DottedPath(std::string_view what) { return Joined(what, "."); }
  std::string Joined(std::string_view what, std::string_view sep) {
    std::string s = Ident(what);
    while (IsPunct(sep)) {
      Bump();
      absl::StrAppend(&s, std::string(sep), Ident(what));
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

  uint32_t Local() { return Numbered("_", "a local like _1"); }
  // A parameter or `let` declaration's `_n: Type "name"?`, numbered next
  // in f; what names it in the error, order says how they are numbered.
  void ReadLocal(Function& f, bool is_mut, const char* what, const char* order) {
    Loc at = tok_.loc;
    uint32_t n = Local();
    if (n != f.locals.size())
      FailAt(at, absl::StrCat(what, " must be _", f.locals.size(), " (", order, ")"));
    Expect(":");
    ::mty::ir::Local l;
    l.is_mut = is_mut;
    l.type = ParseType();
    if (tok_.kind == Tok::kStr) {
      l.name = tok_.text;
      Bump();
    }
    f.locals.push_back(std::move(l));
  }
  uint32_t BlockRef() { return Numbered("bb", "a block like bb1"); }
  // A name `prefix` N (_1, bb2): N.
  uint32_t Numbered(std::string_view prefix, const char* what) {
    uint32_t n;
    if (tok_.kind != Tok::kIdent || !NumberedIdent(tok_.text, prefix, &n))
      Fail(absl::StrCat("expected ", what, ", found ", Describe()));
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
        ParseFunction(p, false);
      } else if (IsIdent("once")) {
        Bump();
        if (!IsIdent("fn")) Fail(absl::StrCat("expected 'fn' after 'once', found ", Describe()));
        ParseFunction(p, true);
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
    if (!names_.insert("sandbox " + d.name).second)
      Fail(absl::StrCat("duplicate sandbox \"", d.name, "\""));
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
                              absl::IsOutOfRange(v.status()) ? ": " : ", found '",
                              absl::IsOutOfRange(v.status()) ? std::string(v.status().message())
                                                             : absl::StrCat(tok_.text, "'")));
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
          List("]", false, [&] {
            if (tok_.kind != Tok::kStr)
              Fail(absl::StrCat("sandbox entry '", key, "' needs a list of strings, found ",
                                Describe()));
            if (absl::Status s = CheckGrantEntry(k->grant, tok_.text); !s.ok())
              Fail(std::string(s.message()));
            out.push_back(tok_.text);
            Bump();
          });
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

  // `struct Name` or `enum Name`: an ADT of a new name.
  Adt AdtHead(bool is_enum) {
    Adt a;
    a.is_enum = is_enum;
    a.loc = tok_.loc;
    Bump();
    Loc at = tok_.loc;
    a.name = Ident(is_enum ? "an enum name" : "a struct name");
    if (!names_.insert("adt " + a.name).second)
      FailAt(at, absl::StrCat("duplicate ADT '", a.name, "'"));
    return a;
  }

  // A name not among `have`'s (fields of a variant, variants of an enum).
  template <typename T>
  std::string NewMemberName(const std::vector<T>& have, const char* what, const char* noun) {
    Loc at = tok_.loc;
    std::string name = Ident(what);
    for (const T& x : have)
      if (x.name == name) FailAt(at, absl::StrCat("duplicate ", noun, " '", name, "'"));
    return name;
  }

  void ParseStruct(Program& p) {
    Adt a = AdtHead(false);
    Variant v;
    v.name = a.name;
    if (EatPunct("(")) {  // a tuple struct: positional fields
      ParsePositionalFields(v);
      ExpectEol();
      a.variants.push_back(std::move(v));
      p.adts.push_back(std::move(a));
      return;
    }
    Expect("{");
    ParseNamedFields(v);
    ExpectEol();
    a.variants.push_back(std::move(v));
    p.adts.push_back(std::move(a));
  }

  // `a: T, b: U }` after the `{`: named fields up to the closing brace.
  void ParseNamedFields(Variant& v) {
    List("}", true, [&] {
      Field f;
      f.name = NewMemberName(v.fields, "a field name", "field");
      Expect(":");
      f.type = ParseType();
      v.fields.push_back(std::move(f));
    });
  }

  // `T, U)` after the `(`: positional fields up to the closing parenthesis.
  void ParsePositionalFields(Variant& v) {
    List(")", false, [&] {
      Field f;
      f.type = ParseType();
      v.fields.push_back(std::move(f));
    });
  }

  void ParseEnum(Program& p) {
    Adt a = AdtHead(true);
    Expect("{");
    List("}", true, [&] {
      Variant v;
      Loc vat = tok_.loc;
      v.name = NewMemberName(a.variants, "a variant name", "variant");
      if (EatPunct("(")) {
        ParsePositionalFields(v);
      } else if (EatPunct("{")) {  // struct-like: `Circle { r: F64 }`
        ParseNamedFields(v);
        if (v.fields.empty()) FailAt(vat, "a struct-like variant needs at least one field");
      }
      a.variants.push_back(std::move(v));
    });
    ExpectEol();
    if (a.variants.empty()) FailAt(a.loc, "an enum needs at least one variant");
    p.adts.push_back(std::move(a));
  }

  Type ParseType() {
    if (++depth_ > kMaxDepth) Fail("type nested too deeply");
    Type t;
    if (EatPunct("(")) {
      t.kind = Type::Kind::kTuple;
      List(")", false, [&] { t.args.push_back(ParseType()); });
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
      List(")", false, [&] { t.args.push_back(ParseType()); });
      Expect("->");
      t.args.push_back(ParseType());
    } else {
      t.name = Path("a type");
      if (EatPunct("[")) List("]", false, [&] { t.args.push_back(ParseType()); });
    }
    --depth_;
    return t;
  }

  void ParseFunction(Program& p, bool once) {
    Function f;
    f.once = once;
    f.loc = tok_.loc;
    Bump();
    Loc nat = tok_.loc;
    f.name = Path("a function name");
    if (!names_.insert("fn " + f.name).second)
      FailAt(nat, absl::StrCat("duplicate function '", f.name, "'"));
    f.locals.emplace_back();  // _0, typed below
    Expect("(");
    while (!IsPunct(")")) {
      ReadLocal(f, false, "parameter", "parameters are numbered from _1 in order");
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
      const bool is_mut = EatWord("mut");
      ReadLocal(f, is_mut, "local", "locals are numbered in order after the parameters");
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

  Block ParseBlock() {
    Block b;
    while (true) {
      if (tok_.kind == Tok::kIdent && TerminatorKindOf(tok_.text)) {
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
    using K = Statement::Kind;
    Statement s;
    s.loc = tok_.loc;
    if (std::optional<K> k = tok_.kind == Tok::kIdent ? StatementKindOf(tok_.text) : std::nullopt) {
      s.kind = *k;
      Bump();
    } else if (AtLocal()) {
      s.place = ParsePlace();
      Expect("=");
      s.kind = EatWord(Keyword(K::kEffectInvoke)) ? K::kEffectInvoke : K::kAssign;
      s.has_dest = s.kind == K::kEffectInvoke;
    } else {
      Fail(absl::StrCat("expected a statement, found ", Describe()));
    }
    switch (s.kind) {
      case K::kAssign: s.rvalue = ParseRvalue(); break;
      case K::kDrop: s.place = ParsePlace(); break;
      case K::kStorageLive:
      case K::kStorageDead: s.place.local = Local(); break;
      case K::kArenaPush:
      case K::kArenaPop: s.arena = SmallInt("an arena number"); break;
      case K::kEffectInvoke:
        s.path = DottedPath("an effect path like std.fs.read");
        s.args = ParseArgs("(", ")");
        break;
      case K::kSandboxEnter:
        if (tok_.kind != Tok::kStr)
          Fail(absl::StrCat("expected a sandbox name string, found ", Describe()));
        s.path = tok_.text;
        Bump();
        break;
      case K::kNop:
      case K::kSandboxExit: break;
    }
    ParseLocSuffix(s.loc, s.loc_explicit);
    ExpectEol();
    return s;
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
               tok_.text == "nan" || tok_.text == "u64";
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
    if (EatWord("u64")) {  // an unsigned constant: `u64 N`, 0 <= N < 2^64
      if (tok_.kind != Tok::kInt)
        Fail(absl::StrCat("expected an integer after 'u64', found ", Describe()));
      uint64_t u = tok_.u;
      Bump();
      return Constant::UInt(u);
    }
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
    return ParseList(close);
  }

  // Operands up to `close`, after the opening bracket.
  std::vector<Operand> ParseList(std::string_view close) {
    std::vector<Operand> ops;
    while (!IsPunct(close)) {
      ops.push_back(ParseOperand());
      if (!EatPunct(",")) break;
    }
    Expect(close);
    return ops;
  }

  Rvalue ParseRvalue() {
    using K = Rvalue::Kind;
    // A keyword (`call`, `new`) or a leading `&`, `*` or `[` names the kind;
    // without one it is an operand, an operation on it, or a unary op.
    std::optional<K> kind;
    if (tok_.kind == Tok::kIdent || tok_.kind == Tok::kPunct) kind = RvalueKindOf(tok_.text);
    if (!kind) return ParseOperation();
    Rvalue r;
    Bump();
    r.kind = *kind;
    switch (*kind) {
      case K::kUse:
      case K::kBinOp:
      case K::kUnOp: break;  // no keyword: ParseOperation
      case K::kRef:
        r.is_mut = EatWord("mut");
        r.place = ParsePlace();
        break;
      case K::kDeref: r.ops.push_back(ParseOperand()); break;
      case K::kAdtInit:
        r.name = Ident("an ADT name");
        if (EatPunct("::")) r.name2 = Ident("a variant name");
        r.ops = ParseArgs("(", ")");
        break;
      case K::kTupleInit: r.ops = ParseArgs("(", ")"); break;
      case K::kArrayInit: r.ops = ParseList("]"); break;
      case K::kMapInit:
        Expect("{");
        while (!IsPunct("}")) {
          r.ops.push_back(ParseOperand());
          Expect(":");
          r.ops.push_back(ParseOperand());
          if (!EatPunct(",")) break;
        }
        Expect("}");
        break;
      case K::kFieldRead:
      case K::kTupleRead:
        r.ops.push_back(ParseOperand());
        Expect(",");
        r.index = SmallInt("a field index");
        break;
      case K::kIndexRead:
        r.ops.push_back(ParseOperand());
        Expect(",");
        r.ops.push_back(ParseOperand());
        break;
      case K::kCall:
        r.is_builtin = EatPunct("@");
        r.name = r.is_builtin ? Ident("a builtin name") : Path("a function name");
        r.ops = ParseArgs("(", ")");
        break;
      case K::kCallIndirect:
        r.ops.push_back(ParseOperand());
        for (Operand& o : ParseArgs("(", ")")) r.ops.push_back(std::move(o));
        break;
      case K::kMethodCall:
        r.place = ParsePlace();
        Expect(",");
        r.name = Ident("a method name");
        r.ops = ParseArgs("(", ")");
        break;
      case K::kClosure:
        r.name = Path("a function name");
        r.ops = ParseArgs("(", ")");
        break;
      case K::kAgentSpawn:
        r.name = Ident("an agent name");
        r.ops = ParseArgs("(", ")");
        break;
      case K::kSend:
      case K::kAsk:
        r.ops.push_back(ParseOperand());
        Expect(",");
        r.name = Ident("a message name");
        for (Operand& o : ParseArgs("(", ")")) r.ops.push_back(std::move(o));
        if (r.kind == K::kAsk && EatWord("within")) r.deadline = ParseOperand();
        break;
      case K::kCapValue:
        r.name = DottedPath("a capability family like fs.read");
        if (tok_.kind != Tok::kStr)
          Fail("expected a constraint string after the capability family");
        r.name2 = tok_.text;
        Bump();
        break;
      case K::kCast:
        r.ops.push_back(ParseOperand());
        ExpectWord("as");
        r.type = ParseType();
        break;
      case K::kLen: r.ops.push_back(ParseOperand()); break;
    }
    return r;
  }

  // `copy _1`, `copy _1 + 2`, `-copy _1`, `!copy _1`, `-5 * copy _1`.
  Rvalue ParseOperation() {
    std::optional<UnOp> un = tok_.kind == Tok::kPunct ? UnOpOfText(tok_.text) : std::nullopt;
    if (!un) {
      if (!AtOperandStart()) Fail(absl::StrCat("expected an rvalue, found ", Describe()));
      return FinishBinary(ParseOperand());
    }
    Bump();
    // `-5` is a constant; `-copy _1` is a negation.
    if (*un != UnOp::kNeg || IsIdent("copy") || IsIdent("move")) {
      Rvalue r;
      r.kind = Rvalue::Kind::kUnOp;
      r.un = *un;
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

  Rvalue FinishBinary(Operand lhs) {
    Rvalue r;
    r.ops.push_back(std::move(lhs));
    if (auto op = tok_.kind == Tok::kPunct ? BinOpOfText(tok_.text) : std::nullopt) {
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

  // At a terminator keyword (ParseBlock checked it).
  Terminator ParseTerminator() {
    using K = Terminator::Kind;
    Terminator t;
    t.loc = tok_.loc;
    t.kind = *TerminatorKindOf(tok_.text);
    Bump();
    switch (t.kind) {
      case K::kGoto: t.target = BlockRef(); break;
      case K::kIf:
        t.op = ParseOperand();
        ExpectWord("then");
        t.target = BlockRef();
        ExpectWord("else");
        t.target2 = BlockRef();
        break;
      case K::kSwitchInt:
      case K::kSwitchVariant:
        t.op = ParseOperand();
        t.cases = ParseCases(t.target);
        break;
      case K::kPanic:
      case K::kTryReturnErr: t.op = ParseOperand(); break;
      case K::kReturn:
      case K::kUnreachable: break;
      case K::kSuspend:
        ExpectWord("resume");
        t.target = BlockRef();
        break;
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
  if (text.size() > kMaxProgramBytes)
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(file_name), ":1:1: error: ", ProgramTooLargeMessage(text.size())));
  Parser parser(text, file_name);
  return parser.Run();
}

}  // namespace mty::ir
