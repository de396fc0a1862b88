// The methods of F64. Their arguments are numbers: a Float, or an Int taken
// as a Float (MT5016 else).
#include <algorithm>
#include <cmath>

#include "methods.h"

namespace mty::interp::methods {

namespace {

static_assert(FixedArity(ir::Recv::kFloat, 2));

// The receiver and the row's arguments as doubles.
struct Floats {
  MethodCall& c;
  double x;
  double arg[2] = {};
  CallStatus Num(double v) { return c.Return(Value::Float(v)); }
};

bool Number(Ctx& cx, const Value& v, double* d) {
  if (v.Is(Tag::kFloat)) {
    *d = v.f();
  } else if (v.Is(Tag::kInt)) {
    *d = static_cast<double>(v.i());
  } else {
    return cx.Trap(TrapCode::kType, absl::StrCat("expected a number, found ", KindName(cx.m, v)));
  }
  return true;
}

// Runs f on the call's operands.
template <typename F>
CallStatus WithFloats(MethodCall& c, F f) {
  Floats k{c, c.recv.f()};
  for (int i = 0; i < c.row.max; ++i)
    if (!Number(c.cx, c.args[i], &k.arg[i])) return Fail();
  return f(k);
}

}  // namespace

CallStatus FloatAbs(MethodCall& c) {
  return WithFloats(c, [](Floats& k) { return k.Num(std::fabs(k.x)); });
}

CallStatus FloatSqrt(MethodCall& c) {
  return WithFloats(c, [](Floats& k) { return k.Num(std::sqrt(k.x)); });
}

CallStatus FloatFloor(MethodCall& c) {
  return WithFloats(c, [](Floats& k) { return k.Num(std::floor(k.x)); });
}

CallStatus FloatCeil(MethodCall& c) {
  return WithFloats(c, [](Floats& k) { return k.Num(std::ceil(k.x)); });
}

CallStatus FloatRound(MethodCall& c) {
  return WithFloats(c, [](Floats& k) { return k.Num(std::round(k.x)); });
}

CallStatus FloatMin(MethodCall& c) {
  return WithFloats(c, [](Floats& k) { return k.Num(std::fmin(k.x, k.arg[0])); });
}

CallStatus FloatMax(MethodCall& c) {
  return WithFloats(c, [](Floats& k) { return k.Num(std::fmax(k.x, k.arg[0])); });
}

CallStatus FloatPow(MethodCall& c) {
  return WithFloats(c, [](Floats& k) { return k.Num(std::pow(k.x, k.arg[0])); });
}

// 1.0 or -1.0 by the sign bit; NaN stays NaN.
CallStatus FloatSignum(MethodCall& c) {
  return WithFloats(
      c, [](Floats& k) { return k.Num(std::isnan(k.x) ? k.x : std::copysign(1.0, k.x)); });
}

CallStatus FloatClamp(MethodCall& c) {
  return WithFloats(c, [](Floats& k) {
    const double lo = k.arg[0], hi = k.arg[1];
    if (!(lo <= hi))
      return k.c.Trap(TrapCode::kPanic,
                      absl::StrCat("clamp: min ", lo, " is greater than max ", hi, " or NaN"));
    return k.Num(std::isnan(k.x) ? k.x : std::clamp(k.x, lo, hi));
  });
}

// The one-operand functions of the C library (trunc, exp, ln, sin, ...).
CallStatus FloatUnary(MethodCall& c) {
  return WithFloats(c, [](Floats& k) {
    const double x = k.x;
    switch (k.c.id()) {
      case N::kTrunc: return k.Num(std::trunc(x));
      case N::kFract: return k.Num(x - std::trunc(x));
      case N::kExp: return k.Num(std::exp(x));
      case N::kLn: return k.Num(std::log(x));
      case N::kLog10: return k.Num(std::log10(x));
      case N::kLog2: return k.Num(std::log2(x));
      case N::kSin: return k.Num(std::sin(x));
      case N::kCos: return k.Num(std::cos(x));
      case N::kTan: return k.Num(std::tan(x));
      case N::kAsin: return k.Num(std::asin(x));
      case N::kAcos: return k.Num(std::acos(x));
      case N::kAtan: return k.Num(std::atan(x));
      case N::kCbrt: return k.Num(std::cbrt(x));
      case N::kToDegrees: return k.Num(x * (180.0 / 3.14159265358979323846));
      default: return k.Num(x * (3.14159265358979323846 / 180.0));  // to_radians
    }
  });
}

// atan2(y), hypot(y).
CallStatus FloatBinary(MethodCall& c) {
  return WithFloats(c, [](Floats& k) {
    return k.Num(k.c.id() == N::kAtan2 ? std::atan2(k.x, k.arg[0]) : std::hypot(k.x, k.arg[0]));
  });
}

// mul_add(a, b): x * a + b with one rounding.
CallStatus FloatMulAdd(MethodCall& c) {
  return WithFloats(c, [](Floats& k) { return k.Num(std::fma(k.x, k.arg[0], k.arg[1])); });
}

// is_nan, is_finite, is_infinite.
CallStatus FloatIs(MethodCall& c) {
  return WithFloats(c, [](Floats& k) {
    const double x = k.x;
    const ir::MethodName id = k.c.id();
    return k.c.Bool(id == N::kIsNan      ? std::isnan(x)
                    : id == N::kIsFinite ? std::isfinite(x)
                                         : std::isinf(x));
  });
}

}  // namespace mty::interp::methods
