// Printing: the Display and Debug forms of every value (`log`, `to_str`,
// `{:?}`, language.md §4), quoting, and the format specs of `format!`.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "builtins.h"
#include "mty/interp/work.h"
#include "mty/ir/text.h"
#include "mty/vocab/utf8.h"

namespace mty::interp {

// Appends the Unicode scalars of UTF-8 text `s` to array `a` as Chars
// (cost::kNarrow each in the size estimate). A string from a host may hold bytes that
// are not UTF-8: each ill-formed run is one U+FFFD (ir/utf8.h's decoder).
void AppendChars(const std::string& s, ArrayObj* a) {
  for (size_t i = 0; i < s.size();) {
    a->items.push_back(Value::Char(ir::NextScalar(s, &i)));
    a->est += cost::kNarrow;
  }
}

using ir::AppendUtf8;

namespace {

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

// The exact length of QuoteDebug(s).
size_t QuotedSize(std::string_view s) {
  size_t n = 2;
  for (size_t i = 0; i < s.size();) {
    ir::Utf8Decoded d = ir::DecodeUtf8(s, i);
    i += d.length;
    const uint32_t u = d.scalar;
    if (!d.ok())
      n += 4 * d.length;  // \xff per byte
    else if (u == '\t' || u == '\r' || u == '\n' || u == '\\' || u == 0 || u == '"')
      n += 2;
    else if (u < 0x20 || u == 0x7F)
      n += u < 0x10 ? 5 : 6;  // \u{f}, \u{1f}
    else
      n += d.length;
  }
  return n;
}

void Print(const Module& m, const Value& v, bool debug, bool top, int depth, std::string& out,
           Render& r);

// The std collections (frontend/src/lower_std.cc) print as Rust's Debug
// does, by the name of their first field: `__deque` [elements from the index
// in field 1], `__heap` [its array], `__set` {its array's elements or its
// map's keys}, `__map_keys` {key: value, in the order of its keys, the
// values from the map in field 1}. False for any other struct.
bool PrintStd(const Module& m, const AdtObj& o, const std::vector<std::string>& names, bool debug,
              int depth, std::string& out, Render& r) {
  if (names.empty() || o.fields.empty() || !names[0].starts_with("__")) return false;
  const std::string& kind = names[0];
  const Value& f0 = o.fields[0];
  auto list = [&](const std::vector<Value>& items, size_t from, const char* open,
                  const char* close) {
    out += open;
    for (size_t i = from; i < items.size(); ++i) {
      if (i > from) out += ", ";
      Print(m, items[i], debug, false, depth + 1, out, r);
    }
    out += close;
    return true;
  };
  if (kind == "__deque" && f0.Is(Tag::kArray) && o.fields.size() == 2 &&
      o.fields[1].Is(Tag::kInt)) {
    const auto& items = static_cast<ArrayObj*>(f0.h())->items;
    const size_t from = static_cast<size_t>(std::max<int64_t>(0, o.fields[1].i()));
    return list(items, std::min(from, items.size()), "[", "]");
  }
  if (kind == "__heap" && f0.Is(Tag::kArray))
    return list(static_cast<ArrayObj*>(f0.h())->items, 0, "[", "]");
  if (kind == "__set" && f0.Is(Tag::kArray))
    return list(static_cast<ArrayObj*>(f0.h())->items, 0, "{", "}");
  if (kind == "__set" && f0.Is(Tag::kMap)) {
    out += "{";
    bool first = true;
    static_cast<MapObj*>(f0.h())->ForEach([&](const Value& k, const Value&) {
      if (!first) out += ", ";
      first = false;
      Print(m, k, debug, false, depth + 1, out, r);
    });
    out += "}";
    return true;
  }
  if (kind == "__map_keys" && f0.Is(Tag::kArray) && o.fields.size() == 2 &&
      o.fields[1].Is(Tag::kMap)) {
    const auto* map = static_cast<MapObj*>(o.fields[1].h());
    const auto& keys = static_cast<ArrayObj*>(f0.h())->items;
    out += "{";
    for (size_t i = 0; i < keys.size(); ++i) {
      if (i) out += ", ";
      Print(m, keys[i], debug, false, depth + 1, out, r);
      out += ": ";
      const int slot = map->Find(keys[i]);
      if (slot >= 0) Print(m, map->entries[slot].second, debug, false, depth + 1, out, r);
    }
    out += "}";
    return true;
  }
  return false;
}

void Print(const Module& m, const Value& v, bool debug, bool top, int depth, std::string& out,
           Render& r) {
  // The work: one unit per node, per byte written and per byte of a quoted
  // string scanned. Checked against what the step budget can pay before
  // anything large is written (Render::limit), so a print too large for the
  // budget stops early.
  if (r.over) return;
  ++r.units;
  if (r.units + out.size() > r.limit) {
    r.over = true;
    return;
  }
  if (depth > 200) {
    out += "...";
    return;
  }
  switch (v.tag()) {
    case Tag::kUnit: out += "()"; return;
    case Tag::kBool: out += v.b() ? "true" : "false"; return;
    case Tag::kInt:
      if (v.IsUInt())
        absl::StrAppend(&out, v.u());
      else
        absl::StrAppend(&out, v.i());
      return;
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
      const bool quoted = debug || !top;
      if (r.units + out.size() + s.size() + (quoted ? 2 : 0) > r.limit) {
        r.over = true;
        return;
      }
      if (quoted) {
        r.units += s.size();  // the scan for the exact quoted size
        if (r.units + out.size() + QuotedSize(s) > r.limit) {
          r.over = true;
          return;
        }
        out += QuoteDebug(s);
      } else {
        out += s;
      }
      return;
    }
    case Tag::kBytes: {
      const std::string& b = static_cast<BytesObj*>(v.h())->b;
      out += "[";
      for (size_t i = 0; i < b.size(); ++i) {
        ++r.units;
        if (r.units + out.size() > r.limit) {
          r.over = true;
          return;
        }
        if (i) out += ", ";
        absl::StrAppend(&out, static_cast<unsigned char>(b[i]));
      }
      out += "]";
      return;
    }
    case Tag::kArray:
    case Tag::kTuple: {
      const auto& items = static_cast<ArrayObj*>(v.h())->items;
      bool tuple = v.Is(Tag::kTuple);
      out += tuple ? "(" : "[";
      for (size_t i = 0; i < items.size(); ++i) {
        if (i) out += ", ";
        Print(m, items[i], debug, false, depth + 1, out, r);
      }
      if (tuple && items.size() == 1) out += ",";
      out += tuple ? ")" : "]";
      return;
    }
    case Tag::kMap: {
      out += "{";
      bool first = true;
      static_cast<MapObj*>(v.h())->ForEach([&](const Value& k, const Value& x) {
        if (!first) out += ", ";
        first = false;
        Print(m, k, debug, false, depth + 1, out, r);
        out += ": ";
        Print(m, x, debug, false, depth + 1, out, r);
      });
      out += "}";
      return;
    }
    case Tag::kAdt: {
      auto* o = static_cast<AdtObj*>(v.h());
      const AdtInfo& info = m.adts[o->adt];
      const std::string& vname = info.variant_names[o->variant];
      const auto& names = info.field_names[o->variant];
      bool named = !names.empty() && !names[0].empty();
      if (!info.is_enum && PrintStd(m, *o, names, debug, depth, out, r)) return;
      out += info.is_enum ? vname : info.name;
      if (o->fields.empty()) return;
      if (named) {
        out += " { ";
        for (size_t i = 0; i < o->fields.size(); ++i) {
          if (i) out += ", ";
          absl::StrAppend(&out, i < names.size() ? names[i] : absl::StrCat(i), ": ");
          Print(m, o->fields[i], debug, false, depth + 1, out, r);
        }
        out += " }";
      } else {
        out += "(";
        for (size_t i = 0; i < o->fields.size(); ++i) {
          if (i) out += ", ";
          Print(m, o->fields[i], debug, false, depth + 1, out, r);
        }
        out += ")";
      }
      return;
    }
    case Tag::kClosure:
      absl::StrAppend(&out, "<closure ", m.functions[static_cast<ClosureObj*>(v.h())->fn].name,
                      ">");
      return;
    case Tag::kRef:
    case Tag::kLocalRef: out += "<ref>"; return;
    case Tag::kCap: {
      auto* c = static_cast<CapObj*>(v.h());
      absl::StrAppend(&out, "<cap ", c->family, " ", QuoteDebug(c->constraint), ">");
      return;
    }
  }
}

}  // namespace

std::string QuoteDebug(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size();) {
    ir::Utf8Decoded d = ir::DecodeUtf8(s, i);
    if (d.ok()) {
      AppendEscaped(out, d.scalar, '"');
    } else {
      // Bytes that are not UTF-8 (from a host) are shown, never passed on.
      for (uint32_t k = 0; k < d.length; ++k)
        absl::StrAppend(&out, "\\x",
                        absl::Hex(static_cast<unsigned char>(s[i + k]), absl::kZeroPad2));
    }
    i += d.length;
  }
  return out + "\"";
}

namespace {

std::string Bounded(const Module& m, const Value& v, bool debug, size_t max_bytes) {
  std::string s;
  Render r;
  // Printing stops once this much work is done (a shared DAG returned from
  // main or panicked with must not be expanded: 2^34 nodes from 34 steps).
  r.limit = max_bytes;
  Print(m, v, debug, true, 0, s, r);
  if (r.over) absl::StrAppend(&s, "... (truncated at ", max_bytes, " B)");
  return s;
}

}  // namespace

std::string Display(const Module& m, const Value& v, size_t max_bytes) {
  return Bounded(m, v, false, max_bytes);
}

std::string Debug(const Module& m, const Value& v, size_t max_bytes) {
  return Bounded(m, v, true, max_bytes);
}

std::string PanicMessage(const Module& m, const Value& v) {
  return absl::StrCat("panic: ", Bounded(m, v, false, 4096));
}

bool Render::To(Ctx& cx, const Value& v, bool debug, std::string* out) {
  Render r;
  r.limit = cx.Affordable();
  const size_t start = out->size();
  Print(cx.m, v, debug, true, 0, *out, r);
  const uint64_t units = r.units + (out->size() - start);
  MTY_WORK(units);
  if (r.over || !cx.Work(units)) {
    cx.fail.over = ir::LimitId::kSteps;
    return false;
  }
  return true;
}

std::string KindName(const Module& m, const Value& v) {
  if (v.Is(Tag::kAdt)) return m.adts[static_cast<AdtObj*>(v.h())->adt].name;
  return TagName(v.tag());
}

namespace {

// format! placeholders with a spec: [[fill]align][+][#][0][width][.prec][type]
// with type one of "" ? x X b o e (Rust's std::fmt subset).
}  // namespace

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
  std::string body, sign;  // sign: `-`/`+` then the `0x` prefix, before any zeros
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
    // The prefix goes before zero padding and counts in the width (Rust:
    // `{:#06x}` of 255 is `0x00ff`).
    if (alt) sign = type == "b" ? "0b" : type == "o" ? "0o" : "0x";
  } else if (type == "e") {
    if (!numeric) {
      cx.Trap(TrapCode::kType, absl::StrCat("{:e} needs a number, found ", KindName(cx.m, v)));
      return false;
    }
    double d = v.IsUInt()        ? static_cast<double>(v.u())
               : v.Is(Tag::kInt) ? static_cast<double>(v.i())
                                 : v.f();
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
    if (!Render::To(cx, v, true, &body)) return false;
  } else if (prec >= 0 && v.Is(Tag::kFloat)) {
    char buf[1200];
    auto r = std::to_chars(buf, buf + sizeof(buf), v.f(), std::chars_format::fixed, prec);
    body.assign(buf, r.ptr);
  } else if (prec >= 0 && v.Is(Tag::kStr)) {
    const std::string& s = static_cast<StrObj*>(v.h())->s;
    size_t n = 0, b = 0;
    while (b < s.size() && n < static_cast<size_t>(prec)) {
      b += ir::ScalarLength(s, b);
      ++n;
    }
    body = s.substr(0, b);
  } else {
    if (!Render::To(cx, v, false, &body)) return false;
  }
  if (numeric && !body.empty() && body[0] == '-') {
    sign = "-";
    body.erase(0, 1);
  } else if (numeric && plus) {
    sign = "+" + sign;
  }
  size_t len = ir::Utf8Length(sign) + ir::Utf8Length(body);
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

}  // namespace mty::interp
