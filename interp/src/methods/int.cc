// The methods of integers: an I64 receiver, and a U64 or USize one (an Int
// value marked unsigned), whose results are U64 over 0..2^64-1. Each method
// is written once, for T = int64_t and T = uint64_t (Ints below); wrapping_*
// wrap, checked_* give None, saturating_* stop at the type's bounds, the
// others trap on overflow. Pow-like ones: exponentiation by squaring, at
// most 64 steps, charged as constant.
#include <algorithm>
#include <bit>
#include <limits>
#include <type_traits>

#include "methods.h"

namespace mty::interp::methods {

namespace {

// Ints::Read reads at most 2 arguments: the row's, and for the bit methods
// the width the front end adds (BitWidth).

// An integer method's operands: the receiver as T, and the arguments its
// METHOD row takes, each read by the receiver's rule: an I64's arguments are
// Ints (MT5016 else); a U64's are integers >= 0 (MT5016 else, naming the
// method).
template <typename T>
struct Ints {
  static constexpr bool kSigned = std::is_signed_v<T>;
  static constexpr T kMin = std::numeric_limits<T>::min();
  static constexpr T kMax = std::numeric_limits<T>::max();

  MethodCall& c;
  T x;
  T arg[2] = {};

  T y() const { return arg[0]; }
  static bool Negative(T v) {
    if constexpr (kSigned) return v < 0;
    return false;
  }
  // The bound an overflowing result stops at: its sign is the exact
  // result's.
  static T Bound(bool negative) { return negative ? kMin : kMax; }
  static Value Make(T v) {
    if constexpr (kSigned) return Value::Int(v);
    return Value::UInt(v);
  }

  bool Read() {
    for (size_t i = 0; i < c.args.size() && i < 2; ++i)
      if (!ReadArg(c.args[i], &arg[i])) return false;
    return true;
  }
  bool ReadArg(const Value& v, T* r) {
    if constexpr (kSigned) {
      return NeedInt(c.cx, v, r);
    } else {
      if (!v.Is(Tag::kInt))
        return c.cx.Trap(TrapCode::kType, absl::StrCat(c.name(), " expects an integer, found ",
                                                       KindName(c.cx.m, v)));
      if (!v.IsUInt() && v.i() < 0)
        return c.cx.Trap(
            TrapCode::kType,
            absl::StrCat(c.name(), " on a U64 needs a non-negative argument, found ", v.i()));
      *r = v.u();
      return true;
    }
  }
  // The exponent or count of an I64's pow-like and rotate methods: >= 0,
  // else MT5016 (a U64's cannot be negative).
  bool NonNegative(const char* what) {
    if (!Negative(y())) return true;
    return c.cx.Trap(TrapCode::kType, absl::StrCat(c.name(), " needs a non-negative ", what));
  }

  CallStatus Num(T v) { return c.Return(Make(v)); }
  // A result computed on the 64 bits (wrapping).
  CallStatus Bits(uint64_t v) { return Num(static_cast<T>(v)); }
  CallStatus Opt(bool ok, T v) {
    Value r = Make(v);
    return c.Opt(ok ? &r : nullptr);
  }
  CallStatus Overflow() {
    return c.Trap(TrapCode::kOverflow, absl::StrCat("integer overflow in ", c.name(),
                                                    kSigned ? "" : " (U64: 0..2^64-1)"));
  }
};

// Runs f on the call's operands, as I64 or U64 by the receiver.
template <typename F>
CallStatus WithInts(MethodCall& c, F f) {
  if (c.recv.IsUInt()) {
    Ints<uint64_t> k{c, c.recv.u()};
    return k.Read() ? f(k) : Fail();
  }
  Ints<int64_t> k{c, c.recv.i()};
  return k.Read() ? f(k) : Fail();
}

uint64_t U(int64_t v) { return static_cast<uint64_t>(v); }
uint64_t U(uint64_t v) { return v; }

// Exponentiation by squaring: false on overflow.
template <typename T>
bool CheckedPow(T base, T e, T* r) {
  bool over = false;
  *r = 1;
  for (; e > 0; e >>= 1) {
    if (e & 1) over |= __builtin_mul_overflow(*r, base, r);
    if (e > 1) over |= __builtin_mul_overflow(base, base, &base);
  }
  return !over;
}

uint64_t WrappingPow(uint64_t base, uint64_t e) {
  uint64_t r = 1;
  for (; e > 0; e >>= 1) {
    if (e & 1) r *= base;
    base *= base;
  }
  return r;
}

}  // namespace

CallStatus IntAbs(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    if (!k.Negative(k.x)) return k.Num(k.x);
    return k.x == k.kMin ? k.Overflow() : k.Num(-k.x);
  });
}

// min(y), max(y).
CallStatus IntMinMax(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    return k.Num(k.c.id() == N::kMin ? std::min(k.x, k.y()) : std::max(k.x, k.y()));
  });
}

CallStatus IntPow(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    if (!k.NonNegative("exponent")) return Fail();
    decltype(k.x) r;
    return CheckedPow(k.x, k.y(), &r) ? k.Num(r) : k.Overflow();
  });
}

CallStatus IntClamp(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    const auto lo = k.arg[0], hi = k.arg[1];
    if (lo > hi)
      return k.c.Trap(TrapCode::kPanic,
                      absl::StrCat("clamp: min ", lo, " is greater than max ", hi));
    return k.Num(std::clamp(k.x, lo, hi));
  });
}

CallStatus IntWrappingAdd(MethodCall& c) {
  return WithInts(c, [](auto& k) { return k.Bits(U(k.x) + U(k.y())); });
}

CallStatus IntWrappingSub(MethodCall& c) {
  return WithInts(c, [](auto& k) { return k.Bits(U(k.x) - U(k.y())); });
}

CallStatus IntWrappingMul(MethodCall& c) {
  return WithInts(c, [](auto& k) { return k.Bits(U(k.x) * U(k.y())); });
}

CallStatus IntWrappingPow(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    if (!k.NonNegative("exponent")) return Fail();
    return k.Bits(WrappingPow(U(k.x), U(k.y())));
  });
}

CallStatus IntWrappingNeg(MethodCall& c) {
  return WithInts(c, [](auto& k) { return k.Bits(uint64_t{0} - U(k.x)); });
}

// checked_add(y), checked_sub(y), checked_mul(y): None on overflow.
CallStatus IntCheckedArith(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    decltype(k.x) r;
    const ir::MethodName id = k.c.id();
    const bool over = id == N::kCheckedAdd   ? __builtin_add_overflow(k.x, k.y(), &r)
                      : id == N::kCheckedSub ? __builtin_sub_overflow(k.x, k.y(), &r)
                                             : __builtin_mul_overflow(k.x, k.y(), &r);
    return k.Opt(!over, r);
  });
}

// checked_div(y), checked_rem(y): None for 0 and for I64.MIN by -1.
CallStatus IntCheckedDivRem(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    using T = decltype(k.x);
    const T y = k.y();
    const bool ok = y != 0 && !(k.kSigned && k.x == k.kMin && y == static_cast<T>(-1));
    return k.Opt(ok, !ok ? 0 : k.c.id() == N::kCheckedDiv ? k.x / y : k.x % y);
  });
}

CallStatus IntCheckedPow(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    if (!k.NonNegative("exponent")) return Fail();
    decltype(k.x) r;
    const bool ok = CheckedPow(k.x, k.y(), &r);
    return k.Opt(ok, r);
  });
}

CallStatus IntCheckedNeg(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    decltype(k.x) r;
    const bool ok = !__builtin_sub_overflow(decltype(k.x){0}, k.x, &r);
    return k.Opt(ok, r);
  });
}

CallStatus IntSaturatingAdd(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    decltype(k.x) r;
    return k.Num(__builtin_add_overflow(k.x, k.y(), &r) ? k.Bound(k.Negative(k.y())) : r);
  });
}

CallStatus IntSaturatingSub(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    decltype(k.x) r;
    return k.Num(__builtin_sub_overflow(k.x, k.y(), &r) ? k.Bound(k.y() > 0) : r);
  });
}

CallStatus IntSaturatingMul(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    decltype(k.x) r;
    const bool negative = k.Negative(k.x) != k.Negative(k.y());
    return k.Num(__builtin_mul_overflow(k.x, k.y(), &r) ? k.Bound(negative) : r);
  });
}

CallStatus IntSaturatingPow(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    if (!k.NonNegative("exponent")) return Fail();
    decltype(k.x) r;
    const bool negative = k.Negative(k.x) && (k.y() & 1);
    return k.Num(CheckedPow(k.x, k.y(), &r) ? r : k.Bound(negative));
  });
}

// rem_euclid(y), div_euclid(y): the remainder is never negative.
CallStatus IntEuclid(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    using T = decltype(k.x);
    const T x = k.x, y = k.y();
    if (y == 0)
      return k.c.Trap(TrapCode::kDivByZero, absl::StrCat("division by zero in ", k.c.name()));
    if (k.kSigned && x == k.kMin && y == static_cast<T>(-1)) return k.Overflow();
    T q = x / y, m = x % y;
    if (k.Negative(m)) {
      m = y > 0 ? m + y : m - y;
      q = y > 0 ? q - 1 : q + 1;
    }
    return k.Num(k.c.id() == N::kRemEuclid ? m : q);
  });
}

CallStatus IntAbsDiff(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    const uint64_t d = k.x > k.y() ? U(k.x) - U(k.y()) : U(k.y()) - U(k.x);
    if (d > U(k.kMax)) return k.Overflow();
    return k.Bits(d);
  });
}

namespace {

// The bit methods' view of a receiver: its low `w` bits (the static type's
// width, the last argument beyond the row's own when the front end gives
// one; negative for a signed type), and back.
struct BitWidth {
  int w = 64;
  bool is_signed = false;
  uint64_t mask() const { return w == 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }
  // A w-bit result as the receiver's type: sign-extended for a signed one.
  uint64_t Extend(uint64_t r) const {
    r &= mask();
    if (is_signed && w < 64 && (r >> (w - 1) & 1)) r |= ~mask();
    return r;
  }
};

template <typename K>
BitWidth WidthOf(K& k) {
  BitWidth b;
  if (k.c.args.size() > static_cast<size_t>(k.c.row.min) && !k.kSigned) return b;
  if (k.c.args.size() > static_cast<size_t>(k.c.row.min)) {
    const int64_t w = static_cast<int64_t>(k.arg[k.c.args.size() - 1]);
    const int64_t a = w < 0 ? -w : w;
    if (a == 8 || a == 16 || a == 32) {
      b.w = static_cast<int>(a);
      b.is_signed = w < 0;
    }
  }
  return b;
}

}  // namespace

// rotate_left(k), rotate_right(k): by k % width bits.
CallStatus IntRotate(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    if (!k.NonNegative("count")) return Fail();
    const BitWidth b = WidthOf(k);
    const uint64_t x = U(k.x) & b.mask();
    int by = static_cast<int>(U(k.y()) % static_cast<uint64_t>(b.w));
    if (k.c.id() == N::kRotateRight) by = (b.w - by) % b.w;
    const uint64_t r = by == 0 ? x : (x << by | x >> (b.w - by));
    return k.Bits(b.Extend(r));
  });
}

CallStatus IntCountOnes(MethodCall& c) {
  return WithInts(c, [](auto& k) { return k.c.Int(std::popcount(U(k.x) & WidthOf(k).mask())); });
}

CallStatus IntCountZeros(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    const BitWidth b = WidthOf(k);
    return k.c.Int(b.w - std::popcount(U(k.x) & b.mask()));
  });
}

CallStatus IntLeadingZeros(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    const BitWidth b = WidthOf(k);
    return k.c.Int(std::countl_zero(U(k.x) & b.mask()) - (64 - b.w));
  });
}

CallStatus IntTrailingZeros(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    const BitWidth b = WidthOf(k);
    return k.c.Int(std::min(std::countr_zero(U(k.x) & b.mask()), b.w));
  });
}

// reverse_bits(), swap_bytes(): of the low `width` bits.
CallStatus IntBitsWidth(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    const BitWidth b = WidthOf(k);
    uint64_t x = U(k.x), r = 0;
    if (k.c.id() == N::kSwapBytes) {
      r = __builtin_bswap64(x) >> (64 - b.w);
    } else {
      for (int i = 0; i < 64; ++i) r |= (x >> i & 1) << (63 - i);
      r >>= 64 - b.w;
    }
    return k.Bits(b.Extend(r));
  });
}

CallStatus IntIsPowerOfTwo(MethodCall& c) {
  return WithInts(c, [](auto& k) { return k.c.Bool(k.x > 0 && std::has_single_bit(U(k.x))); });
}

// The smallest power of two >= x (1 for 0); past the type's bounds MT5004
// (Rust's debug-build panic).
CallStatus IntNextPowerOfTwo(MethodCall& c) {
  return WithInts(c, [](auto& k) {
    if (k.x <= 1) return k.Num(1);
    if (U(k.x) > uint64_t{1} << 63) return k.Overflow();
    const uint64_t r = std::bit_ceil(U(k.x));
    if (r == 0 || r > U(k.kMax)) return k.Overflow();
    return k.Num(static_cast<decltype(k.x)>(r));
  });
}

CallStatus IntSignum(MethodCall& c) {
  return WithInts(c, [](auto& k) { return k.Num(k.x > 0 ? 1 : k.Negative(k.x) ? -1 : 0); });
}

CallStatus IntIsPositive(MethodCall& c) {
  return WithInts(c, [](auto& k) { return k.c.Bool(k.x > 0); });
}

CallStatus IntIsNegative(MethodCall& c) {
  return WithInts(c, [](auto& k) { return k.c.Bool(k.Negative(k.x)); });
}

}  // namespace mty::interp::methods
