// The library methods of issue 16 (docs/language.md §5): char properties and
// case mappings, integer arithmetic that wraps, checks or saturates instead
// of trapping, and string editing and splitting. Dispatched, like the rest
// of methods.cc, by the ids of the builtin table; each charges its work
// before doing it and the memory of what it builds.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "builtins.h"
#include "cost.h"
#include "mty/interp/work.h"
#include "mty/vocab/utf8.h"
#include "search.h"
#include "unicode.h"

namespace mty::interp {

namespace {

using N = ir::MethodName;

CallStatus Ok() { return CallStatus::kOk; }
CallStatus Fail() { return CallStatus::kFail; }

CallStatus Trapped(Ctx& cx, TrapCode c, std::string m) {
  cx.Trap(c, std::move(m));
  return Fail();
}

CallStatus SomeOrNone(Ctx& cx, const Value* v, Value& out) {
  uint64_t est;
  out = MakeOption(v, &est);
  return cx.Charge(est) ? Ok() : Fail();
}

// A radix for to_digit, is_digit and from_digit: 2..=36, else a panic (as
// Rust's).
bool NeedRadix(Ctx& cx, const Value& v, const char* what, uint32_t* radix) {
  int64_t r;
  if (!NeedInt(cx, v, &r)) return false;
  if (r < 2 || r > 36)
    return cx.Trap(TrapCode::kPanic, absl::StrCat(what, ": radix ", r, " is not in 2..=36"));
  *radix = static_cast<uint32_t>(r);
  return true;
}

// The value of digit `c` in `radix` (-1 when it is not one).
int DigitValue(uint32_t c, uint32_t radix) {
  uint32_t d;
  if (c >= '0' && c <= '9')
    d = c - '0';
  else if (c >= 'a' && c <= 'z')
    d = c - 'a' + 10;
  else if (c >= 'A' && c <= 'Z')
    d = c - 'A' + 10;
  else
    return -1;
  return d < radix ? static_cast<int>(d) : -1;
}

bool IsScalar(int64_t c) { return c >= 0 && c <= ir::kMaxScalar && !(c >= 0xD800 && c <= 0xDFFF); }

CallStatus NewStr(Ctx& cx, std::string s, Value& out) {
  if (!cx.Charge(cost::StrBytes(s.size()))) return Fail();
  out = MakeStr(std::move(s));
  return Ok();
}

}  // namespace

CallStatus CharMethod(Ctx& cx, const Value& recv, ir::MethodName id, std::vector<Value>& args,
                      Value& out) {
  const uint32_t c = static_cast<uint32_t>(recv.i());
  const bool ascii = c < 0x80;
  auto yes = [&](bool b) {
    out = Value::Bool(b);
    return Ok();
  };
  switch (id) {
    case N::kIsAlphabetic: return yes(unicode::IsAlphabetic(c));
    case N::kIsNumeric: return yes(unicode::IsNumeric(c));
    case N::kIsAlphanumeric: return yes(unicode::IsAlphabetic(c) || unicode::IsNumeric(c));
    case N::kIsWhitespace: return yes(unicode::IsWhitespace(c));
    case N::kIsUppercase: return yes(unicode::IsUppercase(c));
    case N::kIsLowercase: return yes(unicode::IsLowercase(c));
    case N::kIsControl: return yes(unicode::IsControl(c));
    case N::kIsAscii: return yes(ascii);
    case N::kIsAsciiDigit: return yes(c >= '0' && c <= '9');
    case N::kIsAsciiHexdigit: return yes(ascii && DigitValue(c, 16) >= 0);
    case N::kIsAsciiAlphabetic: return yes((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
    case N::kIsAsciiAlphanumeric:
      return yes((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'));
    case N::kIsAsciiUppercase: return yes(c >= 'A' && c <= 'Z');
    case N::kIsAsciiLowercase: return yes(c >= 'a' && c <= 'z');
    // Rust's: space, tab, LF, FF, CR (not VT).
    case N::kIsAsciiWhitespace:
      return yes(c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r');
    case N::kIsAsciiPunctuation:
      return yes((c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
                 (c >= 0x7B && c <= 0x7E));
    case N::kIsAsciiGraphic: return yes(c >= 0x21 && c <= 0x7E);
    case N::kIsAsciiControl: return yes(c < 0x20 || c == 0x7F);
    case N::kToAsciiUppercase: out = Value::Char(c >= 'a' && c <= 'z' ? c - 32 : c); return Ok();
    case N::kToAsciiLowercase: out = Value::Char(c >= 'A' && c <= 'Z' ? c + 32 : c); return Ok();
    case N::kEqIgnoreAsciiCase: {
      if (!args[0].Is(Tag::kChar))
        return Trapped(
            cx, TrapCode::kType,
            absl::StrCat("eq_ignore_ascii_case needs a Char, found ", KindName(cx.m, args[0])));
      auto low = [](uint32_t x) { return x >= 'A' && x <= 'Z' ? x + 32 : x; };
      return yes(low(c) == low(static_cast<uint32_t>(args[0].i())));
    }
    case N::kToUppercase:
    case N::kToLowercase: {
      std::string one, r;
      ir::AppendUtf8(one, c);
      if (id == N::kToUppercase)
        unicode::AppendUpper(one, &r);
      else
        unicode::AppendLower(one, &r);
      return NewStr(cx, std::move(r), out);
    }
    case N::kToDigit:
    case N::kIsDigit: {
      uint32_t radix;
      if (!NeedRadix(cx, args[0], ir::MethodNameText(id), &radix)) return Fail();
      const int d = DigitValue(c, radix);
      if (id == N::kIsDigit) return yes(d >= 0);
      Value v = Value::Int(d);
      return SomeOrNone(cx, d >= 0 ? &v : nullptr, out);
    }
    case N::kLenUtf8:
      out = Value::Int(c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4);
      return Ok();
    default: return CallStatus::kUnknown;
  }
}

CallStatus IntMethodLib(Ctx& cx, int64_t x, ir::MethodName id, std::vector<Value>& args,
                        Value& out) {
  using U = uint64_t;
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const char* name = ir::MethodNameText(id);
  auto num = [&](int64_t v) {
    out = Value::Int(v);
    return Ok();
  };
  auto opt = [&](bool ok, int64_t v) {
    Value x = Value::Int(v);
    return SomeOrNone(cx, ok ? &x : nullptr, out);
  };
  auto overflow = [&]() {
    return Trapped(cx, TrapCode::kOverflow, absl::StrCat("integer overflow in ", name));
  };
  // Exponentiation by squaring (at most 64 rounds): false on overflow.
  auto pow = [](int64_t base, int64_t e, int64_t* r) {
    bool over = false;
    *r = 1;
    for (; e > 0; e >>= 1) {
      if (e & 1) over |= __builtin_mul_overflow(*r, base, r);
      if (e > 1) over |= __builtin_mul_overflow(base, base, &base);
    }
    return !over;
  };
  auto wrapping_pow = [](int64_t base, int64_t e) {
    U r = 1, b = static_cast<U>(base);
    for (; e > 0; e >>= 1) {
      if (e & 1) r *= b;
      b *= b;
    }
    return static_cast<int64_t>(r);
  };
  // The unary ones.
  switch (id) {
    case N::kWrappingNeg: return num(static_cast<int64_t>(U{0} - static_cast<U>(x)));
    case N::kCheckedNeg: return opt(x != kMin, x == kMin ? 0 : -x);
    case N::kCountOnes: return num(std::popcount(static_cast<U>(x)));
    case N::kCountZeros: return num(64 - std::popcount(static_cast<U>(x)));
    case N::kLeadingZeros: return num(std::countl_zero(static_cast<U>(x)));
    case N::kTrailingZeros: return num(std::countr_zero(static_cast<U>(x)));
    case N::kSignum: return num(x > 0 ? 1 : x < 0 ? -1 : 0);
    case N::kIsPositive: out = Value::Bool(x > 0); return Ok();
    case N::kIsNegative: out = Value::Bool(x < 0); return Ok();
    default: break;
  }
  int64_t y = 0, r = 0;
  if (id == N::kClamp) {
    int64_t lo, hi;
    if (!NeedInt(cx, args[0], &lo) || !NeedInt(cx, args[1], &hi)) return Fail();
    if (lo > hi)
      return Trapped(cx, TrapCode::kPanic,
                     absl::StrCat("clamp: min ", lo, " is greater than max ", hi));
    return num(std::clamp(x, lo, hi));
  }
  switch (id) {
    case N::kWrappingAdd:
    case N::kWrappingSub:
    case N::kWrappingMul:
    case N::kWrappingPow:
    case N::kCheckedAdd:
    case N::kCheckedSub:
    case N::kCheckedMul:
    case N::kCheckedDiv:
    case N::kCheckedRem:
    case N::kCheckedPow:
    case N::kSaturatingAdd:
    case N::kSaturatingSub:
    case N::kSaturatingMul:
    case N::kSaturatingPow:
    case N::kRemEuclid:
    case N::kDivEuclid:
    case N::kAbsDiff:
    case N::kRotateLeft:
    case N::kRotateRight:
      if (!NeedInt(cx, args[0], &y)) return Fail();
      break;
    default: return CallStatus::kUnknown;
  }
  const bool is_pow = id == N::kWrappingPow || id == N::kCheckedPow || id == N::kSaturatingPow;
  if (is_pow && y < 0)
    return Trapped(cx, TrapCode::kType, absl::StrCat(name, " needs a non-negative exponent"));
  if ((id == N::kRotateLeft || id == N::kRotateRight) && y < 0)
    return Trapped(cx, TrapCode::kType, absl::StrCat(name, " needs a non-negative count"));
  // The saturated bound of an overflowing result: its sign is the exact
  // result's.
  auto bound = [&](bool negative) { return negative ? kMin : kMax; };
  switch (id) {
    case N::kWrappingAdd: return num(static_cast<int64_t>(static_cast<U>(x) + static_cast<U>(y)));
    case N::kWrappingSub: return num(static_cast<int64_t>(static_cast<U>(x) - static_cast<U>(y)));
    case N::kWrappingMul: return num(static_cast<int64_t>(static_cast<U>(x) * static_cast<U>(y)));
    case N::kWrappingPow: return num(wrapping_pow(x, y));
    case N::kCheckedAdd: {
      const bool ok = !__builtin_add_overflow(x, y, &r);
      return opt(ok, r);
    }
    case N::kCheckedSub: {
      const bool ok = !__builtin_sub_overflow(x, y, &r);
      return opt(ok, r);
    }
    case N::kCheckedMul: {
      const bool ok = !__builtin_mul_overflow(x, y, &r);
      return opt(ok, r);
    }
    case N::kCheckedDiv:
    case N::kCheckedRem: {
      const bool ok = y != 0 && !(x == kMin && y == -1);
      return opt(ok, ok ? (id == N::kCheckedDiv ? x / y : x % y) : 0);
    }
    case N::kCheckedPow: {
      const bool ok = pow(x, y, &r);
      return opt(ok, r);
    }
    case N::kSaturatingAdd: return num(__builtin_add_overflow(x, y, &r) ? bound(y < 0) : r);
    case N::kSaturatingSub: return num(__builtin_sub_overflow(x, y, &r) ? bound(y > 0) : r);
    case N::kSaturatingMul:
      return num(__builtin_mul_overflow(x, y, &r) ? bound((x < 0) != (y < 0)) : r);
    case N::kSaturatingPow: return num(pow(x, y, &r) ? r : bound(x < 0 && (y & 1)));
    case N::kRemEuclid:
    case N::kDivEuclid: {
      if (y == 0)
        return Trapped(cx, TrapCode::kDivByZero, absl::StrCat("division by zero in ", name));
      if (x == kMin && y == -1) return overflow();
      int64_t q = x / y, m = x % y;
      if (m < 0) {
        m = y > 0 ? m + y : m - y;
        q = y > 0 ? q - 1 : q + 1;
      }
      return num(id == N::kRemEuclid ? m : q);
    }
    case N::kAbsDiff: {
      const U d =
          x > y ? static_cast<U>(x) - static_cast<U>(y) : static_cast<U>(y) - static_cast<U>(x);
      if (d > static_cast<U>(kMax)) return overflow();
      return num(static_cast<int64_t>(d));
    }
    case N::kRotateLeft:
    case N::kRotateRight: {
      const int k = static_cast<int>(y % 64);
      const U v = static_cast<U>(x);
      return num(static_cast<int64_t>(id == N::kRotateLeft ? std::rotl(v, k) : std::rotr(v, k)));
    }
    default: return CallStatus::kUnknown;
  }
}

// The integer methods on a U64/USize receiver (IntMethodLib's and
// NumberMethod's names, unsigned): results are U64, checked ones trap MT5004
// outside 0..2^64-1; a negative I64 argument traps MT5016.
CallStatus UIntMethodLib(Ctx& cx, uint64_t x, ir::MethodName id, std::vector<Value>& args,
                         Value& out) {
  using U = uint64_t;
  const char* name = ir::MethodNameText(id);
  auto num = [&](U v) {
    out = Value::UInt(v);
    return Ok();
  };
  auto count = [&](int64_t v) {  // bit counts are I64, as for I64 receivers
    out = Value::Int(v);
    return Ok();
  };
  auto opt = [&](bool ok, U v) {
    Value x = Value::UInt(v);
    return SomeOrNone(cx, ok ? &x : nullptr, out);
  };
  auto arg = [&](const Value& v, U* r) {
    if (!v.Is(Tag::kInt))
      return cx.Trap(TrapCode::kType,
                     absl::StrCat(name, " expects an integer, found ", KindName(cx.m, v)));
    if (!v.IsUInt() && v.i() < 0)
      return cx.Trap(TrapCode::kType,
                     absl::StrCat(name, " on a U64 needs a non-negative argument, found ", v.i()));
    *r = v.u();
    return true;
  };
  auto pow = [](U base, U e, U* r) {
    bool over = false;
    *r = 1;
    for (; e > 0; e >>= 1) {
      if (e & 1) over |= __builtin_mul_overflow(*r, base, r);
      if (e > 1) over |= __builtin_mul_overflow(base, base, &base);
    }
    return !over;
  };
  switch (id) {
    case N::kAbs: return num(x);
    case N::kWrappingNeg: return num(U{0} - x);
    case N::kCheckedNeg: return opt(x == 0, 0);
    case N::kCountOnes: return count(std::popcount(x));
    case N::kCountZeros: return count(64 - std::popcount(x));
    case N::kLeadingZeros: return count(std::countl_zero(x));
    case N::kTrailingZeros: return count(std::countr_zero(x));
    case N::kSignum: return num(x > 0 ? 1 : 0);
    case N::kIsPositive: out = Value::Bool(x > 0); return Ok();
    case N::kIsNegative: out = Value::Bool(false); return Ok();
    default: break;
  }
  U y = 0, r = 0;
  if (id == N::kClamp) {
    U lo, hi;
    if (!arg(args[0], &lo) || !arg(args[1], &hi)) return Fail();
    if (lo > hi)
      return Trapped(cx, TrapCode::kPanic,
                     absl::StrCat("clamp: min ", lo, " is greater than max ", hi));
    return num(std::clamp(x, lo, hi));
  }
  switch (id) {
    case N::kMin:
    case N::kMax:
    case N::kPow:
    case N::kWrappingAdd:
    case N::kWrappingSub:
    case N::kWrappingMul:
    case N::kWrappingPow:
    case N::kCheckedAdd:
    case N::kCheckedSub:
    case N::kCheckedMul:
    case N::kCheckedDiv:
    case N::kCheckedRem:
    case N::kCheckedPow:
    case N::kSaturatingAdd:
    case N::kSaturatingSub:
    case N::kSaturatingMul:
    case N::kSaturatingPow:
    case N::kRemEuclid:
    case N::kDivEuclid:
    case N::kAbsDiff:
    case N::kRotateLeft:
    case N::kRotateRight:
      if (!arg(args[0], &y)) return Fail();
      break;
    default: return CallStatus::kUnknown;
  }
  switch (id) {
    case N::kMin: return num(std::min(x, y));
    case N::kMax: return num(std::max(x, y));
    case N::kPow:
      if (!pow(x, y, &r))
        return Trapped(cx, TrapCode::kOverflow, "integer overflow in pow (U64: 0..2^64-1)");
      return num(r);
    case N::kWrappingAdd: return num(x + y);
    case N::kWrappingSub: return num(x - y);
    case N::kWrappingMul: return num(x * y);
    case N::kWrappingPow: {
      U w = 1, b = x;
      for (U e = y; e > 0; e >>= 1) {
        if (e & 1) w *= b;
        b *= b;
      }
      return num(w);
    }
    case N::kCheckedAdd: {
      const bool ok = !__builtin_add_overflow(x, y, &r);
      return opt(ok, r);
    }
    case N::kCheckedSub: {
      const bool ok = !__builtin_sub_overflow(x, y, &r);
      return opt(ok, r);
    }
    case N::kCheckedMul: {
      const bool ok = !__builtin_mul_overflow(x, y, &r);
      return opt(ok, r);
    }
    case N::kCheckedDiv: return opt(y != 0, y != 0 ? x / y : 0);
    case N::kCheckedRem: return opt(y != 0, y != 0 ? x % y : 0);
    case N::kCheckedPow: {
      const bool ok = pow(x, y, &r);
      return opt(ok, r);
    }
    case N::kSaturatingAdd: return num(__builtin_add_overflow(x, y, &r) ? UINT64_MAX : r);
    case N::kSaturatingSub: return num(__builtin_sub_overflow(x, y, &r) ? 0 : r);
    case N::kSaturatingMul: return num(__builtin_mul_overflow(x, y, &r) ? UINT64_MAX : r);
    case N::kSaturatingPow: return num(pow(x, y, &r) ? r : UINT64_MAX);
    case N::kRemEuclid:
    case N::kDivEuclid:
      if (y == 0)
        return Trapped(cx, TrapCode::kDivByZero, absl::StrCat("division by zero in ", name));
      return num(id == N::kRemEuclid ? x % y : x / y);
    case N::kAbsDiff: return num(x > y ? x - y : y - x);
    case N::kRotateLeft: return num(std::rotl(x, static_cast<int>(y % 64)));
    case N::kRotateRight: return num(std::rotr(x, static_cast<int>(y % 64)));
    default: return CallStatus::kUnknown;
  }
}

CallStatus FloatMethodLib(Ctx& cx, double x, ir::MethodName id, std::vector<Value>& args,
                          Value& out) {
  auto number = [&](const Value& v, double* d) {
    if (v.Is(Tag::kFloat)) {
      *d = v.f();
    } else if (v.Is(Tag::kInt)) {
      *d = static_cast<double>(v.i());
    } else {
      return cx.Trap(TrapCode::kType, absl::StrCat("expected a number, found ", KindName(cx.m, v)));
    }
    return true;
  };
  if (id == N::kSignum) {
    out = Value::Float(std::isnan(x) ? x : std::copysign(1.0, x));
    return Ok();
  }
  if (id == N::kClamp) {
    double lo, hi;
    if (!number(args[0], &lo) || !number(args[1], &hi)) return Fail();
    if (!(lo <= hi))
      return Trapped(cx, TrapCode::kPanic,
                     absl::StrCat("clamp: min ", lo, " is greater than max ", hi, " or NaN"));
    out = Value::Float(std::isnan(x) ? x : std::clamp(x, lo, hi));
    return Ok();
  }
  return CallStatus::kUnknown;
}

namespace {

// An Option or Result's parts: nullptr when v is neither.
const AdtObj* AdtOf(const Value& v, uint32_t adt) {
  if (!v.Is(Tag::kAdt)) return nullptr;
  auto* o = static_cast<AdtObj*>(v.h());
  return o->adt == adt ? o : nullptr;
}

// Ok(v) (good) or Err(v), charged.
CallStatus MakeResultValue(Ctx& cx, bool good, const Value& v, Value& out) {
  auto* r = new AdtObj();
  Value rv = Value::Heap(r);
  r->adt = kAdtResult;
  r->variant = good ? 0 : 1;
  r->fields.push_back(v);
  r->est = cost::kHeader + Estimate(v);
  if (!cx.Charge(r->est)) return Fail();
  out = std::move(rv);
  return Ok();
}

}  // namespace

CallStatus OptionResultLib(Ctx& cx, Value& recv, ir::MethodName id, std::vector<Value>& args,
                           Value& out, int64_t* delta) {
  auto* o = static_cast<AdtObj*>(recv.h());
  const bool is_option = o->adt == kAdtOption;
  const bool good = o->variant == 0;  // Some / Ok
  const char* name = ir::MethodNameText(id);
  auto need = [&](const Value& v, uint32_t adt, const AdtObj** p) {
    *p = AdtOf(v, adt);
    if (*p) return true;
    return cx.Trap(TrapCode::kType,
                   absl::StrCat(name, " needs an ", adt == kAdtOption ? "Option" : "Result",
                                ", found ", KindName(cx.m, v)));
  };
  if (id == N::kOr) {
    if (good) {
      out = recv;
      return Ok();
    }
    const AdtObj* other;
    if (!need(args[0], is_option ? kAdtOption : kAdtResult, &other)) return Fail();
    out = args[0];
    return Ok();
  }
  if (is_option) {
    switch (id) {
      case N::kXor: {
        const AdtObj* other;
        if (!need(args[0], kAdtOption, &other)) return Fail();
        const bool other_good = other->variant == 0;
        if (good != other_good) {
          out = good ? recv : args[0];
          return Ok();
        }
        return SomeOrNone(cx, nullptr, out);
      }
      case N::kZip: {
        const AdtObj* other;
        if (!need(args[0], kAdtOption, &other)) return Fail();
        if (!good || other->variant != 0) return SomeOrNone(cx, nullptr, out);
        auto* t = new ArrayObj(Tag::kTuple);
        Value tv = Value::Heap(t);
        t->items = {o->fields[0], other->fields[0]};
        t->est = cost::kHeader + Estimate(t->items[0]) + Estimate(t->items[1]);
        if (!cx.Charge(t->est)) return Fail();
        return SomeOrNone(cx, &tv, out);
      }
      case N::kTake: {
        // The receiver becomes None; its old value is the result.
        uint64_t est;
        Value none = MakeOption(nullptr, &est);
        if (!cx.Charge(est)) return Fail();
        const uint64_t old = Estimate(recv);
        out = std::move(recv);
        recv = std::move(none);
        *delta = static_cast<int64_t>(est) - static_cast<int64_t>(old);
        return Ok();
      }
      case N::kTranspose: {
        // None -> Ok(None); Some(Ok(x)) -> Ok(Some(x)); Some(Err(e)) -> Err(e).
        if (!good) {
          uint64_t est;
          Value none = MakeOption(nullptr, &est);
          if (!cx.Charge(est)) return Fail();
          return MakeResultValue(cx, true, none, out);
        }
        const AdtObj* inner;
        if (!need(o->fields[0], kAdtResult, &inner)) return Fail();
        if (inner->variant != 0) return MakeResultValue(cx, false, inner->fields[0], out);
        uint64_t est;
        Value some = MakeOption(&inner->fields[0], &est);
        if (!cx.Charge(est)) return Fail();
        return MakeResultValue(cx, true, some, out);
      }
      default: return CallStatus::kUnknown;
    }
  }
  switch (id) {
    case N::kErr: return SomeOrNone(cx, good ? nullptr : &o->fields[0], out);
    case N::kTranspose: {
      // Ok(None) -> None; Ok(Some(x)) -> Some(Ok(x)); Err(e) -> Some(Err(e)).
      Value r;
      if (good) {
        const AdtObj* inner;
        if (!need(o->fields[0], kAdtOption, &inner)) return Fail();
        if (inner->variant != 0) return SomeOrNone(cx, nullptr, out);
        if (MakeResultValue(cx, true, inner->fields[0], r) != Ok()) return Fail();
      } else {
        r = recv;
      }
      return SomeOrNone(cx, &r, out);
    }
    default: return CallStatus::kUnknown;
  }
}

CallStatus MapMethodLib(Ctx& cx, Value& recv, ir::MethodName id, std::vector<Value>& args,
                        Value& out) {
  auto* m = static_cast<MapObj*>(recv.h());
  if (id == N::kGetOr) {
    if (!cx.Work(cost::Lookup(args[0]))) return Fail();
    const int j = m->Find(args[0]);
    out = j >= 0 ? m->entries[j].second : args[1];
    return Ok();
  }
  if (id == N::kIter) {
    // The (key, value) pairs in insertion order, what `for (k, v) in m` walks.
    std::vector<Value> one{recv};
    return BuiltinFn(cx, ir::BuiltinFnId::kIterItems, one, out);
  }
  return CallStatus::kUnknown;
}

namespace {

// An array of `items`, its estimate charged before it is built.
CallStatus NewArray(Ctx& cx, std::vector<Value> items, Value& out) {
  uint64_t est = cost::kHeader;
  for (const Value& x : items) est += Estimate(x);
  if (!cx.Charge(est)) return Fail();
  auto* a = new ArrayObj(Tag::kArray);
  Value v = Value::Heap(a);
  a->items = std::move(items);
  a->est = est;
  out = std::move(v);
  return Ok();
}

Value Pair(const Value& a, const Value& b) {
  auto* t = new ArrayObj(Tag::kTuple);
  Value tv = Value::Heap(t);
  t->items = {a, b};
  t->est = cost::kHeader + Estimate(a) + Estimate(b);
  return tv;
}

// A count argument (take, skip): an Int >= 0, else MT5017.
bool NeedCount(Ctx& cx, const Value& v, const char* what, uint64_t* k) {
  int64_t i;
  if (!NeedInt(cx, v, &i)) return false;
  if (i < 0) return cx.Trap(TrapCode::kIndex, absl::StrCat(what, " count ", i, " is negative"));
  *k = static_cast<uint64_t>(i);
  return true;
}

// A size argument (windows, chunks, step_by): an Int >= 1, else a panic
// (as Rust's).
bool NeedSize(Ctx& cx, const Value& v, const char* what, uint64_t* k) {
  int64_t i;
  if (!NeedInt(cx, v, &i)) return false;
  if (i < 1)
    return cx.Trap(TrapCode::kPanic, absl::StrCat(what, ": size ", i, " must be at least 1"));
  *k = static_cast<uint64_t>(i);
  return true;
}

}  // namespace

CallStatus ArrayMethodLib(Ctx& cx, Value& recv, ir::MethodName id, std::vector<Value>& args,
                          Value& out, int64_t* delta) {
  const std::vector<Value>& v = static_cast<ArrayObj*>(recv.h())->items;
  const uint64_t n = v.size();
  const char* name = ir::MethodNameText(id);
  // The other array of zip and chain (bytes widened for the call).
  auto other = [&](Value* o) {
    if (!IsArray(args[0]))
      return cx.Trap(TrapCode::kType,
                     absl::StrCat(name, " needs an array, found ", KindName(cx.m, args[0])));
    *o = args[0];
    if (o->Is(Tag::kBytes)) {
      const uint64_t m = static_cast<BytesObj*>(o->h())->b.size();
      if (!cx.Work(m) || !cx.Fits(cost::ArrayBytes(m))) return false;
      Widen(*o);
    }
    return true;
  };
  switch (id) {
    case N::kEnumerate: {
      if (!cx.Work(2 * n)) return Fail();
      MTY_WORK(2 * n);
      std::vector<Value> r;
      r.reserve(n);
      for (uint64_t i = 0; i < n; ++i) r.push_back(Pair(Value::Int(static_cast<int64_t>(i)), v[i]));
      return NewArray(cx, std::move(r), out);
    }
    case N::kZip: {
      Value o;
      if (!other(&o)) return Fail();
      const auto& w = static_cast<ArrayObj*>(o.h())->items;
      const uint64_t k = std::min<uint64_t>(n, w.size());
      if (!cx.Work(2 * k)) return Fail();
      MTY_WORK(2 * k);
      std::vector<Value> r;
      r.reserve(k);
      for (uint64_t i = 0; i < k; ++i) r.push_back(Pair(v[i], w[i]));
      return NewArray(cx, std::move(r), out);
    }
    case N::kChain: {
      Value o;
      if (!other(&o)) return Fail();
      const auto& w = static_cast<ArrayObj*>(o.h())->items;
      if (!cx.Work(n + w.size())) return Fail();
      MTY_WORK(n + w.size());
      std::vector<Value> r;
      r.reserve(n + w.size());
      r.insert(r.end(), v.begin(), v.end());
      r.insert(r.end(), w.begin(), w.end());
      return NewArray(cx, std::move(r), out);
    }
    case N::kRev: {
      if (!cx.Work(n)) return Fail();
      MTY_WORK(n);
      return NewArray(cx, std::vector<Value>(v.rbegin(), v.rend()), out);
    }
    case N::kTake:
    case N::kSkip: {
      uint64_t k;
      if (!NeedCount(cx, args[0], name, &k)) return Fail();
      k = std::min(k, n);
      const uint64_t lo = id == N::kTake ? 0 : k, hi = id == N::kTake ? k : n;
      if (!cx.Work(hi - lo)) return Fail();
      MTY_WORK(hi - lo);
      return NewArray(cx, std::vector<Value>(v.begin() + lo, v.begin() + hi), out);
    }
    case N::kStepBy: {
      uint64_t k;
      if (!NeedSize(cx, args[0], name, &k)) return Fail();
      const uint64_t m = n == 0 ? 0 : (n - 1) / k + 1;
      if (!cx.Work(m)) return Fail();
      MTY_WORK(m);
      std::vector<Value> r;
      r.reserve(m);
      for (uint64_t i = 0; i < n; i += k) r.push_back(v[i]);
      return NewArray(cx, std::move(r), out);
    }
    case N::kWindows:
    case N::kChunks: {
      uint64_t k;
      if (!NeedSize(cx, args[0], name, &k)) return Fail();
      // The pieces and the elements copied into them: windows copies each
      // element up to k times, so the total is known (and charged) first.
      const uint64_t pieces =
          id == N::kChunks ? (n == 0 ? 0 : (n - 1) / k + 1) : (n >= k ? n - k + 1 : 0);
      const uint64_t elems = id == N::kChunks ? n : pieces * k;  // <= n * n / 4 + n
      if (!cx.Work(pieces + elems)) return Fail();
      MTY_WORK(pieces + elems);
      // Estimates by prefix sums: each piece 24 + its elements'.
      std::vector<uint64_t> pre(n + 1, 0);
      for (uint64_t i = 0; i < n; ++i) pre[i + 1] = pre[i] + Estimate(v[i]);
      uint64_t est = cost::kHeader;
      for (uint64_t p = 0; p < pieces; ++p) {
        const uint64_t lo = id == N::kChunks ? p * k : p, hi = std::min(n, lo + k);
        est += cost::kHeader + pre[hi] - pre[lo];
      }
      if (!cx.Charge(est)) return Fail();
      auto* a = new ArrayObj(Tag::kArray);
      Value av = Value::Heap(a);
      a->est = est;
      a->items.reserve(pieces);
      for (uint64_t p = 0; p < pieces; ++p) {
        const uint64_t lo = id == N::kChunks ? p * k : p, hi = std::min(n, lo + k);
        auto* w = new ArrayObj(Tag::kArray);
        Value wv = Value::Heap(w);
        w->items.assign(v.begin() + lo, v.begin() + hi);
        w->est = cost::kHeader + pre[hi] - pre[lo];
        a->items.push_back(std::move(wv));
      }
      out = std::move(av);
      return Ok();
    }
    case N::kConcat: {
      // Strings (or chars) join into a Str; arrays flatten one level.
      bool all_str = true, all_arr = true;
      uint64_t total = 0;
      for (const Value& x : v) {
        const bool text = x.Is(Tag::kStr) || x.Is(Tag::kChar);
        all_str &= text;
        all_arr &= x.Is(Tag::kArray);
        if (x.Is(Tag::kStr)) total += static_cast<StrObj*>(x.h())->s.size();
        if (x.Is(Tag::kChar)) total += 4;
        if (x.Is(Tag::kArray)) total += static_cast<ArrayObj*>(x.h())->items.size();
      }
      if (n > 0 && !all_str && !all_arr)
        return Trapped(cx, TrapCode::kType,
                       "concat needs an array of strings or chars, or an array of arrays");
      if (!cx.Work(n + total)) return Fail();
      MTY_WORK(n + total);
      if (n > 0 && all_str) {
        if (!cx.StrFits(total, "concat")) return Fail();
        std::string r;
        r.reserve(total);
        for (const Value& x : v) {
          if (x.Is(Tag::kChar))
            ir::AppendUtf8(r, static_cast<uint32_t>(x.i()));
          else
            r += static_cast<StrObj*>(x.h())->s;
        }
        return NewStr(cx, std::move(r), out);
      }
      std::vector<Value> r;
      r.reserve(total);
      for (const Value& x : v)
        for (const Value& y : static_cast<ArrayObj*>(x.h())->items) r.push_back(y);
      return NewArray(cx, std::move(r), out);
    }
    case N::kDedup: {
      // Consecutive equal elements collapse to the first (Rust's Vec::dedup).
      uint64_t units = n;
      for (uint64_t i = 1; i < n; ++i) units += cost::Compare(v[i - 1], v[i]);
      if (!cx.Work(units)) return Fail();
      MTY_WORK(n);
      auto* a = static_cast<ArrayObj*>(MakeUnique(recv));
      std::vector<Value> kept;
      uint64_t removed = 0;
      for (Value& x : a->items) {
        if (!kept.empty() && ValuesEqual(kept.back(), x)) {
          removed += Estimate(x);
          continue;
        }
        kept.push_back(std::move(x));
      }
      a->items = std::move(kept);
      a->est -= removed;
      *delta = -static_cast<int64_t>(removed);
      out = Value::Unit();
      return Ok();
    }
    default: return CallStatus::kUnknown;
  }
}

CallStatus CharFromFn(Ctx& cx, ir::BuiltinFnId id, std::vector<Value>& args, Value& out) {
  using F = ir::BuiltinFnId;
  if (id == F::kCharFromU32) {
    int64_t c;
    if (!NeedInt(cx, args[0], &c)) return Fail();
    Value v = Value::Char(static_cast<uint32_t>(c));
    return SomeOrNone(cx, IsScalar(c) ? &v : nullptr, out);
  }
  if (id == F::kCharFromDigit) {
    int64_t d;
    uint32_t radix;
    if (!NeedInt(cx, args[0], &d) || !NeedRadix(cx, args[1], "from_digit", &radix)) return Fail();
    const bool ok = d >= 0 && d < radix;
    Value v = Value::Char(!ok      ? 0
                          : d < 10 ? '0' + static_cast<uint32_t>(d)
                                   : 'a' + static_cast<uint32_t>(d - 10));
    return SomeOrNone(cx, ok ? &v : nullptr, out);
  }
  return CallStatus::kUnknown;
}

CallStatus RangeFn(Ctx& cx, ir::BuiltinFnId id, std::vector<Value>& args, Value& out) {
  using F = ir::BuiltinFnId;
  if (id != F::kRangeArray && id != F::kRangePlan) return CallStatus::kUnknown;
  int64_t lo, hi;
  if (!NeedInt(cx, args[0], &lo) || !NeedInt(cx, args[1], &hi)) return Fail();
  const bool inclusive = args[2].Is(Tag::kBool) && args[2].b();
  // Exact in 128 bits: a range may span all of I64.
  using I128 = __int128;
  const I128 span = static_cast<I128>(hi) - lo + (inclusive ? 1 : 0);
  I128 count = span > 0 ? span : 0;
  if (id == F::kRangeArray) {
    // 16 B per element, charged before anything is built (a huge range
    // stops at the memory budget); the estimate is capped so adding it
    // cannot wrap the counter.
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
    out = std::move(v);
    return Ok();
  }
  // The walk first, first + stride, ... (count of them), after each
  // further argument: () reverses it, an Int k >= 1 keeps every k-th.
  I128 first = lo, stride = 1;
  for (size_t i = 3; i < args.size(); ++i) {
    if (args[i].Is(Tag::kUnit)) {
      if (count > 0) first += (count - 1) * stride;
      stride = -stride;
      continue;
    }
    uint64_t k;
    if (!NeedSize(cx, args[i], "step_by", &k)) return Fail();
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
  out = std::move(tv);
  return Ok();
}

// String methods that edit in place take byte indices, which must fall on
// a char boundary (Rust's rule).
namespace {

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

// A Str argument, or a Char one as the text of that char (the patterns of
// strip_prefix, splitn, split_once ...).
bool NeedPattern(Ctx& cx, const Value& v, std::string* buf, const std::string** p) {
  if (v.Is(Tag::kStr)) {
    *p = &static_cast<StrObj*>(v.h())->s;
    return true;
  }
  if (v.Is(Tag::kChar)) {
    buf->clear();
    ir::AppendUtf8(*buf, static_cast<uint32_t>(v.i()));
    *p = buf;
    return true;
  }
  return cx.Trap(TrapCode::kType, absl::StrCat("expected Str or Char, found ", KindName(cx.m, v)));
}

// An array of strings, charged.
CallStatus StrArray(Ctx& cx, std::vector<std::string> pieces, Value& out) {
  auto* a = new ArrayObj(Tag::kArray);
  Value v = Value::Heap(a);
  a->est = cost::kHeader;
  for (const std::string& p : pieces) a->est += cost::StrBytes(p.size());
  if (!cx.Charge(a->est)) return Fail();
  a->items.reserve(pieces.size());
  for (std::string& p : pieces) a->items.push_back(MakeStr(std::move(p)));
  out = std::move(v);
  return Ok();
}

}  // namespace

CallStatus StrMethodLib(Ctx& cx, Value& recv, ir::MethodName id, std::vector<Value>& args,
                        Value& out, int64_t* delta) {
  const std::string& s = static_cast<StrObj*>(recv.h())->s;
  const uint64_t n = s.size();
  const char* name = ir::MethodNameText(id);
  // Edits: made unique first (a shared string is copied), the estimate and
  // the ASCII flag kept true.
  auto edit = [&](auto&& change) {
    auto* o = static_cast<StrObj*>(MakeUnique(recv));
    const int64_t before = static_cast<int64_t>(o->s.size());
    change(o->s);
    o->ascii = -1;
    *delta = static_cast<int64_t>(o->s.size()) - before;
    o->est = static_cast<uint64_t>(static_cast<int64_t>(o->est) + *delta);
  };
  switch (id) {
    case N::kPush: {
      if (!args[0].Is(Tag::kChar))
        return Trapped(cx, TrapCode::kType,
                       absl::StrCat("push needs a Char (push_str takes a Str), found ",
                                    KindName(cx.m, args[0])));
      std::string add;
      ir::AppendUtf8(add, static_cast<uint32_t>(args[0].i()));
      if (!cx.Charge(add.size())) return Fail();
      edit([&](std::string& t) { t += add; });
      out = Value::Unit();
      return Ok();
    }
    case N::kPop: {
      if (n == 0) return SomeOrNone(cx, nullptr, out);
      // The last char: back over at most 3 continuation bytes; an ill-formed
      // tail is one byte, U+FFFD.
      size_t at = n - 1;
      while (at > 0 && n - at < 4 && !ir::StartsScalar(s[at])) --at;
      ir::Utf8Decoded d = ir::DecodeUtf8(s, at);
      uint32_t c = d.scalar;
      if (!d.ok() || at + d.length != n) {
        at = n - 1;
        d = ir::DecodeUtf8(s, at);
        c = d.ok() ? d.scalar : ir::kReplacementChar;
      }
      Value cv = Value::Char(c);
      edit([&](std::string& t) { t.resize(at); });
      return SomeOrNone(cx, &cv, out);
    }
    case N::kClear:
      edit([&](std::string& t) { t.clear(); });
      out = Value::Unit();
      return Ok();
    case N::kTruncate: {
      int64_t k;
      if (!NeedInt(cx, args[0], &k)) return Fail();
      if (k < 0)
        return Trapped(cx, TrapCode::kIndex, absl::StrCat("truncate length ", k, " is negative"));
      if (static_cast<uint64_t>(k) < n) {
        size_t at;
        if (!NeedBoundary(cx, args[0], s, "truncate", false, &at)) return Fail();
        edit([&](std::string& t) { t.resize(at); });
      }
      out = Value::Unit();
      return Ok();
    }
    case N::kIsCharBoundary: {
      int64_t k;
      if (!NeedInt(cx, args[0], &k)) return Fail();
      out = Value::Bool(IsBoundary(s, k));
      return Ok();
    }
    case N::kInsert:
    case N::kInsertStr: {
      size_t at;
      if (!NeedBoundary(cx, args[0], s, name, false, &at)) return Fail();
      std::string add;
      if (id == N::kInsert) {
        if (!args[1].Is(Tag::kChar))
          return Trapped(cx, TrapCode::kType,
                         absl::StrCat("insert needs a Char (insert_str takes a Str), found ",
                                      KindName(cx.m, args[1])));
        ir::AppendUtf8(add, static_cast<uint32_t>(args[1].i()));
      } else {
        if (!args[1].Is(Tag::kStr))
          return Trapped(cx, TrapCode::kType,
                         absl::StrCat("insert_str needs a Str, found ", KindName(cx.m, args[1])));
        add = static_cast<StrObj*>(args[1].h())->s;  // a copy: it may be the receiver
      }
      if (!cx.Work(n - at + add.size())) return Fail();  // the shift and the copy
      MTY_WORK(n - at + add.size());
      if (!cx.Charge(add.size())) return Fail();
      edit([&](std::string& t) { t.insert(at, add); });
      out = Value::Unit();
      return Ok();
    }
    case N::kRemove: {
      size_t at;
      if (!NeedBoundary(cx, args[0], s, "remove", true, &at)) return Fail();
      if (!cx.Work(n - at)) return Fail();  // the shift
      MTY_WORK(n - at);
      size_t next = at;
      const uint32_t c = ir::NextScalar(s, &next);
      edit([&](std::string& t) { t.erase(at, next - at); });
      out = Value::Char(c);
      return Ok();
    }
    case N::kSplitWhitespace: {
      // Unicode White_Space separates; empty pieces are dropped.
      if (!cx.Work(3 * n)) return Fail();  // the scan, the copies, the pieces
      MTY_WORK(3 * n);
      std::vector<std::string> pieces;
      size_t start = 0, i = 0;
      bool in_word = false;
      while (i < n) {
        const size_t at = i;
        const uint32_t c = ir::NextScalar(s, &i);
        const bool ws =
            c < 0x80 ? (c == ' ' || (c >= 0x09 && c <= 0x0D)) : unicode::IsWhitespace(c);
        if (ws && in_word) pieces.push_back(s.substr(start, at - start));
        if (!ws && !in_word) start = at;
        in_word = !ws;
      }
      if (in_word) pieces.push_back(s.substr(start));
      return StrArray(cx, std::move(pieces), out);
    }
    case N::kCharIndices: {
      if (!cx.Work(3 * n)) return Fail();
      MTY_WORK(3 * n);
      auto* a = new ArrayObj(Tag::kArray);
      Value v = Value::Heap(a);
      a->est = cost::kHeader;
      for (size_t i = 0; i < n;) {
        Value k = Value::Int(static_cast<int64_t>(i));
        Value c = Value::Char(ir::NextScalar(s, &i));
        auto* t = new ArrayObj(Tag::kTuple);
        Value tv = Value::Heap(t);
        t->est = cost::kHeader + Estimate(k) + Estimate(c);
        t->items = {std::move(k), std::move(c)};
        a->est += t->est;
        a->items.push_back(std::move(tv));
      }
      if (!cx.Charge(a->est)) return Fail();
      out = std::move(v);
      return Ok();
    }
    case N::kStripPrefix:
    case N::kStripSuffix: {
      std::string buf;
      const std::string* p;
      if (!NeedPattern(cx, args[0], &buf, &p)) return Fail();
      if (!cx.Work(p->size())) return Fail();
      MTY_WORK(p->size());
      const bool hit = id == N::kStripPrefix ? s.starts_with(*p) : s.ends_with(*p);
      if (!hit) return SomeOrNone(cx, nullptr, out);
      if (!cx.Work(n - p->size())) return Fail();
      MTY_WORK(n - p->size());
      std::string rest = id == N::kStripPrefix ? s.substr(p->size()) : s.substr(0, n - p->size());
      if (!cx.Charge(cost::StrBytes(rest.size()))) return Fail();
      Value rv = MakeStr(std::move(rest));
      return SomeOrNone(cx, &rv, out);
    }
    case N::kSplitn:
    case N::kRsplit:
    case N::kSplitOnce: {
      int64_t limit = -1;  // pieces at most (-1: no limit)
      size_t pat = 0;
      if (id == N::kSplitn) {
        if (!NeedInt(cx, args[0], &limit)) return Fail();
        if (limit < 0)
          return Trapped(cx, TrapCode::kIndex,
                         absl::StrCat("splitn count ", limit, " is negative"));
        pat = 1;
      } else if (id == N::kSplitOnce) {
        limit = 2;
      }
      std::string buf;
      const std::string* p;
      if (!NeedPattern(cx, args[pat], &buf, &p)) return Fail();
      // The scan and the copies, as split charges them.
      const uint64_t pieces = p->empty() ? n + 2 : n / p->size() + 1;
      if (!cx.Work(cost::Search(n, p->size()) + n + pieces)) return Fail();
      MTY_WORK(n + pieces);
      std::vector<std::string> parts;
      if (limit == 0) return StrArray(cx, {}, out);
      if (p->empty()) {
        // As Rust: "" first, each char, "" last (splitn: the rest joins the last).
        parts.push_back("");
        size_t i = 0;
        while (i < n && (limit < 0 || static_cast<int64_t>(parts.size()) < limit - 1)) {
          const size_t at = i;
          i += ir::ScalarLength(s, i);
          parts.push_back(s.substr(at, i - at));
        }
        if (limit < 0 || static_cast<int64_t>(parts.size()) < limit)
          parts.push_back(s.substr(i));
        else if (i < n)
          parts.back() += s.substr(i);
      } else {
        Searcher searcher(*p);
        size_t pos = 0;
        while (limit < 0 || static_cast<int64_t>(parts.size()) < limit - 1) {
          const size_t at = searcher.Find(s, pos);
          if (at == std::string::npos) break;
          parts.push_back(s.substr(pos, at - pos));
          pos = at + p->size();
        }
        parts.push_back(s.substr(pos));
      }
      if (id == N::kSplitOnce) {
        if (parts.size() < 2) return SomeOrNone(cx, nullptr, out);
        auto* t = new ArrayObj(Tag::kTuple);
        Value tv = Value::Heap(t);
        t->est = cost::kHeader + cost::StrBytes(parts[0].size()) + cost::StrBytes(parts[1].size());
        if (!cx.Charge(t->est)) return Fail();
        t->items = {MakeStr(std::move(parts[0])), MakeStr(std::move(parts[1]))};
        return SomeOrNone(cx, &tv, out);
      }
      if (id == N::kRsplit) std::reverse(parts.begin(), parts.end());
      return StrArray(cx, std::move(parts), out);
    }
    case N::kInsertAt:
    case N::kRemoveRange:
    case N::kReplaceRange: {
      // Upstream's editing methods: a new string with bytes [a, b) replaced
      // by the text (insert_at: a == b); both on char boundaries, a <= b.
      size_t a, b;
      if (!NeedBoundary(cx, args[0], s, name, false, &a)) return Fail();
      b = a;
      if (id != N::kInsertAt) {
        if (!NeedBoundary(cx, args[1], s, name, false, &b)) return Fail();
        if (b < a)
          return Trapped(cx, TrapCode::kIndex,
                         absl::StrCat(name, " range ", a, "..", b, " is decreasing"));
      }
      std::string buf;
      const std::string* add = &buf;
      if (id != N::kRemoveRange && !NeedPattern(cx, args[id == N::kInsertAt ? 1 : 2], &buf, &add))
        return Fail();
      const uint64_t len = n - (b - a) + add->size();
      if (!cx.Work(n + add->size())) return Fail();  // the copies
      MTY_WORK(n + add->size());
      if (!cx.Charge(cost::StrBytes(len))) return Fail();
      std::string t;
      t.reserve(len);
      t.append(s, 0, a);
      t += *add;
      t.append(s, b, std::string::npos);
      out = MakeStr(std::move(t));
      return Ok();
    }
    default: return CallStatus::kUnknown;
  }
}

}  // namespace mty::interp
