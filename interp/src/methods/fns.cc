// The builtin functions (the FN rows of ir/builtins.def, `call @name`):
// printing, panics and asserts, text of values, conversions, char
// constructors and ranges, dispatched by id.
#include <limits>

#include "methods.h"
#include "mty/vocab/utf8.h"

namespace mty::interp {

namespace {

using F = ir::BuiltinFnId;
using methods::Fail;
using methods::Ok;

CallStatus Trapped(Ctx& cx, TrapCode code, std::string message) {
  cx.Trap(code, std::move(message));
  return Fail();
}

CallStatus Return(Value& out, Value v) {
  out = std::move(v);
  return Ok();
}

// log, print, eprint: the Display form (log: and a newline) to stdout or
// stderr. The output limit is checked before the write, which does not
// happen when it would pass the limit.
CallStatus PrintFn(Ctx& cx, F id, const Value& v, Value& out) {
  std::string s;
  if (!Render::To(cx, v, false, &s)) return Fail();
  if (id == F::kLog) s += '\n';
  if (cx.scope)
    if (std::optional<ir::Breach> b = cx.scope->ChargeOutput(s.size())) {
      cx.fail.breach = std::move(b);
      return Fail();
    }
  if (cx.host) {
    if (id == F::kEprint)
      cx.host->Stderr(s);
    else
      cx.host->Stdout(s);
  }
  return Return(out, Value::Unit());
}

CallStatus AssertFn(Ctx& cx, const Value& v, Value& out) {
  if (!v.Is(Tag::kBool))
    return Trapped(cx, TrapCode::kType,
                   absl::StrCat("assert needs a Bool, found ", KindName(cx.m, v)));
  if (!v.b()) return Trapped(cx, TrapCode::kPanic, "assertion failed");
  return Return(out, Value::Unit());
}

// to_str (Display), debug_str (Debug), concat (the Display forms, one
// after another).
CallStatus TextFn(Ctx& cx, F id, const std::vector<Value>& args, Value& out) {
  std::string s;
  if (id == F::kDebugStr) {
    if (!Render::To(cx, args[0], true, &s)) return Fail();
  } else {
    for (const Value& v : args)
      if (!Render::To(cx, v, false, &s)) return Fail();
  }
  if (!cx.Charge(cost::StrBytes(s.size()))) return Fail();
  return Return(out, MakeStr(std::move(s)));
}

CallStatus FmtFn(Ctx& cx, const Value& v, const Value& spec, Value& out) {
  if (!spec.Is(Tag::kStr)) return Trapped(cx, TrapCode::kType, "@fmt needs a Str spec");
  std::string s;
  if (!FormatSpec(cx, v, static_cast<StrObj*>(spec.h())->s, &s)) return Fail();
  if (!cx.Charge(cost::StrBytes(s.size()))) return Fail();
  return Return(out, MakeStr(std::move(s)));
}

// `sup.w`: the handle of a supervisor's child.
CallStatus ChildFn(Ctx& cx, const Value& sup, const Value& name, Value& out) {
  HostError err;
  std::optional<Value> v;
  if (cx.host && name.Is(Tag::kStr))
    v = cx.host->Child(sup, static_cast<StrObj*>(name.h())->s, &err);
  if (!v)
    return Trapped(cx, err.code == TrapCode::kNone ? TrapCode::kUnknown : err.code, err.message);
  return Return(out, std::move(*v));
}

CallStatus SomeOrNone(Ctx& cx, const Value* v, Value& out) {
  uint64_t est;
  out = MakeOption(v, &est);
  return cx.Charge(est) ? Ok() : Fail();
}

bool IsScalar(int64_t c) { return c >= 0 && c <= ir::kMaxScalar && !(c >= 0xD800 && c <= 0xDFFF); }

CallStatus CharFromU32(Ctx& cx, const Value& code, Value& out) {
  int64_t c;
  if (!NeedInt(cx, code, &c)) return Fail();
  Value v = Value::Char(static_cast<uint32_t>(c));
  return SomeOrNone(cx, IsScalar(c) ? &v : nullptr, out);
}

// String::from_utf8: the bytes (a byte array, or an array of Ints 0..=255)
// as a Str when they are UTF-8, else Err with Rust's Utf8Error message.
CallStatus StrFromUtf8(Ctx& cx, const Value& bytes, Value& out) {
  std::string s;
  if (bytes.Is(Tag::kBytes)) {
    const std::string& b = static_cast<BytesObj*>(bytes.h())->b;
    if (!cx.Work(b.size()) || !cx.Fits(b.size())) return Fail();
    s = b;
  } else if (bytes.Is(Tag::kArray)) {
    const std::vector<Value>& items = static_cast<ArrayObj*>(bytes.h())->items;
    if (!cx.Work(items.size()) || !cx.Fits(items.size())) return Fail();
    s.reserve(items.size());
    for (const Value& x : items) {
      const bool byte = x.Is(Tag::kInt) && (x.IsUInt() ? x.u() <= 255 : x.i() >= 0 && x.i() <= 255);
      if (!byte)
        return Trapped(cx, TrapCode::kType,
                       absl::StrCat("from_utf8 needs bytes (0..=255), found ", Display(cx.m, x)));
      s.push_back(static_cast<char>(x.i()));
    }
  } else {
    return Trapped(
        cx, TrapCode::kType,
        absl::StrCat("from_utf8 needs an array of bytes, found ", KindName(cx.m, bytes)));
  }
  MTY_WORK(s.size());
  size_t bad = 0;
  if (ir::ValidUtf8(s, &bad)) {
    if (!cx.Charge(cost::StrBytes(s.size()))) return Fail();
    return methods::NewResult(cx, true, MakeStr(std::move(s)), out);
  }
  const ir::Utf8Decoded d = ir::DecodeUtf8(s, bad);
  const bool incomplete = d.error == ir::Utf8Error::kTruncated && bad + d.length >= s.size();
  Value msg = MakeStr(
      incomplete ? absl::StrCat("incomplete utf-8 byte sequence from index ", bad)
                 : absl::StrCat("invalid utf-8 sequence of ", d.length, " bytes from index ", bad));
  return methods::NewResult(cx, false, msg, out);
}

CallStatus CharFromDigit(Ctx& cx, const Value& digit, const Value& radix_arg, Value& out) {
  int64_t d;
  uint32_t radix;
  if (!NeedInt(cx, digit, &d) || !methods::NeedRadix(cx, radix_arg, "from_digit", &radix))
    return Fail();
  const bool ok = d >= 0 && d < radix;
  Value v = Value::Char(!ok      ? 0
                        : d < 10 ? '0' + static_cast<uint32_t>(d)
                                 : 'a' + static_cast<uint32_t>(d - 10));
  return SomeOrNone(cx, ok ? &v : nullptr, out);
}

// Exact in 128 bits: a range may span all of I64.
using I128 = __int128;

// A range's first Int and its count (lo..hi, or lo..=hi when the third
// argument is true).
bool RangeCount(Ctx& cx, const std::vector<Value>& args, int64_t* lo, I128* count) {
  int64_t hi;
  if (!NeedInt(cx, args[0], lo) || !NeedInt(cx, args[1], &hi)) return false;
  const bool inclusive = args[2].Is(Tag::kBool) && args[2].b();
  const I128 span = static_cast<I128>(hi) - *lo + (inclusive ? 1 : 0);
  *count = span > 0 ? span : 0;
  return true;
}

// range_array: the Ints of the range as an array, 16 B per element,
// charged before anything is built (a huge range stops at the memory
// budget); the estimate is capped so adding it cannot wrap the counter.
CallStatus RangeArray(Ctx& cx, const std::vector<Value>& args, Value& out) {
  int64_t lo;
  I128 count;
  if (!RangeCount(cx, args, &lo, &count)) return Fail();
  const I128 want = cost::ArrayBytes(count);
  const uint64_t est = want > (I128{1} << 62) ? uint64_t{1} << 62 : static_cast<uint64_t>(want);
  if (!cx.Charge(est)) return Fail();
  if (!cx.Work(static_cast<uint64_t>(count))) return Fail();
  MTY_WORK(static_cast<uint64_t>(count));
  auto* a = new ArrayObj(Tag::kArray);
  Value v = Value::Heap(a);
  a->est = est;
  a->items.reserve(static_cast<size_t>(count));
  for (I128 i = 0; i < count; ++i) a->items.push_back(Value::Int(static_cast<int64_t>(lo + i)));
  return Return(out, std::move(v));
}

// range_plan: the walk first, first + stride, ... (count of them), after
// each further argument: () reverses it, an Int k >= 1 keeps every k-th.
// Nothing is built.
CallStatus RangePlan(Ctx& cx, const std::vector<Value>& args, Value& out) {
  int64_t lo;
  I128 count;
  if (!RangeCount(cx, args, &lo, &count)) return Fail();
  I128 first = lo, stride = 1;
  for (size_t i = 3; i < args.size(); ++i) {
    if (args[i].Is(Tag::kUnit)) {
      if (count > 0) first += (count - 1) * stride;
      stride = -stride;
      continue;
    }
    uint64_t k;
    if (!methods::NeedSize(cx, args[i], "step_by", &k)) return Fail();
    count = count / k + (count % k != 0 ? 1 : 0);
    // With two elements or more the stride fits in 64 bits once wrapped
    // (the loop adds it with wrapping_add and lands on each element).
    stride = count > 1 ? stride * static_cast<I128>(k) : 1;
  }
  // A walk of more than I64.MAX elements cannot finish in any budget.
  const I128 max = std::numeric_limits<int64_t>::max();
  Value f = Value::Int(static_cast<int64_t>(first));
  Value n = Value::Int(static_cast<int64_t>(count > max ? max : count));
  Value s = Value::Int(static_cast<int64_t>(static_cast<uint64_t>(stride)));
  Value exact = Value::Bool(stride >= -max - 1 && stride <= max);
  auto* t = new ArrayObj(Tag::kTuple);
  Value tv = Value::Heap(t);
  t->est = cost::kHeader + 4 * cost::kSlot;
  if (!cx.Charge(t->est)) return Fail();
  t->items = {std::move(f), std::move(n), std::move(s), std::move(exact)};
  return Return(out, std::move(tv));
}

// index_range: `x[lo..hi]` of an array or a string (hi () for `x[lo..]`;
// the fourth argument true for `lo..=hi`),
// a copy of that part, as Rust's slicing: bounds out of range or
// decreasing trap MT5017 with Rust's message; a string's are byte offsets,
// each on a char boundary.
CallStatus IndexRange(Ctx& cx, const std::vector<Value>& args, Value& out) {
  const Value& x = args[0];
  const bool is_str = x.Is(Tag::kStr);
  if (!is_str && !IsArray(x))
    return Trapped(cx, TrapCode::kType,
                   absl::StrCat("cannot slice a value of type ", KindName(cx.m, x)));
  const size_t n = is_str              ? static_cast<StrObj*>(x.h())->s.size()
                   : x.Is(Tag::kBytes) ? static_cast<BytesObj*>(x.h())->b.size()
                                       : static_cast<ArrayObj*>(x.h())->items.size();
  int64_t lo, hi = static_cast<int64_t>(n);
  if (!NeedInt(cx, args[1], &lo) || (!args[2].Is(Tag::kUnit) && !NeedInt(cx, args[2], &hi)))
    return Fail();
  // `lo..=hi` is `lo..hi + 1` (hi past every length stays past it).
  if (args[3].Is(Tag::kBool) && args[3].b() && !args[2].Is(Tag::kUnit))
    hi = args[2].IsUInt() && hi < 0 ? hi : hi == std::numeric_limits<int64_t>::max() ? hi : hi + 1;
  // A U64 above I64::MAX is out of range as any index past the end is.
  const auto shown = [](const Value& v, int64_t i) {
    return v.IsUInt() ? absl::StrCat(static_cast<uint64_t>(i)) : absl::StrCat(i);
  };
  const bool lo_out = lo < 0 || static_cast<uint64_t>(lo) > n;
  const bool hi_out = hi < 0 || static_cast<uint64_t>(hi) > n;
  std::string bad;  // Rust's panic message, in Rust's order of checks
  if (is_str) {
    const std::string& s = static_cast<StrObj*>(x.h())->s;
    auto inside = [&](int64_t i) {
      return static_cast<uint64_t>(i) < n && !ir::StartsScalar(s[static_cast<size_t>(i)]);
    };
    if (lo_out || hi_out)
      bad = absl::StrCat("byte index ", lo_out ? shown(args[1], lo) : shown(args[2], hi),
                         " is out of range of a string of ", n, " bytes");
    else if (lo > hi)
      bad = absl::StrCat("begin <= end (", lo, " <= ", hi, ") when slicing a string");
    else if (inside(lo) || inside(hi))
      bad = absl::StrCat("byte index ", inside(lo) ? lo : hi, " is not a char boundary");
  } else if (lo_out && (args[2].Is(Tag::kUnit) || lo < 0)) {
    bad = absl::StrCat("range start index ", shown(args[1], lo),
                       " out of range for slice of length ", n);
  } else if (lo > hi || (lo_out && !hi_out)) {
    bad = absl::StrCat("slice index starts at ", shown(args[1], lo), " but ends at ",
                       shown(args[2], hi));
  } else if (hi_out) {
    bad = absl::StrCat("range end index ", shown(args[2], hi), " out of range for slice of length ",
                       n);
  }
  if (!bad.empty()) return Trapped(cx, TrapCode::kIndex, std::move(bad));
  const size_t a = static_cast<size_t>(lo), len = static_cast<size_t>(hi - lo);
  if (!cx.Work(len)) return Fail();
  MTY_WORK(len);
  Value v;
  if (is_str || x.Is(Tag::kBytes)) {
    const std::string& b =
        is_str ? static_cast<StrObj*>(x.h())->s : static_cast<BytesObj*>(x.h())->b;
    v = is_str ? MakeStr(b.substr(a, len)) : Value::Heap(new BytesObj(b.substr(a, len)));
  } else {
    const std::vector<Value>& items = static_cast<ArrayObj*>(x.h())->items;
    auto* r = new ArrayObj(Tag::kArray);
    v = Value::Heap(r);
    r->est = cost::kHeader;
    r->items.reserve(len);
    for (size_t i = a; i < a + len; ++i) {
      r->items.push_back(items[i]);
      r->est += Estimate(items[i]);
    }
  }
  if (!cx.Charge(v.h()->est)) return Fail();
  return Return(out, std::move(v));
}

// has_method(v, name): whether v is an ADT value whose type has a method
// `name` (Module::methods).
bool HasUserMethod(const Module& m, const Value& v, const Value& name) {
  if (!v.Is(Tag::kAdt) || !name.Is(Tag::kStr)) return false;
  auto id = m.method_ids.find(static_cast<StrObj*>(name.h())->s);
  if (id == m.method_ids.end()) return false;
  const uint32_t adt = static_cast<AdtObj*>(v.h())->adt;
  return adt < m.methods.size() && m.methods[adt].contains(id->second);
}

}  // namespace

CallStatus BuiltinFn(Ctx& cx, ir::BuiltinFnId id, std::vector<Value>& args, Value& out) {
  switch (id) {
    case F::kLog:
    case F::kPrint:
    case F::kEprint: return PrintFn(cx, id, args[0], out);
    case F::kPanic: return Trapped(cx, TrapCode::kPanic, PanicMessage(cx.m, args[0]));
    case F::kAssert: return AssertFn(cx, args[0], out);
    case F::kToStr:
    case F::kDebugStr:
    case F::kConcat: return TextFn(cx, id, args, out);
    case F::kFmt: return FmtFn(cx, args[0], args[1], out);
    case F::kIntoU64:
    case F::kIntoI64: return DoInto(cx, args[0], id == F::kIntoU64, out) ? Ok() : Fail();
    // A short constant-like name: not charged.
    case F::kTypeName: return Return(out, MakeStr(KindName(cx.m, args[0])));
    case F::kHasMethod: return Return(out, Value::Bool(HasUserMethod(cx.m, args[0], args[1])));
    case F::kUnsupported: return Trapped(cx, TrapCode::kUnknown, Display(cx.m, args[0]));
    case F::kChild: return ChildFn(cx, args[0], args[1], out);
    case F::kIterItems: return methods::IterItems(cx, args[0], out);
    case F::kCharFromU32: return CharFromU32(cx, args[0], out);
    case F::kStrFromUtf8: return StrFromUtf8(cx, args[0], out);
    case F::kCharFromDigit: return CharFromDigit(cx, args[0], args[1], out);
    case F::kRangeArray: return RangeArray(cx, args, out);
    case F::kRangePlan: return RangePlan(cx, args, out);
    case F::kOrdSign: {
      if (args[0].Is(Tag::kInt)) return Return(out, args[0]);
      const int sign = methods::OrdSign(args[0]);
      if (sign == 2)
        return Trapped(cx, TrapCode::kType,
                       absl::StrCat("a comparator must return an Ordering or an Int, found ",
                                    KindName(cx.m, args[0])));
      return Return(out, Value::Int(sign));
    }
    case F::kIndexRange: return IndexRange(cx, args, out);
  }
  return Trapped(cx, TrapCode::kUnknown, "unknown builtin function");
}

}  // namespace mty::interp
