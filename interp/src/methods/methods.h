// Internal to interp/src/methods/: the methods of built-in values, one
// receiver kind to a file (str.cc, array.cc, bytes.cc, map.cc, option.cc,
// int.cc, float.cc, char.cc, duration.cc, cap.cc), the builtin functions
// (fns.cc) and what they share (common.cc).
//
// Every METHOD row of ir/builtins.def names its handler: a function
// `CallStatus Handler(MethodCall& c)` declared below from the rows and
// defined in its receiver's file; BuiltinMethod (common.cc) calls it through
// a table built from the same rows, indexed by the row. A row whose handler
// is not defined does not link; a handler that no row names has no
// declaration, which -Wmissing-declarations (interp/CMakeLists.txt) makes
// an error. A handler may serve several rows when they are one rule with a
// parameter (trim, trim_start, trim_end); it reads which from c.id().
//
// The arity is the row's, checked before the handler runs. Each handler
// charges its work (cost.h) before doing it, and the memory of what it
// builds.
#pragma once

#include <string>
#include <vector>

#include "../builtins.h"
#include "../cost.h"
#include "mty/interp/work.h"

namespace mty::interp::methods {

using N = ir::MethodName;

inline CallStatus Ok() { return CallStatus::kOk; }
inline CallStatus Fail() { return CallStatus::kFail; }

// One call of a built-in method, as its handler sees it.
struct MethodCall {
  Ctx& cx;
  Value& recv;  // in place (already made unique when the row mutates)
  const ir::MethodInfo& row;
  std::vector<Value>& args;  // as many as the row allows
  Value& out;
  int64_t* delta;  // the change of recv's size estimate (0 unless set)

  ir::MethodName id() const { return row.name; }
  const char* name() const { return ir::MethodNameText(row.name); }

  bool Work(uint64_t units) { return cx.Work(units); }
  bool Charge(uint64_t n) { return cx.Charge(n); }
  bool Fits(uint64_t n) { return cx.Fits(n); }
  CallStatus Return(Value v) {
    out = std::move(v);
    return Ok();
  }
  CallStatus Bool(bool b) { return Return(Value::Bool(b)); }
  CallStatus Int(int64_t i) { return Return(Value::Int(i)); }
  CallStatus Unit() { return Return(Value::Unit()); }
  // Some(*some), or None when some is nullptr; charged.
  CallStatus Opt(const Value* some);
  // A new string, charged.
  CallStatus NewStr(std::string s);
  // A new array of `items`, charged.
  CallStatus NewArray(std::vector<Value> items);
  // Ok(v) (good) or Err(v), charged.
  CallStatus NewResult(bool good, const Value& v);
  CallStatus Trap(TrapCode code, std::string message) {
    cx.Trap(code, std::move(message));
    return Fail();
  }
};

// A new array: `units` of work charged first, then fill(a) adds the items
// and their estimates (a->est starts at the header), then that is charged.
template <typename F>
CallStatus BuildArray(MethodCall& c, uint64_t units, F fill) {
  if (!c.Work(units)) return Fail();
  MTY_WORK(units);
  auto* a = new ArrayObj(Tag::kArray);
  Value v = Value::Heap(a);
  a->est = cost::kHeader;
  fill(a);
  if (!c.Charge(a->est)) return Fail();
  return c.Return(std::move(v));
}

// Whether every row of a receiver kind takes a fixed number of arguments,
// at most `most` (the number kinds read them all, as many as the row says).
constexpr bool FixedArity(ir::Recv recv, int most) {
  for (const ir::MethodInfo& r : ir::kMethods)
    if (r.recv == recv && (r.min != r.max || r.max > most)) return false;
  return true;
}

#define METHOD(recv, name, min, max, mut, cost, result, handler) CallStatus handler(MethodCall& c);
#include "mty/ir/builtins.def"
#undef METHOD

// An array held as bytes (BytesObj): the reading methods that stay compact,
// else `wide`, the Array row's handler, on the array widened (bytes.cc).
CallStatus BytesMethod(MethodCall& c, CallStatus (*wide)(MethodCall&));

// An array's slice(lo, hi) arguments: Ints with 0 <= lo <= hi <= n, else a
// trap (array.cc).
bool SliceBounds(Ctx& cx, const std::vector<Value>& args, size_t n, int64_t* lo, int64_t* hi);

// Helpers the receivers share (common.cc).

// A Str argument, or a Char one as the text of that char (`s.find('x')`):
// *p points at the string, or at *buf holding the char's text.
bool NeedPattern(Ctx& cx, const Value& v, std::string* buf, const std::string** p);
// A count argument (take, skip): an Int >= 0, else MT5017.
bool NeedCount(Ctx& cx, const Value& v, const char* what, uint64_t* k);
// A size argument (windows, chunks, step_by): an Int >= 1, else a panic
// (as Rust's).
bool NeedSize(Ctx& cx, const Value& v, const char* what, uint64_t* k);
// A radix for to_digit, is_digit and from_digit: 2..=36, else a panic (as
// Rust's).
bool NeedRadix(Ctx& cx, const Value& v, const char* what, uint32_t* radix);
// The value of digit `c` in `radix` (-1 when it is not one).
int DigitValue(uint32_t c, uint32_t radix);
// An Ordering value's sign (Less -1, Equal 0, Greater 1), 2 for another
// value (ordering.cc).
int OrdSign(const Value& v);
// Ok(v) (good) or Err(v) in out, charged.
CallStatus NewResult(Ctx& cx, bool good, const Value& v, Value& out);
// An Option or Result's parts: nullptr when v is not that ADT.
const AdtObj* AdtOf(const Value& v, uint32_t adt);
// The tuple (a, b), its estimate set (not charged).
Value Pair(const Value& a, const Value& b);
// An array of strings, charged.
CallStatus StrArray(Ctx& cx, std::vector<std::string> pieces, Value& out);
// What `for x in v` walks: an array as is, a map's (key, value) pairs, a
// string's chars.
CallStatus IterItems(Ctx& cx, const Value& v, Value& out);

}  // namespace mty::interp::methods
