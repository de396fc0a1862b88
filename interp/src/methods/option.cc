// The methods of Option and Result that call no closure (the ones that do
// are written in Mighty in the prelude). Where the rule is the same for
// both (is_some/is_ok, unwrap, expect, unwrap_or, or) one handler serves
// the two rows.
#include "methods.h"

namespace mty::interp::methods {

namespace {

AdtObj* Obj(MethodCall& c) { return static_cast<AdtObj*>(c.recv.h()); }
bool IsOption(MethodCall& c) { return Obj(c)->adt == kAdtOption; }
// Some or Ok.
bool Good(MethodCall& c) { return Obj(c)->variant == 0; }
const Value& Inner(MethodCall& c) { return Obj(c)->fields[0]; }

// The argument or value `v` as an Option (kAdtOption) or a Result, else a
// trap naming the method.
bool NeedAdt(MethodCall& c, const Value& v, uint32_t adt, const AdtObj** p) {
  *p = AdtOf(v, adt);
  if (*p) return true;
  return c.cx.Trap(TrapCode::kType,
                   absl::StrCat(c.name(), " needs an ", adt == kAdtOption ? "Option" : "Result",
                                ", found ", KindName(c.cx.m, v)));
}

}  // namespace

// is_some, is_ok.
CallStatus OptionIsSome(MethodCall& c) { return c.Bool(Good(c)); }

// is_none, is_err.
CallStatus OptionIsNone(MethodCall& c) { return c.Bool(!Good(c)); }

// unwrap and expect(msg), of an Option or a Result.
CallStatus OptionUnwrap(MethodCall& c) {
  if (Good(c)) return c.Return(Inner(c));
  std::string msg;
  if (c.id() == N::kExpect)
    msg = Display(c.cx.m, c.args[0]);
  else if (IsOption(c))
    msg = "called unwrap on None";
  else
    msg = absl::StrCat("called unwrap on Err(", Debug(c.cx.m, Inner(c)), ")");
  return c.Trap(TrapCode::kPanic, msg);
}

// unwrap_or(default), of an Option or a Result.
CallStatus OptionUnwrapOr(MethodCall& c) { return c.Return(Good(c) ? Inner(c) : c.args[0]); }

// or(other): the receiver when Some/Ok, else the other (of the same kind).
CallStatus OptionOr(MethodCall& c) {
  if (Good(c)) return c.Return(c.recv);
  const AdtObj* other;
  if (!NeedAdt(c, c.args[0], IsOption(c) ? kAdtOption : kAdtResult, &other)) return Fail();
  return c.Return(c.args[0]);
}

// ok_or(err): Ok(the value), or Err(err).
CallStatus OptionOkOr(MethodCall& c) {
  return c.NewResult(Good(c), Good(c) ? Inner(c) : c.args[0]);
}

// xor(other): the one that is Some when exactly one is, else None.
CallStatus OptionXor(MethodCall& c) {
  const AdtObj* other;
  if (!NeedAdt(c, c.args[0], kAdtOption, &other)) return Fail();
  if (Good(c) != (other->variant == 0)) return c.Return(Good(c) ? c.recv : c.args[0]);
  return c.Opt(nullptr);
}

// zip(other): Some((a, b)) when both are Some.
CallStatus OptionZip(MethodCall& c) {
  const AdtObj* other;
  if (!NeedAdt(c, c.args[0], kAdtOption, &other)) return Fail();
  if (!Good(c) || other->variant != 0) return c.Opt(nullptr);
  Value tv = Pair(Inner(c), other->fields[0]);
  if (!c.Charge(tv.h()->est)) return Fail();
  return c.Opt(&tv);
}

// take(): the receiver becomes None; its old value is the result.
CallStatus OptionTake(MethodCall& c) {
  uint64_t est;
  Value none = MakeOption(nullptr, &est);
  if (!c.Charge(est)) return Fail();
  const uint64_t old = Estimate(c.recv);
  c.out = std::move(c.recv);
  c.recv = std::move(none);
  *c.delta = static_cast<int64_t>(est) - static_cast<int64_t>(old);
  return Ok();
}

// None -> Ok(None); Some(Ok(x)) -> Ok(Some(x)); Some(Err(e)) -> Err(e).
CallStatus OptionTranspose(MethodCall& c) {
  uint64_t est;
  if (!Good(c)) {
    Value none = MakeOption(nullptr, &est);
    if (!c.Charge(est)) return Fail();
    return c.NewResult(true, none);
  }
  const AdtObj* inner;
  if (!NeedAdt(c, Inner(c), kAdtResult, &inner)) return Fail();
  if (inner->variant != 0) return c.NewResult(false, inner->fields[0]);
  Value some = MakeOption(&inner->fields[0], &est);
  if (!c.Charge(est)) return Fail();
  return c.NewResult(true, some);
}

// ok(): Some(the Ok value), or None.
CallStatus ResultOk(MethodCall& c) { return c.Opt(Good(c) ? &Inner(c) : nullptr); }

// err(): Some(the Err value), or None.
CallStatus ResultErr(MethodCall& c) { return c.Opt(Good(c) ? nullptr : &Inner(c)); }

// unwrap_err and expect_err(msg): the Err's value; an Ok panics as Rust's.
CallStatus ResultUnwrapErr(MethodCall& c) {
  if (!Good(c)) return c.Return(Inner(c));
  const std::string ok = Debug(c.cx.m, Inner(c));
  return c.Trap(TrapCode::kPanic,
                c.id() == N::kExpectErr
                    ? absl::StrCat(Display(c.cx.m, c.args[0]), ": ", ok)
                    : absl::StrCat("called `Result::unwrap_err()` on an `Ok` value: ", ok));
}

// Ok(None) -> None; Ok(Some(x)) -> Some(Ok(x)); Err(e) -> Some(Err(e)).
CallStatus ResultTranspose(MethodCall& c) {
  Value r;
  if (Good(c)) {
    const AdtObj* inner;
    if (!NeedAdt(c, Inner(c), kAdtOption, &inner)) return Fail();
    if (inner->variant != 0) return c.Opt(nullptr);
    if (NewResult(c.cx, true, inner->fields[0], r) != Ok()) return Fail();
  } else {
    r = c.recv;
  }
  return c.Opt(&r);
}

}  // namespace mty::interp::methods
