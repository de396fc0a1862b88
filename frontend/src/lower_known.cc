// The library surface the lowering consults, all from the builtin table
// (ir/builtins.def): effect calls and their arities, methods per receiver
// kind (native or prelude), whether they mutate, their result types, cast
// targets.
#include <string>

#include "lower_internal.h"
#include "mty/ir/builtins.h"

namespace mty::frontend {

bool IsKnownEffect(const std::string& path, int* lo, int* hi) {
  const ir::EffectInfo* e = ir::FindEffect(path);
  if (!e) return false;
  *lo = e->min;
  *hi = e->max;
  return true;
}

std::optional<ir::Recv> RecvOf(const Ty& t) { return RecvOfKind(t.kind, t.name); }

bool IsKnownMethod(const Ty& receiver, const std::string& name) {
  std::optional<ir::MethodName> id = ir::FindMethodName(name);
  std::optional<ir::Recv> recv = RecvOf(receiver);
  if (!id || !recv) return false;
  // A capability of known type has only its type's methods (Fs: ro, path).
  if (receiver.Is(Ty::Kind::kCap) && !receiver.name.empty())
    return ir::FindCapMethod(receiver.name, *id) != nullptr;
  return ir::FindMethod(*recv, *id) || ir::FindPreludeMethod(*recv, *id) ||
         ir::FindFormMethod(*recv, *id);
}

bool PreludeByArgs(const Ty& receiver, const std::string& name, const std::vector<TyP>& args,
                   bool prelude) {
  std::optional<ir::MethodName> id = ir::FindMethodName(name);
  if (!id) return prelude;
  const int n = static_cast<int>(args.size());
  std::optional<ir::Recv> recv = RecvOf(receiver);
  const ir::PreludeInfo* p = ir::FindPreludeMethod(recv, *id);
  if (!p) return prelude;
  // The native rows this receiver (any kind, when unknown) could run.
  bool native_fits = false, any_native = false;
  for (const ir::MethodInfo& m : ir::kMethods)
    if (m.name == *id && (!recv || m.recv == *recv)) {
      any_native = true;
      native_fits |= n >= m.min && n <= m.max;
    }
  if (!any_native) return prelude;
  const bool prelude_fits = n >= p->min && n <= p->max;
  if (prelude_fits && !native_fits) return true;
  if (native_fits && !prelude_fits) return false;
  for (const TyP& a : args)
    if (a && a->Is(Ty::Kind::kFn)) return true;
  return prelude;
}

bool IsPreludeCall(const Ty& receiver, const std::string& name) {
  std::optional<ir::MethodName> id = ir::FindMethodName(name);
  if (!id) return false;
  std::optional<ir::Recv> recv = RecvOf(receiver);
  // A receiver with a native method of that name uses it (Str::find).
  if (recv && ir::FindMethod(*recv, *id)) return false;
  return ir::FindPreludeMethod(recv, *id) != nullptr;
}

bool MethodMutates(const std::string& name, const Ty* receiver) {
  std::optional<ir::MethodName> id = ir::FindMethodName(name);
  if (!id) return false;
  if (std::optional<ir::Recv> recv = receiver ? RecvOf(*receiver) : std::nullopt) {
    if (const ir::MethodInfo* m = ir::FindMethod(*recv, *id)) return m->mutates;
    if (const ir::PreludeInfo* p = ir::FindPreludeMethod(*recv, *id)) return p->mutates;
    if (const ir::FormInfo* f = ir::FindFormMethod(*recv, *id)) return f->mutates;
  }
  // A receiver of unknown kind: when every row of the name writes its
  // receiver (push, insert, retain); a name some kinds only read (`take`:
  // Option's writes, an array's reads) is not checked here.
  bool any = false, all = true;
  for (const ir::MethodInfo& m : ir::kMethods)
    if (m.name == *id) {
      any = true;
      all &= m.mutates;
    }
  for (const ir::PreludeInfo& p : ir::kPreludeMethods)
    if (p.name == *id) {
      any = true;
      all &= p.mutates;
    }
  return any && all;
}

bool MethodArity(const Ty& receiver, const std::string& name, bool prelude, int* lo, int* hi) {
  std::optional<ir::MethodName> id = ir::FindMethodName(name);
  if (!id) return false;
  std::optional<ir::Recv> recv = RecvOf(receiver);
  if (recv && !prelude)
    if (const ir::MethodInfo* m = ir::FindMethod(*recv, *id)) {
      *lo = m->min;
      *hi = m->max;
      return true;
    }
  if (recv || prelude)
    if (const ir::PreludeInfo* p = ir::FindPreludeMethod(recv, *id)) {
      *lo = p->min;
      *hi = p->max;
      return true;
    }
  return false;
}

namespace {

// Shapes that do not depend on the receiver's type.
bool ReceiverFree(ir::ResultShape s) {
  using S = ir::ResultShape;
  switch (s) {
    case S::kUnit:
    case S::kBool:
    case S::kInt:
    case S::kFloat:
    case S::kStr:
    case S::kOptInt:
    case S::kOptChar:
    case S::kChar:
    case S::kOptStr:
    case S::kArrayIntChar:
    case S::kArrayStr:
    case S::kArrayChar:
    case S::kArrayInt:
    case S::kResultIntStr:
    case S::kResultFloatStr: return true;
    default: return false;
  }
}

// The shape every row of the name agrees on, when it does not depend on
// the receiver (the type of a call on a receiver of unknown kind).
std::optional<ir::ResultShape> CommonShape(ir::MethodName id) {
  std::optional<ir::ResultShape> shape;
  auto meet = [&](ir::ResultShape s) {
    if (!shape) {
      shape = s;
    } else if (*shape != s) {
      shape = ir::ResultShape::kUnknown;
    }
  };
  for (const ir::MethodInfo& m : ir::kMethods)
    if (m.name == id) meet(m.result);
  for (const ir::PreludeInfo& p : ir::kPreludeMethods)
    if (p.name == id) meet(p.result);
  if (shape && !ReceiverFree(*shape)) return std::nullopt;
  return shape;
}

}  // namespace

TyP MethodResult(const TyP& rt, const std::string& n, const std::vector<TyP>& args) {
  using TK = Ty::Kind;
  using S = ir::ResultShape;
  std::optional<ir::MethodName> id = ir::FindMethodName(n);
  if (!id) return Ty::Unknown();
  std::optional<S> shape;
  if (std::optional<ir::Recv> recv = RecvOf(*rt)) {
    if (const ir::MethodInfo* m = ir::FindMethod(*recv, *id)) {
      shape = m->result;
    } else if (const ir::PreludeInfo* p = ir::FindPreludeMethod(*recv, *id)) {
      shape = p->result;
    }
  }
  if (!shape) shape = CommonShape(*id);
  if (!shape) return Ty::Unknown();
  auto opt = [](TyP t) { return Ty::Adt("Option", {std::move(t)}); };
  auto arr = [](TyP t) { return Ty::With(TK::kArray, {std::move(t)}); };
  // enumerate and zip keep the element types (an `iter_mut()`'s references
  // stay references: `for (i, x) in v.iter_mut().enumerate()`).
  if (rt->Is(TK::kArray) && (*id == ir::MethodName::kEnumerate || *id == ir::MethodName::kZip)) {
    TyP other = Ty::Unknown();
    if (!args.empty() && args[0]->Is(TK::kArray)) other = args[0]->Arg(0);
    return *id == ir::MethodName::kEnumerate
               ? arr(Ty::With(TK::kTuple, {Ty::Make(TK::kInt), rt->Arg(0)}))
               : arr(Ty::With(TK::kTuple, {rt->Arg(0), other}));
  }
  switch (*shape) {
    case S::kUnknown: return Ty::Unknown();
    case S::kUnit: return Ty::Make(TK::kUnit);
    case S::kBool: return Ty::Make(TK::kBool);
    case S::kInt: return Ty::Make(TK::kInt);
    case S::kFloat: return Ty::Make(TK::kFloat);
    case S::kStr: return Ty::Make(TK::kStr);
    case S::kSelf: return rt;
    case S::kElem: return rt->Arg(0);
    case S::kOptElem: return opt(rt->Arg(0));
    case S::kOptInt: return opt(Ty::Make(TK::kInt));
    case S::kOptChar: return opt(Ty::Make(TK::kChar));
    case S::kOptValue: return opt(rt->Arg(1));
    case S::kArrayStr: return arr(Ty::Make(TK::kStr));
    case S::kArrayChar: return arr(Ty::Make(TK::kChar));
    case S::kArrayInt: return arr(Ty::Make(TK::kInt));
    case S::kArrayKey: return arr(rt->Arg(0));
    case S::kArrayValue: return arr(rt->Arg(1));
    case S::kArrayUnknown: return arr(Ty::Unknown());
    case S::kResultIntStr: return Ty::Adt("Result", {Ty::Make(TK::kInt), Ty::Make(TK::kStr)});
    case S::kResultFloatStr: return Ty::Adt("Result", {Ty::Make(TK::kFloat), Ty::Make(TK::kStr)});
    case S::kResultElemArg:
      return Ty::Adt("Result", {rt->Arg(0), args.empty() ? Ty::Unknown() : args[0]});
    case S::kChar: return Ty::Make(TK::kChar);
    case S::kOptStr: return opt(Ty::Make(TK::kStr));
    case S::kArrayIntChar:
      return arr(Ty::With(TK::kTuple, {Ty::Make(TK::kInt), Ty::Make(TK::kChar)}));
    case S::kValue: return rt->Arg(1);
    case S::kOptErr: return opt(rt->Arg(1));
    case S::kArrayPair: return arr(Ty::With(TK::kTuple, {rt->Arg(0), rt->Arg(1)}));
    case S::kOptSelf: return opt(rt);
  }
  return Ty::Unknown();
}

bool IsCastTargetName(const std::string& n) { return ir::FindCast(n) != nullptr; }

std::vector<std::string> KnownMethodNames(const Ty& receiver) {
  std::vector<std::string> out;
  std::optional<ir::Recv> recv = RecvOf(receiver);
  if (!recv) return out;
  for (const ir::MethodInfo& m : ir::kMethods)
    if (m.recv == *recv && IsKnownMethod(receiver, std::string(ir::MethodNameText(m.name))))
      out.push_back(ir::MethodNameText(m.name));
  for (const ir::PreludeInfo& p : ir::kPreludeMethods)
    if (p.recv == *recv) out.push_back(ir::MethodNameText(p.name));
  for (const ir::FormInfo& f : ir::kFormMethods)
    if (f.recv == *recv) out.push_back(ir::MethodNameText(f.name));
  return out;
}

std::string MethodAlias(const std::string& name) {
  // What Rust, Python or JavaScript call a method Mighty names otherwise.
  static const std::pair<const char*, const char*> k[] = {
      {"length", "len"}, {"size", "len"}, {"to_string", "to_str"}};
  for (const auto& [from, to] : k)
    if (name == from) return to;
  return "";
}

std::vector<std::string> KnownEffectPaths() {
  std::vector<std::string> out;
  for (const ir::EffectInfo& e : ir::kEffects) out.push_back(e.path);
  return out;
}

bool EffectResultMatters(const std::string& path) { return path != "std.time.sleep"; }

}  // namespace mty::frontend
