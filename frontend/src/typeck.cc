// The type checker: item signatures, written types, function bodies,
// impls against traits, agents and protocols. Expressions are in
// typeck_expr.cc, patterns and exhaustiveness in typeck_pat.cc.
#include "typeck.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "mty/vocab/policy.h"

namespace mty::frontend::tc {

bool IsMarkerTrait(const std::string& n) {
  static const std::set<std::string> kMarkers = {
      "Clone",  "Copy",    "Debug",  "Display", "PartialEq", "Eq",       "PartialOrd", "Ord",
      "Hash",   "Default", "Send",   "Sync",    "Sized",     "Add",      "Sub",        "Mul",
      "Div",    "Rem",     "Neg",    "Into",    "From",      "ToString", "Iterator",   "Fn",
      "FnMut",  "FnOnce",  "AsRef",  "Num",     "Any",       "Show",     "Numeric",    "Ordered",
      "BitAnd", "BitOr",   "BitXor", "Shl",     "Shr"};
  return kMarkers.count(n) > 0;
}

void Check(const Module& m, Globals& g, TypeInfo& info, Diagnostics& diags) {
  Checker(m, g, info, diags).Run();
}

std::string FieldOwner(const TypeInfo& info, const Expr& e) {
  auto it = info.field_owner.find(&e);
  return it == info.field_owner.end() ? "" : it->second;
}

std::string TryFromType(const TypeInfo& info, const Expr& e) {
  auto it = info.try_from.find(&e);
  return it == info.try_from.end() ? "" : it->second;
}

TyP StaticType(TypeInfo& info, const Expr& e) {
  auto it = info.of.find(&e);
  return it == info.of.end() ? Ty::Unknown() : ToTy(info.types, it->second);
}

const Checker::Local* Checker::Lookup(const std::string& name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto f = it->find(name);
    if (f != it->end()) return &f->second;
  }
  return nullptr;
}

TypeId Checker::FromType(const TypeExpr& t, int depth) {
  if (depth > kMaxTypeDepth) return t_.Prim(TK::kErr);
  switch (t.kind) {
    case TypeExpr::Kind::kInfer: return t_.Var(t.loc);
    case TypeExpr::Kind::kTuple: {
      std::vector<TypeId> a;
      for (const TypeExpr& x : t.args) a.push_back(FromType(x, depth + 1));
      return t_.Tuple(std::move(a));
    }
    case TypeExpr::Kind::kArray:
      return t_.Array(t.args.empty() ? t_.Var(t.loc) : FromType(t.args[0], depth + 1));
    case TypeExpr::Kind::kRef:  // references are values here (docs/language.md §6)
      return t.args.empty() ? t_.Var(t.loc) : FromType(t.args[0], depth + 1);
    case TypeExpr::Kind::kFn: {
      std::vector<TypeId> ps;
      for (size_t i = 0; i + 1 < t.args.size(); ++i) ps.push_back(FromType(t.args[i], depth + 1));
      TypeId r = t.args.empty() ? t_.Prim(TK::kUnit) : FromType(t.args.back(), depth + 1);
      return t_.Fn(std::move(ps), r);
    }
    case TypeExpr::Kind::kPath: break;
  }
  const std::string& n = t.name;
  auto args = [&](size_t want, bool fill) {
    std::vector<TypeId> a;
    for (const TypeExpr& x : t.args) a.push_back(FromType(x, depth + 1));
    if (!t.args.empty() && a.size() != want) {
      failed_ = true;
      diags_
          .Error("MT2025", t.loc,
                 absl::StrCat("`", n, "` takes ", want, " generic argument(s) but ", a.size(),
                              (a.size() == 1 ? " was" : " were"), " given"),
                 absl::StrCat("write `", n, "` with ", want, " type(s) in brackets"))
          .end = NameEnd(t.loc, n);
      return std::vector<TypeId>(want, t_.Prim(TK::kErr));
    }
    // A signature states its types whole, as Rust's (`fn f(o: Option)` is
    // E0107): elsewhere a bare `Vec` leaves its argument to inference.
    if (a.empty() && want > 0 && in_signature_) {
      if (!failed_) {
        failed_ = true;
        diags_
            .Error(
                "MT2025", t.loc,
                absl::StrCat("missing generics for `", n, "`: it takes ", want,
                             " generic argument(s)"),
                absl::StrCat("write them in brackets: `", n, "[", want == 1 ? "T" : "K, V", "]`"))
            .end = NameEnd(t.loc, n);
      }
      return std::vector<TypeId>(want, t_.Prim(TK::kErr));
    }
    if (a.empty() && fill)
      for (size_t i = 0; i < want; ++i) a.push_back(t_.Var(t.loc));
    return a;
  };
  if (generics_.count(n)) return t_.Make(TK::kParam, n, {});
  if (n == "Self" && has_self_) return self_ty_;
  if (auto al = aliases_.find(n); al != aliases_.end())
    return FromType(al->second->type, depth + 1);
  if (adts_.count(n) && n != "Option" && n != "Result") {
    const AdtInfo& a = adts_.at(n);
    return t_.Adt(n, args(a.generics.size(), true));
  }
  if (IsIntName(n)) return t_.Int(n == "I128" ? "I64" : n == "U128" ? "U64" : n);
  if (n == "F32" || n == "F64" || n == "Float") return t_.Prim(TK::kFloat);
  if (n == "Bool") return t_.Prim(TK::kBool);
  if (n == "Char") return t_.Prim(TK::kChar);
  if (IsStrTypeName(n)) return t_.Prim(TK::kStr);
  if (n == "Unit") return t_.Prim(TK::kUnit);
  if (n == "Never") return t_.Prim(TK::kNever);
  if (n == "Duration") return t_.Prim(TK::kDuration);
  if (n == "Size") return t_.Prim(TK::kSize);
  if (n == "Any") return t_.Prim(TK::kDyn);
  if (ir::FindCapType(n)) return t_.Make(TK::kCap, n, {});  // the capability table's types
  if (n == "Vec" || n == "Array" || n == "Slice") return t_.Array(args(1, true)[0]);
  if (n == "Map" || n == "HashMap") {
    std::vector<TypeId> a = args(2, true);
    return t_.Map(a[0], a[1]);
  }
  if (n == "Option") return t_.Adt(n, args(1, true));
  if (n == "Result") return t_.Adt(n, args(2, true));
  if (IsBoxName(n)) return args(1, true)[0];  // a value (docs/language.md §6)
  if (agents_.count(n)) return t_.Make(TK::kAgent, n, {});
  if (traits_.count(n)) return t_.Make(TK::kDynTrait, n, {});
  // Unknown names are the lowering's to report (MT1003, with suggestions).
  return t_.Prim(TK::kDyn);
}

std::string Checker::OwnerName(TypeId t) {
  t = t_.Find(t);
  const TNode& n = t_.At(t);
  switch (n.kind) {
    case TK::kAdt: return n.name;
    case TK::kInt:
    case TK::kIntVar: return "I64";
    case TK::kFloat:
    case TK::kFloatVar: return "F64";
    case TK::kStr: return "Str";
    case TK::kArray: return "Array";
    case TK::kMap: return "Map";
    case TK::kTuple: return "Tuple";
    case TK::kBool: return "Bool";
    case TK::kChar: return "Char";
    case TK::kDuration: return "Duration";
    case TK::kSize: return "Size";
    case TK::kCap: return "Cap";
    case TK::kAgent: return n.name;
    default: return "";
  }
}

FnSig Checker::MakeSig(const FnDecl& f, const std::string& owner,
                       const std::vector<std::string>& outer_generics,
                       const std::vector<std::vector<std::string>>& outer_bounds, TypeId self_ty) {
  FnSig s;
  s.decl = &f;
  s.owner = owner;
  s.generics = outer_generics;
  s.bounds = outer_bounds;
  s.bounds.resize(s.generics.size());
  for (size_t i = 0; i < f.generics.size(); ++i) {
    s.generics.push_back(f.generics[i]);
    s.bounds.push_back(i < f.bounds.size() ? f.bounds[i] : std::vector<std::string>{});
  }
  SigScope scope(*this, s.generics, s.bounds, self_ty);
  for (const Param& p : f.params) {
    if (p.self_kind != Param::SelfKind::kNone || p.name == "self") {
      s.has_self = true;
      continue;
    }
    if (p.type.kind == TypeExpr::Kind::kInfer) {
      // An untyped parameter (docs/language.md §6: checked at run time).
      s.loose_params = true;
      s.params.push_back(t_.Prim(TK::kDyn));
      continue;
    }
    in_signature_ = true;
    s.params.push_back(FromType(p.type));
    in_signature_ = false;
  }
  in_signature_ = true;
  s.ret = f.ret.kind == TypeExpr::Kind::kInfer ? t_.Prim(TK::kUnit) : FromType(f.ret);
  in_signature_ = false;
  return s;
}

TypeId Checker::SelfTypeOf(const TypeExpr& self_type, const std::vector<std::string>& generics) {
  TypeId t = 0;
  WithGenerics(generics, [&] {
    for (const TypeExpr& a : self_type.args)
      if (ImplicitGeneric(a)) generics_[a.name];
    t = FromType(self_type);
  });
  return t;
}

// `impl Stack[T]` without `impl[T]`: a short name that is no type is a
// generic parameter.
bool Checker::ImplicitGeneric(const TypeExpr& a) const {
  return a.kind == TypeExpr::Kind::kPath && a.args.empty() && !adts_.count(a.name) &&
         !aliases_.count(a.name) && a.name.size() <= 2;
}

void Checker::CollectAdt(const std::string& name, const std::vector<std::string>& generics) {
  AdtInfo& a = adts_[name];
  a.name = name;
  a.generics = generics;
}

void Checker::CollectItems() {
  CollectPreludeAdts();
  // Names first (types may refer to each other), then their contents.
  for (const Item& it : m_.items) {
    switch (it.kind) {
      case Item::Kind::kStruct: CollectAdt(it.struct_decl->name, it.struct_decl->generics); break;
      case Item::Kind::kEnum:
        CollectAdt(it.enum_decl->name, it.enum_decl->generics);
        adts_[it.enum_decl->name].is_enum = true;
        break;
      case Item::Kind::kTypeAlias: aliases_[it.alias_decl->name] = &*it.alias_decl; break;
      case Item::Kind::kTrait: traits_[it.trait_decl->name].decl = &*it.trait_decl; break;
      case Item::Kind::kAgent: agents_[it.agent_decl->name].decl = &*it.agent_decl; break;
      default: break;
    }
  }
  for (const Item& it : m_.items) {
    if (it.kind == Item::Kind::kStruct) CollectStruct(*it.struct_decl);
    if (it.kind == Item::Kind::kEnum) CollectEnum(*it.enum_decl);
  }
  for (const Item& it : m_.items) {
    switch (it.kind) {
      case Item::Kind::kFn: fns_[it.fn.name] = MakeSig(it.fn, "", {}, {}, 0); break;
      case Item::Kind::kTrait: CollectTrait(*it.trait_decl); break;
      case Item::Kind::kImpl: CollectImpl(*it.impl_decl); break;
      case Item::Kind::kConst: {
        const ConstDecl& c = *it.const_decl;
        consts_[c.name] = c.type.kind == TypeExpr::Kind::kInfer ? t_.Var(c.loc) : FromType(c.type);
        break;
      }
      default: break;
    }
  }
  for (const auto& [name, a] : adts_)
    if (a.is_enum)
      for (const VariantInfo& v : a.variants) variant_owners_[v.name].push_back(name);
  // Trait default methods a type gets through its impl.
  for (const auto& [trait, owners] : impls_) {
    auto tr = traits_.find(trait);
    if (tr == traits_.end()) continue;
    for (const std::string& owner : owners)
      for (const auto& [name, sig] : tr->second.methods)
        if (sig.decl && (sig.decl->body || sig.decl->expr_body) && !methods_[owner].count(name)) {
          FnSig s = sig;
          s.owner = owner;
          methods_[owner][name] = s;  // Self stays kParam: instantiated with the receiver
        }
  }
  for (auto& [name, info] : agents_) CollectAgent(info);
}

// The prelude's types (Option, Result, Metadata, Response, AskError): the
// IR's table, their parameters `T` and `E`.
void Checker::CollectPreludeAdts() {
  for (const ir::Adt& pa : ir::PreludeAdts()) {
    AdtInfo& a = adts_[pa.name];
    a.name = pa.name;
    a.is_enum = pa.is_enum;
    if (pa.name == "Option") a.generics = {"T"};
    if (pa.name == "Result") a.generics = {"T", "E"};
    WithGenerics(a.generics, [&] {
      for (const ir::Variant& v : pa.variants) {
        VariantInfo vi;
        vi.name = v.name;
        for (const ir::Field& f : v.fields) {
          if (!f.name.empty()) vi.field_names.push_back(f.name);
          vi.fields.push_back(FromType(ToTypeExpr(f.type)));
        }
        a.variants.push_back(std::move(vi));
      }
    });
  }
}

void Checker::CollectStruct(const StructDecl& s) {
  WithGenerics(s.generics, [&] {
    VariantInfo v;
    v.name = s.name;
    for (const auto& [fname, ft] : s.fields) {
      if (!s.is_tuple) v.field_names.push_back(fname);
      v.fields.push_back(FromType(ft));
    }
    adts_[s.name].variants = {std::move(v)};
  });
}

void Checker::CollectEnum(const EnumDecl& e) {
  WithGenerics(e.generics, [&] {
    std::vector<VariantInfo> vs;
    for (const EnumVariant& ev : e.variants) {
      VariantInfo v;
      v.name = ev.name;
      v.field_names = ev.field_names;
      for (const TypeExpr& ft : ev.fields) v.fields.push_back(FromType(ft));
      vs.push_back(std::move(v));
    }
    adts_[e.name].variants = std::move(vs);
  });
}

void Checker::CollectTrait(const TraitDecl& d) {
  TypeId self = t_.Make(TK::kParam, "Self", {});
  auto saved = generics_;
  generics_["Self"] = {d.name};
  for (const FnDecl& f : d.fns) traits_[d.name].methods[f.name] = MakeSig(f, d.name, {}, {}, self);
  generics_ = std::move(saved);
}

void Checker::CollectImpl(const ImplDecl& d) {
  TypeId self = SelfTypeOf(d.self_type, d.generics);
  std::string owner = OwnerName(self);
  if (owner.empty()) return;
  if (!d.trait_name.empty()) impls_[d.trait_name].insert(owner);
  std::vector<std::string> gens = d.generics;
  for (const TypeExpr& a : d.self_type.args)
    if (ImplicitGeneric(a) && std::find(gens.begin(), gens.end(), a.name) == gens.end())
      gens.push_back(a.name);
  std::vector<std::vector<std::string>> bounds = d.bounds;
  bounds.resize(gens.size());
  for (const FnDecl& f : d.fns) {
    auto& slot = methods_[owner];
    if (!slot.count(f.name)) slot[f.name] = MakeSig(f, owner, gens, bounds, self);
  }
}

// An agent's constructor parameters, state and messages (a handler's
// parameter typed by the protocol where the handler leaves it untyped).
void Checker::CollectAgent(AgentInfo& info) {
  const AgentDecl& a = *info.decl;
  for (const Param& p : a.ctor_params)
    info.ctor.push_back(p.type.kind == TypeExpr::Kind::kInfer ? t_.Var(p.loc) : FromType(p.type));
  for (const AgentState& s : a.state)
    info.state[s.name] = s.type.kind == TypeExpr::Kind::kInfer ? t_.Var(s.loc) : FromType(s.type);
  std::map<std::string, const ProtocolMsg*> declared;
  for (const std::string& pn : a.protocols) {
    auto p = g_.protocols.find(pn);
    if (p == g_.protocols.end()) continue;
    for (const ProtocolMsg& m : p->second->msgs) declared[m.name] = &m;
  }
  for (const Handler& h : a.handlers) {
    AgentInfo::Msg msg;
    msg.handler = &h;
    const ProtocolMsg* pm = declared.count(h.msg) ? declared[h.msg] : nullptr;
    for (size_t i = 0; i < h.params.size(); ++i)
      msg.params.push_back(
          HandlerParam(h.params[i], pm && i < pm->params.size() ? &pm->params[i] : nullptr));
    msg.reply =
        pm && pm->reply.kind != TypeExpr::Kind::kInfer ? FromType(pm->reply) : t_.Var(h.loc);
    info.msgs[h.msg] = std::move(msg);
  }
}

// A handler's parameter `p`: its own type (MT2034 when the protocol's
// parameter `declared` says otherwise), else the protocol's, else checked
// at run time.
TypeId Checker::HandlerParam(const Param& p, const Param* declared) {
  const bool typed = declared && declared->type.kind != TypeExpr::Kind::kInfer;
  if (p.type.kind == TypeExpr::Kind::kInfer)
    return typed ? FromType(declared->type) : t_.Prim(TK::kDyn);
  TypeId t = FromType(p.type);
  if (!typed) return t;
  TypeId want = FromType(declared->type);
  if (!t_.Unify(t, want)) {
    Diagnostic& d =
        diags_.Error("MT2034", p.type.loc.line ? p.type.loc : p.loc,
                     absl::StrCat("mismatched types: the handler's parameter `", p.name, "` is `",
                                  t_.Show(t), "`, its protocol declares `", t_.Show(want), "`"));
    d.labels.push_back(Label{declared->loc, {}, "the protocol declares it here"});
  }
  return t;
}

void Checker::CheckFnBody(const FnDecl& f, const FnSig& sig, TypeId self_ty) {
  if (!f.body && !f.expr_body) return;
  failed_ = false;  // one error per function at most: later ones may be echoes
  SigScope scope(*this, sig.generics, sig.bounds, self_ty);
  Push();
  size_t k = 0;
  for (const Param& p : f.params) {
    if (p.self_kind != Param::SelfKind::kNone || p.name == "self") {
      Bind("self", self_ty ? self_ty : t_.Prim(TK::kDyn), p.is_mut);
      continue;
    }
    Bind(p.name, k < sig.params.size() ? sig.params[k] : t_.Prim(TK::kDyn), true);
    ++k;
  }
  const bool declared = f.ret.kind != TypeExpr::Kind::kInfer;
  fn_.push_back(FnCtx{sig.ret, !declared, f.ret.loc, {}});
  if (f.body) {
    // Without `->` the body's value is dropped (docs/language.md §11).
    TypeId v = Block_(*f.body, declared ? sig.ret : t_.Prim(TK::kDyn));
    if (declared && !f.body->stmts.empty()) {
      const Stmt& last = f.body->stmts.back();
      if (last.kind == Stmt::Kind::kExpr && !last.has_semi && last.expr) {
        const size_t before = diags_.list().size();
        if (!Expect(v, sig.ret, *last.expr, "MT2019", "the declared result") &&
            diags_.list().size() > before && f.ret.loc.line) {
          // As rustc: the result type is shown where it is declared.
          Diagnostic& d = *diags_.Last();
          d.label = absl::StrCat("expected `", t_.Show(sig.ret), "`, found `", t_.Show(v), "`");
          d.labels.push_back(Label{f.ret.loc,
                                   {},
                                   absl::StrCat("expected `", t_.Show(sig.ret),
                                                "` because of the declared result type")});
        }
      } else if (!t_.Unify(v, sig.ret))
        Mismatch("MT2019", f.ret.loc, {}, sig.ret, v,
                 "the declared result (the body has no last expression to give it)");
    } else if (declared && !t_.Unify(v, sig.ret)) {
      Mismatch("MT2019", f.ret.loc, {}, sig.ret, v, "the declared result (the body is empty)");
    } else if (!declared && !f.body->stmts.empty()) {
      // As in Rust, a function without `->` returns `()`: a last
      // expression (no `;`) of another type is a mistake (E0308).
      const Stmt& last = f.body->stmts.back();
      const TK k = t_.Kind(v);
      if (last.kind == Stmt::Kind::kExpr && !last.has_semi && last.expr && !failed_ &&
          k != TK::kUnit && k != TK::kNever && k != TK::kVar && !t_.IsLoose(v)) {
        failed_ = true;
        const Expr& tail = Tail(*last.expr);
        Diagnostic& d = diags_.Error(
            "MT2019", tail.begin.line ? tail.begin : tail.loc,
            absl::StrCat("mismatched types: expected `()`, found `", t_.Show(v), "`"),
            absl::StrCat("`", f.name, "` declares no result, so it returns `()`: add `-> ",
                         t_.Show(v), "` to its signature, or end the expression with `;`"));
        d.end = tail.end;
      }
    }
  } else {
    TypeId v = Expr_(*f.expr_body, sig.ret);
    if (declared) Expect(v, sig.ret, *f.expr_body, "MT2019", "the declared result");
  }
  fn_.pop_back();
  Pop();
  Discharge();
}

void Checker::CheckImplAgainstTrait(const ImplDecl& impl) {
  auto tr = traits_.find(impl.trait_name);
  if (tr == traits_.end()) return;
  TypeId self = SelfTypeOf(impl.self_type, impl.generics);
  std::set<std::string> have;
  for (const FnDecl& f : impl.fns) have.insert(f.name);
  std::vector<std::string> missing;
  for (const auto& [name, sig] : tr->second.methods)
    if (!have.count(name) && sig.decl && !sig.decl->body && !sig.decl->expr_body)
      missing.push_back("`" + name + "`");
  if (!missing.empty()) {
    failed_ = true;
    Diagnostic& d = diags_.Error(
        "MT2033", impl.loc,
        absl::StrCat("not all trait items implemented, missing: ", absl::StrJoin(missing, ", ")),
        absl::StrCat("implement the missing method(s) in this `impl ", impl.trait_name, " for ",
                     TypeText(impl.self_type), "`"));
    d.end = NameEnd(impl.loc, "impl");
    if (tr->second.decl)
      d.labels.push_back(Label{tr->second.decl->loc, {}, "the trait is declared here"});
  }
  // Each method against the trait's signature, `Self` as the implementing type.
  for (const FnDecl& f : impl.fns) {
    auto want = tr->second.methods.find(f.name);
    if (want == tr->second.methods.end()) {
      failed_ = true;
      diags_
          .Error("MT2033", f.loc,
                 absl::StrCat("method `", f.name, "` is not a member of trait `", impl.trait_name,
                              "`"),
                 "remove it, or declare it in the trait")
          .end = NameEnd(f.loc, f.name);
      continue;
    }
    const FnSig& ws = want->second;
    const FnSig& hs = methods_[OwnerName(self)][f.name];
    if (hs.decl != &f) continue;  // another impl's method of that name is the one kept
    if (ws.params.size() != hs.params.size() || ws.has_self != hs.has_self) {
      failed_ = true;
      diags_
          .Error("MT2033", f.loc,
                 absl::StrCat("method `", f.name, "` has ", hs.params.size() + hs.has_self,
                              " parameter(s) but the declaration in trait `", impl.trait_name,
                              "` has ", ws.params.size() + ws.has_self),
                 absl::StrCat("the trait declares `", Signature(*ws.decl), "`"))
          .end = NameEnd(f.loc, f.name);
      continue;
    }
    std::vector<TypeId> all = ws.params;
    all.push_back(ws.ret);
    std::vector<TypeId> mine = hs.params;
    mine.push_back(hs.ret);
    for (size_t i = 0; i < all.size(); ++i) {
      TypeId w = t_.Subst(all[i], {"Self"}, {self});
      if (!t_.Fits(mine[i], w)) {
        failed_ = true;
        const bool is_ret = i + 1 == all.size();
        Loc at = is_ret ? f.ret.loc : f.loc;
        if (!is_ret) {
          size_t k = 0;
          for (const Param& p : f.params)
            if (p.self_kind == Param::SelfKind::kNone && p.name != "self" && k++ == i)
              at = p.type.loc;
        }
        diags_.Error("MT2033", at.line ? at : f.loc,
                     absl::StrCat("method `", f.name, "` has an incompatible type for trait `",
                                  impl.trait_name, "`: expected `", t_.Show(w), "`, found `",
                                  t_.Show(mine[i]), "`"),
                     absl::StrCat("the trait declares `", Signature(*ws.decl), "`"));
        break;
      }
    }
  }
}

void Checker::CheckProtocols() {
  for (auto& [name, info] : agents_) {
    const AgentDecl& a = *info.decl;
    for (const std::string& pn : a.protocols) {
      auto p = g_.protocols.find(pn);
      if (p == g_.protocols.end()) continue;
      for (const ProtocolMsg& m : p->second->msgs) {
        if (info.msgs.count(m.name)) continue;
        failed_ = true;
        Diagnostic& d = diags_.Error("MT1019", a.loc,
                                     absl::StrCat("agent `", a.name, "` has no handler for `",
                                                  m.name, "` of protocol `", pn, "`"),
                                     absl::StrCat("add `on ", m.name, "(..) -> ..` to the agent"));
        d.end = NameEnd(a.loc, a.name);
        d.labels.push_back(Label{m.loc, NameEnd(m.loc, m.name), "the message is declared here"});
      }
    }
  }
}

void Checker::CheckAgent(const AgentDecl& a) {
  AgentInfo& info = agents_[a.name];
  Push();
  for (size_t i = 0; i < a.ctor_params.size(); ++i) Bind(a.ctor_params[i].name, info.ctor[i]);
  fn_.push_back(FnCtx{t_.Prim(TK::kDyn), true, {}, {}});
  for (const AgentState& s : a.state)
    if (s.init) Expect(Expr_(*s.init, info.state[s.name]), info.state[s.name], *s.init, "MT2016");
  fn_.pop_back();
  for (const AgentState& s : a.state) Bind(s.name, info.state[s.name], true);
  // Helper functions: callable by name inside the handlers.
  std::map<std::string, FnSig> helpers;
  for (const FnDecl& f : a.fns) helpers[f.name] = MakeSig(f, "", {}, {}, 0);
  for (auto& [n, s] : helpers) {
    std::vector<TypeId> ps = s.params;
    Bind(n, t_.Fn(std::move(ps), s.ret));
  }
  for (const Handler& h : a.handlers) {
    AgentInfo::Msg& msg = info.msgs[h.msg];
    failed_ = false;
    Push();
    for (size_t i = 0; i < h.params.size(); ++i) Bind(h.params[i].name, msg.params[i], true);
    fn_.push_back(FnCtx{msg.reply, false, h.loc, {}});
    if (h.body) Expect(Expr_(*h.body, msg.reply), msg.reply, *h.body, "MT2019", "the reply");
    fn_.pop_back();
    Pop();
    Discharge();
  }
  for (const FnDecl& f : a.fns) CheckFnBody(f, helpers[f.name], 0);
  Pop();
}

void Checker::Run() {
  CollectItems();
  if (diags_.HasErrors() || g_.diags.HasErrors()) return;
  Push();  // the program's scope: consts are looked up by name
  for (const Item& it : m_.items) {
    switch (it.kind) {
      case Item::Kind::kFn:
        cur_fn_ = it.fn.name;
        CheckFnBody(it.fn, fns_[it.fn.name], 0);
        cur_fn_.clear();
        break;
      case Item::Kind::kImpl: {
        const ImplDecl& d = *it.impl_decl;
        TypeId self = SelfTypeOf(d.self_type, d.generics);
        std::string owner = OwnerName(self);
        if (!d.trait_name.empty()) CheckImplAgainstTrait(d);
        for (const FnDecl& f : d.fns) {
          auto& slot = methods_[owner];
          if (slot.count(f.name) && slot[f.name].decl == &f) CheckFnBody(f, slot[f.name], self);
        }
        break;
      }
      case Item::Kind::kTrait: {
        const TraitDecl& d = *it.trait_decl;
        TypeId self = t_.Make(TK::kParam, "Self", {});
        auto saved = generics_;
        generics_["Self"] = {d.name};
        for (const FnDecl& f : d.fns) CheckFnBody(f, traits_[d.name].methods[f.name], self);
        generics_ = std::move(saved);
        break;
      }
      case Item::Kind::kConst: {
        const ConstDecl& c = *it.const_decl;
        if (!c.value) break;
        fn_.push_back(FnCtx{t_.Prim(TK::kDyn), true, {}, {}});
        Expect(Expr_(*c.value, consts_[c.name]), consts_[c.name], *c.value, "MT2016");
        fn_.pop_back();
        Discharge();
        break;
      }
      case Item::Kind::kAgent: CheckAgent(*it.agent_decl); break;
      case Item::Kind::kSandbox:
        if (it.sandbox_decl->body) {
          fn_.push_back(FnCtx{t_.Prim(TK::kDyn), true, {}, {}});
          Block_(*it.sandbox_decl->body, t_.Prim(TK::kDyn));
          fn_.pop_back();
          Discharge();
        }
        break;
      case Item::Kind::kSupervisor:
        for (const SupervisorChild& c : it.supervisor_decl->children)
          if (c.spawn) {
            fn_.push_back(FnCtx{t_.Prim(TK::kDyn), true, {}, {}});
            Expr_(*c.spawn, t_.Prim(TK::kDyn));
            fn_.pop_back();
          }
        break;
      default: break;
    }
  }
  CheckProtocols();
  FindPerType();
  Pop();
  if (t_.exhausted && !diags_.HasErrors())
    diags_.Error("MT0033", Loc{},
                 absl::StrCat("type checking needs more than ", kMaxTypeNodes,
                              " types: the program is too large or its types grow without end"));
}

bool Checker::IsUnsigned(TypeId t) {
  const TNode& n = t_.At(t);
  return n.kind == TK::kInt && !n.name.empty() && (n.name[0] == 'U');
}

bool Checker::Implements(TypeId t, const std::string& trait) {
  if (trait == "Neg" && !traits_.count(trait) && IsUnsigned(t)) return false;
  // Floats are only partially ordered and have no exact equality: no `Eq`,
  // `Ord` or `Hash` for a type holding one (rustc's E0277).
  if ((trait == "Eq" || trait == "Ord" || trait == "Hash") && !traits_.count(trait) &&
      (t_.Contains(t, TK::kFloat) || t_.Contains(t, TK::kFloatVar)))
    return false;
  if (IsMarkerTrait(trait) || !traits_.count(trait)) return true;
  t = t_.Find(t);
  const TNode& n = t_.At(t);
  switch (n.kind) {
    case TK::kVar:
    case TK::kDyn:
    case TK::kErr:
    case TK::kNever: return true;
    case TK::kParam: {
      auto g = generics_.find(n.name);
      if (g == generics_.end()) return true;
      return std::find(g->second.begin(), g->second.end(), trait) != g->second.end();
    }
    case TK::kDynTrait: return n.name == trait;
    default: break;
  }
  auto it = impls_.find(trait);
  return it != impls_.end() && it->second.count(OwnerName(t));
}

void Checker::Discharge() {
  SettleAll();
  std::vector<Obligation> list;
  list.swap(obligations_);
  for (const Obligation& o : list) {
    if (Implements(o.ty, o.trait) || failed_) continue;
    failed_ = true;
    const TNode& n = t_.At(o.ty);
    if (o.trait == "Neg" && !traits_.count(o.trait)) {
      diags_.Error("MT2029", o.at,
                   absl::StrCat("cannot apply unary operator `-` to type `", t_.Show(o.ty), "`"),
                   "unsigned values cannot be negative: write the value in a signed type, or "
                   "`0 - x` to trap when it is not 0");
      continue;
    }
    const bool float_order = (o.trait == "Eq" || o.trait == "Ord" || o.trait == "Hash") &&
                             n.kind != TK::kParam && !traits_.count(o.trait);
    std::string help =
        float_order ? std::string(
                          "a float is only partially ordered and has no exact equality: bound "
                          "`PartialOrd`/`PartialEq` instead, or compare with `total_cmp`")
        : n.kind == TK::kParam
            ? absl::StrCat("add the bound where `", n.name, "` is declared: `", n.name, ": ",
                           o.trait, "`")
            : absl::StrCat("implement it: `impl ", o.trait, " for ", t_.Show(o.ty), " { .. }`");
    diags_.Error(
        "MT2032", o.at,
        absl::StrCat("the trait bound `", t_.Show(o.ty), ": ", o.trait, "` is not satisfied"),
        help);
  }
  // `let xs = []` whose element type nothing fixed.
  std::vector<Pending> pend;
  pend.swap(pending_);
  for (const Pending& p : pend) {
    if (failed_ || !t_.HasVar(p.ty)) continue;
    failed_ = true;
    diags_
        .Error("MT2024", p.at,
               absl::StrCat("type annotations needed for `", p.name, "`: its type is `",
                            t_.Show(p.ty), "` and nothing in the function tells what `_` is"),
               absl::StrCat("give it a type: `let ", p.name, ": ", t_.Show(p.ty),
                            " = ...` with the type you mean in place of `_`"))
        .end = NameEnd(p.at, p.name);
  }
}

void Checker::Mismatch(const char* code, Loc loc, Loc end, TypeId want, TypeId found,
                       const std::string& what) {
  if (failed_) return;  // one mistake, one error: later ones may be its echoes
  failed_ = true;
  Diagnostic& d = diags_.Error(code, loc,
                               absl::StrCat("mismatched types: expected `", t_.Show(want),
                                            "`, found `", t_.Show(found), "`"));
  d.end = end;
  if (!what.empty()) d.label = "expected `" + t_.Show(want) + "` because of " + what;
  if (t_.too_deep) {
    d.note = absl::StrCat("the types nest deeper than ", kMaxTypeDepth, " levels");
    t_.too_deep = false;
  }
}

const Expr& Checker::Tail(const Expr& e) {
  const Expr* x = &e;
  for (int i = 0; i < 64 && (x->kind == Expr::Kind::kBlock || x->kind == Expr::Kind::kUnsafe) &&
                  x->then_block && !x->then_block->stmts.empty();
       ++i) {
    const Stmt& s = x->then_block->stmts.back();
    if (s.kind != Stmt::Kind::kExpr || s.has_semi || !s.expr) break;
    x = s.expr.get();
  }
  return *x;
}

bool Checker::Expect(TypeId found, TypeId want, const Expr& at, const char* code,
                     const std::string& what) {
  // A value of a type that implements a trait where `dyn Trait` is wanted.
  if (TypeId w = t_.Find(want); t_.Kind(w) == TK::kDynTrait) {
    TypeId f = t_.Find(found);
    TK fk = t_.Kind(f);
    if (fk != TK::kVar && fk != TK::kDynTrait && !t_.IsLoose(f) && fk != TK::kNever) {
      if (Implements(f, t_.At(w).name)) return true;
      if (!failed_) {
        failed_ = true;
        const Expr& x = Tail(at);
        diags_.Error("MT2032", x.begin.line ? x.begin : x.loc,
                     absl::StrCat("the trait bound `", t_.Show(f), ": ", t_.At(w).name,
                                  "` is not satisfied"),
                     absl::StrCat("a `dyn ", t_.At(w).name, "` needs a value whose type has `impl ",
                                  t_.At(w).name, " for ", t_.Show(f), "`"));
      }
      return false;
    }
  }
  if (t_.Unify(found, want)) return true;
  const Expr& x = Tail(at);
  Mismatch(code, x.begin.line ? x.begin : x.loc, x.begin.line ? x.end : Loc{}, want, found, what);
  return false;
}

}  // namespace mty::frontend::tc
