// Printing, arithmetic slow paths, casts, and the builtin functions and
// methods of the interpreter (language.md §4–5; the front-end issue extends
// the method set). Unknown methods return kUnknown so the VM traps MT5008.
#include "builtins.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "mty/ir/policy.h"
#include "mty/ir/text.h"
#include "mty/ir/utf8.h"

namespace mty::interp {

using ir::AppendUtf8;

namespace {

// Appends the Unicode scalars of UTF-8 text `s` to array `a` as Chars
// (8 B each in the size estimate).
void AppendChars(const std::string& s, ArrayObj* a) {
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
    for (int k = 1; k < n && i + k < s.size(); ++k) cp = (cp << 6) | (s[i + k] & 0x3F);
    a->items.push_back(Value::Char(cp));
    a->est += 8;
    i += n;
  }
}

std::string FormatFloat(double d, bool debug) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[400];
  double mag = std::fabs(d);
  if (debug && mag != 0 && (mag >= 1e16 || mag < 1e-4)) {
    // Rust's {:?} switches to exponent form outside [1e-4, 1e16): 1e16, 1.5e-5.
    auto r = std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::scientific);
    std::string s(buf, r.ptr);
    size_t e = s.find('e');
    std::string mant = s.substr(0, e), exp = s.substr(e + 1);
    bool neg = !exp.empty() && exp[0] == '-';
    if (!exp.empty() && (exp[0] == '+' || exp[0] == '-')) exp.erase(0, 1);
    while (exp.size() > 1 && exp[0] == '0') exp.erase(0, 1);
    return mant + "e" + (neg ? "-" : "") + exp;
  }
  auto r = std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::fixed);
  std::string s(buf, r.ptr);
  if (debug && s.find('.') == std::string::npos) s += ".0";
  return s;
}

// Escapes one character as Rust's {:?} does inside `quote` quotes.
void AppendEscaped(std::string& out, uint32_t c, char quote) {
  switch (c) {
    case '\t': out += "\\t"; return;
    case '\r': out += "\\r"; return;
    case '\n': out += "\\n"; return;
    case '\\': out += "\\\\"; return;
    case '\0': out += "\\0"; return;
    default: break;
  }
  if (c == static_cast<uint32_t>(quote)) {
    out += '\\';
    out += quote;
  } else if (c < 0x20 || c == 0x7F) {
    absl::StrAppend(&out, "\\u{", absl::Hex(c), "}");
  } else {
    AppendUtf8(out, c);
  }
}

std::string QuoteDebug(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x80) {
      AppendEscaped(out, u, '"');
    } else {
      out += c;
    }
  }
  return out + "\"";
}

void Print(const Module& m, const Value& v, bool debug, bool top, int depth, std::string& out) {
  if (depth > 200) {
    out += "...";
    return;
  }
  switch (v.tag()) {
    case Tag::kUnit: out += "()"; return;
    case Tag::kBool: out += v.b() ? "true" : "false"; return;
    case Tag::kInt: absl::StrAppend(&out, v.i()); return;
    case Tag::kFloat: out += FormatFloat(v.f(), debug || !top); return;
    case Tag::kChar:
      if (debug || !top) {
        out += '\'';
        AppendEscaped(out, static_cast<uint32_t>(v.i()), '\'');
        out += '\'';
      } else {
        AppendUtf8(out, static_cast<uint32_t>(v.i()));
      }
      return;
    case Tag::kDuration: out += ir::FormatDuration(v.i()); return;
    case Tag::kSize: out += ir::FormatSize(v.i()); return;
    case Tag::kFn:
      absl::StrAppend(
          &out, "<fn ",
          v.i() < static_cast<int64_t>(m.functions.size()) ? m.functions[v.i()].name : "?", ">");
      return;
    case Tag::kAgent: {
      std::string name = v.aux() < m.functions.size() ? m.functions[v.aux()].name : "?";
      if (name.ends_with("::__init")) name.resize(name.size() - 8);
      if (name.ends_with("::__children")) name.resize(name.size() - 12);
      absl::StrAppend(&out, "<agent ", name, "#", v.i(), ">");
      return;
    }
    case Tag::kDead: out += "<dead>"; return;
    case Tag::kStr: {
      const std::string& s = static_cast<StrObj*>(v.h())->s;
      if (debug || !top)
        out += QuoteDebug(s);
      else
        out += s;
      return;
    }
    case Tag::kArray:
    case Tag::kTuple: {
      const auto& items = static_cast<ArrayObj*>(v.h())->items;
      bool tuple = v.Is(Tag::kTuple);
      out += tuple ? "(" : "[";
      for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        Print(m, items[i], debug, false, depth + 1, out);
      }
      if (tuple && items.size() == 1) out += ",";
      out += tuple ? ")" : "]";
      return;
    }
    case Tag::kMap: {
      out += "{";
      bool first = true;
      for (const auto& [k, x] : static_cast<MapObj*>(v.h())->entries) {
        if (!first) out += ", ";
        first = false;
        Print(m, k, debug, false, depth + 1, out);
        out += ": ";
        Print(m, x, debug, false, depth + 1, out);
      }
      out += "}";
      return;
    }
    case Tag::kAdt: {
      auto* o = static_cast<AdtObj*>(v.h());
      const AdtInfo& info = m.adts[o->adt];
      const std::string& vname = info.variant_names[o->variant];
      const auto& names = info.field_names[o->variant];
      bool named = !names.empty() && !names[0].empty();
      out += info.is_enum ? vname : info.name;
      if (o->fields.empty()) return;
      if (named) {
        out += " { ";
        for (size_t i = 0; i < o->fields.size(); ++i) {
          if (i) out += ", ";
          absl::StrAppend(&out, i < names.size() ? names[i] : absl::StrCat(i), ": ");
          Print(m, o->fields[i], debug, false, depth + 1, out);
        }
        out += " }";
      } else {
        out += "(";
        for (size_t i = 0; i < o->fields.size(); ++i) {
          if (i) out += ", ";
          Print(m, o->fields[i], debug, false, depth + 1, out);
        }
        out += ")";
      }
      return;
    }
    case Tag::kClosure:
      absl::StrAppend(&out, "<closure ", m.functions[static_cast<ClosureObj*>(v.h())->fn].name,
                      ">");
      return;
    case Tag::kRef: out += "<ref>"; return;
    case Tag::kCap: {
      auto* c = static_cast<CapObj*>(v.h());
      absl::StrAppend(&out, "<cap ", c->family, " ", QuoteDebug(c->constraint), ">");
      return;
    }
  }
}

}  // namespace

std::string Display(const Module& m, const Value& v) {
  std::string s;
  Print(m, v, false, true, 0, s);
  return s;
}

std::string Debug(const Module& m, const Value& v) {
  std::string s;
  Print(m, v, true, true, 0, s);
  return s;
}

std::string KindName(const Module& m, const Value& v) {
  if (v.Is(Tag::kAdt)) return m.adts[static_cast<AdtObj*>(v.h())->adt].name;
  return TagName(v.tag());
}

namespace {

const char* OpSymbol(Op op) {
  switch (op) {
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::Rem: return "%";
    case Op::BitAnd: return "&";
    case Op::BitOr: return "|";
    case Op::BitXor: return "^";
    case Op::Shl: return "<<";
    case Op::Shr: return ">>";
    case Op::Eq: return "==";
    case Op::Ne: return "!=";
    case Op::Lt: return "<";
    case Op::Le: return "<=";
    case Op::Gt: return ">";
    case Op::Ge: return ">=";
    default: return "?";
  }
}

bool TypeError(Ctx& cx, Op op, const Value& a, const Value& b) {
  return cx.Trap(TrapCode::kType, absl::StrCat("cannot apply '", OpSymbol(op), "' to ",
                                               KindName(cx.m, a), " and ", KindName(cx.m, b)));
}

bool IntArith(Ctx& cx, Op op, int64_t x, int64_t y, int64_t* r) {
  switch (op) {
    case Op::Add:
      if (__builtin_add_overflow(x, y, r))
        return cx.Trap(TrapCode::kOverflow, "integer overflow in '+'");
      return true;
    case Op::Sub:
      if (__builtin_sub_overflow(x, y, r))
        return cx.Trap(TrapCode::kOverflow, "integer overflow in '-'");
      return true;
    case Op::Mul:
      if (__builtin_mul_overflow(x, y, r))
        return cx.Trap(TrapCode::kOverflow, "integer overflow in '*'");
      return true;
    case Op::Div:
    case Op::Rem:
      if (y == 0)
        return cx.Trap(TrapCode::kDivByZero,
                       op == Op::Div ? "division by zero" : "remainder by zero");
      if (y == -1 && x == std::numeric_limits<int64_t>::min())
        return cx.Trap(TrapCode::kOverflow,
                       absl::StrCat("integer overflow in '", OpSymbol(op), "'"));
      *r = op == Op::Div ? x / y : x % y;
      return true;
    case Op::BitAnd: *r = x & y; return true;
    case Op::BitOr: *r = x | y; return true;
    case Op::BitXor: *r = x ^ y; return true;
    case Op::Shl:
    case Op::Shr:
      if (y < 0 || y > 63)
        return cx.Trap(TrapCode::kOverflow, absl::StrCat("shift by ", y, " is out of range 0..63"));
      *r = op == Op::Shl ? static_cast<int64_t>(static_cast<uint64_t>(x) << y) : x >> y;
      return true;
    default: return false;
  }
}

}  // namespace

bool Arith(Ctx& cx, Op op, const Value& a, const Value& b, Value& out) {
  if (op == Op::Eq || op == Op::Ne) {
    bool eq = ValuesEqual(a, b);
    out = Value::Bool(op == Op::Eq ? eq : !eq);
    return true;
  }
  if (op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge) {
    int c = CompareValues(a, b);
    if (c == 2) {
      if (a.Is(Tag::kFloat) && b.Is(Tag::kFloat)) {  // NaN: every ordering is false
        out = Value::Bool(false);
        return true;
      }
      return TypeError(cx, op, a, b);
    }
    bool r = op == Op::Lt ? c < 0 : op == Op::Le ? c <= 0 : op == Op::Gt ? c > 0 : c >= 0;
    out = Value::Bool(r);
    return true;
  }
  Tag ta = a.tag(), tb = b.tag();
  if (ta == Tag::kInt && tb == Tag::kInt) {
    int64_t r;
    if (!IntArith(cx, op, a.i(), b.i(), &r)) return false;
    out = Value::Int(r);
    return true;
  }
  if (ta == Tag::kFloat && tb == Tag::kFloat) {
    double x = a.f(), y = b.f();
    switch (op) {
      case Op::Add: out = Value::Float(x + y); return true;
      case Op::Sub: out = Value::Float(x - y); return true;
      case Op::Mul: out = Value::Float(x * y); return true;
      case Op::Div: out = Value::Float(x / y); return true;
      case Op::Rem: out = Value::Float(std::fmod(x, y)); return true;
      default: return TypeError(cx, op, a, b);
    }
  }
  if (ta == Tag::kBool && tb == Tag::kBool &&
      (op == Op::BitAnd || op == Op::BitOr || op == Op::BitXor)) {
    bool x = a.b(), y = b.b();
    out = Value::Bool(op == Op::BitAnd ? (x && y) : op == Op::BitOr ? (x || y) : (x != y));
    return true;
  }
  if (ta == Tag::kStr && tb == Tag::kStr && op == Op::Add) {
    const std::string& x = static_cast<StrObj*>(a.h())->s;
    const std::string& y = static_cast<StrObj*>(b.h())->s;
    if (!cx.Charge(24 + x.size() + y.size())) return false;
    std::string s;
    s.reserve(x.size() + y.size());
    s += x;
    s += y;
    out = MakeStr(std::move(s));
    return true;
  }
  // Durations and sizes: same-kind + and -, scaling by an Int, ratio by /.
  if ((ta == Tag::kDuration || ta == Tag::kSize) && (tb == ta || tb == Tag::kInt)) {
    int64_t r;
    if (tb == ta && (op == Op::Add || op == Op::Sub || op == Op::Rem)) {
      if (!IntArith(cx, op, a.i(), b.i(), &r)) return false;
      out = Value::Int(r);
      out.SetImm(ta, r);
      return true;
    }
    if (tb == ta && op == Op::Div) {
      if (!IntArith(cx, op, a.i(), b.i(), &r)) return false;
      out = Value::Int(r);
      return true;
    }
    if (tb == Tag::kInt && (op == Op::Mul || op == Op::Div)) {
      if (!IntArith(cx, op, a.i(), b.i(), &r)) return false;
      out.SetImm(ta, r);
      return true;
    }
  }
  if (ta == Tag::kInt && (tb == Tag::kDuration || tb == Tag::kSize) && op == Op::Mul) {
    int64_t r;
    if (!IntArith(cx, op, a.i(), b.i(), &r)) return false;
    out.SetImm(tb, r);
    return true;
  }
  return TypeError(cx, op, a, b);
}

bool Unary(Ctx& cx, Op op, const Value& a, Value& out) {
  if (a.Is(Tag::kDead)) return cx.Trap(TrapCode::kUseOfDropped, "use of a moved or dropped value");
  if (op == Op::Neg) {
    switch (a.tag()) {
      case Tag::kInt:
      case Tag::kDuration:
        if (a.i() == std::numeric_limits<int64_t>::min())
          return cx.Trap(TrapCode::kOverflow, "integer overflow in unary '-'");
        out.SetImm(a.tag(), -a.i());
        return true;
      case Tag::kFloat: out = Value::Float(-a.f()); return true;
      default: return cx.Trap(TrapCode::kType, absl::StrCat("cannot negate ", KindName(cx.m, a)));
    }
  }
  if (a.Is(Tag::kBool)) {
    out = Value::Bool(!a.b());
    return true;
  }
  if (a.Is(Tag::kInt)) {
    out = Value::Int(~a.i());
    return true;
  }
  return cx.Trap(TrapCode::kType, absl::StrCat("cannot apply '!' to ", KindName(cx.m, a)));
}

bool DoCast(Ctx& cx, const Value& v, CastKind k, Value& out) {
  auto bad = [&] {
    return cx.Trap(TrapCode::kType,
                   absl::StrCat("cannot cast ", KindName(cx.m, v), " to this type"));
  };
  // Integer view of the source (floats saturate like Rust's `as`).
  auto as_int = [&](int64_t* r) {
    switch (v.tag()) {
      case Tag::kInt:
      case Tag::kChar:
      case Tag::kBool:
      case Tag::kDuration:
      case Tag::kSize: *r = v.i(); return true;
      case Tag::kFloat: {
        double d = v.f();
        if (std::isnan(d))
          *r = 0;
        else if (d >= 9223372036854775807.0)
          *r = std::numeric_limits<int64_t>::max();
        else if (d <= -9223372036854775808.0)
          *r = std::numeric_limits<int64_t>::min();
        else
          *r = static_cast<int64_t>(d);
        return true;
      }
      default: return false;
    }
  };
  int64_t x;
  switch (k) {
    case CastKind::kI8:
    case CastKind::kI16:
    case CastKind::kI32:
    case CastKind::kI64:
    case CastKind::kU8:
    case CastKind::kU16:
    case CastKind::kU32:
    case CastKind::kU64: {
      if (!as_int(&x)) return bad();
      if (v.Is(Tag::kFloat)) {
        // Floats saturate at the target's bounds (Rust's `as`); U64 values
        // above I64::MAX cannot be represented and saturate there.
        static constexpr int64_t kMin[] = {INT8_MIN, INT16_MIN, INT32_MIN, INT64_MIN, 0, 0, 0, 0};
        static constexpr int64_t kMax[] = {INT8_MAX,  INT16_MAX,  INT32_MAX,  INT64_MAX,
                                           UINT8_MAX, UINT16_MAX, UINT32_MAX, INT64_MAX};
        int idx = static_cast<int>(k);
        x = std::clamp(x, kMin[idx], kMax[idx]);
      }
      switch (k) {
        case CastKind::kI8: x = static_cast<int8_t>(x); break;
        case CastKind::kI16: x = static_cast<int16_t>(x); break;
        case CastKind::kI32: x = static_cast<int32_t>(x); break;
        case CastKind::kU8: x = static_cast<uint8_t>(x); break;
        case CastKind::kU16: x = static_cast<uint16_t>(x); break;
        case CastKind::kU32: x = static_cast<uint32_t>(x); break;
        case CastKind::kU64:
          if (v.Is(Tag::kFloat) && v.f() < 0) x = 0;
          break;
        default: break;
      }
      out = Value::Int(x);
      return true;
    }
    case CastKind::kF64:
      if (v.Is(Tag::kFloat)) {
        out = v;
        return true;
      }
      if (!as_int(&x)) return bad();
      out = Value::Float(static_cast<double>(x));
      return true;
    case CastKind::kChar:
      if (v.Is(Tag::kChar)) {
        out = v;
        return true;
      }
      if (!v.Is(Tag::kInt)) return bad();
      if (v.i() < 0 || v.i() > 0x10FFFF || (v.i() >= 0xD800 && v.i() <= 0xDFFF))
        return cx.Trap(TrapCode::kType, absl::StrCat(v.i(), " is not a Unicode scalar value"));
      out = Value::Char(static_cast<uint32_t>(v.i()));
      return true;
    case CastKind::kBool:
      if (!v.Is(Tag::kBool)) return bad();
      out = v;
      return true;
    case CastKind::kStr: {
      std::string s = Display(cx.m, v);
      if (!cx.Charge(24 + s.size())) return false;
      out = MakeStr(std::move(s));
      return true;
    }
    case CastKind::kDuration:
    case CastKind::kSize:
      if (!(v.Is(Tag::kInt) || v.Is(Tag::kDuration) || v.Is(Tag::kSize))) return bad();
      out.SetImm(k == CastKind::kDuration ? Tag::kDuration : Tag::kSize, v.i());
      return true;
  }
  return bad();
}

namespace {

size_t Utf8Len(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

// format! placeholders with a spec: [[fill]align][+][#][0][width][.prec][type]
// with type one of "" ? x X b o e (Rust's std::fmt subset).
bool FormatSpec(Ctx& cx, const Value& v, std::string_view spec, std::string* out) {
  size_t i = 0;
  std::string fill = " ";
  char align = 0;
  auto is_align = [](char c) { return c == '<' || c == '>' || c == '^'; };
  if (spec.size() >= 2 && is_align(spec[1]) && (static_cast<unsigned char>(spec[0]) < 0x80)) {
    fill = std::string(1, spec[0]);
    align = spec[1];
    i = 2;
  } else if (!spec.empty() && is_align(spec[0])) {
    align = spec[0];
    i = 1;
  }
  bool plus = false, alt = false, zero = false;
  if (i < spec.size() && spec[i] == '+') plus = true, ++i;
  if (i < spec.size() && spec[i] == '#') alt = true, ++i;
  if (i < spec.size() && spec[i] == '0') zero = true, ++i;
  size_t width = 0;
  while (i < spec.size() && spec[i] >= '0' && spec[i] <= '9')
    width = width * 10 + (spec[i++] - '0');
  int prec = -1;
  if (i < spec.size() && spec[i] == '.') {
    ++i;
    prec = 0;
    while (i < spec.size() && spec[i] >= '0' && spec[i] <= '9')
      prec = prec * 10 + (spec[i++] - '0');
  }
  std::string_view type = spec.substr(i);
  if (!(type.empty() || type == "?" || type == "x" || type == "X" || type == "b" || type == "o" ||
        type == "e") ||
      width > 4096 || prec > 1024) {
    cx.Trap(TrapCode::kType, absl::StrCat("unsupported format spec '{:", std::string(spec), "}'"));
    return false;
  }
  std::string body, sign;
  bool numeric = v.Is(Tag::kInt) || v.Is(Tag::kFloat);
  if (type == "x" || type == "X" || type == "b" || type == "o") {
    if (!v.Is(Tag::kInt)) {
      cx.Trap(TrapCode::kType,
              absl::StrCat("{:", std::string(type), "} needs an Int, found ", KindName(cx.m, v)));
      return false;
    }
    uint64_t u = static_cast<uint64_t>(v.i());
    int base = type == "b" ? 2 : type == "o" ? 8 : 16;
    const char* digits = type == "X" ? "0123456789ABCDEF" : "0123456789abcdef";
    do {
      body.insert(body.begin(), digits[u % base]);
      u /= base;
    } while (u);
    if (alt) body = std::string(type == "b" ? "0b" : type == "o" ? "0o" : "0x") + body;
  } else if (type == "e") {
    if (!numeric) {
      cx.Trap(TrapCode::kType, absl::StrCat("{:e} needs a number, found ", KindName(cx.m, v)));
      return false;
    }
    double d = v.Is(Tag::kInt) ? static_cast<double>(v.i()) : v.f();
    char buf[128];
    auto r = prec >= 0
                 ? std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::scientific, prec)
                 : std::to_chars(buf, buf + sizeof(buf), d, std::chars_format::scientific);
    std::string t(buf, r.ptr);
    size_t e = t.find('e');
    std::string exp = t.substr(e + 1);
    bool neg = exp[0] == '-';
    exp.erase(0, 1);
    while (exp.size() > 1 && exp[0] == '0') exp.erase(0, 1);
    body = t.substr(0, e) + "e" + (neg ? "-" : "") + exp;
  } else if (type == "?") {
    body = Debug(cx.m, v);
  } else if (prec >= 0 && v.Is(Tag::kFloat)) {
    char buf[1200];
    auto r = std::to_chars(buf, buf + sizeof(buf), v.f(), std::chars_format::fixed, prec);
    body.assign(buf, r.ptr);
  } else if (prec >= 0 && v.Is(Tag::kStr)) {
    const std::string& s = static_cast<StrObj*>(v.h())->s;
    size_t n = 0, b = 0;
    while (b < s.size() && n < static_cast<size_t>(prec)) {
      ++b;
      while (b < s.size() && (static_cast<unsigned char>(s[b]) & 0xC0) == 0x80) ++b;
      ++n;
    }
    body = s.substr(0, b);
  } else {
    body = Display(cx.m, v);
  }
  if (numeric && !body.empty() && body[0] == '-') {
    sign = "-";
    body.erase(0, 1);
  } else if (numeric && plus) {
    sign = "+";
  }
  size_t len = Utf8Len(sign) + Utf8Len(body);
  std::string r;
  if (zero && numeric && len < width) {
    r = sign + std::string(width - len, '0') + body;
  } else {
    std::string content = sign + body;
    size_t pad = len < width ? width - len : 0;
    char a = align ? align : (numeric ? '>' : '<');
    size_t left = a == '>' ? pad : a == '^' ? pad / 2 : 0;
    size_t right = pad - left;
    for (size_t k = 0; k < left; ++k) r += fill;
    r += content;
    for (size_t k = 0; k < right; ++k) r += fill;
  }
  *out = std::move(r);
  return true;
}

}  // namespace

CallStatus BuiltinFn(Ctx& cx, std::string_view name, std::vector<Value>& args, Value& out) {
  auto fail = [&](TrapCode c, std::string m) {
    cx.Trap(c, std::move(m));
    return CallStatus::kFail;
  };
  if (name == "log" || name == "print" || name == "eprint") {
    std::string s = Display(cx.m, args[0]);
    if (name == "log") s += '\n';
    // The output limit is checked before the write, which does not happen
    // when it would pass the limit.
    if (cx.scope)
      if (std::optional<ir::Breach> b = cx.scope->ChargeOutput(s.size())) {
        cx.breach = std::move(b);
        return CallStatus::kFail;
      }
    if (cx.host) {
      if (name == "eprint")
        cx.host->Stderr(s);
      else
        cx.host->Stdout(s);
    }
    out = Value::Unit();
    return CallStatus::kOk;
  }
  if (name == "panic")
    return fail(TrapCode::kPanic, absl::StrCat("panic: ", Display(cx.m, args[0])));
  if (name == "assert") {
    if (!args[0].Is(Tag::kBool))
      return fail(TrapCode::kType,
                  absl::StrCat("assert needs a Bool, found ", KindName(cx.m, args[0])));
    if (!args[0].b()) return fail(TrapCode::kPanic, "assertion failed");
    out = Value::Unit();
    return CallStatus::kOk;
  }
  if (name == "to_str" || name == "debug_str" || name == "concat") {
    std::string s;
    if (name == "debug_str") {
      s = Debug(cx.m, args[0]);
    } else {
      for (const Value& v : args) s += Display(cx.m, v);
    }
    if (!cx.Charge(24 + s.size())) return CallStatus::kFail;
    out = MakeStr(std::move(s));
    return CallStatus::kOk;
  }
  if (name == "fmt") {
    if (!args[1].Is(Tag::kStr)) return fail(TrapCode::kType, "@fmt needs a Str spec");
    std::string s;
    if (!FormatSpec(cx, args[0], static_cast<StrObj*>(args[1].h())->s, &s))
      return CallStatus::kFail;
    if (!cx.Charge(24 + s.size())) return CallStatus::kFail;
    out = MakeStr(std::move(s));
    return CallStatus::kOk;
  }
  if (name == "type_name") {
    out = MakeStr(KindName(cx.m, args[0]));  // a short constant-like name: not charged
    return CallStatus::kOk;
  }
  if (name == "unsupported") return fail(TrapCode::kUnknown, Display(cx.m, args[0]));
  if (name == "child") {  // `sup.w`
    HostError err;
    std::optional<Value> v;
    if (cx.host && args[1].Is(Tag::kStr))
      v = cx.host->Child(args[0], static_cast<StrObj*>(args[1].h())->s, &err);
    if (!v) return fail(err.code == TrapCode::kNone ? TrapCode::kUnknown : err.code, err.message);
    out = std::move(*v);
    return CallStatus::kOk;
  }
  if (name == "iter_items") {
    // What `for x in v` walks: an array as is, a map's (key, value) pairs,
    // a string's chars.
    const Value& v = args[0];
    if (v.Is(Tag::kArray)) {
      out = v;
      return CallStatus::kOk;
    }
    auto* a = new ArrayObj(Tag::kArray);
    Value arr = Value::Heap(a);
    a->est = 24;
    if (v.Is(Tag::kMap)) {
      for (const auto& [k, x] : static_cast<MapObj*>(v.h())->entries) {
        auto* t = new ArrayObj(Tag::kTuple);
        t->items = {k, x};
        t->est = 24 + Estimate(k) + Estimate(x);
        a->items.push_back(Value::Heap(t));
        a->est += t->est;
      }
    } else if (v.Is(Tag::kStr)) {
      const std::string& s = static_cast<StrObj*>(v.h())->s;
      AppendChars(s, a);
    } else {
      return fail(TrapCode::kType, absl::StrCat("cannot iterate over ", KindName(cx.m, v)));
    }
    if (!cx.Charge(a->est)) return CallStatus::kFail;
    out = std::move(arr);
    return CallStatus::kOk;
  }
  return CallStatus::kUnknown;
}

bool IsMutatingMethod(std::string_view name) {
  static constexpr const char* kMut[] = {"push",    "pop",  "insert",   "remove", "clear",
                                         "reverse", "sort", "push_str", "extend", "truncate"};
  for (const char* m : kMut)
    if (name == m) return true;
  return false;
}

namespace {

Value MakeOption(const Value* some, uint64_t* est) {
  auto* o = new AdtObj();
  o->adt = kAdtOption;
  if (some) {
    o->variant = 0;
    o->fields.push_back(*some);
    o->est = 24 + Estimate(*some);
  } else {
    o->variant = 1;
    o->est = 24;
  }
  *est = o->est;
  return Value::Heap(o);
}

bool NeedArgs(Ctx& cx, std::string_view name, const std::vector<Value>& args, size_t n) {
  if (args.size() == n) return true;
  return cx.Trap(TrapCode::kType, absl::StrCat("method ", std::string(name), " takes ", n,
                                               " argument(s), given ", args.size()));
}

bool NeedInt(Ctx& cx, const Value& v, int64_t* out) {
  if (!v.Is(Tag::kInt))
    return cx.Trap(TrapCode::kType, absl::StrCat("expected Int, found ", KindName(cx.m, v)));
  *out = v.i();
  return true;
}

CallStatus Ok() { return CallStatus::kOk; }
CallStatus Fail() { return CallStatus::kFail; }

CallStatus StrMethod(Ctx& cx, Value& recv, std::string_view name, std::vector<Value>& args,
                     Value& out, int64_t* delta) {
  const std::string& s = static_cast<StrObj*>(recv.h())->s;
  auto str_arg = [&](size_t i, const std::string** p) {
    if (!args[i].Is(Tag::kStr))
      return cx.Trap(TrapCode::kType,
                     absl::StrCat("expected Str, found ", KindName(cx.m, args[i])));
    *p = &static_cast<StrObj*>(args[i].h())->s;
    return true;
  };
  auto new_str = [&](std::string r) {
    if (!cx.Charge(24 + r.size())) return Fail();
    out = MakeStr(std::move(r));
    return Ok();
  };
  if (name == "len") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    out = Value::Int(static_cast<int64_t>(s.size()));
    return Ok();
  }
  if (name == "is_empty") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    out = Value::Bool(s.empty());
    return Ok();
  }
  if (name == "contains" || name == "starts_with" || name == "ends_with") {
    const std::string* p;
    if (!NeedArgs(cx, name, args, 1) || !str_arg(0, &p)) return Fail();
    bool r = name == "contains"      ? s.find(*p) != std::string::npos
             : name == "starts_with" ? s.starts_with(*p)
                                     : s.ends_with(*p);
    out = Value::Bool(r);
    return Ok();
  }
  if (name == "to_upper" || name == "to_lower") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    std::string r = s;
    for (char& c : r)
      if (static_cast<unsigned char>(c) < 0x80)
        c = name == "to_upper" ? static_cast<char>(std::toupper(c))
                               : static_cast<char>(std::tolower(c));
    return new_str(std::move(r));
  }
  if (name == "trim") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    size_t b = s.find_first_not_of(" \t\r\n");
    size_t e = s.find_last_not_of(" \t\r\n");
    return new_str(b == std::string::npos ? "" : s.substr(b, e - b + 1));
  }
  if (name == "repeat") {
    int64_t n;
    if (!NeedArgs(cx, name, args, 1) || !NeedInt(cx, args[0], &n)) return Fail();
    if (n < 0) {
      cx.Trap(TrapCode::kIndex, absl::StrCat("repeat count ", n, " is negative"));
      return Fail();
    }
    uint64_t total;
    if (__builtin_mul_overflow(static_cast<uint64_t>(n), s.size(), &total) ||
        total > (uint64_t{1} << 32)) {
      cx.Trap(TrapCode::kBudget, absl::StrCat("repeat would build a string of ", n, " x ", s.size(),
                                              " bytes (the limit is 4 GiB)"));
      return Fail();
    }
    if (!cx.Charge(24 + total)) return Fail();
    std::string r;
    r.reserve(total);
    for (int64_t i = 0; i < n; ++i) r += s;
    out = MakeStr(std::move(r));
    return Ok();
  }
  if (name == "push_str") {
    const std::string* p;
    if (!NeedArgs(cx, name, args, 1) || !str_arg(0, &p)) return Fail();
    std::string add = *p;  // p may alias recv
    if (!cx.Charge(add.size())) return Fail();
    auto* o = static_cast<StrObj*>(MakeUnique(recv));
    o->s += add;
    o->est += add.size();
    *delta = static_cast<int64_t>(add.size());
    out = Value::Unit();
    return Ok();
  }
  if (name == "to_str" || name == "to_string") return new_str(s);
  if (name == "trim_start" || name == "trim_end") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    if (name == "trim_start") {
      size_t b = s.find_first_not_of(" \t\r\n");
      return new_str(b == std::string::npos ? "" : s.substr(b));
    }
    size_t e = s.find_last_not_of(" \t\r\n");
    return new_str(e == std::string::npos ? "" : s.substr(0, e + 1));
  }
  if (name == "find" || name == "rfind") {
    const std::string* p;
    if (!NeedArgs(cx, name, args, 1) || !str_arg(0, &p)) return Fail();
    size_t at = name == "find" ? s.find(*p) : s.rfind(*p);
    uint64_t est;
    Value idx = Value::Int(static_cast<int64_t>(at));
    out = MakeOption(at == std::string::npos ? nullptr : &idx, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (name == "replace") {
    const std::string *from, *to;
    if (!NeedArgs(cx, name, args, 2) || !str_arg(0, &from) || !str_arg(1, &to)) return Fail();
    if (from->empty()) return new_str(s);
    std::string r;
    size_t pos = 0;
    while (true) {
      size_t at = s.find(*from, pos);
      if (at == std::string::npos) break;
      r.append(s, pos, at - pos);
      r += *to;
      pos = at + from->size();
      if (r.size() > (uint64_t{1} << 32)) {
        cx.Trap(TrapCode::kBudget, "replace would build a string over 4 GiB");
        return Fail();
      }
    }
    r.append(s, pos, std::string::npos);
    return new_str(std::move(r));
  }
  if (name == "split" || name == "lines") {
    const std::string* p = nullptr;
    std::string nl = "\n";
    if (name == "split") {
      if (!NeedArgs(cx, name, args, 1) || !str_arg(0, &p)) return Fail();
    } else {
      if (!NeedArgs(cx, name, args, 0)) return Fail();
      p = &nl;
    }
    auto* a = new ArrayObj(Tag::kArray);
    Value v = Value::Heap(a);
    a->est = 24;
    auto add = [&](std::string piece) {
      if (name == "lines" && !piece.empty() && piece.back() == '\r') piece.pop_back();
      a->est += 24 + piece.size();
      a->items.push_back(MakeStr(std::move(piece)));
    };
    if (p->empty()) {
      for (size_t i = 0; i < s.size();) {
        size_t n = 1;
        while (i + n < s.size() && (static_cast<unsigned char>(s[i + n]) & 0xC0) == 0x80) ++n;
        add(s.substr(i, n));
        i += n;
      }
    } else {
      size_t pos = 0;
      while (true) {
        size_t at = s.find(*p, pos);
        if (at == std::string::npos) {
          if (!(name == "lines" && pos == s.size())) add(s.substr(pos));
          break;
        }
        add(s.substr(pos, at - pos));
        pos = at + p->size();
      }
    }
    if (!cx.Charge(a->est)) return Fail();
    out = std::move(v);
    return Ok();
  }
  if (name == "bytes") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    auto* a = new ArrayObj(Tag::kArray);
    Value v = Value::Heap(a);
    for (unsigned char c : s) a->items.push_back(Value::Int(c));
    a->est = 24 + 16 * s.size();
    if (!cx.Charge(a->est)) return Fail();
    out = std::move(v);
    return Ok();
  }
  if (name == "char_at" || name == "slice") {
    // Indices count chars (Unicode scalars).
    std::vector<size_t> starts;
    for (size_t i = 0; i < s.size(); ++i)
      if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
    starts.push_back(s.size());
    size_t nchars = starts.size() - 1;
    if (name == "char_at") {
      int64_t i;
      if (!NeedArgs(cx, name, args, 1) || !NeedInt(cx, args[0], &i)) return Fail();
      uint64_t est;
      if (i < 0 || static_cast<uint64_t>(i) >= nchars) {
        out = MakeOption(nullptr, &est);
      } else {
        std::string ch = s.substr(starts[i], starts[i + 1] - starts[i]);
        unsigned char c = static_cast<unsigned char>(ch[0]);
        uint32_t cp = c < 0x80 ? c : c < 0xE0 ? (c & 0x1F) : c < 0xF0 ? (c & 0x0F) : (c & 0x07);
        for (size_t k = 1; k < ch.size(); ++k) cp = (cp << 6) | (ch[k] & 0x3F);
        Value cv = Value::Char(cp);
        out = MakeOption(&cv, &est);
      }
      return cx.Charge(est) ? Ok() : Fail();
    }
    int64_t a, b;
    if (!NeedArgs(cx, name, args, 2) || !NeedInt(cx, args[0], &a) || !NeedInt(cx, args[1], &b))
      return Fail();
    if (a < 0 || b < a || static_cast<uint64_t>(b) > nchars) {
      cx.Trap(TrapCode::kIndex, absl::StrCat("slice ", a, "..", b, " out of range for a string of ",
                                             nchars, " chars"));
      return Fail();
    }
    return new_str(s.substr(starts[a], starts[b] - starts[a]));
  }
  if (name == "parse_int" || name == "parse_float") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    auto* o = new AdtObj();
    Value r = Value::Heap(o);
    o->adt = kAdtResult;
    bool ok = false;
    Value v;
    if (name == "parse_int") {
      int64_t x = 0;
      const char* b = s.data();
      if (!s.empty() && s[0] == '+') ++b;
      auto res = std::from_chars(b, s.data() + s.size(), x);
      ok = !s.empty() && res.ec == std::errc() && res.ptr == s.data() + s.size();
      v = Value::Int(x);
    } else {
      double x = 0;
      auto res = std::from_chars(s.data(), s.data() + s.size(), x);
      ok = !s.empty() && res.ec == std::errc() && res.ptr == s.data() + s.size();
      v = Value::Float(x);
    }
    if (ok) {
      o->variant = 0;
      o->fields.push_back(v);
    } else {
      o->variant = 1;
      o->fields.push_back(MakeStr(absl::StrCat(
          "invalid ", name == "parse_int" ? "integer" : "float", ": ", QuoteDebug(s))));
    }
    o->est = 24 + Estimate(o->fields[0]);
    if (!cx.Charge(o->est)) return Fail();
    out = std::move(r);
    return Ok();
  }

  if (name == "chars") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    auto* a = new ArrayObj(Tag::kArray);
    Value v = Value::Heap(a);
    a->est = 24;
    AppendChars(s, a);
    if (!cx.Charge(a->est)) return Fail();
    out = std::move(v);
    return Ok();
  }
  return CallStatus::kUnknown;
}

CallStatus ArrayMethod(Ctx& cx, Value& recv, std::string_view name, std::vector<Value>& args,
                       Value& out, int64_t* delta) {
  auto* a = static_cast<ArrayObj*>(recv.h());
  uint64_t est;
  if (name == "len") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    out = Value::Int(static_cast<int64_t>(a->items.size()));
    return Ok();
  }
  if (name == "is_empty") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    out = Value::Bool(a->items.empty());
    return Ok();
  }
  if (name == "push") {
    if (!NeedArgs(cx, name, args, 1)) return Fail();
    uint64_t e = Estimate(args[0]);
    if (!cx.Charge(e)) return Fail();
    a = static_cast<ArrayObj*>(MakeUnique(recv));
    a->items.push_back(std::move(args[0]));
    a->est += e;
    *delta = static_cast<int64_t>(e);
    out = Value::Unit();
    return Ok();
  }
  if (name == "pop") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    if (a->items.empty()) {
      out = MakeOption(nullptr, &est);
      return cx.Charge(est) ? Ok() : Fail();
    }
    a = static_cast<ArrayObj*>(MakeUnique(recv));
    Value last = std::move(a->items.back());
    a->items.pop_back();
    uint64_t e = Estimate(last);
    a->est -= e;
    *delta = -static_cast<int64_t>(e);
    out = MakeOption(&last, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (name == "get") {
    int64_t i;
    if (!NeedArgs(cx, name, args, 1) || !NeedInt(cx, args[0], &i)) return Fail();
    bool in = i >= 0 && static_cast<uint64_t>(i) < a->items.size();
    out = MakeOption(in ? &a->items[i] : nullptr, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (name == "first" || name == "last") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    const Value* v = a->items.empty()  ? nullptr
                     : name == "first" ? &a->items.front()
                                       : &a->items.back();
    out = MakeOption(v, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (name == "contains") {
    if (!NeedArgs(cx, name, args, 1)) return Fail();
    bool found = false;
    for (const Value& v : a->items)
      if (ValuesEqual(v, args[0])) found = true;
    out = Value::Bool(found);
    return Ok();
  }
  if (name == "insert") {
    int64_t i;
    if (!NeedArgs(cx, name, args, 2) || !NeedInt(cx, args[0], &i)) return Fail();
    if (i < 0 || static_cast<uint64_t>(i) > a->items.size()) {
      cx.Trap(TrapCode::kIndex,
              absl::StrCat("insert index ", i, " out of range for length ", a->items.size()));
      return Fail();
    }
    uint64_t e = Estimate(args[1]);
    if (!cx.Charge(e)) return Fail();
    a = static_cast<ArrayObj*>(MakeUnique(recv));
    a->items.insert(a->items.begin() + i, std::move(args[1]));
    a->est += e;
    *delta = static_cast<int64_t>(e);
    out = Value::Unit();
    return Ok();
  }
  if (name == "remove") {
    int64_t i;
    if (!NeedArgs(cx, name, args, 1) || !NeedInt(cx, args[0], &i)) return Fail();
    if (i < 0 || static_cast<uint64_t>(i) >= a->items.size()) {
      cx.Trap(TrapCode::kIndex,
              absl::StrCat("remove index ", i, " out of range for length ", a->items.size()));
      return Fail();
    }
    a = static_cast<ArrayObj*>(MakeUnique(recv));
    out = std::move(a->items[i]);
    a->items.erase(a->items.begin() + i);
    uint64_t e = Estimate(out);
    a->est -= e;
    *delta = -static_cast<int64_t>(e);
    return Ok();
  }
  if (name == "reverse") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    a = static_cast<ArrayObj*>(MakeUnique(recv));
    std::reverse(a->items.begin(), a->items.end());
    out = Value::Unit();
    return Ok();
  }
  if (name == "clear") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    a = static_cast<ArrayObj*>(MakeUnique(recv));
    a->items.clear();
    *delta = -static_cast<int64_t>(a->est - 24);
    a->est = 24;
    out = Value::Unit();
    return Ok();
  }
  if (name == "sort") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    for (size_t i = 1; i < a->items.size(); ++i)
      if (CompareValues(a->items[0], a->items[i]) == 2) {
        cx.Trap(TrapCode::kType, "sort needs elements of one ordered kind");
        return Fail();
      }
    a = static_cast<ArrayObj*>(MakeUnique(recv));
    std::stable_sort(a->items.begin(), a->items.end(),
                     [](const Value& x, const Value& y) { return CompareValues(x, y) < 0; });
    out = Value::Unit();
    return Ok();
  }
  if (name == "join") {
    if (!NeedArgs(cx, name, args, 1) || !args[0].Is(Tag::kStr)) {
      if (cx.code == TrapCode::kNone) cx.Trap(TrapCode::kType, "join needs a Str separator");
      return Fail();
    }
    std::string r;
    const std::string& sep = static_cast<StrObj*>(args[0].h())->s;
    for (size_t i = 0; i < a->items.size(); ++i) {
      if (i) r += sep;
      r += Display(cx.m, a->items[i]);
    }
    if (!cx.Charge(24 + r.size())) return Fail();
    out = MakeStr(std::move(r));
    return Ok();
  }
  if (name == "iter") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    out = recv;
    return Ok();
  }
  if (name == "slice") {
    int64_t lo, hi;
    if (!NeedArgs(cx, name, args, 2) || !NeedInt(cx, args[0], &lo) || !NeedInt(cx, args[1], &hi))
      return Fail();
    if (lo < 0 || hi < lo || static_cast<uint64_t>(hi) > a->items.size()) {
      cx.Trap(TrapCode::kIndex,
              absl::StrCat("slice ", lo, "..", hi, " out of range for length ", a->items.size()));
      return Fail();
    }
    auto* r = new ArrayObj(Tag::kArray);
    Value v = Value::Heap(r);
    r->est = 24;
    for (int64_t i = lo; i < hi; ++i) {
      r->items.push_back(a->items[i]);
      r->est += Estimate(a->items[i]);
    }
    if (!cx.Charge(r->est)) return Fail();
    out = std::move(v);
    return Ok();
  }
  if (name == "extend") {
    if (!NeedArgs(cx, name, args, 1)) return Fail();
    if (!args[0].Is(Tag::kArray)) {
      cx.Trap(TrapCode::kType,
              absl::StrCat("extend needs an array, found ", KindName(cx.m, args[0])));
      return Fail();
    }
    Value other = args[0];
    const auto& items = static_cast<ArrayObj*>(other.h())->items;
    uint64_t e = 0;
    for (const Value& x : items) e += Estimate(x);
    if (!cx.Charge(e)) return Fail();
    a = static_cast<ArrayObj*>(MakeUnique(recv));
    for (const Value& x : items) a->items.push_back(x);
    a->est += e;
    *delta = static_cast<int64_t>(e);
    out = Value::Unit();
    return Ok();
  }
  if (name == "sum") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    Value acc = Value::Int(0);
    bool first = true;
    for (const Value& x : a->items) {
      if (first && x.Is(Tag::kFloat)) acc = Value::Float(0);
      first = false;
      Value next;
      if (!Arith(cx, Op::Add, acc, x, next)) return Fail();
      acc = std::move(next);
    }
    out = std::move(acc);
    return Ok();
  }
  if (name == "min" || name == "max") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    const Value* best = nullptr;
    for (const Value& x : a->items) {
      if (!best) {
        best = &x;
        continue;
      }
      int c = CompareValues(x, *best);
      if (c == 2) {
        cx.Trap(TrapCode::kType,
                absl::StrCat(std::string(name), " needs elements of one ordered kind"));
        return Fail();
      }
      if ((name == "min" && c < 0) || (name == "max" && c > 0)) best = &x;
    }
    out = MakeOption(best, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (name == "index_of") {
    if (!NeedArgs(cx, name, args, 1)) return Fail();
    for (size_t i = 0; i < a->items.size(); ++i)
      if (ValuesEqual(a->items[i], args[0])) {
        Value idx = Value::Int(static_cast<int64_t>(i));
        out = MakeOption(&idx, &est);
        return cx.Charge(est) ? Ok() : Fail();
      }
    out = MakeOption(nullptr, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  return CallStatus::kUnknown;
}

CallStatus MapMethod(Ctx& cx, Value& recv, std::string_view name, std::vector<Value>& args,
                     Value& out, int64_t* delta) {
  auto* m = static_cast<MapObj*>(recv.h());
  uint64_t est;
  if (name == "len") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    out = Value::Int(static_cast<int64_t>(m->entries.size()));
    return Ok();
  }
  if (name == "is_empty") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    out = Value::Bool(m->entries.empty());
    return Ok();
  }
  if (name == "contains_key") {
    if (!NeedArgs(cx, name, args, 1)) return Fail();
    out = Value::Bool(m->Find(args[0]) >= 0);
    return Ok();
  }
  if (name == "get") {
    if (!NeedArgs(cx, name, args, 1)) return Fail();
    int j = m->Find(args[0]);
    out = MakeOption(j >= 0 ? &m->entries[j].second : nullptr, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (name == "insert") {
    if (!NeedArgs(cx, name, args, 2)) return Fail();
    if (!IsMapKey(args[0])) {
      cx.Trap(TrapCode::kType,
              absl::StrCat("map keys must be Int, Str, Char, Bool or tuples, found ",
                           KindName(cx.m, args[0])));
      return Fail();
    }
    m = static_cast<MapObj*>(MakeUnique(recv));
    int j = m->Find(args[0]);
    if (j >= 0) {
      int64_t d = static_cast<int64_t>(Estimate(args[1])) -
                  static_cast<int64_t>(Estimate(m->entries[j].second));
      Value old = std::move(m->entries[j].second);
      m->entries[j].second = std::move(args[1]);
      m->est += d;
      *delta = d;
      out = MakeOption(&old, &est);
      return cx.Charge(est) ? Ok() : Fail();
    }
    uint64_t e = Estimate(args[0]) + Estimate(args[1]);
    if (!cx.Charge(e)) return Fail();
    m->entries.push_back({std::move(args[0]), std::move(args[1])});
    m->index.emplace(m->entries.back().first, static_cast<uint32_t>(m->entries.size() - 1));
    m->est += e;
    *delta = static_cast<int64_t>(e);
    out = MakeOption(nullptr, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (name == "remove") {
    if (!NeedArgs(cx, name, args, 1)) return Fail();
    int j = m->Find(args[0]);
    if (j < 0) {
      out = MakeOption(nullptr, &est);
      return cx.Charge(est) ? Ok() : Fail();
    }
    m = static_cast<MapObj*>(MakeUnique(recv));
    Value old = std::move(m->entries[j].second);
    uint64_t e = Estimate(m->entries[j].first) + Estimate(old);
    m->entries.erase(m->entries.begin() + j);
    m->Reindex();
    m->est -= e;
    *delta = -static_cast<int64_t>(e);
    out = MakeOption(&old, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (name == "keys" || name == "values") {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    auto* a = new ArrayObj(Tag::kArray);
    Value v = Value::Heap(a);
    a->est = 24;
    for (const auto& [k, x] : m->entries) {
      a->items.push_back(name == "keys" ? k : x);
      a->est += Estimate(a->items.back());
    }
    if (!cx.Charge(a->est)) return Fail();
    out = std::move(v);
    return Ok();
  }
  return CallStatus::kUnknown;
}

CallStatus OptionResultMethod(Ctx& cx, Value& recv, std::string_view name, std::vector<Value>& args,
                              Value& out) {
  auto* o = static_cast<AdtObj*>(recv.h());
  bool is_option = o->adt == kAdtOption;
  bool good = o->variant == 0;  // Some / Ok
  if (name == "is_some" || name == "is_ok") {
    if ((name == "is_some") != is_option) return CallStatus::kUnknown;
    out = Value::Bool(good);
    return Ok();
  }
  if (name == "is_none" || name == "is_err") {
    if ((name == "is_none") != is_option) return CallStatus::kUnknown;
    out = Value::Bool(!good);
    return Ok();
  }
  if (name == "unwrap" || name == "expect") {
    if (!NeedArgs(cx, name, args, name == "expect" ? 1 : 0)) return Fail();
    if (good) {
      out = o->fields[0];
      return Ok();
    }
    std::string msg;
    if (name == "expect")
      msg = Display(cx.m, args[0]);
    else if (is_option)
      msg = "called unwrap on None";
    else
      msg = absl::StrCat("called unwrap on Err(", Debug(cx.m, o->fields[0]), ")");
    cx.Trap(TrapCode::kPanic, msg);
    return Fail();
  }
  if (name == "unwrap_or") {
    if (!NeedArgs(cx, name, args, 1)) return Fail();
    out = good ? o->fields[0] : args[0];
    return Ok();
  }
  if (name == "ok" && !is_option) {
    if (!NeedArgs(cx, name, args, 0)) return Fail();
    uint64_t est;
    out = MakeOption(good ? &o->fields[0] : nullptr, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (name == "ok_or" && is_option) {
    if (!NeedArgs(cx, name, args, 1)) return Fail();
    auto* r = new AdtObj();
    Value v = Value::Heap(r);
    r->adt = kAdtResult;
    r->variant = good ? 0 : 1;
    r->fields.push_back(good ? o->fields[0] : args[0]);
    r->est = 24 + Estimate(r->fields[0]);
    if (!cx.Charge(r->est)) return Fail();
    out = std::move(v);
    return Ok();
  }
  return CallStatus::kUnknown;
}

CallStatus NumberMethod(Ctx& cx, Value& recv, std::string_view name, std::vector<Value>& args,
                        Value& out) {
  if (name == "to_str" || name == "to_string") {
    std::string s = Display(cx.m, recv);
    if (!cx.Charge(24 + s.size())) return Fail();
    out = MakeStr(std::move(s));
    return Ok();
  }
  if (recv.Is(Tag::kInt)) {
    int64_t x = recv.i(), y;
    if (name == "abs") {
      if (x == std::numeric_limits<int64_t>::min()) {
        cx.Trap(TrapCode::kOverflow, "integer overflow in abs");
        return Fail();
      }
      out = Value::Int(x < 0 ? -x : x);
      return Ok();
    }
    if (name == "min" || name == "max") {
      if (!NeedArgs(cx, name, args, 1) || !NeedInt(cx, args[0], &y)) return Fail();
      out = Value::Int(name == "min" ? std::min(x, y) : std::max(x, y));
      return Ok();
    }
    if (name == "pow") {
      if (!NeedArgs(cx, name, args, 1) || !NeedInt(cx, args[0], &y)) return Fail();
      if (y < 0) {
        cx.Trap(TrapCode::kType, "pow needs a non-negative exponent");
        return Fail();
      }
      // Exponentiation by squaring, checked at every multiplication.
      int64_t r = 1, base = x;
      bool overflow = false;
      for (int64_t e = y; e > 0; e >>= 1) {
        if (e & 1) overflow |= __builtin_mul_overflow(r, base, &r);
        if (e > 1) overflow |= __builtin_mul_overflow(base, base, &base);
        if (overflow) break;
      }
      if (overflow) {
        cx.Trap(TrapCode::kOverflow, "integer overflow in pow");
        return Fail();
      }
      out = Value::Int(r);
      return Ok();
    }
    return CallStatus::kUnknown;
  }
  if (recv.Is(Tag::kFloat)) {
    double x = recv.f();
    if (name == "sqrt")
      out = Value::Float(std::sqrt(x));
    else if (name == "floor")
      out = Value::Float(std::floor(x));
    else if (name == "ceil")
      out = Value::Float(std::ceil(x));
    else if (name == "round")
      out = Value::Float(std::round(x));
    else if (name == "abs")
      out = Value::Float(std::fabs(x));
    else if (name == "min" || name == "max" || name == "pow") {
      if (!NeedArgs(cx, name, args, 1)) return Fail();
      double y;
      if (args[0].Is(Tag::kFloat)) {
        y = args[0].f();
      } else if (args[0].Is(Tag::kInt)) {
        y = static_cast<double>(args[0].i());
      } else {
        cx.Trap(TrapCode::kType,
                absl::StrCat("expected a number, found ", KindName(cx.m, args[0])));
        return Fail();
      }
      out = Value::Float(name == "min"   ? std::fmin(x, y)
                         : name == "max" ? std::fmax(x, y)
                                         : std::pow(x, y));
    } else
      return CallStatus::kUnknown;
    return Ok();
  }
  if (recv.Is(Tag::kDuration) && (name == "as_millis" || name == "as_secs" || name == "as_nanos")) {
    out = Value::Int(name == "as_millis" ? recv.i() / 1000000
                     : name == "as_secs" ? recv.i() / 1000000000
                                         : recv.i());
    return Ok();
  }
  return CallStatus::kUnknown;
}

// fs.ro(p), fs.path(p), net.host(h): capabilities that are never wider than
// the receiver (an impossible constraint when the request is outside it).
CallStatus CapMethod(Ctx& cx, Value& recv, std::string_view name, std::vector<Value>& args,
                     Value& out) {
  auto* c = static_cast<CapObj*>(recv.h());
  if (!(name == "ro" || name == "path" || name == "host")) return CallStatus::kUnknown;
  if (!NeedArgs(cx, name, args, 1)) return Fail();
  if (!args[0].Is(Tag::kStr)) {
    cx.Trap(TrapCode::kType, absl::StrCat(std::string(name), " needs a Str"));
    return Fail();
  }
  const std::string& want = static_cast<StrObj*>(args[0].h())->s;
  auto* n = new CapObj();
  Value v = Value::Heap(n);
  constexpr const char* kNothing = "\x01none";  // matches no path and no host
  if (name == "host") {
    if (c->family != "net") {
      cx.Trap(TrapCode::kType, absl::StrCat("host() narrows a Net capability, not ", c->family));
      return Fail();
    }
    n->family = "net";
    n->constraint = c->constraint.empty() || c->constraint == want ? want : kNothing;
  } else {
    if (c->family != "fs" && c->family != "fs.read" && c->family != "fs.write") {
      cx.Trap(TrapCode::kType,
              absl::StrCat(std::string(name), "() narrows an Fs capability, not ", c->family));
      return Fail();
    }
    n->family = name == "ro" ? "fs.read" : c->family;
    std::string p = ir::NormalizePath(want);
    n->constraint =
        c->constraint.empty() || ir::PathWithin(ir::NormalizePath(c->constraint), p) ? p : kNothing;
  }
  if (!cx.Charge(16)) return Fail();
  out = std::move(v);
  return Ok();
}

}  // namespace

CallStatus BuiltinMethod(Ctx& cx, Value& recv, std::string_view name, std::vector<Value>& args,
                         Value& out, int64_t* est_delta) {
  *est_delta = 0;
  switch (recv.tag()) {
    case Tag::kStr: return StrMethod(cx, recv, name, args, out, est_delta);
    case Tag::kArray: return ArrayMethod(cx, recv, name, args, out, est_delta);
    case Tag::kMap: return MapMethod(cx, recv, name, args, out, est_delta);
    case Tag::kTuple:
      if (name == "len") {
        out = Value::Int(static_cast<int64_t>(static_cast<ArrayObj*>(recv.h())->items.size()));
        return CallStatus::kOk;
      }
      return CallStatus::kUnknown;
    case Tag::kAdt: {
      uint32_t adt = static_cast<AdtObj*>(recv.h())->adt;
      if (adt == kAdtOption || adt == kAdtResult)
        return OptionResultMethod(cx, recv, name, args, out);
      return CallStatus::kUnknown;
    }
    case Tag::kInt:
    case Tag::kFloat:
    case Tag::kDuration:
    case Tag::kSize:
    case Tag::kBool:
    case Tag::kChar: return NumberMethod(cx, recv, name, args, out);
    case Tag::kCap: return CapMethod(cx, recv, name, args, out);
    default: return CallStatus::kUnknown;
  }
}

}  // namespace mty::interp
