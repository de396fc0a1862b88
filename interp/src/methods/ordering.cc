// Comparing values as Rust's Ord and PartialOrd (cmp, partial_cmp,
// total_cmp, eq, ne) and the methods of the prelude's Ordering (reverse,
// then, is_lt, ...): the order is CompareValues', the one order of `<`,
// `sort` and `max`.
#include <cmath>
#include <cstring>

#include "methods.h"

namespace mty::interp::methods {

namespace {

namespace p = ir::prelude;

// The Ordering of a CompareValues result (-1, 0 or 1).
Value OrderingValue(int order) {
  return MakeAdt(p::kOrdering, order < 0 ? p::kLess : order > 0 ? p::kGreater : p::kEqual, {});
}

// Returns the Ordering of `order`, charged.
CallStatus Ordered(MethodCall& c, int order) {
  if (!c.Charge(cost::kHeader)) return Fail();
  return c.Return(OrderingValue(order));
}

// An Ordering's variant (Less, Equal, Greater), or a trap.
bool NeedOrdering(Ctx& cx, const Value& v, uint32_t* variant) {
  if (v.Is(Tag::kAdt) && static_cast<AdtObj*>(v.h())->adt == p::kOrdering) {
    *variant = static_cast<AdtObj*>(v.h())->variant;
    return true;
  }
  return cx.Trap(TrapCode::kType, absl::StrCat("expected an Ordering, found ", KindName(cx.m, v)));
}

// IEEE 754 totalOrder as Rust's f64::total_cmp: the bits as a signed
// integer, the negative ones' magnitude bits flipped.
int TotalOrder(double a, double b) {
  int64_t x, y;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  x ^= static_cast<int64_t>(static_cast<uint64_t>(x >> 63) >> 1);
  y ^= static_cast<int64_t>(static_cast<uint64_t>(y >> 63) >> 1);
  return x < y ? -1 : x > y ? 1 : 0;
}

}  // namespace

int OrdSign(const Value& v) {
  if (!v.Is(Tag::kAdt) || static_cast<AdtObj*>(v.h())->adt != p::kOrdering) return 2;
  const uint32_t variant = static_cast<AdtObj*>(v.h())->variant;
  return variant == p::kLess ? -1 : variant == p::kEqual ? 0 : 1;
}

// cmp(y): the Ordering of two values of one ordered kind (MT5016 else);
// partial_cmp(y): Some of it, None when they are unordered (a NaN);
// total_cmp(y): floats in IEEE totalOrder.
CallStatus ValueCmp(MethodCall& c) {
  if (!c.Work(cost::Compare(c.recv, c.args[0]))) return Fail();
  if (c.id() == N::kTotalCmp) {
    if (!c.args[0].Is(Tag::kFloat))
      return c.Trap(TrapCode::kType,
                    absl::StrCat("total_cmp needs an F64, found ", KindName(c.cx.m, c.args[0])));
    return Ordered(c, TotalOrder(c.recv.f(), c.args[0].f()));
  }
  const int order = CompareValues(c.recv, c.args[0]);
  // Two floats one of which is NaN are unordered: partial_cmp's None.
  const bool floats = c.recv.Is(Tag::kFloat) && c.args[0].Is(Tag::kFloat);
  if (c.id() == N::kPartialCmp && (order != 2 || floats)) {
    if (order == 2) return c.Opt(nullptr);  // Opt charges the Some
    Value o = OrderingValue(order);
    return c.Opt(&o);
  }
  if (order == 2)
    return c.Trap(TrapCode::kType, absl::StrCat("cannot compare ", KindName(c.cx.m, c.recv),
                                                " with ", KindName(c.cx.m, c.args[0])));
  return Ordered(c, order);
}

// eq(y), ne(y): `==` and `!=` as methods (`a.iter().eq(b.iter())`).
CallStatus ValueEq(MethodCall& c) {
  if (!c.Work(cost::Compare(c.recv, c.args[0]))) return Fail();
  const bool eq = ValuesEqual(c.recv, c.args[0]);
  return c.Bool(c.id() == N::kEq ? eq : !eq);
}

CallStatus OrderingReverse(MethodCall& c) { return Ordered(c, -OrdSign(c.recv)); }

// then(o): self unless it is Equal, else o.
CallStatus OrderingThen(MethodCall& c) {
  uint32_t variant;
  if (!NeedOrdering(c.cx, c.args[0], &variant)) return Fail();
  return c.Return(OrdSign(c.recv) != 0 ? c.recv : c.args[0]);
}

// is_lt, is_le, is_gt, is_ge, is_eq, is_ne.
CallStatus OrderingIs(MethodCall& c) {
  const int s = OrdSign(c.recv);
  switch (c.id()) {
    case N::kIsLt: return c.Bool(s < 0);
    case N::kIsLe: return c.Bool(s <= 0);
    case N::kIsGt: return c.Bool(s > 0);
    case N::kIsGe: return c.Bool(s >= 0);
    case N::kIsEq: return c.Bool(s == 0);
    default: return c.Bool(s != 0);
  }
}

}  // namespace mty::interp::methods
