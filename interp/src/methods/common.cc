// The dispatch of the methods of built-in values (a table of handlers built
// from the METHOD rows of ir/builtins.def, indexed by the row) and the
// helpers the receivers' files share.
#include <iterator>

#include "methods.h"
#include "mty/vocab/utf8.h"

namespace mty::interp {

using methods::MethodCall;

namespace {

using Handler = CallStatus (*)(MethodCall&);

// The handler of each METHOD row, in the rows' order (kMethods).
constexpr Handler kHandlers[] = {
#define METHOD(recv, name, min, max, mut, cost, result, handler) &methods::handler,
#include "mty/ir/builtins.def"
#undef METHOD
};
static_assert(std::size(kHandlers) == ir::kNumMethods);

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
      if (adt == ir::prelude::kOrdering) return ir::Recv::kOrdering;
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
  MethodCall c{cx, recv, row, args, out, est_delta};
  const Handler handler = kHandlers[&row - ir::kMethods];
  if (recv.Is(Tag::kBytes)) return methods::BytesMethod(c, handler);
  return handler(c);
}

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

namespace methods {

CallStatus MethodCall::Opt(const Value* some) {
  uint64_t est;
  out = MakeOption(some, &est);
  return cx.Charge(est) ? Ok() : Fail();
}

CallStatus MethodCall::NewStr(std::string s) {
  if (!cx.Charge(cost::StrBytes(s.size()))) return Fail();
  out = MakeStr(std::move(s));
  return Ok();
}

CallStatus MethodCall::NewArray(std::vector<Value> items) {
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

CallStatus MethodCall::NewResult(bool good, const Value& v) {
  return methods::NewResult(cx, good, v, out);
}

CallStatus NewResult(Ctx& cx, bool good, const Value& v, Value& out) {
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

// to_str and to_string of the kinds whose text is their Display form.
CallStatus DisplayToStr(MethodCall& c) { return c.NewStr(Display(c.cx.m, c.recv)); }

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

bool NeedCount(Ctx& cx, const Value& v, const char* what, uint64_t* k) {
  int64_t i;
  if (!NeedInt(cx, v, &i)) return false;
  if (i < 0) return cx.Trap(TrapCode::kIndex, absl::StrCat(what, " count ", i, " is negative"));
  *k = static_cast<uint64_t>(i);
  return true;
}

bool NeedSize(Ctx& cx, const Value& v, const char* what, uint64_t* k) {
  int64_t i;
  if (!NeedInt(cx, v, &i)) return false;
  if (i < 1)
    return cx.Trap(TrapCode::kPanic, absl::StrCat(what, ": size ", i, " must be at least 1"));
  *k = static_cast<uint64_t>(i);
  return true;
}

bool NeedRadix(Ctx& cx, const Value& v, const char* what, uint32_t* radix) {
  int64_t r;
  if (!NeedInt(cx, v, &r)) return false;
  if (r < 2 || r > 36)
    return cx.Trap(TrapCode::kPanic, absl::StrCat(what, ": radix ", r, " is not in 2..=36"));
  *radix = static_cast<uint32_t>(r);
  return true;
}

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

const AdtObj* AdtOf(const Value& v, uint32_t adt) {
  if (!v.Is(Tag::kAdt)) return nullptr;
  auto* o = static_cast<AdtObj*>(v.h());
  return o->adt == adt ? o : nullptr;
}

Value Pair(const Value& a, const Value& b) {
  auto* t = new ArrayObj(Tag::kTuple);
  Value tv = Value::Heap(t);
  t->items = {a, b};
  t->est = cost::kHeader + Estimate(a) + Estimate(b);
  return tv;
}

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

CallStatus IterItems(Ctx& cx, const Value& v, Value& out) {
  if (IsArray(v)) {
    out = v;
    return Ok();
  }
  const uint64_t count = v.Is(Tag::kMap)   ? static_cast<MapObj*>(v.h())->size()
                         : v.Is(Tag::kStr) ? static_cast<StrObj*>(v.h())->s.size()
                                           : 0;
  if (!cx.Work(2 * count)) return Fail();
  MTY_WORK(2 * count);
  auto* a = new ArrayObj(Tag::kArray);
  Value arr = Value::Heap(a);
  a->est = cost::kHeader;
  if (v.Is(Tag::kMap)) {
    static_cast<MapObj*>(v.h())->ForEach([&](const Value& k, const Value& x) {
      Value tv = Pair(k, x);
      a->est += tv.h()->est;
      a->items.push_back(std::move(tv));
    });
  } else if (v.Is(Tag::kStr)) {
    AppendChars(static_cast<StrObj*>(v.h())->s, a);
  } else {
    cx.Trap(TrapCode::kType, absl::StrCat("cannot iterate over ", KindName(cx.m, v)));
    return Fail();
  }
  if (!cx.Charge(a->est)) return Fail();
  out = std::move(arr);
  return Ok();
}

}  // namespace methods
}  // namespace mty::interp
