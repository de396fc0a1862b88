// The type checker and the library: built-in methods typed by their rows
// (ir/include/mty/ir/signatures.def, else the ResultShape of builtins.def).
#include <cctype>

#include "absl/strings/str_cat.h"
#include "mty/ir/builtins.h"
#include "typeck.h"

namespace mty::frontend::tc {

namespace {

struct SigRow {
  ir::Recv recv;
  ir::MethodName name;
  const char* text;
};
constexpr SigRow kSigs[] = {
#define SIG(recv, name, text) {ir::Recv::k##recv, ir::MethodName::k##name, text},
#include "mty/ir/signatures.def"
#undef SIG
};

const char* FindSig(ir::Recv r, ir::MethodName n) {
  for (const SigRow& s : kSigs)
    if (s.recv == r && s.name == n) return s.text;
  return nullptr;
}

// Parses a signature's text into types: `vars` holds the names bound so far.
struct SigParser {
  Types& t;
  std::map<std::string, TypeId>& vars;
  const char* p;
  Loc at;
  void Ws() {
    while (*p == ' ') ++p;
  }
  bool Eat(char c) {
    Ws();
    if (*p != c) return false;
    ++p;
    return true;
  }
  std::string Name() {
    Ws();
    std::string n;
    while (std::isalnum(static_cast<unsigned char>(*p)) || *p == '_') n += *p++;
    return n;
  }
  std::vector<TypeId> List(char close) {
    std::vector<TypeId> out;
    if (Eat(close)) return out;
    do out.push_back(Type());
    while (Eat(','));
    Eat(close);
    return out;
  }
  TypeId Type() {
    Ws();
    if (Eat('(')) return t.Tuple(List(')'));
    std::string n = Name();
    if (n == "fn") {
      Eat('(');
      std::vector<TypeId> ps = List(')');
      Ws();
      p += 2;  // ->
      return t.Fn(std::move(ps), Type());
    }
    std::vector<TypeId> args;
    if (Eat('[')) args = List(']');
    if (n == "I64" || n == "U64" || n == "USize" || n == "U8" || n == "I32") return t.Int(n);
    if (n == "Int") return t.IntVar(at);
    if (n == "Bool") return t.Prim(TK::kBool);
    if (n == "Str") return t.Prim(TK::kStr);
    if (n == "Char") return t.Prim(TK::kChar);
    if (n == "F64") return t.Prim(TK::kFloat);
    if (n == "Duration") return t.Prim(TK::kDuration);
    if (n == "Size") return t.Prim(TK::kSize);
    if (n == "Metadata" || n == "Response" || n == "Ordering") return t.Adt(n);  // the prelude's
    if (n == "Any") return t.Prim(TK::kDyn);
    if (n == "Vec") return t.Array(args.empty() ? t.Var(at) : args[0]);
    if (n == "Map") return t.Map(args.at(0), args.at(1));
    if (n == "Option" || n == "Result") return t.Adt(n, std::move(args));
    auto v = vars.find(n);
    if (v != vars.end()) return v->second;
    return vars[n] = t.Var(at);  // A, B, C: fresh at this call
  }
};

}  // namespace

std::vector<std::string> SignatureRowsWithoutMethod() {
  std::vector<std::string> bad;
  for (const SigRow& s : kSigs)
    if (!ir::FindMethod(s.recv, s.name) && !ir::FindPreludeMethod(s.recv, s.name) &&
        !ir::FindFormMethod(s.recv, s.name))
      bad.push_back(absl::StrCat(ir::RecvTypeName(s.recv), ".", ir::MethodNameText(s.name)));
  return bad;
}

bool BuiltinSig(Types& t, ir::Recv recv, const std::string& name, TypeId self,
                const std::vector<TypeId>& self_args, Loc at, std::vector<TypeId>* params,
                TypeId* ret) {
  std::optional<ir::MethodName> id = ir::FindMethodName(name);
  if (!id) return false;
  const char* text = FindSig(recv, *id);
  if (!text) return false;
  std::map<std::string, TypeId> vars;
  vars["Self"] = self;
  if (recv == ir::Recv::kMap) {
    vars["K"] = self_args.size() > 0 ? self_args[0] : t.Var(at);
    vars["V"] = self_args.size() > 1 ? self_args[1] : t.Var(at);
  } else {
    vars["T"] = self_args.size() > 0 ? self_args[0] : t.Var(at);
    vars["E"] = self_args.size() > 1 ? self_args[1] : t.Var(at);
  }
  SigParser sp{t, vars, text, at};
  sp.Eat('(');
  *params = sp.List(')');
  sp.Ws();
  sp.p += 2;  // ->
  *ret = sp.Type();
  return true;
}

bool EffectSig(Types& t, const ir::EffectInfo& effect, Loc at, std::vector<TypeId>* params,
               TypeId* ret) {
  if (!effect.sig || !*effect.sig) return false;
  std::map<std::string, TypeId> vars;
  SigParser sp{t, vars, effect.sig, at};
  sp.Eat('(');
  *params = sp.List(')');
  sp.Ws();
  sp.p += 2;  // ->
  *ret = sp.Type();
  return true;
}

// The lowering's static type of a checker type (for the ResultShape rules).
TyP ToTy(Types& t, TypeId id, int depth) {
  if (depth > 16) return Ty::Unknown();
  id = t.Find(id);
  const TNode n = t.At(id);
  auto sub = [&](size_t i) {
    return i < n.args.size() ? ToTy(t, n.args[i], depth + 1) : Ty::Unknown();
  };
  switch (n.kind) {
    case TK::kInt: return Ty::Int(n.name);
    case TK::kIntVar: return Ty::Int();
    case TK::kFloatVar: return Ty::Make(Ty::Kind::kFloat);
#define MTY_PRIM_KIND(name) \
  case TK::k##name: return Ty::Make(Ty::Kind::k##name);
      MTY_PRIM_KINDS(MTY_PRIM_KIND)
#undef MTY_PRIM_KIND
    case TK::kArray: return Ty::With(Ty::Kind::kArray, {sub(0)});
    case TK::kMap: return Ty::With(Ty::Kind::kMap, {sub(0), sub(1)});
    case TK::kTuple: {
      std::vector<TyP> a;
      for (size_t i = 0; i < n.args.size(); ++i) a.push_back(sub(i));
      return Ty::With(Ty::Kind::kTuple, std::move(a));
    }
    case TK::kAdt: {
      std::vector<TyP> a;
      for (size_t i = 0; i < n.args.size(); ++i) a.push_back(sub(i));
      return Ty::Adt(n.name, std::move(a));
    }
    case TK::kCap: {
      TyP c = Ty::Make(Ty::Kind::kCap);
      c->name = n.name;
      return c;
    }
    default: return Ty::Unknown();
  }
}

TypeId FromTy(Types& t, const TyP& ty, int depth) {
  if (!ty || depth > 16) return t.Prim(TK::kDyn);
  auto sub = [&](size_t i) { return FromTy(t, ty->Arg(i), depth + 1); };
  switch (ty->kind) {
    case Ty::Kind::kUnknown: return t.Prim(TK::kDyn);
    case Ty::Kind::kInt: return t.Int(ty->name.empty() ? "I64" : ty->name);
#define MTY_PRIM_KIND(name) \
  case Ty::Kind::k##name: return t.Prim(TK::k##name);
      MTY_PRIM_KINDS(MTY_PRIM_KIND)
#undef MTY_PRIM_KIND
    case Ty::Kind::kArray: return t.Array(sub(0));
    case Ty::Kind::kMap: return t.Map(sub(0), sub(1));
    case Ty::Kind::kTuple: {
      std::vector<TypeId> a;
      for (size_t i = 0; i < ty->args.size(); ++i) a.push_back(sub(i));
      return t.Tuple(std::move(a));
    }
    case Ty::Kind::kAdt: {
      std::vector<TypeId> a;
      for (size_t i = 0; i < ty->args.size(); ++i) a.push_back(sub(i));
      if ((ty->name == "Option" && a.size() != 1) || (ty->name == "Result" && a.size() != 2))
        return t.Prim(TK::kDyn);
      return t.Adt(ty->name, std::move(a));
    }
    case Ty::Kind::kCap: return t.Make(TK::kCap, ty->name, {});
    default: return t.Prim(TK::kDyn);
  }
}

std::optional<ir::Recv> RecvOfType(Types& t, TypeId id) {
  const TNode& n = t.At(id);
  if (n.kind == TK::kIntVar) return ir::Recv::kInt;
  if (n.kind == TK::kFloatVar) return ir::Recv::kFloat;
  if (n.kind == TK::kAdt && n.name == "Range" && n.args.size() == 1) return ir::Recv::kArray;
  return RecvOfKind(n.kind, n.name);
}

}  // namespace mty::frontend::tc
