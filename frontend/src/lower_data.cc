// The data-type forms (issue #16): tuple structs (`struct Pair(I64, Str)`,
// `Pair(1, "a")`, `p.0`, `Pair(a, b)` patterns), unit structs (`Marker`),
// struct-like enum variants (`Shape.Circle { r: 1.0 }`, `Circle { r, .. }`
// patterns), struct update (`Point { x: 1, ..base }`) and array repetition
// (`[x; n]`).
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lower_internal.h"

namespace mty::frontend {

using K = Expr::Kind;

bool IsTupleStruct(const AdtDef& a) {
  return !a.is_enum && !a.variants.empty() && !a.variants[0].fields.empty() &&
         a.variants[0].fields[0].name.empty();
}

bool IsStructLike(const VariantDef& v) { return !v.fields.empty() && !v.fields[0].name.empty(); }

std::string FieldList(const VariantDef& v) {
  std::string out;
  for (size_t i = 0; i < v.fields.size(); ++i)
    absl::StrAppend(&out, i ? ", " : "", v.fields[i].name, ": ..");
  return out;
}

std::optional<FnLowerer::Val> FnLowerer::LowerStructCall(const std::string& written,
                                                         const Expr& e) {
  const std::string name = SelfName(written);
  auto it = g_.adts.find(name);
  if (it == g_.adts.end() || it->second.is_enum) return std::nullopt;
  const AdtDef& adt = it->second;
  const Loc at = e.lhs ? e.lhs->loc : e.loc;
  if (!IsTupleStruct(adt)) {
    Error("MT2008", at,
          adt.variants[0].fields.empty()
              ? absl::StrCat("`", name, "` is a unit struct: write `", name, "` without `(..)`")
              : absl::StrCat("`", name, "` has named fields: write `", name, " { ",
                             FieldList(adt.variants[0]), " }`"))
        .end = NameEnd(at, written);
    return Unit();
  }
  const auto& fields = adt.variants[0].fields;
  if (e.args.size() != fields.size()) {
    Error("MT2008", at,
          absl::StrCat("tuple struct `", name, "` has ", fields.size(), " field(s), given ",
                       e.args.size()))
        .end = NameEnd(at, written);
    return Unit();
  }
  std::vector<Operand> ops;
  for (size_t i = 0; i < e.args.size(); ++i) {
    const TyP& want = fields[i].ty;
    if (want && !MentionsAny(*want, adt.generics)) {
      Loc decl = adt.struct_decl && i < adt.struct_decl->fields.size()
                     ? adt.struct_decl->fields[i].second.loc
                     : Loc{};
      CheckValue(*e.args[i], want, "MT2018",
                 absl::StrCat("mismatched types in field ", i, " of `", name, "`: "), decl,
                 absl::StrCat("field ", i, " is declared `", want->Name(), "`"));
    }
    ops.push_back(LowerAs(*e.args[i], FieldWant(adt, fields[i])).op);
  }
  return Emit(AdtInit(name, "", std::move(ops)), Ty::Adt(name));
}

std::optional<FnLowerer::Val> FnLowerer::LowerUnitStruct(const std::string& written, Loc loc) {
  const std::string name = SelfName(written);
  auto it = g_.adts.find(name);
  if (it == g_.adts.end() || it->second.is_enum || name.rfind("__", 0) == 0) return std::nullopt;
  if (!it->second.variants.empty() && !it->second.variants[0].fields.empty()) {
    const VariantDef& v = it->second.variants[0];
    Error("MT2007", loc,
          IsTupleStruct(it->second)
              ? absl::StrCat("`", name, "` is a tuple struct: construct it as `", name, "(..)`")
              : absl::StrCat("`", name, "` has fields: write `", name, " { ", FieldList(v), " }`"))
        .end = NameEnd(loc, written);
    return Unit();
  }
  return Emit(AdtInit(name, "", {}), Ty::Adt(name));
}

bool FnLowerer::TupleStructIndex(const TyP& bt, int64_t index, Loc loc, uint32_t* fi, TyP* fty) {
  if (!bt->Is(Ty::Kind::kAdt)) return false;
  auto it = g_.adts.find(bt->name);
  if (it == g_.adts.end() || it->second.is_enum) return false;
  const auto& fields = it->second.variants[0].fields;
  if (!IsTupleStruct(it->second) || index < 0 || static_cast<size_t>(index) >= fields.size()) {
    Error("MT2002", loc,
          IsTupleStruct(it->second) ? absl::StrCat("tuple struct `", bt->name, "` has no field ",
                                                   index, " (it has ", fields.size(), ")")
                                    : absl::StrCat("struct `", bt->name, "` has no field `", index,
                                                   "`: its fields have names"));
    *fi = 0;
    *fty = Ty::Unknown();
    return true;
  }
  *fi = static_cast<uint32_t>(index);
  *fty = Subst(fields[index].ty, bt->name, bt);
  return true;
}

bool FnLowerer::LowerFieldInits(const Expr& e, const std::string& shown, const AdtDef& adt,
                                const VariantDef& v, std::vector<Operand>* out) {
  const auto& fields = v.fields;
  std::vector<std::optional<Operand>> ops(fields.size());
  bool ok = true;
  for (const FieldInit& f : e.more->fields) {
    size_t fi = fields.size();
    for (size_t i = 0; i < fields.size(); ++i)
      if (!fields[i].name.empty() && fields[i].name == f.name) fi = i;
    if (fi == fields.size()) {
      Error("MT2002", f.loc,
            absl::StrCat(adt.is_enum ? "variant `" : "struct `", shown, "` has no field named `",
                         f.name, "`"),
            g_.suggest.Help(f.name,
                            [&] {
                              std::vector<std::string> names;
                              for (const FieldDef& fd : fields) names.push_back(fd.name);
                              return names;
                            }))
          .end = NameEnd(f.loc, f.name);
      ok = false;
      continue;
    }
    if (ops[fi]) {
      Error("MT2012", f.loc, absl::StrCat("field `", f.name, "` specified more than once"));
      ok = false;
      continue;
    }
    if (f.value) {
      // A field of a generic type whose type mentions a parameter is not checked.
      const TyP& want = fields[fi].ty;
      if (want && !MentionsAny(*want, adt.generics)) {
        Loc decl = adt.struct_decl && fi < adt.struct_decl->fields.size()
                       ? adt.struct_decl->fields[fi].second.loc
                       : Loc{};
        CheckValue(*f.value, want, "MT2018",
                   absl::StrCat("mismatched types in field `", f.name, "` of `", shown, "`: "),
                   decl, absl::StrCat("`", f.name, "` is declared `", want->Name(), "`"));
      }
      ops[fi] = LowerAs(*f.value, FieldWant(adt, fields[fi])).op;
    } else {
      Expr p;
      p.kind = K::kPath;
      p.loc = f.loc;
      p.segs = {{f.name, f.loc}};
      ops[fi] = Coerce(LowerExpr(p), FieldWant(adt, fields[fi])).op;
    }
  }
  if (e.rhs) {
    // `..base`: evaluated once, after the named fields; the fields not
    // named are copied from it.
    const Expr& b = *e.rhs;
    if (adt.is_enum) {
      Error("MT2018", b.loc,
            absl::StrCat("struct update `..base` is for structs, not the variant `", shown, "`"));
      return false;
    }
    std::string what;
    TyP known = KnownTy(b, &what);
    Val bv = LowerExpr(b);
    TyP bt = known ? known : bv.ty;
    while (bt->Is(Ty::Kind::kRef)) bt = bt->Arg(0);
    if (!bt->Is(Ty::Kind::kUnknown) && !(bt->Is(Ty::Kind::kAdt) && bt->name == adt.name)) {
      const bool spanned = b.begin.line != 0 && b.begin.line == b.end.line;
      Diagnostic& d =
          Error("MT2018", spanned ? b.begin : b.loc,
                absl::StrCat("mismatched types in struct update: the base of `", adt.name,
                             " { .. }` must be a `", adt.name, "`, found `", bt->Name(), "`"));
      if (spanned) d.end = b.end;
      return false;
    }
    uint32_t bl = ToLocal(bv);
    Place base{bl, {}};
    TyP t = bv.ty;
    AutoDeref(base, t, nullptr);
    for (size_t i = 0; i < fields.size(); ++i) {
      if (ops[i]) continue;
      Place q = base;
      q.proj.push_back({ir::Projection::Kind::kField, static_cast<uint32_t>(i), 0});
      ops[i] = Emit(UseR(Operand::Copy(q)), fields[i].ty).op;
    }
  }
  std::vector<std::string> missing;
  for (size_t i = 0; i < fields.size(); ++i)
    if (!ops[i]) missing.push_back(fields[i].name);
  if (!missing.empty()) {
    std::string list;
    for (size_t i = 0; i < missing.size(); ++i) list += (i ? ", `" : "`") + missing[i] + "`";
    Error("MT2007", e.loc,
          absl::StrCat("missing field(s) ", list, " in initializer of `", shown, "`"),
          adt.is_enum ? "" : "give them, or take the rest from a value with `..base`");
    return false;
  }
  if (!ok) return false;
  for (auto& o : ops) out->push_back(*o);
  return true;
}

std::optional<FnLowerer::Val> FnLowerer::LowerVariantStruct(const Expr& e) {
  if (e.segs.empty()) return std::nullopt;
  std::vector<PathSeg> segs = e.segs;
  for (PathSeg& s : segs) s.name = SelfName(s.name);
  if (segs.size() == 1) {
    // A bare `Circle { r: 1.0 }`: a variant only when no struct has the name.
    auto it = g_.adts.find(segs[0].name);
    if (it != g_.adts.end()) return std::nullopt;
    if (!g_.BareVariantOwner(segs[0].name)) return std::nullopt;
  }
  std::string adt;
  uint32_t vi = 0;
  const VariantDef* vd = ResolveVariantPath(segs, nullptr, &adt, &vi, e.loc);
  if (!vd) return Unit();
  const std::string shown = adt + "::" + vd->name;
  if (!IsStructLike(*vd) && !(vd->fields.empty() && e.more->fields.empty() && !e.rhs)) {
    AddVariantLabel(
        Error("MT2008", e.loc,
              absl::StrCat("variant `", shown, "` has positional fields: write `", shown, "(..)`")),
        adt, *vd);
    return Unit();
  }
  std::vector<Operand> ops;
  if (!LowerFieldInits(e, shown, g_.adts.at(adt), *vd, &ops)) return Unit();
  return Emit(AdtInit(adt, vd->name, std::move(ops)), Ty::Adt(adt));
}

bool FnLowerer::MatchTupleStruct(const Pattern& p, const Place& place, TyP ty, uint32_t fail,
                                 std::map<std::string, uint32_t>& binds) {
  if (p.path.size() != 1) return false;
  const std::string name = SelfName(p.path[0].name);
  auto it = g_.adts.find(name);
  if (it == g_.adts.end() || it->second.is_enum || name.rfind("__", 0) == 0) return false;
  const AdtDef& adt = it->second;
  const auto& fields = adt.variants[0].fields;
  auto bind_all = [&] {
    for (const PatPtr& sub : p.subs) BindNamesOnly(*sub, place, binds);
  };
  if (p.has_parens && !IsTupleStruct(adt)) {
    Error("MT2008", p.loc,
          fields.empty() ? absl::StrCat("`", name, "` is a unit struct: match it as `", name, "`")
                         : absl::StrCat("`", name, "` has named fields: match it as `", name, " { ",
                                        FieldList(adt.variants[0]), " }`"));
    bind_all();
    return true;
  }
  if (!p.has_parens && !fields.empty()) {
    Error("MT2008", p.loc,
          absl::StrCat("`", name, "` has ", fields.size(), " field(s): match them as `", name,
                       IsTupleStruct(adt) ? "(..)`" : " { .. }`"));
    return true;
  }
  if (p.subs.size() != fields.size()) {
    Error("MT2008", p.loc,
          absl::StrCat("tuple struct `", name, "` has ", fields.size(),
                       " field(s), the pattern has ", p.subs.size()));
    bind_all();
    return true;
  }
  TyP self = ty && ty->Is(Ty::Kind::kAdt) && ty->name == name ? ty : Ty::Adt(name);
  for (size_t i = 0; i < p.subs.size(); ++i) {
    Place q = place;
    q.proj.push_back({ir::Projection::Kind::kField, static_cast<uint32_t>(i), 0});
    MatchPattern(*p.subs[i], q, Subst(fields[i].ty, name, self), fail, binds);
  }
  return true;
}

bool FnLowerer::MatchVariantStruct(const Pattern& p, const Place& place, TyP ty, uint32_t fail,
                                   std::map<std::string, uint32_t>& binds) {
  if (p.path.empty()) return false;
  std::vector<PathSeg> segs = p.path;
  for (PathSeg& s : segs) s.name = SelfName(s.name);
  if (segs.size() == 1) {
    if (g_.adts.count(segs[0].name)) return false;  // a struct pattern
    bool expected = ty && ty->Is(Ty::Kind::kAdt) && g_.FindVariant(ty->name, segs[0].name, nullptr);
    if (!expected && !g_.BareVariantOwner(segs[0].name)) return false;
  }
  std::string adt;
  uint32_t vi = 0;
  const VariantDef* vd = ResolveVariantPath(segs, ty, &adt, &vi, p.loc);
  auto bind_all = [&] {
    for (const PatPtr& sub : p.subs) BindNamesOnly(*sub, place, binds);
  };
  if (!vd) {
    bind_all();
    return true;
  }
  const std::string shown = adt + "::" + vd->name;
  if (!IsStructLike(*vd) && !(vd->fields.empty() && p.subs.empty())) {
    AddVariantLabel(Error("MT2008", p.loc,
                          absl::StrCat("variant `", shown, "` has positional fields: match it as `",
                                       shown, "(..)`")),
                    adt, *vd);
    bind_all();
    return true;
  }
  std::vector<uint32_t> idx;
  bool bad = false;
  for (size_t i = 0; i < p.subs.size(); ++i) {
    size_t fi = vd->fields.size();
    for (size_t j = 0; j < vd->fields.size(); ++j)
      if (vd->fields[j].name == p.field_names[i]) fi = j;
    if (fi == vd->fields.size()) {
      Error("MT2002", p.loc,
            absl::StrCat("variant `", shown, "` has no field named `", p.field_names[i], "`"),
            g_.suggest.Help(p.field_names[i], [&] {
              std::vector<std::string> near;
              for (const FieldDef& fd : vd->fields) near.push_back(fd.name);
              return near;
            }));
      bad = true;
    }
    idx.push_back(static_cast<uint32_t>(fi));
  }
  if (!p.has_rest && !bad && p.subs.size() < vd->fields.size()) {
    std::string list;
    for (const FieldDef& fd : vd->fields) {
      bool named = false;
      for (const std::string& n : p.field_names) named |= n == fd.name;
      if (!named) list += (list.empty() ? "`" : ", `") + fd.name + "`";
    }
    Error("MT2007", p.loc,
          absl::StrCat("pattern does not mention field(s) ", list, " of `", shown, "`"),
          "name them, or ignore the rest with `..`");
    bad = true;
  }
  if (bad) {
    bind_all();
    return true;
  }
  SwitchToVariant(place, vi, fail);
  for (size_t i = 0; i < p.subs.size(); ++i) {
    Place q = place;
    q.proj.push_back({ir::Projection::Kind::kVariantField, idx[i], vi});
    MatchPattern(*p.subs[i], q, Subst(vd->fields[idx[i]].ty, adt, ty), fail, binds);
  }
  return true;
}

std::string Globals::BuiltinOwner(const Ty& t) const {
  if (t.Is(Ty::Kind::kAdt) || t.Is(Ty::Kind::kCap)) return "";
  std::optional<ir::Recv> r = RecvOf(t);
  return r ? ir::RecvTypeName(*r) : "";
}

std::string Globals::BuiltinOwner(const TypeExpr& t) {
  if (t.kind == TypeExpr::Kind::kPath && adts.count(t.name)) return "";
  const bool quiet = resolve_quiet;
  resolve_quiet = true;
  TyP ty = Resolve(t);
  resolve_quiet = quiet;
  return BuiltinOwner(*ty);
}

TyP Globals::SelfTy(const std::string& owner) const {
  if (adts.count(owner)) return Ty::Adt(owner);
  std::optional<ir::Recv> r = ir::RecvOfTypeName(owner);
  if (!r) return Ty::Adt(owner);
  using R = ir::Recv;
  switch (*r) {
    case R::kStr: return Ty::Make(Ty::Kind::kStr);
    case R::kArray: return Ty::With(Ty::Kind::kArray, {Ty::Unknown()});
    case R::kMap: return Ty::With(Ty::Kind::kMap, {Ty::Unknown(), Ty::Unknown()});
    case R::kInt: return Ty::Make(Ty::Kind::kInt);
    case R::kFloat: return Ty::Make(Ty::Kind::kFloat);
    case R::kDuration: return Ty::Make(Ty::Kind::kDuration);
    case R::kSize: return Ty::Make(Ty::Kind::kSize);
    case R::kBool: return Ty::Make(Ty::Kind::kBool);
    case R::kChar: return Ty::Make(Ty::Kind::kChar);
    default: return Ty::Unknown();  // a tuple of any arity
  }
}

std::string FnLowerer::BuiltinKindMethod(const Ty& base, const std::string& name, bool* is_mut) {
  std::string owner = g_.BuiltinOwner(base);
  if (owner.empty() || IsKnownMethod(base, name)) return "";
  auto m = g_.methods.find(owner);
  if (m == g_.methods.end() || !m->second.count(name)) return "";
  const std::string& fn = m->second.at(name);
  *is_mut = g_.fns.at(fn).self_kind == Param::SelfKind::kRefMut;
  return fn;
}

FnLowerer::Val FnLowerer::LowerArrayRepeat(const Expr& e) {
  // `[x; n]`: x once, then n copies of it, built by the prelude's loop so
  // each element is charged its steps and memory as it is added (a huge n
  // stops at the budget); a negative n traps MT5001.
  Val x = LowerExpr(*e.args[0]);
  Val n = LowerExpr(*e.rhs);
  if (!n.ty->Is(Ty::Kind::kUnknown) && !n.ty->Is(Ty::Kind::kInt)) {
    const Expr& c = *e.rhs;
    const bool spanned = c.begin.line != 0 && c.begin.line == c.end.line;
    Diagnostic& d = Error("MT2016", spanned ? c.begin : c.loc,
                          absl::StrCat("mismatched types: the count of `[x; n]` must be an "
                                       "integer, found `",
                                       n.ty->Name(), "`"));
    if (spanned) d.end = c.end;
    return Unit();
  }
  return CallPrelude("array_repeat", {x.op, n.op}, Ty::With(Ty::Kind::kArray, {x.ty}));
}

}  // namespace mty::frontend
