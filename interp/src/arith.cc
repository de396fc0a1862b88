// Arithmetic and comparisons on non-Int operands (the loop handles Int op
// Int inline), unary operators and casts.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "builtins.h"
#include "cost.h"
#include "mty/interp/work.h"

namespace mty::interp {

namespace {

// The operator's text (kinds.def: an operator's name is its instruction's).
const char* OpSymbol(Op op) {
  switch (op) {
    // clang-format off
#define MTY_IR_BINOP(name, text) case Op::name: return text;
#include "mty/ir/kinds.def"
    // clang-format on
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

// The operand as a U64 for arithmetic with a U64: a signed Int must be
// non-negative (language.md §4: mixing a U64 with a negative I64 traps).
bool AsUnsigned(Ctx& cx, Op op, const Value& v, uint64_t* r) {
  if (!v.IsUInt() && v.i() < 0)
    return cx.Trap(TrapCode::kType,
                   absl::StrCat("cannot apply '", OpSymbol(op), "' to a U64 and a negative I64 (",
                                v.i(), "); cast one side with `as`"));
  *r = v.u();
  return true;
}

// Int op Int where at least one side is a U64 (the loop's fast path takes
// signed Int op signed Int): checked unsigned arithmetic, MT5004 outside
// 0..2^64-1. Shifts keep the left side's signedness (>> on a U64 is logical).
bool UIntArith(Ctx& cx, Op op, const Value& a, const Value& b, Value& out) {
  if (op == Op::Shl || op == Op::Shr) {
    const int64_t y = b.IsUInt() && b.u() > 63 ? 64 : b.i();
    if (y < 0 || y > 63)
      return cx.Trap(TrapCode::kOverflow,
                     absl::StrCat("shift by ", b.IsUInt() ? absl::StrCat(b.u()) : absl::StrCat(y),
                                  " is out of range 0..63"));
    if (!a.IsUInt()) {
      out = Value::Int(op == Op::Shl ? static_cast<int64_t>(a.u() << y) : a.i() >> y);
      return true;
    }
    out = Value::UInt(op == Op::Shl ? a.u() << y : a.u() >> y);
    return true;
  }
  uint64_t x, y, r;
  if (!AsUnsigned(cx, op, a, &x) || !AsUnsigned(cx, op, b, &y)) return false;
  auto overflow = [&] {
    return cx.Trap(TrapCode::kOverflow,
                   absl::StrCat("integer overflow in '", OpSymbol(op), "' (U64: 0..2^64-1)"));
  };
  switch (op) {
    case Op::Add:
      if (__builtin_add_overflow(x, y, &r)) return overflow();
      break;
    case Op::Sub:
      if (__builtin_sub_overflow(x, y, &r)) return overflow();
      break;
    case Op::Mul:
      if (__builtin_mul_overflow(x, y, &r)) return overflow();
      break;
    case Op::Div:
    case Op::Rem:
      if (y == 0)
        return cx.Trap(TrapCode::kDivByZero,
                       op == Op::Div ? "division by zero" : "remainder by zero");
      r = op == Op::Div ? x / y : x % y;
      break;
    case Op::BitAnd: r = x & y; break;
    case Op::BitOr: r = x | y; break;
    case Op::BitXor: r = x ^ y; break;
    default: return TypeError(cx, op, a, b);
  }
  out = Value::UInt(r);
  return true;
}

}  // namespace

bool Arith(Ctx& cx, Op op, const Value& a, const Value& b, Value& out) {
  const bool compare =
      op == Op::Eq || op == Op::Ne || op == Op::Lt || op == Op::Le || op == Op::Gt || op == Op::Ge;
  if (compare && !cx.Work(cost::Compare(a, b))) return false;  // deep values
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
    if (a.IsUInt() || b.IsUInt()) return UIntArith(cx, op, a, b, out);
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
    if (!cx.Work(x.size() + y.size())) return false;
    MTY_WORK(x.size() + y.size());
    if (!cx.Charge(cost::StrBytes(x.size()) + y.size())) return false;
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
        if (a.IsUInt()) {  // -0 is 0; any other U64 has no negation
          if (a.u() != 0)
            return cx.Trap(TrapCode::kOverflow, "integer overflow in unary '-' (U64)");
          out = a;
          return true;
        }
        [[fallthrough]];
      case Tag::kDuration:
        if (a.i() == std::numeric_limits<int64_t>::min())
          return cx.Trap(TrapCode::kOverflow, "integer overflow in unary '-'");
        if (a.Is(Tag::kInt))
          out = Value::Int(-a.i());
        else
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
    out = a.IsUInt() ? Value::UInt(~a.u()) : Value::Int(~a.i());
    return true;
  }
  return cx.Trap(TrapCode::kType, absl::StrCat("cannot apply '!' to ", KindName(cx.m, a)));
}

bool DoInto(Ctx& cx, const Value& v, bool to_unsigned, Value& out) {
  const char* want = to_unsigned ? "U64" : "a signed integer";
  if (!v.Is(Tag::kInt))
    return cx.Trap(TrapCode::kType, absl::StrCat("expected ", want, ", found ", KindName(cx.m, v)));
  if (to_unsigned ? (!v.IsUInt() && v.i() < 0) : (v.IsUInt() && v.i() < 0))
    return cx.Trap(TrapCode::kOverflow,
                   absl::StrCat(v.IsUInt() ? absl::StrCat(v.u()) : absl::StrCat(v.i()),
                                " does not fit in ", want, ", the type declared here",
                                to_unsigned ? " (`as U64` wraps)" : " (`as I64` wraps)"));
  out = to_unsigned ? Value::UInt(v.u()) : Value::Int(v.i());
  return true;
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
      if (k == CastKind::kU64) {  // wraps to 64 unsigned bits; a float saturates
        uint64_t u = static_cast<uint64_t>(x);
        if (v.Is(Tag::kFloat)) {
          const double d = v.f();
          u = std::isnan(d) || d <= 0       ? 0
              : d >= 18446744073709551615.0 ? UINT64_MAX
                                            : static_cast<uint64_t>(d);
        }
        out = Value::UInt(u);
        return true;
      }
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
      out = Value::Float(v.IsUInt() ? static_cast<double>(v.u()) : static_cast<double>(x));
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
      std::string s;
      if (!Render::To(cx, v, false, &s)) return false;
      if (!cx.Charge(cost::StrBytes(s.size()))) return false;
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

}  // namespace mty::interp
