// The methods of Str (docs/language.md §5): reading, searching, splitting,
// case mapping and editing. Char indices count Unicode scalars; the editing
// methods take byte indices on char boundaries (as Rust). n is the
// receiver's bytes, m an argument's, in the work charges.
#include <algorithm>
#include <cctype>
#include <charconv>

#include "../search.h"
#include "../unicode.h"
#include "methods.h"
#include "mty/vocab/utf8.h"

namespace mty::interp::methods {

namespace {

StrObj* Obj(MethodCall& c) { return static_cast<StrObj*>(c.recv.h()); }
const std::string& Text(MethodCall& c) { return Obj(c)->s; }

// Whether the receiver is ASCII (its char indices are byte indices),
// found out once and kept on the string.
bool Ascii(StrObj* so) {
  if (so->ascii < 0) so->ascii = IsAscii(so->s) ? 1 : 0;
  return so->ascii == 1;
}

// An edit in place: made unique first (a shared string is copied), the
// estimate and the ASCII flag kept true, *delta the change.
template <typename F>
void Edit(MethodCall& c, F&& change) {
  auto* o = static_cast<StrObj*>(MakeUnique(c.recv));
  const int64_t before = static_cast<int64_t>(o->s.size());
  change(o->s);
  o->ascii = -1;
  *c.delta = static_cast<int64_t>(o->s.size()) - before;
  o->est = static_cast<uint64_t>(static_cast<int64_t>(o->est) + *c.delta);
}

bool IsBoundary(const std::string& s, int64_t i) {
  if (i < 0 || static_cast<uint64_t>(i) > s.size()) return false;
  return static_cast<uint64_t>(i) == s.size() || ir::StartsScalar(s[static_cast<size_t>(i)]);
}

// Byte index argument `v` for `what` on `s`: an Int at a char boundary,
// at most s.size() (or below it when `inside`), else a trap MT5017.
bool NeedBoundary(Ctx& cx, const Value& v, const std::string& s, const char* what, bool inside,
                  size_t* at) {
  int64_t i;
  if (!NeedInt(cx, v, &i)) return false;
  if (i < 0 || static_cast<uint64_t>(i) > s.size() ||
      (inside && static_cast<uint64_t>(i) == s.size()))
    return cx.Trap(
        TrapCode::kIndex,
        absl::StrCat(what, " index ", i, " out of range for a string of ", s.size(), " bytes"));
  if (!IsBoundary(s, i))
    return cx.Trap(TrapCode::kIndex, absl::StrCat(what, " index ", i, " is not a char boundary"));
  *at = static_cast<size_t>(i);
  return true;
}

// The byte offsets of char indices lo and hi (npos past the end), and the
// chars counted on the way. In an ASCII string they are byte offsets;
// otherwise only the bytes up to the last char asked for are scanned (a
// char is at most 4 bytes). False when the work cannot be paid.
struct CharRange {
  size_t lo = std::string::npos, hi = std::string::npos;
  size_t chars = 0;
  bool ascii = false;
};
bool FindChars(MethodCall& c, int64_t lo, int64_t hi, CharRange* r) {
  StrObj* so = Obj(c);
  const std::string& s = so->s;
  const uint64_t n = s.size();
  if (so->ascii < 0 && !c.Work(n)) return false;  // finding out once
  r->ascii = Ascii(so);
  if (r->ascii) {
    r->chars = n;
    if (lo >= 0 && static_cast<uint64_t>(lo) <= n) r->lo = static_cast<size_t>(lo);
    if (hi >= 0 && static_cast<uint64_t>(hi) <= n) r->hi = static_cast<size_t>(hi);
    return true;
  }
  const uint64_t reach = hi >= 0 ? std::min<uint64_t>(n, 4 * static_cast<uint64_t>(hi) + 4) : 0;
  if (!c.Work(reach)) return false;
  size_t chars = 0, i = 0;
  for (; i < n; ++chars) {
    if (lo >= 0 && chars == static_cast<uint64_t>(lo)) r->lo = i;
    if (hi >= 0 && chars == static_cast<uint64_t>(hi)) {
      r->hi = i;
      break;
    }
    i += ir::ScalarLength(s, i);
  }
  MTY_WORK(i);
  if (i == n) {  // the scan reached the end: count the chars there are
    if (lo >= 0 && chars == static_cast<uint64_t>(lo)) r->lo = n;
    if (hi >= 0 && chars == static_cast<uint64_t>(hi)) r->hi = n;
  }
  r->chars = chars;
  return true;
}

// The pieces of the receiver split at the pattern `pat`, at most `limit`
// of them (-1: no limit; the rest joins the last), charged as split
// charges them. An empty pattern splits, as Rust, into "", each char, "".
bool SplitParts(MethodCall& c, int64_t limit, const Value& pat, std::vector<std::string>* parts) {
  const std::string& s = Text(c);
  const uint64_t n = s.size();
  std::string buf;
  const std::string* p;
  if (!NeedPattern(c.cx, pat, &buf, &p)) return false;
  const uint64_t pieces = p->empty() ? n + 2 : n / p->size() + 1;
  if (!c.Work(cost::Search(n, p->size()) + n + pieces)) return false;
  MTY_WORK(n + pieces);
  if (limit == 0) return true;
  if (p->empty()) {
    parts->push_back("");
    size_t i = 0;
    while (i < n && (limit < 0 || static_cast<int64_t>(parts->size()) < limit - 1)) {
      const size_t at = i;
      i += ir::ScalarLength(s, i);
      parts->push_back(s.substr(at, i - at));
    }
    if (limit < 0 || static_cast<int64_t>(parts->size()) < limit)
      parts->push_back(s.substr(i));
    else if (i < n)
      parts->back() += s.substr(i);
    return true;
  }
  Searcher searcher(*p);
  size_t pos = 0;
  while (limit < 0 || static_cast<int64_t>(parts->size()) < limit - 1) {
    const size_t at = searcher.Find(s, pos);
    if (at == std::string::npos) break;
    parts->push_back(s.substr(pos, at - pos));
    pos = at + p->size();
  }
  parts->push_back(s.substr(pos));
  return true;
}

// The pattern (the first argument) of a search over the receiver, its scan
// charged (cost::Search); nullptr after a trap or when the work cannot be
// paid.
const std::string* Pattern(MethodCall& c, std::string* buf) {
  const std::string* p;
  if (!NeedPattern(c.cx, c.args[0], buf, &p)) return nullptr;
  if (!c.Work(cost::Search(Text(c).size(), p->size()))) return nullptr;
  return p;
}

}  // namespace

CallStatus StrLen(MethodCall& c) { return c.Int(static_cast<int64_t>(Text(c).size())); }

CallStatus StrIsEmpty(MethodCall& c) { return c.Bool(Text(c).empty()); }

CallStatus StrContains(MethodCall& c) {
  std::string buf;
  const std::string* p = Pattern(c, &buf);
  if (!p) return Fail();
  return c.Bool(Searcher(*p).Find(Text(c)) != std::string::npos);
}

// starts_with, ends_with.
CallStatus StrStartsEndsWith(MethodCall& c) {
  const std::string& s = Text(c);
  std::string buf;
  const std::string* p;
  if (!NeedPattern(c.cx, c.args[0], &buf, &p)) return Fail();
  if (!c.Work(p->size())) return Fail();
  MTY_WORK(std::min(s.size(), p->size()));
  return c.Bool(c.id() == N::kStartsWith ? s.starts_with(*p) : s.ends_with(*p));
}

// find, rfind: the byte index of the first (last) match.
CallStatus StrFind(MethodCall& c) {
  const std::string& s = Text(c);
  std::string buf;
  const std::string* p = Pattern(c, &buf);
  if (!p) return Fail();
  const size_t at = c.id() == N::kFind ? Searcher(*p).Find(s) : Searcher(*p, true).RFind(s);
  Value idx = Value::Int(static_cast<int64_t>(at));
  return c.Opt(at == std::string::npos ? nullptr : &idx);
}

// to_upper, to_lower, to_uppercase, to_lowercase: Unicode's full case
// mapping (unicode.h); an ASCII string byte by byte.
CallStatus StrChangeCase(MethodCall& c) {
  StrObj* so = Obj(c);
  const std::string& s = so->s;
  const uint64_t n = s.size();
  const bool upper = c.id() == N::kToUpper || c.id() == N::kToUppercase;
  if (!c.Work(2 * n)) return Fail();
  MTY_WORK(2 * n);
  std::string r;
  if (Ascii(so)) {
    r = s;
    for (char& ch : r)
      ch = upper ? static_cast<char>(std::toupper(ch)) : static_cast<char>(std::tolower(ch));
  } else {
    r.reserve(n);
    if (upper)
      unicode::AppendUpper(s, &r);
    else
      unicode::AppendLower(s, &r);
    if (r.size() > n) {  // a mapping that grew (ß -> SS): the extra bytes written
      if (!c.Work(r.size() - n)) return Fail();
      MTY_WORK(r.size() - n);
    }
  }
  return c.NewStr(std::move(r));
}

// trim, trim_start, trim_end: ASCII spaces, tabs, CR and LF.
CallStatus StrTrim(MethodCall& c) {
  const std::string& s = Text(c);
  const uint64_t n = s.size();
  if (!c.Work(2 * n)) return Fail();  // the scan and the copy
  MTY_WORK(2 * n);
  size_t b = c.id() == N::kTrimEnd ? 0 : s.find_first_not_of(" \t\r\n");
  size_t e = c.id() == N::kTrimStart ? (n ? n - 1 : 0) : s.find_last_not_of(" \t\r\n");
  if (b == std::string::npos || e == std::string::npos || n == 0) return c.NewStr("");
  return c.NewStr(s.substr(b, e - b + 1));
}

CallStatus StrRepeat(MethodCall& c) {
  const std::string& s = Text(c);
  int64_t k;
  if (!NeedInt(c.cx, c.args[0], &k)) return Fail();
  if (k < 0) return c.Trap(TrapCode::kIndex, absl::StrCat("repeat count ", k, " is negative"));
  uint64_t total;
  if (__builtin_mul_overflow(static_cast<uint64_t>(k), s.size(), &total)) total = UINT64_MAX;
  if (!c.cx.StrFits(total, "repeat")) return Fail();
  if (!c.Work(total + static_cast<uint64_t>(k))) return Fail();
  if (!c.Charge(cost::StrBytes(total))) return Fail();
  MTY_WORK(total + static_cast<uint64_t>(k));
  std::string r;
  r.reserve(total);
  for (int64_t i = 0; i < k; ++i) r += s;
  return c.Return(MakeStr(std::move(r)));
}

// to_str, to_string: a copy.
CallStatus StrToStr(MethodCall& c) {
  const std::string& s = Text(c);
  if (!c.Work(s.size())) return Fail();
  MTY_WORK(s.size());
  return c.NewStr(s);
}

CallStatus StrReplace(MethodCall& c) {
  const std::string& s = Text(c);
  const uint64_t n = s.size();
  std::string buf_from, buf_to;
  const std::string *from, *to;
  if (!NeedPattern(c.cx, c.args[0], &buf_from, &from) ||
      !NeedPattern(c.cx, c.args[1], &buf_to, &to))
    return Fail();
  if (from->empty()) {
    if (!c.Work(n)) return Fail();
    MTY_WORK(n);
    return c.NewStr(s);
  }
  // First the scan (charged), then the new string, whose size it tells.
  if (!c.Work(cost::Search(n, from->size()))) return Fail();
  Searcher searcher(*from);
  std::vector<size_t> hits;
  for (size_t at = searcher.Find(s); at != std::string::npos;
       at = searcher.Find(s, at + from->size()))
    hits.push_back(at);
  const uint64_t size = n - hits.size() * from->size() + hits.size() * to->size();
  if (!c.cx.StrFits(size, "replace")) return Fail();
  if (!c.Work(size + hits.size())) return Fail();
  MTY_WORK(size + hits.size());
  std::string r;
  r.reserve(size);
  size_t pos = 0;
  for (size_t at : hits) {
    r.append(s, pos, at - pos);
    r += *to;
    pos = at + from->size();
  }
  r.append(s, pos, std::string::npos);
  return c.NewStr(std::move(r));
}

// split(p), and lines(): split at "\n", a piece's "\r" dropped, no empty
// last piece.
CallStatus StrSplit(MethodCall& c) {
  const std::string& s = Text(c);
  const uint64_t n = s.size();
  const bool lines = c.id() == N::kLines;
  static const std::string nl = "\n";
  std::string buf;
  const std::string* p = &nl;
  if (!lines && !NeedPattern(c.cx, c.args[0], &buf, &p)) return Fail();
  // The scan, the bytes copied into pieces, and the pieces (at most one
  // per byte, or per separator).
  const uint64_t pieces = p->empty() ? n : n / p->size() + 1;
  if (!c.Work(cost::Search(n, p->size()) + n + pieces)) return Fail();
  auto* a = new ArrayObj(Tag::kArray);
  Value v = Value::Heap(a);
  a->est = cost::kHeader;
  auto add = [&](std::string piece) {
    if (lines && !piece.empty() && piece.back() == '\r') piece.pop_back();
    MTY_WORK(piece.size() + 1);
    a->est += cost::StrBytes(piece.size());
    a->items.push_back(MakeStr(std::move(piece)));
  };
  if (p->empty()) {
    MTY_WORK(n);
    for (size_t i = 0; i < n;) {
      const size_t k = ir::ScalarLength(s, i);  // one char, as chars() counts them
      add(s.substr(i, k));
      i += k;
    }
  } else {
    Searcher searcher(*p);
    size_t pos = 0;
    while (true) {
      size_t at = searcher.Find(s, pos);
      if (at == std::string::npos) {
        if (!(lines && pos == n)) add(s.substr(pos));
        break;
      }
      add(s.substr(pos, at - pos));
      pos = at + p->size();
    }
  }
  if (!c.Charge(a->est)) return Fail();
  return c.Return(std::move(v));
}

CallStatus StrBytes(MethodCall& c) {
  const std::string& s = Text(c);
  return BuildArray(c, 2 * s.size(), [&](ArrayObj* a) {
    a->items.reserve(s.size());
    for (unsigned char ch : s) a->items.push_back(Value::Int(ch));
    a->est = cost::ArrayBytes(s.size());
  });
}

CallStatus StrChars(MethodCall& c) {
  const std::string& s = Text(c);
  return BuildArray(c, 2 * s.size(), [&](ArrayObj* a) { AppendChars(s, a); });
}

// char_at(i): the char at char index i.
CallStatus StrCharAt(MethodCall& c) {
  const std::string& s = Text(c);
  int64_t lo;
  if (!NeedInt(c.cx, c.args[0], &lo)) return Fail();
  CharRange r;
  if (!FindChars(c, lo, lo < INT64_MAX ? lo + 1 : lo, &r)) return Fail();
  if (r.lo == std::string::npos || r.lo >= s.size()) return c.Opt(nullptr);
  size_t at = r.lo;
  Value cv = Value::Char(ir::NextScalar(s, &at));
  return c.Opt(&cv);
}

// slice(lo, hi): the chars lo..hi.
CallStatus StrSlice(MethodCall& c) {
  const std::string& s = Text(c);
  int64_t lo, hi;
  if (!NeedInt(c.cx, c.args[0], &lo) || !NeedInt(c.cx, c.args[1], &hi)) return Fail();
  CharRange r;
  if (!FindChars(c, lo, hi, &r)) return Fail();
  if (lo < 0 || hi < lo || r.lo == std::string::npos || r.hi == std::string::npos) {
    if (!r.ascii && hi >= 0) {
      // Out of range: count the chars for the message (the scan is charged).
      if (!c.Work(s.size())) return Fail();
      MTY_WORK(s.size());
      r.chars = ir::Utf8Length(s);
    }
    return c.Trap(
        TrapCode::kIndex,
        absl::StrCat("slice ", lo, "..", hi, " out of range for a string of ", r.chars, " chars"));
  }
  if (!c.Work(r.hi - r.lo)) return Fail();
  MTY_WORK(r.hi - r.lo);
  return c.NewStr(s.substr(r.lo, r.hi - r.lo));
}

namespace {

constexpr const char* kInvalidDigit = "invalid digit found in string";

// Rust's `str::parse` of an integer of the range [lo, hi] (radix 10: an
// optional sign, then digits; `-` only for a signed type), with Rust's
// error messages, found in Rust's order (the first bad digit or the first
// digit past the range).
const char* ParseRustInt(std::string_view s, __int128 lo, __int128 hi, __int128* out) {
  if (s.empty()) return "cannot parse integer from empty string";
  size_t i = 0;
  const bool neg = s[0] == '-';
  if (s[0] == '+' || (neg && lo < 0)) i = 1;
  if (i == s.size()) return kInvalidDigit;
  __int128 v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return kInvalidDigit;
    v = v * 10 + (neg ? -(s[i] - '0') : s[i] - '0');
    if (v > hi) return "number too large to fit in target type";
    if (v < lo) return "number too small to fit in target type";
  }
  *out = v;
  return nullptr;
}

// Rust's `str::parse` of an f64: an optional sign, a decimal with an
// optional exponent, or inf/infinity/nan in any case.
const char* ParseRustFloat(std::string_view s, double* out) {
  if (s.empty()) return "cannot parse float from empty string";
  const char* kInvalid = "invalid float literal";
  if (s[0] == '+' && s.size() > 1 && s[1] != '-') s.remove_prefix(1);
  // from_chars also reads `nan(...)` and hexadecimal digits after `0x`
  // in no case; Rust reads neither.
  if (s.find('(') != std::string_view::npos) return kInvalid;
  auto res = std::from_chars(s.data(), s.data() + s.size(), *out);
  if (res.ec != std::errc() || res.ptr != s.data() + s.size()) return kInvalid;
  return nullptr;
}

}  // namespace

// parse_int([type]), parse_float: Ok(the number), or Err with Rust's
// message (`"300".parse::<u8>()` is Err("number too large to fit in target
// type")). The optional type name (`"U8"`) gives the range; I64 without it.
CallStatus StrParse(MethodCall& c) {
  const std::string& s = Text(c);
  if (!c.Work(s.size())) return Fail();
  MTY_WORK(s.size());
  const char* err;
  Value v;
  if (c.id() == N::kParseInt) {
    std::string_view type = "I64";
    if (!c.args.empty()) {
      if (!c.args[0].Is(Tag::kStr))
        return c.Trap(TrapCode::kType,
                      absl::StrCat("parse_int needs an integer type's name, found ",
                                   KindName(c.cx.m, c.args[0])));
      type = static_cast<StrObj*>(c.args[0].h())->s;
    }
    __int128 lo, hi, x = 0;
    if (!ir::IntTypeRange(type, &lo, &hi))
      return c.Trap(TrapCode::kType,
                    absl::StrCat("parse_int: `", std::string(type), "` is not an integer type"));
    err = ParseRustInt(s, lo, hi, &x);
    v = hi > INT64_MAX ? Value::UInt(static_cast<uint64_t>(x))
                       : Value::Int(static_cast<int64_t>(x));
  } else {
    double x = 0;
    err = ParseRustFloat(s, &x);
    v = Value::Float(x);
  }
  if (err) v = MakeStr(err);
  return c.NewResult(!err, v);
}

CallStatus StrPushStr(MethodCall& c) {
  std::string buf;
  const std::string* p;
  if (!NeedPattern(c.cx, c.args[0], &buf, &p)) return Fail();
  if (!c.Work(p->size())) return Fail();
  MTY_WORK(p->size());
  std::string add = *p;  // p may alias the receiver
  if (!c.Charge(add.size())) return Fail();
  Edit(c, [&](std::string& t) { t += add; });
  return c.Unit();
}

CallStatus StrPush(MethodCall& c) {
  if (!c.args[0].Is(Tag::kChar))
    return c.Trap(TrapCode::kType, absl::StrCat("push needs a Char (push_str takes a Str), found ",
                                                KindName(c.cx.m, c.args[0])));
  std::string add;
  ir::AppendUtf8(add, static_cast<uint32_t>(c.args[0].i()));
  if (!c.Charge(add.size())) return Fail();
  Edit(c, [&](std::string& t) { t += add; });
  return c.Unit();
}

CallStatus StrPop(MethodCall& c) {
  const std::string& s = Text(c);
  const uint64_t n = s.size();
  if (n == 0) return c.Opt(nullptr);
  // The last char: back over at most 3 continuation bytes; an ill-formed
  // tail is one byte, U+FFFD.
  size_t at = n - 1;
  while (at > 0 && n - at < 4 && !ir::StartsScalar(s[at])) --at;
  ir::Utf8Decoded d = ir::DecodeUtf8(s, at);
  uint32_t ch = d.scalar;
  if (!d.ok() || at + d.length != n) {
    at = n - 1;
    d = ir::DecodeUtf8(s, at);
    ch = d.ok() ? d.scalar : ir::kReplacementChar;
  }
  Value cv = Value::Char(ch);
  Edit(c, [&](std::string& t) { t.resize(at); });
  return c.Opt(&cv);
}

CallStatus StrClear(MethodCall& c) {
  Edit(c, [&](std::string& t) { t.clear(); });
  return c.Unit();
}

CallStatus StrTruncate(MethodCall& c) {
  const std::string& s = Text(c);
  int64_t k;
  if (!NeedInt(c.cx, c.args[0], &k)) return Fail();
  if (k < 0) return c.Trap(TrapCode::kIndex, absl::StrCat("truncate length ", k, " is negative"));
  if (static_cast<uint64_t>(k) < s.size()) {
    size_t at;
    if (!NeedBoundary(c.cx, c.args[0], s, "truncate", false, &at)) return Fail();
    Edit(c, [&](std::string& t) { t.resize(at); });
  }
  return c.Unit();
}

CallStatus StrIsCharBoundary(MethodCall& c) {
  int64_t k;
  if (!NeedInt(c.cx, c.args[0], &k)) return Fail();
  return c.Bool(IsBoundary(Text(c), k));
}

// next_char_boundary(i): the first char boundary after byte index i (the
// length at or past the end, 0 before the start); prev_char_boundary(i):
// the last one before i (0 at or before the start, the length past the
// end). At most 4 bytes are looked at (a UTF-8 scalar's length).
CallStatus StrNearCharBoundary(MethodCall& c) {
  const std::string& s = Text(c);
  int64_t i;
  if (!NeedInt(c.cx, c.args[0], &i)) return Fail();
  const int64_t n = static_cast<int64_t>(s.size());
  if (c.id() == N::kNextCharBoundary) {
    if (i < 0) return c.Return(Value::Int(0));
    if (i >= n) return c.Return(Value::Int(n));
    do ++i;
    while (!IsBoundary(s, i));
    return c.Return(Value::Int(i));
  }
  if (i <= 0) return c.Return(Value::Int(0));
  if (i > n) return c.Return(Value::Int(n));
  do --i;
  while (!IsBoundary(s, i));
  return c.Return(Value::Int(i));
}

// insert(i, ch), insert_str(i, s): at byte index i.
CallStatus StrInsert(MethodCall& c) {
  const std::string& s = Text(c);
  size_t at;
  if (!NeedBoundary(c.cx, c.args[0], s, c.name(), false, &at)) return Fail();
  std::string add;
  if (c.id() == N::kInsert) {
    if (!c.args[1].Is(Tag::kChar))
      return c.Trap(TrapCode::kType,
                    absl::StrCat("insert needs a Char (insert_str takes a Str), found ",
                                 KindName(c.cx.m, c.args[1])));
    ir::AppendUtf8(add, static_cast<uint32_t>(c.args[1].i()));
  } else {
    if (!c.args[1].Is(Tag::kStr))
      return c.Trap(TrapCode::kType,
                    absl::StrCat("insert_str needs a Str, found ", KindName(c.cx.m, c.args[1])));
    add = static_cast<StrObj*>(c.args[1].h())->s;  // a copy: it may be the receiver
  }
  if (!c.Work(s.size() - at + add.size())) return Fail();  // the shift and the copy
  MTY_WORK(s.size() - at + add.size());
  if (!c.Charge(add.size())) return Fail();
  Edit(c, [&](std::string& t) { t.insert(at, add); });
  return c.Unit();
}

// remove(i): the char at byte index i, taken out.
CallStatus StrRemove(MethodCall& c) {
  const std::string& s = Text(c);
  size_t at;
  if (!NeedBoundary(c.cx, c.args[0], s, "remove", true, &at)) return Fail();
  if (!c.Work(s.size() - at)) return Fail();  // the shift
  MTY_WORK(s.size() - at);
  size_t next = at;
  const uint32_t ch = ir::NextScalar(s, &next);
  Edit(c, [&](std::string& t) { t.erase(at, next - at); });
  return c.Return(Value::Char(ch));
}

// Unicode White_Space separates; empty pieces are dropped.
CallStatus StrSplitWhitespace(MethodCall& c) {
  const std::string& s = Text(c);
  const uint64_t n = s.size();
  if (!c.Work(3 * n)) return Fail();  // the scan, the copies, the pieces
  MTY_WORK(3 * n);
  std::vector<std::string> pieces;
  size_t start = 0, i = 0;
  bool in_word = false;
  while (i < n) {
    const size_t at = i;
    const uint32_t ch = ir::NextScalar(s, &i);
    const bool ws =
        ch < 0x80 ? (ch == ' ' || (ch >= 0x09 && ch <= 0x0D)) : unicode::IsWhitespace(ch);
    if (ws && in_word) pieces.push_back(s.substr(start, at - start));
    if (!ws && !in_word) start = at;
    in_word = !ws;
  }
  if (in_word) pieces.push_back(s.substr(start));
  return StrArray(c.cx, std::move(pieces), c.out);
}

CallStatus StrCharIndices(MethodCall& c) {
  const std::string& s = Text(c);
  return BuildArray(c, 3 * s.size(), [&](ArrayObj* a) {
    for (size_t i = 0; i < s.size();) {
      Value k = Value::Int(static_cast<int64_t>(i));
      Value tv = Pair(k, Value::Char(ir::NextScalar(s, &i)));
      a->est += tv.h()->est;
      a->items.push_back(std::move(tv));
    }
  });
}

// strip_prefix, strip_suffix: Some(the rest) when the pattern is there.
CallStatus StrStrip(MethodCall& c) {
  const std::string& s = Text(c);
  const uint64_t n = s.size();
  const bool prefix = c.id() == N::kStripPrefix;
  std::string buf;
  const std::string* p;
  if (!NeedPattern(c.cx, c.args[0], &buf, &p)) return Fail();
  if (!c.Work(p->size())) return Fail();
  MTY_WORK(p->size());
  if (!(prefix ? s.starts_with(*p) : s.ends_with(*p))) return c.Opt(nullptr);
  if (!c.Work(n - p->size())) return Fail();
  MTY_WORK(n - p->size());
  std::string rest = prefix ? s.substr(p->size()) : s.substr(0, n - p->size());
  if (!c.Charge(cost::StrBytes(rest.size()))) return Fail();
  Value rv = MakeStr(std::move(rest));
  return c.Opt(&rv);
}

// trim_matches(p), trim_start_matches(p), trim_end_matches(p): every
// repetition of p (a Str or Char) removed from the ends.
CallStatus StrTrimMatches(MethodCall& c) {
  const std::string& s = Text(c);
  std::string buf;
  const std::string* p;
  if (!NeedPattern(c.cx, c.args[0], &buf, &p)) return Fail();
  if (!c.Work(2 * s.size())) return Fail();  // the scans and the copy
  MTY_WORK(2 * s.size());
  size_t b = 0, e = s.size();
  const size_t m = p->size();
  if (m > 0) {
    if (c.id() != N::kTrimEndMatches)
      while (e - b >= m && s.compare(b, m, *p) == 0) b += m;
    if (c.id() != N::kTrimStartMatches)
      while (e - b >= m && s.compare(e - m, m, *p) == 0) e -= m;
  }
  return c.NewStr(s.substr(b, e - b));
}

// splitn(k, p): at most k pieces.
CallStatus StrSplitn(MethodCall& c) {
  int64_t limit;
  if (!NeedInt(c.cx, c.args[0], &limit)) return Fail();
  if (limit < 0)
    return c.Trap(TrapCode::kIndex, absl::StrCat("splitn count ", limit, " is negative"));
  std::vector<std::string> parts;
  if (!SplitParts(c, limit, c.args[1], &parts)) return Fail();
  return StrArray(c.cx, std::move(parts), c.out);
}

// rsplit(p): split's pieces, last first.
CallStatus StrRsplit(MethodCall& c) {
  std::vector<std::string> parts;
  if (!SplitParts(c, -1, c.args[0], &parts)) return Fail();
  std::reverse(parts.begin(), parts.end());
  return StrArray(c.cx, std::move(parts), c.out);
}

// split_once(p): Some((before, after)) of the first match.
CallStatus StrSplitOnce(MethodCall& c) {
  std::vector<std::string> parts;
  if (!SplitParts(c, 2, c.args[0], &parts)) return Fail();
  if (parts.size() < 2) return c.Opt(nullptr);
  auto* t = new ArrayObj(Tag::kTuple);
  Value tv = Value::Heap(t);
  t->est = cost::kHeader + cost::StrBytes(parts[0].size()) + cost::StrBytes(parts[1].size());
  if (!c.Charge(t->est)) return Fail();
  t->items = {MakeStr(std::move(parts[0])), MakeStr(std::move(parts[1]))};
  return c.Opt(&tv);
}

// insert_at(a, text), remove_range(a, b), replace_range(a, b, text):
// upstream's editing methods, a new string with bytes [a, b) replaced by
// the text (insert_at: a == b); both on char boundaries, a <= b.
CallStatus StrEditRange(MethodCall& c) {
  const std::string& s = Text(c);
  const ir::MethodName id = c.id();
  size_t a, b;
  if (!NeedBoundary(c.cx, c.args[0], s, c.name(), false, &a)) return Fail();
  b = a;
  if (id != N::kInsertAt) {
    if (!NeedBoundary(c.cx, c.args[1], s, c.name(), false, &b)) return Fail();
    if (b < a)
      return c.Trap(TrapCode::kIndex,
                    absl::StrCat(c.name(), " range ", a, "..", b, " is decreasing"));
  }
  std::string buf;
  const std::string* add = &buf;
  if (id != N::kRemoveRange && !NeedPattern(c.cx, c.args[id == N::kInsertAt ? 1 : 2], &buf, &add))
    return Fail();
  const uint64_t len = s.size() - (b - a) + add->size();
  if (!c.Work(s.size() + add->size())) return Fail();  // the copies
  MTY_WORK(s.size() + add->size());
  if (!c.Charge(cost::StrBytes(len))) return Fail();
  std::string t;
  t.reserve(len);
  t.append(s, 0, a);
  t += *add;
  t.append(s, b, std::string::npos);
  return c.Return(MakeStr(std::move(t)));
}

}  // namespace mty::interp::methods
