// The builtin functions and the methods of built-in values, dispatched by
// the ids of the builtin table (ir/builtins.def): the compiler resolved every
// name, so nothing here compares a name. Arities are the table's, checked
// once in BuiltinMethod.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "builtins.h"
#include "cost.h"
#include "mty/interp/work.h"
#include "mty/vocab/policy.h"
#include "mty/vocab/utf8.h"
#include "search.h"
#include "unicode.h"

namespace mty::interp {

CallStatus BuiltinFn(Ctx& cx, ir::BuiltinFnId id, std::vector<Value>& args, Value& out) {
  using F = ir::BuiltinFnId;
  auto fail = [&](TrapCode c, std::string m) {
    cx.Trap(c, std::move(m));
    return CallStatus::kFail;
  };
  if (id == F::kLog || id == F::kPrint || id == F::kEprint) {
    std::string s;
    if (!Render::To(cx, args[0], false, &s)) return CallStatus::kFail;
    if (id == F::kLog) s += '\n';
    // The output limit is checked before the write, which does not happen
    // when it would pass the limit.
    if (cx.scope)
      if (std::optional<ir::Breach> b = cx.scope->ChargeOutput(s.size())) {
        cx.breach = std::move(b);
        return CallStatus::kFail;
      }
    if (cx.host) {
      if (id == F::kEprint)
        cx.host->Stderr(s);
      else
        cx.host->Stdout(s);
    }
    out = Value::Unit();
    return CallStatus::kOk;
  }
  if (id == F::kPanic) return fail(TrapCode::kPanic, PanicMessage(cx.m, args[0]));
  if (id == F::kAssert) {
    if (!args[0].Is(Tag::kBool))
      return fail(TrapCode::kType,
                  absl::StrCat("assert needs a Bool, found ", KindName(cx.m, args[0])));
    if (!args[0].b()) return fail(TrapCode::kPanic, "assertion failed");
    out = Value::Unit();
    return CallStatus::kOk;
  }
  if (id == F::kToStr || id == F::kDebugStr || id == F::kConcat) {
    std::string s;
    if (id == F::kDebugStr) {
      if (!Render::To(cx, args[0], true, &s)) return CallStatus::kFail;
    } else {
      for (const Value& v : args)
        if (!Render::To(cx, v, false, &s)) return CallStatus::kFail;
    }
    if (!cx.Charge(cost::StrBytes(s.size()))) return CallStatus::kFail;
    out = MakeStr(std::move(s));
    return CallStatus::kOk;
  }
  if (id == F::kFmt) {
    if (!args[1].Is(Tag::kStr)) return fail(TrapCode::kType, "@fmt needs a Str spec");
    std::string s;
    if (!FormatSpec(cx, args[0], static_cast<StrObj*>(args[1].h())->s, &s))
      return CallStatus::kFail;
    if (!cx.Charge(cost::StrBytes(s.size()))) return CallStatus::kFail;
    out = MakeStr(std::move(s));
    return CallStatus::kOk;
  }
  if (id == F::kIntoU64 || id == F::kIntoI64)
    return DoInto(cx, args[0], id == F::kIntoU64, out) ? CallStatus::kOk : CallStatus::kFail;
  if (id == F::kTypeName) {
    out = MakeStr(KindName(cx.m, args[0]));  // a short constant-like name: not charged
    return CallStatus::kOk;
  }
  if (id == F::kUnsupported) return fail(TrapCode::kUnknown, Display(cx.m, args[0]));
  if (id == F::kChild) {  // `sup.w`
    HostError err;
    std::optional<Value> v;
    if (cx.host && args[1].Is(Tag::kStr))
      v = cx.host->Child(args[0], static_cast<StrObj*>(args[1].h())->s, &err);
    if (!v) return fail(err.code == TrapCode::kNone ? TrapCode::kUnknown : err.code, err.message);
    out = std::move(*v);
    return CallStatus::kOk;
  }
  if (id == F::kIterItems) {
    // What `for x in v` walks: an array as is, a map's (key, value) pairs,
    // a string's chars.
    const Value& v = args[0];
    if (IsArray(v)) {
      out = v;
      return CallStatus::kOk;
    }
    const uint64_t count = v.Is(Tag::kMap)   ? static_cast<MapObj*>(v.h())->size()
                           : v.Is(Tag::kStr) ? static_cast<StrObj*>(v.h())->s.size()
                                             : 0;
    if (!cx.Work(2 * count)) return CallStatus::kFail;
    MTY_WORK(2 * count);
    auto* a = new ArrayObj(Tag::kArray);
    Value arr = Value::Heap(a);
    a->est = cost::kHeader;
    if (v.Is(Tag::kMap)) {
      static_cast<MapObj*>(v.h())->ForEach([&](const Value& k, const Value& x) {
        auto* t = new ArrayObj(Tag::kTuple);
        Value tv = Value::Heap(t);  // owns t if copying throws
        t->items = {k, x};
        t->est = cost::kHeader + Estimate(k) + Estimate(x);
        a->est += t->est;
        a->items.push_back(std::move(tv));
      });
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
  if (CallStatus st = CharFromFn(cx, id, args, out); st != CallStatus::kUnknown) return st;
  return RangeFn(cx, id, args, out);
}

using N = ir::MethodName;

Value MakeOption(const Value* some, uint64_t* est) {
  auto* o = new AdtObj();
  Value v = Value::Heap(o);  // owns o if push_back throws
  o->adt = kAdtOption;
  if (some) {
    o->variant = 0;
    o->fields.push_back(*some);
    o->est = cost::kHeader + Estimate(*some);
  } else {
    o->variant = 1;
    o->est = cost::kHeader;
  }
  *est = o->est;
  return v;
}

bool NeedInt(Ctx& cx, const Value& v, int64_t* out) {
  if (!v.Is(Tag::kInt))
    return cx.Trap(TrapCode::kType, absl::StrCat("expected Int, found ", KindName(cx.m, v)));
  *out = v.i();
  return true;
}

namespace {

// Comparing `x` with each element (contains, index_of).
uint64_t CompareAll(const std::vector<Value>& items, const Value& x) {
  MTY_WORK(items.size());
  uint64_t units = items.size();
  for (const Value& v : items) units += cost::Compare(v, x);
  return units;
}

// A stable bottom-up merge sort: ceil(log2 n) passes over a buffer, each
// moving every element once (what the charge of `sort` counts).
void MergeSort(std::vector<Value>& v) {
  const size_t n = v.size();
  if (n < 2) return;
  std::vector<Value> buf(n);
  std::vector<Value>* from = &v;
  std::vector<Value>* to = &buf;
  uint64_t moved = 0;
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        // Stable: an element of the right run goes first only when smaller.
        if (CompareValues((*from)[j], (*from)[i]) < 0)
          (*to)[k++] = std::move((*from)[j++]);
        else
          (*to)[k++] = std::move((*from)[i++]);
      }
      while (i < mid) (*to)[k++] = std::move((*from)[i++]);
      while (j < hi) (*to)[k++] = std::move((*from)[j++]);
    }
    moved += n;
    std::swap(from, to);
  }
  if (from != &v) v = std::move(*from);
  MTY_WORK(moved);
}

CallStatus Ok() { return CallStatus::kOk; }
CallStatus Fail() { return CallStatus::kFail; }

CallStatus StrMethod(Ctx& cx, Value& recv, ir::MethodName id, std::vector<Value>& args, Value& out,
                     int64_t* delta) {
  // Each method charges its work (cost.h) before doing it: n is the
  // receiver's bytes, m an argument's.
  auto* so = static_cast<StrObj*>(recv.h());
  const std::string& s = so->s;
  const uint64_t n = s.size();
  // A Str argument; a Char one stands for its text (`s.find('x')`).
  std::string char_text[2];
  auto str_arg = [&](size_t i, const std::string** p) {
    if (args[i].Is(Tag::kChar)) {
      ir::AppendUtf8(char_text[i], static_cast<uint32_t>(args[i].i()));
      *p = &char_text[i];
      return true;
    }
    if (!args[i].Is(Tag::kStr))
      return cx.Trap(TrapCode::kType,
                     absl::StrCat("expected Str or Char, found ", KindName(cx.m, args[i])));
    *p = &static_cast<StrObj*>(args[i].h())->s;
    return true;
  };
  auto new_str = [&](std::string r) {
    if (!cx.Charge(cost::StrBytes(r.size()))) return Fail();
    out = MakeStr(std::move(r));
    return Ok();
  };
  // Char indices are byte indices in an ASCII string (known once checked).
  auto ascii = [&]() {
    if (so->ascii < 0) so->ascii = IsAscii(s) ? 1 : 0;
    return so->ascii == 1;
  };
  if (id == N::kLen) {
    out = Value::Int(static_cast<int64_t>(n));
    return Ok();
  }
  if (id == N::kIsEmpty) {
    out = Value::Bool(s.empty());
    return Ok();
  }
  if (id == N::kContains || id == N::kStartsWith || id == N::kEndsWith) {
    const std::string* p;
    if (!str_arg(0, &p)) return Fail();
    if (!cx.Work(id == N::kContains ? cost::Search(n, p->size()) : p->size())) return Fail();
    bool r;
    if (id == N::kContains) {
      r = Searcher(*p).Find(s) != std::string::npos;
    } else {
      MTY_WORK(std::min(n, p->size()));
      r = id == N::kStartsWith ? s.starts_with(*p) : s.ends_with(*p);
    }
    out = Value::Bool(r);
    return Ok();
  }
  if (id == N::kToUpper || id == N::kToLower || id == N::kToUppercase || id == N::kToLowercase) {
    // Unicode's full case mapping (unicode.h); an ASCII string byte by byte.
    const bool upper = id == N::kToUpper || id == N::kToUppercase;
    if (!cx.Work(2 * n)) return Fail();
    MTY_WORK(2 * n);
    std::string r;
    if (ascii()) {
      r = s;
      for (char& c : r)
        c = upper ? static_cast<char>(std::toupper(c)) : static_cast<char>(std::tolower(c));
    } else {
      r.reserve(n);
      if (upper)
        unicode::AppendUpper(s, &r);
      else
        unicode::AppendLower(s, &r);
      if (r.size() > n) {  // a mapping that grew (ß -> SS): the extra bytes written
        if (!cx.Work(r.size() - n)) return Fail();
        MTY_WORK(r.size() - n);
      }
    }
    return new_str(std::move(r));
  }
  if (id == N::kTrim || id == N::kTrimStart || id == N::kTrimEnd) {
    if (!cx.Work(2 * n)) return Fail();  // the scan and the copy
    MTY_WORK(2 * n);
    size_t b = id == N::kTrimEnd ? 0 : s.find_first_not_of(" \t\r\n");
    size_t e = id == N::kTrimStart ? (n ? n - 1 : 0) : s.find_last_not_of(" \t\r\n");
    if (b == std::string::npos || e == std::string::npos || n == 0) return new_str("");
    return new_str(s.substr(b, e - b + 1));
  }
  if (id == N::kRepeat) {
    int64_t k;
    if (!NeedInt(cx, args[0], &k)) return Fail();
    if (k < 0) {
      cx.Trap(TrapCode::kIndex, absl::StrCat("repeat count ", k, " is negative"));
      return Fail();
    }
    uint64_t total;
    if (__builtin_mul_overflow(static_cast<uint64_t>(k), n, &total)) total = UINT64_MAX;
    if (!cx.StrFits(total, "repeat")) return Fail();
    if (!cx.Work(total + static_cast<uint64_t>(k))) return Fail();
    if (!cx.Charge(cost::StrBytes(total))) return Fail();
    MTY_WORK(total + static_cast<uint64_t>(k));
    std::string r;
    r.reserve(total);
    for (int64_t i = 0; i < k; ++i) r += s;
    out = MakeStr(std::move(r));
    return Ok();
  }
  if (id == N::kPushStr) {
    const std::string* p;
    if (!str_arg(0, &p)) return Fail();
    if (!cx.Work(p->size())) return Fail();
    MTY_WORK(p->size());
    std::string add = *p;  // p may alias recv
    if (!cx.Charge(add.size())) return Fail();
    auto* o = static_cast<StrObj*>(MakeUnique(recv));
    o->s += add;
    o->ascii = -1;
    o->est += add.size();
    *delta = static_cast<int64_t>(add.size());
    out = Value::Unit();
    return Ok();
  }
  if (id == N::kToStr || id == N::kToString) {
    if (!cx.Work(n)) return Fail();
    MTY_WORK(n);
    return new_str(s);
  }
  if (id == N::kFind || id == N::kRfind) {
    const std::string* p;
    if (!str_arg(0, &p)) return Fail();
    if (!cx.Work(cost::Search(n, p->size()))) return Fail();
    size_t at = id == N::kFind ? Searcher(*p).Find(s) : Searcher(*p, true).RFind(s);
    uint64_t est;
    Value idx = Value::Int(static_cast<int64_t>(at));
    out = MakeOption(at == std::string::npos ? nullptr : &idx, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (id == N::kReplace) {
    const std::string *from, *to;
    if (!str_arg(0, &from) || !str_arg(1, &to)) return Fail();
    if (from->empty()) {
      if (!cx.Work(n)) return Fail();
      MTY_WORK(n);
      return new_str(s);
    }
    // First the scan (charged), then the new string, whose size it tells.
    if (!cx.Work(cost::Search(n, from->size()))) return Fail();
    Searcher searcher(*from);
    std::vector<size_t> hits;
    for (size_t at = searcher.Find(s); at != std::string::npos;
         at = searcher.Find(s, at + from->size()))
      hits.push_back(at);
    const uint64_t size = n - hits.size() * from->size() + hits.size() * to->size();
    if (!cx.StrFits(size, "replace")) return Fail();
    if (!cx.Work(size + hits.size())) return Fail();
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
    return new_str(std::move(r));
  }
  if (id == N::kSplit || id == N::kLines) {
    const std::string* p = nullptr;
    static const std::string nl = "\n";
    if (id == N::kSplit) {
      if (!str_arg(0, &p)) return Fail();
    } else {
      p = &nl;
    }
    // The scan, the bytes copied into pieces, and the pieces (at most one
    // per byte, or per separator).
    const uint64_t pieces = p->empty() ? n : n / p->size() + 1;
    if (!cx.Work(cost::Search(n, p->size()) + n + pieces)) return Fail();
    auto* a = new ArrayObj(Tag::kArray);
    Value v = Value::Heap(a);
    a->est = cost::kHeader;
    auto add = [&](std::string piece) {
      if (id == N::kLines && !piece.empty() && piece.back() == '\r') piece.pop_back();
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
          if (!(id == N::kLines && pos == n)) add(s.substr(pos));
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
  if (id == N::kBytes) {
    if (!cx.Work(2 * n)) return Fail();
    MTY_WORK(2 * n);
    auto* a = new ArrayObj(Tag::kArray);
    Value v = Value::Heap(a);
    a->items.reserve(n);
    for (unsigned char c : s) a->items.push_back(Value::Int(c));
    a->est = cost::ArrayBytes(n);
    if (!cx.Charge(a->est)) return Fail();
    out = std::move(v);
    return Ok();
  }
  if (id == N::kCharAt || id == N::kSlice) {
    // Indices count chars (Unicode scalars). In an ASCII string they are
    // byte offsets; otherwise only the bytes up to the last char asked for
    // are scanned (a char is at most 4 bytes).
    int64_t lo = 0, hi = 0;
    if (id == N::kCharAt) {
      if (!NeedInt(cx, args[0], &lo)) return Fail();
      hi = lo < INT64_MAX ? lo + 1 : lo;
    } else if (!NeedInt(cx, args[0], &lo) || !NeedInt(cx, args[1], &hi)) {
      return Fail();
    }
    if (so->ascii < 0 && !cx.Work(n)) return Fail();  // finding out once
    const bool is_ascii = ascii();
    // Byte offsets of char indices lo and hi (npos past the end).
    size_t b_lo = std::string::npos, b_hi = std::string::npos;
    size_t nchars = 0;
    if (is_ascii) {
      nchars = n;
      if (lo >= 0 && static_cast<uint64_t>(lo) <= n) b_lo = static_cast<size_t>(lo);
      if (hi >= 0 && static_cast<uint64_t>(hi) <= n) b_hi = static_cast<size_t>(hi);
    } else {
      const uint64_t reach = hi >= 0 ? std::min<uint64_t>(n, 4 * static_cast<uint64_t>(hi) + 4) : 0;
      if (!cx.Work(reach)) return Fail();
      size_t chars = 0, i = 0;
      for (; i < n; ++chars) {
        if (lo >= 0 && chars == static_cast<uint64_t>(lo)) b_lo = i;
        if (hi >= 0 && chars == static_cast<uint64_t>(hi)) {
          b_hi = i;
          break;
        }
        i += ir::ScalarLength(s, i);
      }
      MTY_WORK(i);
      if (i == n) {  // the scan reached the end: count the chars there are
        if (lo >= 0 && chars == static_cast<uint64_t>(lo)) b_lo = n;
        if (hi >= 0 && chars == static_cast<uint64_t>(hi)) b_hi = n;
      }
      nchars = chars;
    }
    if (id == N::kCharAt) {
      uint64_t est;
      if (b_lo == std::string::npos || b_lo >= n) {
        out = MakeOption(nullptr, &est);
      } else {
        size_t at = b_lo;
        Value cv = Value::Char(ir::NextScalar(s, &at));
        out = MakeOption(&cv, &est);
      }
      return cx.Charge(est) ? Ok() : Fail();
    }
    if (lo < 0 || hi < lo || b_lo == std::string::npos || b_hi == std::string::npos) {
      if (!is_ascii && hi >= 0) {
        // Out of range: count the chars for the message (the scan is charged).
        if (!cx.Work(n)) return Fail();
        MTY_WORK(n);
        nchars = ir::Utf8Length(s);
      }
      cx.Trap(TrapCode::kIndex, absl::StrCat("slice ", lo, "..", hi,
                                             " out of range for a string of ", nchars, " chars"));
      return Fail();
    }
    if (!cx.Work(b_hi - b_lo)) return Fail();
    MTY_WORK(b_hi - b_lo);
    return new_str(s.substr(b_lo, b_hi - b_lo));
  }
  if (id == N::kParseInt || id == N::kParseFloat) {
    if (!cx.Work(n)) return Fail();
    MTY_WORK(n);
    auto* o = new AdtObj();
    Value r = Value::Heap(o);
    o->adt = kAdtResult;
    bool ok = false;
    Value v;
    if (id == N::kParseInt) {
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
      if (!cx.Work(cost::Quoted(n))) return Fail();  // the message quotes the text
      MTY_WORK(cost::Quoted(n));
      o->variant = 1;
      o->fields.push_back(MakeStr(
          absl::StrCat("invalid ", id == N::kParseInt ? "integer" : "float", ": ", QuoteDebug(s))));
    }
    o->est = cost::kHeader + Estimate(o->fields[0]);
    if (!cx.Charge(o->est)) return Fail();
    out = std::move(r);
    return Ok();
  }

  if (id == N::kChars) {
    if (!cx.Work(2 * n)) return Fail();
    MTY_WORK(2 * n);
    auto* a = new ArrayObj(Tag::kArray);
    Value v = Value::Heap(a);
    a->est = cost::kHeader;
    AppendChars(s, a);
    if (!cx.Charge(a->est)) return Fail();
    out = std::move(v);
    return Ok();
  }
  return StrMethodLib(cx, recv, id, args, out, delta);
}

CallStatus WideArrayMethod(Ctx& cx, Value& recv, ir::MethodName id, std::vector<Value>& args,
                           Value& out, int64_t* delta);

// An array's slice(lo, hi) arguments: Ints with 0 <= lo <= hi <= n, else a
// trap.
bool SliceBounds(Ctx& cx, const std::vector<Value>& args, size_t n, int64_t* lo, int64_t* hi) {
  if (!NeedInt(cx, args[0], lo) || !NeedInt(cx, args[1], hi)) return false;
  if (*lo >= 0 && *hi >= *lo && static_cast<uint64_t>(*hi) <= n) return true;
  cx.Trap(TrapCode::kIndex, absl::StrCat("slice ", *lo, "..", *hi, " out of range for length ", n));
  return false;
}

// The methods of an array held as compact bytes (BytesObj). Reading it stays
// compact: len, is_empty, get, first, last, iter and slice (a slice of bytes
// is bytes). The other reading methods run on a widened copy that lives only
// for the call: it must fit in what the memory budget has left (it is not
// charged: it is freed before the call returns). A method that changes the
// array widens it for good, which charges the difference (WidenCharge) and
// adds it to the estimates of what contains it.
CallStatus BytesMethod(Ctx& cx, Value& recv, ir::MethodName id, std::vector<Value>& args,
                       Value& out, int64_t* delta) {
  const std::string& b = static_cast<BytesObj*>(recv.h())->b;
  uint64_t est;
  auto byte = [&](size_t i) { return Value::Int(static_cast<unsigned char>(b[i])); };
  if (id == N::kLen || id == N::kCount || id == N::kIsEmpty) {
    out = id != N::kIsEmpty ? Value::Int(static_cast<int64_t>(b.size())) : Value::Bool(b.empty());
    return Ok();
  }
  if (id == N::kGet || id == N::kFirst || id == N::kLast) {
    int64_t i = id == N::kFirst ? 0 : static_cast<int64_t>(b.size()) - 1;
    if (id == N::kGet && !NeedInt(cx, args[0], &i)) return Fail();
    const bool in = i >= 0 && static_cast<uint64_t>(i) < b.size();
    Value v = in ? byte(static_cast<size_t>(i)) : Value();
    out = MakeOption(in ? &v : nullptr, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (id == N::kIter || id == N::kCollect) {
    out = recv;
    return Ok();
  }
  if (id == N::kSlice) {
    int64_t lo, hi;
    if (!SliceBounds(cx, args, b.size(), &lo, &hi)) return Fail();
    if (!cx.Work(static_cast<uint64_t>(hi - lo))) return Fail();
    MTY_WORK(hi - lo);
    Value v =
        Value::Heap(new BytesObj(b.substr(static_cast<size_t>(lo), static_cast<size_t>(hi - lo))));
    if (!cx.Charge(v.h()->est)) return Fail();
    out = std::move(v);
    return Ok();
  }
  const ir::MethodInfo* row = ir::FindMethod(ir::Recv::kArray, id);
  const uint64_t wide = WidenCharge(*static_cast<BytesObj*>(recv.h()));
  if (!cx.Work(b.size())) return Fail();
  if (row && !row->mutates) {
    if (!cx.Fits(recv.h()->est + wide)) return Fail();
    Value copy = recv;
    Widen(copy);
    return WideArrayMethod(cx, copy, id, args, out, delta);
  }
  if (!cx.Charge(wide)) return Fail();
  Widen(recv);
  CallStatus st = WideArrayMethod(cx, recv, id, args, out, delta);
  *delta += static_cast<int64_t>(wide);
  return st;
}

CallStatus ArrayMethod(Ctx& cx, Value& recv, ir::MethodName id, std::vector<Value>& args,
                       Value& out, int64_t* delta) {
  if (recv.Is(Tag::kBytes)) return BytesMethod(cx, recv, id, args, out, delta);
  return WideArrayMethod(cx, recv, id, args, out, delta);
}

CallStatus WideArrayMethod(Ctx& cx, Value& recv, ir::MethodName id, std::vector<Value>& args,
                           Value& out, int64_t* delta) {
  auto* a = static_cast<ArrayObj*>(recv.h());
  uint64_t est;
  if (id == N::kLen) {
    out = Value::Int(static_cast<int64_t>(a->items.size()));
    return Ok();
  }
  if (id == N::kIsEmpty) {
    out = Value::Bool(a->items.empty());
    return Ok();
  }
  if (id == N::kPush) {
    a = static_cast<ArrayObj*>(MakeUnique(recv));
    if (!PushOnto(cx, a, std::move(args[0]), delta)) return Fail();
    out = Value::Unit();
    return Ok();
  }
  if (id == N::kPop) {
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
  if (id == N::kGet) {
    int64_t i;
    if (!NeedInt(cx, args[0], &i)) return Fail();
    bool in = i >= 0 && static_cast<uint64_t>(i) < a->items.size();
    out = MakeOption(in ? &a->items[i] : nullptr, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (id == N::kFirst || id == N::kLast) {
    const Value* v = a->items.empty()  ? nullptr
                     : id == N::kFirst ? &a->items.front()
                                       : &a->items.back();
    out = MakeOption(v, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (id == N::kContains) {
    if (!cx.Work(CompareAll(a->items, args[0]))) return Fail();
    bool found = false;
    for (const Value& v : a->items)
      if (ValuesEqual(v, args[0])) {
        found = true;
        break;
      }
    out = Value::Bool(found);
    return Ok();
  }
  if (id == N::kInsert) {
    int64_t i;
    if (!NeedInt(cx, args[0], &i)) return Fail();
    if (i < 0 || static_cast<uint64_t>(i) > a->items.size()) {
      cx.Trap(TrapCode::kIndex,
              absl::StrCat("insert index ", i, " out of range for length ", a->items.size()));
      return Fail();
    }
    if (!cx.Work(a->items.size() - static_cast<uint64_t>(i))) return Fail();  // the shift
    MTY_WORK(a->items.size() - static_cast<uint64_t>(i));
    uint64_t e = Estimate(args[1]);
    if (!cx.Charge(e)) return Fail();
    a = static_cast<ArrayObj*>(MakeUnique(recv));
    a->items.insert(a->items.begin() + i, std::move(args[1]));
    a->est += e;
    *delta = static_cast<int64_t>(e);
    out = Value::Unit();
    return Ok();
  }
  if (id == N::kRemove) {
    int64_t i;
    if (!NeedInt(cx, args[0], &i)) return Fail();
    if (i < 0 || static_cast<uint64_t>(i) >= a->items.size()) {
      cx.Trap(TrapCode::kIndex,
              absl::StrCat("remove index ", i, " out of range for length ", a->items.size()));
      return Fail();
    }
    if (!cx.Work(a->items.size() - static_cast<uint64_t>(i))) return Fail();  // the shift
    MTY_WORK(a->items.size() - static_cast<uint64_t>(i));
    a = static_cast<ArrayObj*>(MakeUnique(recv));
    out = std::move(a->items[i]);
    a->items.erase(a->items.begin() + i);
    uint64_t e = Estimate(out);
    a->est -= e;
    *delta = -static_cast<int64_t>(e);
    return Ok();
  }
  if (id == N::kReverse) {
    if (!cx.Work(a->items.size())) return Fail();
    MTY_WORK(a->items.size());
    a = static_cast<ArrayObj*>(MakeUnique(recv));
    std::reverse(a->items.begin(), a->items.end());
    out = Value::Unit();
    return Ok();
  }
  if (id == N::kClear) {
    a = static_cast<ArrayObj*>(MakeUnique(recv));
    a->items.clear();
    *delta = -static_cast<int64_t>(a->est - cost::kHeader);
    a->est = cost::kHeader;
    out = Value::Unit();
    return Ok();
  }
  if (id == N::kSort) {
    // n for checking the kinds, then ceil(log2 n) merge passes, each moving
    // every element and comparing at most n pairs (a pair costs at most
    // the smaller element, and a pass outputs each element once).
    const uint64_t n = a->items.size();
    uint64_t sizes = 0;
    for (const Value& x : a->items) sizes += cost::Size(x);
    MTY_WORK(n);
    if (!cx.Work(n + sizes + cost::Log2Ceil(n) * (2 * n + sizes))) return Fail();
    for (size_t i = 1; i < a->items.size(); ++i)
      if (CompareValues(a->items[0], a->items[i]) == 2) {
        cx.Trap(TrapCode::kType, "sort needs elements of one ordered kind");
        return Fail();
      }
    a = static_cast<ArrayObj*>(MakeUnique(recv));
    MergeSort(a->items);
    out = Value::Unit();
    return Ok();
  }
  if (id == N::kJoin) {
    if (!args[0].Is(Tag::kStr)) {
      if (cx.code == TrapCode::kNone) cx.Trap(TrapCode::kType, "join needs a Str separator");
      return Fail();
    }
    std::string r;
    const std::string& sep = static_cast<StrObj*>(args[0].h())->s;
    if (!cx.Work(a->items.size() * (sep.size() + 1))) return Fail();
    MTY_WORK(a->items.size() * (sep.size() + 1));
    // All strings (the common case): their bytes, known before, charged at
    // once; otherwise each element is printed and charged as written.
    uint64_t bytes = 0;
    bool all_str = true;
    for (const Value& x : a->items) {
      if (!x.Is(Tag::kStr)) {
        all_str = false;
        break;
      }
      bytes += static_cast<StrObj*>(x.h())->s.size();
    }
    if (all_str) {
      if (!cx.Work(bytes)) return Fail();
      MTY_WORK(bytes);
      r.reserve(bytes + a->items.size() * sep.size());
    }
    for (size_t i = 0; i < a->items.size(); ++i) {
      if (i) r += sep;
      if (all_str)
        r += static_cast<StrObj*>(a->items[i].h())->s;
      else if (!Render::To(cx, a->items[i], false, &r))
        return Fail();
    }
    if (!cx.Charge(cost::StrBytes(r.size()))) return Fail();
    out = MakeStr(std::move(r));
    return Ok();
  }
  if (id == N::kIter || id == N::kCollect) {
    out = recv;
    return Ok();
  }
  if (id == N::kCount) {  // here, not beside len: push stays two tests from the top
    out = Value::Int(static_cast<int64_t>(a->items.size()));
    return Ok();
  }
  if (id == N::kSlice) {
    int64_t lo, hi;
    if (!SliceBounds(cx, args, a->items.size(), &lo, &hi)) return Fail();
    if (!cx.Work(static_cast<uint64_t>(hi - lo))) return Fail();
    MTY_WORK(hi - lo);
    auto* r = new ArrayObj(Tag::kArray);
    Value v = Value::Heap(r);
    r->est = cost::kHeader;
    r->items.reserve(static_cast<size_t>(hi - lo));
    for (int64_t i = lo; i < hi; ++i) {
      r->items.push_back(a->items[i]);
      r->est += Estimate(a->items[i]);
    }
    if (!cx.Charge(r->est)) return Fail();
    out = std::move(v);
    return Ok();
  }
  if (id == N::kExtend) {
    if (!IsArray(args[0])) {
      cx.Trap(TrapCode::kType,
              absl::StrCat("extend needs an array, found ", KindName(cx.m, args[0])));
      return Fail();
    }
    Value other = args[0];
    // Bytes are widened for the copy, which must fit (their elements are
    // charged below, as they are pushed).
    if (other.Is(Tag::kBytes)) {
      const uint64_t n = static_cast<BytesObj*>(other.h())->b.size();
      if (!cx.Work(n)) return Fail();
      if (!cx.Fits(cost::ArrayBytes(n))) return Fail();
      Widen(other);
    }
    const auto& items = static_cast<ArrayObj*>(other.h())->items;
    if (!cx.Work(2 * items.size())) return Fail();
    MTY_WORK(2 * items.size());
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
  if (id == N::kSum || id == N::kProduct) {
    // The front end gives the start (0 or 1 of the static element type)
    // when it knows it; else an Int, a Float when the first element is one.
    if (!cx.Work(a->items.size())) return Fail();
    MTY_WORK(a->items.size());
    const bool sum = id == N::kSum;
    Value acc = args.empty() ? Value::Int(sum ? 0 : 1) : args[0];
    bool first = args.empty();
    for (const Value& x : a->items) {
      if (first && x.Is(Tag::kFloat)) acc = Value::Float(sum ? 0 : 1);
      first = false;
      Value next;
      if (!Arith(cx, sum ? Op::Add : Op::Mul, acc, x, next)) return Fail();
      acc = std::move(next);
    }
    out = std::move(acc);
    return Ok();
  }
  if (id == N::kMin || id == N::kMax) {
    uint64_t sizes = 0;
    for (const Value& x : a->items) sizes += cost::Size(x);
    MTY_WORK(a->items.size());
    if (!cx.Work(a->items.size() + sizes)) return Fail();
    const Value* best = nullptr;
    for (const Value& x : a->items) {
      if (!best) {
        best = &x;
        continue;
      }
      int c = CompareValues(x, *best);
      if (c == 2) {
        cx.Trap(TrapCode::kType, absl::StrCat(std::string(ir::MethodNameText(id)),
                                              " needs elements of one ordered kind"));
        return Fail();
      }
      if ((id == N::kMin && c < 0) || (id == N::kMax && c > 0)) best = &x;
    }
    out = MakeOption(best, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (id == N::kIndexOf) {
    if (!cx.Work(CompareAll(a->items, args[0]))) return Fail();
    for (size_t i = 0; i < a->items.size(); ++i)
      if (ValuesEqual(a->items[i], args[0])) {
        Value idx = Value::Int(static_cast<int64_t>(i));
        out = MakeOption(&idx, &est);
        return cx.Charge(est) ? Ok() : Fail();
      }
    out = MakeOption(nullptr, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  return ArrayMethodLib(cx, recv, id, args, out, delta);
}

CallStatus MapMethod(Ctx& cx, Value& recv, ir::MethodName id, std::vector<Value>& args, Value& out,
                     int64_t* delta) {
  auto* m = static_cast<MapObj*>(recv.h());
  uint64_t est;
  if (id == N::kLen) {
    out = Value::Int(static_cast<int64_t>(m->size()));
    return Ok();
  }
  if (id == N::kIsEmpty) {
    out = Value::Bool(m->empty());
    return Ok();
  }
  if (id == N::kContainsKey || id == N::kGet || id == N::kRemove) {
    if (!cx.Work(cost::Lookup(args[0]))) return Fail();
  } else if (id == N::kInsert) {
    if (!cx.Work(cost::Insert(args[0]))) return Fail();
  }
  if (id == N::kContainsKey) {
    out = Value::Bool(m->Find(args[0]) >= 0);
    return Ok();
  }
  if (id == N::kGet) {
    int j = m->Find(args[0]);
    out = MakeOption(j >= 0 ? &m->entries[j].second : nullptr, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (id == N::kInsert) {
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
    if (!cx.Charge(e + cost::kMapEntry)) return Fail();
    m->Append(std::move(args[0]), std::move(args[1]));
    m->est += e;
    *delta = static_cast<int64_t>(e);
    out = MakeOption(nullptr, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (id == N::kRemove) {
    int j = m->Find(args[0]);
    if (j < 0) {
      out = MakeOption(nullptr, &est);
      return cx.Charge(est) ? Ok() : Fail();
    }
    m = static_cast<MapObj*>(MakeUnique(recv));
    Value key, old;
    m->Erase(static_cast<uint32_t>(j), &key, &old);
    uint64_t e = Estimate(key) + Estimate(old);
    m->est -= e;
    *delta = -static_cast<int64_t>(e);
    out = MakeOption(&old, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (id == N::kKeys || id == N::kValues) {
    if (!cx.Work(2 * m->size())) return Fail();
    MTY_WORK(2 * m->size());
    auto* a = new ArrayObj(Tag::kArray);
    Value v = Value::Heap(a);
    a->est = cost::kHeader;
    a->items.reserve(m->size());
    m->ForEach([&](const Value& k, const Value& x) {
      a->items.push_back(id == N::kKeys ? k : x);
      a->est += Estimate(a->items.back());
    });
    if (!cx.Charge(a->est)) return Fail();
    out = std::move(v);
    return Ok();
  }
  return MapMethodLib(cx, recv, id, args, out);
}

CallStatus OptionResultMethod(Ctx& cx, Value& recv, ir::MethodName id, std::vector<Value>& args,
                              Value& out, int64_t* delta) {
  auto* o = static_cast<AdtObj*>(recv.h());
  bool is_option = o->adt == kAdtOption;
  bool good = o->variant == 0;  // Some / Ok
  if (id == N::kIsSome || id == N::kIsOk) {
    if ((id == N::kIsSome) != is_option) return CallStatus::kUnknown;
    out = Value::Bool(good);
    return Ok();
  }
  if (id == N::kIsNone || id == N::kIsErr) {
    if ((id == N::kIsNone) != is_option) return CallStatus::kUnknown;
    out = Value::Bool(!good);
    return Ok();
  }
  if (id == N::kUnwrap || id == N::kExpect) {
    if (good) {
      out = o->fields[0];
      return Ok();
    }
    std::string msg;
    if (id == N::kExpect)
      msg = Display(cx.m, args[0]);
    else if (is_option)
      msg = "called unwrap on None";
    else
      msg = absl::StrCat("called unwrap on Err(", Debug(cx.m, o->fields[0]), ")");
    cx.Trap(TrapCode::kPanic, msg);
    return Fail();
  }
  if (id == N::kUnwrapOr) {
    out = good ? o->fields[0] : args[0];
    return Ok();
  }
  if (id == N::kOk && !is_option) {
    uint64_t est;
    out = MakeOption(good ? &o->fields[0] : nullptr, &est);
    return cx.Charge(est) ? Ok() : Fail();
  }
  if (id == N::kOkOr && is_option) {
    auto* r = new AdtObj();
    Value v = Value::Heap(r);
    r->adt = kAdtResult;
    r->variant = good ? 0 : 1;
    r->fields.push_back(good ? o->fields[0] : args[0]);
    r->est = cost::kHeader + Estimate(r->fields[0]);
    if (!cx.Charge(r->est)) return Fail();
    out = std::move(v);
    return Ok();
  }
  return OptionResultLib(cx, recv, id, args, out, delta);
}

CallStatus NumberMethod(Ctx& cx, Value& recv, ir::MethodName id, std::vector<Value>& args,
                        Value& out) {
  if (id == N::kToStr || id == N::kToString) {
    std::string s = Display(cx.m, recv);
    if (!cx.Charge(cost::StrBytes(s.size()))) return Fail();
    out = MakeStr(std::move(s));
    return Ok();
  }
  if (recv.IsUInt()) return UIntMethodLib(cx, recv.u(), id, args, out);
  if (recv.Is(Tag::kInt)) {
    int64_t x = recv.i(), y;
    if (id == N::kAbs) {
      if (x == std::numeric_limits<int64_t>::min()) {
        cx.Trap(TrapCode::kOverflow, "integer overflow in abs");
        return Fail();
      }
      out = Value::Int(x < 0 ? -x : x);
      return Ok();
    }
    if (id == N::kMin || id == N::kMax) {
      if (!NeedInt(cx, args[0], &y)) return Fail();
      out = Value::Int(id == N::kMin ? std::min(x, y) : std::max(x, y));
      return Ok();
    }
    if (id == N::kPow) {
      if (!NeedInt(cx, args[0], &y)) return Fail();
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
    return IntMethodLib(cx, x, id, args, out);
  }
  if (recv.Is(Tag::kChar)) return CharMethod(cx, recv, id, args, out);
  if (recv.Is(Tag::kFloat)) {
    double x = recv.f();
    if (id == N::kSqrt)
      out = Value::Float(std::sqrt(x));
    else if (id == N::kFloor)
      out = Value::Float(std::floor(x));
    else if (id == N::kCeil)
      out = Value::Float(std::ceil(x));
    else if (id == N::kRound)
      out = Value::Float(std::round(x));
    else if (id == N::kAbs)
      out = Value::Float(std::fabs(x));
    else if (id == N::kMin || id == N::kMax || id == N::kPow) {
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
      out = Value::Float(id == N::kMin   ? std::fmin(x, y)
                         : id == N::kMax ? std::fmax(x, y)
                                         : std::pow(x, y));
    } else
      return FloatMethodLib(cx, x, id, args, out);
    return Ok();
  }
  if (recv.Is(Tag::kDuration) && (id == N::kAsMillis || id == N::kAsSecs || id == N::kAsNanos)) {
    out = Value::Int(id == N::kAsMillis ? recv.i() / 1000000
                     : id == N::kAsSecs ? recv.i() / 1000000000
                                        : recv.i());
    return Ok();
  }
  return CallStatus::kUnknown;
}

}  // namespace

void ResolveFsCap(const Meter& scope, const CapObj* from, std::string_view path, CapObj* out) {
  const Meter* root = &scope;
  while (root->parent()) root = root->parent();
  const std::vector<std::string> paths{std::string(path)};
  auto beneath = [&](ir::GrantId g, const std::shared_ptr<const FsGrant>& own) {
    std::shared_ptr<const FsGrant> base =
        from && !from->constraint.empty() ? own : root->FsGrantOf(g);
    return base ? base->NarrowGrant(paths) : nullptr;
  };
  if (ir::CapValueServes(out->family, ir::GrantId::kFsRead))
    out->fs_read = beneath(ir::GrantId::kFsRead, from ? from->fs_read : nullptr);
  if (ir::CapValueServes(out->family, ir::GrantId::kFsWrite))
    out->fs_write = beneath(ir::GrantId::kFsWrite, from ? from->fs_write : nullptr);
}

namespace {

// fs.ro(p), fs.path(p), net.host(h): capabilities that are never wider than
// the receiver (an impossible constraint when the request is outside it).
CallStatus CapMethod(Ctx& cx, Value& recv, ir::MethodName id, std::vector<Value>& args,
                     Value& out) {
  auto* c = static_cast<CapObj*>(recv.h());
  const ir::CapMethodInfo* m = ir::FindCapMethod(id);
  if (!m) return CallStatus::kUnknown;
  if (!args[0].Is(Tag::kStr)) {
    cx.Trap(TrapCode::kType, absl::StrCat(std::string(ir::MethodNameText(id)), " needs a Str"));
    return Fail();
  }
  const std::string& want = static_cast<StrObj*>(args[0].h())->s;
  auto* n = new CapObj();
  Value v = Value::Heap(n);
  constexpr const char* kNothing = "\x01none";  // matches no path and no host
  if (!ir::CapFamilyFits(*m, c->family)) {
    cx.Trap(TrapCode::kType,
            absl::StrCat(std::string(ir::MethodNameText(id)), "() narrows a capability of type ",
                         m->type, ", not ", c->family));
    return Fail();
  }
  if (id == N::kHost) {
    n->family = m->family;
    n->constraint = c->constraint.empty() || c->constraint == want ? want : kNothing;
  } else {
    n->family = id == N::kRo ? ir::Cap(ir::CapId::kFsRead).family : c->family;
    std::string p = ir::NormalizePath(want);
    n->constraint =
        c->constraint.empty() || ir::PathWithin(ir::NormalizePath(c->constraint), p) ? p : kNothing;
    // Resolving walks the path: its work is charged first.
    if (!cx.Work(want.size())) return Fail();
    ResolveFsCap(*cx.scope, c, want, n);
  }
  if (!cx.Charge(cost::kSmall)) return Fail();
  out = std::move(v);
  return Ok();
}

}  // namespace

std::optional<ir::Recv> RecvOf(const Value& v) {
  switch (v.tag()) {
    case Tag::kStr: return ir::Recv::kStr;
    case Tag::kArray:
    case Tag::kBytes: return ir::Recv::kArray;
    case Tag::kMap: return ir::Recv::kMap;
    case Tag::kTuple: return ir::Recv::kTuple;
    case Tag::kAdt: {
      uint32_t adt = static_cast<AdtObj*>(v.h())->adt;
      if (adt == kAdtOption) return ir::Recv::kOption;
      if (adt == kAdtResult) return ir::Recv::kResult;
      return std::nullopt;
    }
    case Tag::kInt: return ir::Recv::kInt;
    case Tag::kFloat: return ir::Recv::kFloat;
    case Tag::kDuration: return ir::Recv::kDuration;
    case Tag::kSize: return ir::Recv::kSize;
    case Tag::kBool: return ir::Recv::kBool;
    case Tag::kChar: return ir::Recv::kChar;
    case Tag::kCap: return ir::Recv::kCap;
    default: return std::nullopt;
  }
}

const ir::MethodInfo* MethodFor(const Value& recv, ir::MethodName name) {
  std::optional<ir::Recv> r = RecvOf(recv);
  return r ? ir::FindMethod(*r, name) : nullptr;
}

CallStatus BuiltinMethod(Ctx& cx, Value& recv, const ir::MethodInfo& row, std::vector<Value>& args,
                         Value& out, int64_t* est_delta) {
  *est_delta = 0;
  const int n = static_cast<int>(args.size());
  if (n < row.min || n > row.max) {
    cx.Trap(TrapCode::kType, absl::StrCat("method ", ir::MethodNameText(row.name), " takes ",
                                          row.min, " argument(s), given ", args.size()));
    return CallStatus::kFail;
  }
  const ir::MethodName id = row.name;
  switch (row.recv) {
    case ir::Recv::kStr: return StrMethod(cx, recv, id, args, out, est_delta);
    case ir::Recv::kArray: return ArrayMethod(cx, recv, id, args, out, est_delta);
    case ir::Recv::kMap: return MapMethod(cx, recv, id, args, out, est_delta);
    case ir::Recv::kTuple:  // len
      out = Value::Int(static_cast<int64_t>(static_cast<ArrayObj*>(recv.h())->items.size()));
      return CallStatus::kOk;
    case ir::Recv::kOption:
    case ir::Recv::kResult: return OptionResultMethod(cx, recv, id, args, out, est_delta);
    case ir::Recv::kInt:
    case ir::Recv::kFloat:
    case ir::Recv::kDuration:
    case ir::Recv::kSize:
    case ir::Recv::kBool:
    case ir::Recv::kChar: return NumberMethod(cx, recv, id, args, out);
    case ir::Recv::kCap: return CapMethod(cx, recv, id, args, out);
  }
  return CallStatus::kUnknown;
}

}  // namespace mty::interp
