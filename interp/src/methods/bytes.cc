// The methods of an array held as compact bytes (BytesObj). Reading it stays
// compact: len, count, is_empty, get, first, last, iter, collect and slice
// (a slice of bytes is bytes). The other reading methods run on a widened
// copy that lives only for the call: it must fit in what the memory budget
// has left (it is not charged: it is freed before the call returns). A
// method that changes the array widens it for good, which charges the
// difference (WidenCharge) and adds it to the estimates of what contains it.
#include "methods.h"

namespace mty::interp::methods {

namespace {

const std::string& Bytes(MethodCall& c) { return static_cast<BytesObj*>(c.recv.h())->b; }

// len, count: the bytes.
CallStatus BytesLen(MethodCall& c) { return c.Int(static_cast<int64_t>(Bytes(c).size())); }

CallStatus BytesIsEmpty(MethodCall& c) { return c.Bool(Bytes(c).empty()); }

// get(i), first, last.
CallStatus BytesItem(MethodCall& c) {
  const std::string& b = Bytes(c);
  int64_t i = c.id() == N::kFirst ? 0 : static_cast<int64_t>(b.size()) - 1;
  if (c.id() == N::kGet && !NeedInt(c.cx, c.args[0], &i)) return Fail();
  if (i < 0 || static_cast<uint64_t>(i) >= b.size()) return c.Opt(nullptr);
  Value v = Value::Int(static_cast<unsigned char>(b[static_cast<size_t>(i)]));
  return c.Opt(&v);
}

CallStatus BytesSlice(MethodCall& c) {
  const std::string& b = Bytes(c);
  int64_t lo, hi;
  if (!SliceBounds(c.cx, c.args, b.size(), &lo, &hi)) return Fail();
  if (!c.Work(static_cast<uint64_t>(hi - lo))) return Fail();
  MTY_WORK(hi - lo);
  Value v =
      Value::Heap(new BytesObj(b.substr(static_cast<size_t>(lo), static_cast<size_t>(hi - lo))));
  if (!c.Charge(v.h()->est)) return Fail();
  return c.Return(std::move(v));
}

// Any other method: the array's, on the bytes widened.
CallStatus Widened(MethodCall& c, CallStatus (*wide)(MethodCall&)) {
  const uint64_t charge = WidenCharge(*static_cast<BytesObj*>(c.recv.h()));
  if (!c.Work(Bytes(c).size())) return Fail();
  if (!c.row.mutates) {
    if (!c.Fits(c.recv.h()->est + charge)) return Fail();
    Value copy = c.recv;
    Widen(copy);
    MethodCall on_copy{c.cx, copy, c.row, c.args, c.out, c.delta};
    return wide(on_copy);
  }
  if (!c.Charge(charge)) return Fail();
  Widen(c.recv);
  const CallStatus st = wide(c);
  *c.delta += static_cast<int64_t>(charge);
  return st;
}

}  // namespace

CallStatus BytesMethod(MethodCall& c, CallStatus (*wide)(MethodCall&)) {
  switch (c.id()) {
    case N::kLen:
    case N::kCount: return BytesLen(c);
    case N::kIsEmpty: return BytesIsEmpty(c);
    case N::kGet:
    case N::kFirst:
    case N::kLast: return BytesItem(c);
    case N::kIter:
    case N::kCollect: return ArrayIter(c);
    case N::kSlice: return BytesSlice(c);
    default: return Widened(c, wide);
  }
}

}  // namespace mty::interp::methods
