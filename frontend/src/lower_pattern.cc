// Pattern lowering: tests and bindings of `let`, `if let`, `while let`,
// `for` and closure-parameter patterns, variant paths, and `match`.
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lower_internal.h"

namespace mty::frontend {

// Continues in a new block when the value at `place` is variant `vi`,
// else at `fail`: the variant test of every variant pattern.
void FnLowerer::SwitchToVariant(const Place& place, uint32_t vi, uint32_t fail) {
  ir::Terminator t;
  t.kind = ir::Terminator::Kind::kSwitchVariant;
  t.op = Operand::Copy(place);
  uint32_t ok = NewBlock();
  t.cases.push_back({static_cast<int64_t>(vi), ok});
  t.target = fail;
  SetTerm(std::move(t));
  SetBlock(ok);
}

void FnLowerer::MatchPattern(const Pattern& p, const Place& place, TyP ty, uint32_t fail,
                             std::map<std::string, uint32_t>& binds) {
  while (ty->Is(Ty::Kind::kRef) && p.kind != Pattern::Kind::kRef &&
         p.kind != Pattern::Kind::kBind && p.kind != Pattern::Kind::kWild) {
    // Matching through a reference looks at the referent.
    Place q = place;
    q.proj.push_back({ir::Projection::Kind::kDeref, 0, 0});
    return MatchPattern(p, q, ty->Arg(0), fail, binds);
  }
  switch (p.kind) {
    case Pattern::Kind::kWild: return;
    case Pattern::Kind::kBind: {
      if (!p.subs.empty()) MatchPattern(*p.subs[0], place, ty, fail, binds);
      Bind(p.name, p.is_mut, place, ty, binds, p.loc);
      return;
    }
    case Pattern::Kind::kLit: {
      Val lit = LowerExpr(*p.lit);
      Require(Compare(ir::BinOp::kEq, Operand::Copy(place), lit.op).op, fail);
      return;
    }
    case Pattern::Kind::kRange: {
      // Either bound may be open: `5..`, `..=9`, `..9`.
      if (p.lit) {
        Val lo = LowerExpr(*p.lit);
        Require(Compare(ir::BinOp::kGe, Operand::Copy(place), lo.op).op, fail);
      }
      if (!p.hi) return;
      Val hi = LowerExpr(*p.hi);
      Require(
          Compare(p.inclusive ? ir::BinOp::kLe : ir::BinOp::kLt, Operand::Copy(place), hi.op).op,
          fail);
      return;
    }
    case Pattern::Kind::kTuple: {
      for (size_t i = 0; i < p.subs.size(); ++i) {
        Place q = place;
        q.proj.push_back({ir::Projection::Kind::kTupleIndex, static_cast<uint32_t>(i), 0});
        MatchPattern(*p.subs[i], q, ty->Is(Ty::Kind::kTuple) ? ty->Arg(i) : Ty::Unknown(), fail,
                     binds);
      }
      return;
    }
    case Pattern::Kind::kSlice: MatchSlice(p, place, ty, fail, binds); return;
    case Pattern::Kind::kRef: {
      // `&x` over a value known not to be a reference (`for &x in v`, where
      // elements are values) matches the value itself, as Rust's `&x` over
      // `v.iter()` gives the element.
      if (!ty->Is(Ty::Kind::kRef) && !ty->Is(Ty::Kind::kUnknown)) {
        MatchPattern(*p.subs[0], place, ty, fail, binds);
        return;
      }
      Place q = place;
      q.proj.push_back({ir::Projection::Kind::kDeref, 0, 0});
      MatchPattern(*p.subs[0], q, ty->Is(Ty::Kind::kRef) ? ty->Arg(0) : Ty::Unknown(), fail, binds);
      return;
    }
    case Pattern::Kind::kOr: {
      uint32_t done = NewBlock();
      for (size_t i = 0; i < p.subs.size(); ++i) {
        bool last = i + 1 == p.subs.size();
        uint32_t next = last ? fail : NewBlock();
        MatchPattern(*p.subs[i], place, ty, next, binds);
        Goto(done);
        if (!last) SetBlock(next);
      }
      SetBlock(done);
      return;
    }
    case Pattern::Kind::kVariant: MatchVariant(p, place, ty, fail, binds); return;
    case Pattern::Kind::kStruct: MatchStruct(p, place, ty, fail, binds); return;
  }
}

// `Some(x)`, `Shape.Empty`, `Pair(a, b)` (a tuple struct): the variant test,
// then each payload field.
void FnLowerer::MatchVariant(const Pattern& p, const Place& place, TyP ty, uint32_t fail,
                             std::map<std::string, uint32_t>& binds) {
  if (MatchTupleStruct(p, place, ty, fail, binds)) return;
  std::string adt;
  uint32_t vi = 0;
  const VariantDef* vd = ResolveVariantPath(p.path, ty, &adt, &vi, p.loc);
  if (!vd) {
    if (!p.has_parens && p.path.size() == 1 && !IsUpper(p.path[0].name)) {
      Bind(p.path[0].name, false, place, ty, binds, p.path[0].loc);
    }
    // After an error, still bind the sub-patterns' names so that uses
    // in the arm do not report follow-on errors.
    for (const PatPtr& sub : p.subs) BindNamesOnly(*sub, place, binds);
    return;
  }
  if (IsStructLike(*vd)) {
    AddVariantLabel(
        Error("MT2008", p.loc,
              absl::StrCat("variant `", adt, "::", vd->name, "` has named fields: match it as `",
                           adt, "::", vd->name, " { ", vd->fields[0].name, ", .. }`")),
        adt, *vd);
    for (const PatPtr& sub : p.subs) BindNamesOnly(*sub, place, binds);
    return;
  }
  if (p.has_parens && p.subs.size() != vd->arity) {
    AddVariantLabel(Error("MT2008", p.loc,
                          absl::StrCat("variant `", adt, "::", vd->name, "` has ", vd->arity,
                                       " field(s), the pattern has ", p.subs.size())),
                    adt, *vd);
    return;
  }
  SwitchToVariant(place, vi, fail);
  for (size_t i = 0; i < p.subs.size(); ++i) {
    Place q = place;
    q.proj.push_back({ir::Projection::Kind::kVariantField, static_cast<uint32_t>(i), vi});
    TyP fty = i < vd->fields.size() ? Subst(vd->fields[i].ty, adt, ty) : Ty::Unknown();
    MatchPattern(*p.subs[i], q, fty, fail, binds);
  }
  return;
}

// `P { x, y: 0, .. }`: each named field (a variant's: MatchVariantStruct).
void FnLowerer::MatchStruct(const Pattern& p, const Place& place, TyP ty, uint32_t fail,
                            std::map<std::string, uint32_t>& binds) {
  if (MatchVariantStruct(p, place, ty, fail, binds)) return;
  std::string name = SelfName(p.path.empty() ? "" : p.path.back().name);
  auto it = g_.adts.find(name);
  if (it == g_.adts.end()) {
    Error("MT1003", p.loc, absl::StrCat("cannot find struct `", name, "` in this scope"),
          g_.suggest.Help(name, [&] { return g_.TypeNames(); }));
    return;
  }
  if (it->second.is_enum) {
    Error("MT2003", p.loc, absl::StrCat("`", name, "` is an enum, not a struct"));
    return;
  }
  for (size_t i = 0; i < p.subs.size(); ++i) {
    uint32_t fi;
    const FieldDef* f = g_.FindField(name, p.field_names[i], &fi);
    if (!f) {
      Error("MT2002", p.loc,
            absl::StrCat("struct `", name, "` has no field named `", p.field_names[i], "`"),
            g_.suggest.Help(p.field_names[i], [&] {
              std::vector<std::string> near;
              for (const FieldDef& fd : it->second.variants[0].fields) near.push_back(fd.name);
              return near;
            }));
      continue;
    }
    Place q = place;
    q.proj.push_back({ir::Projection::Kind::kField, fi, 0});
    MatchPattern(*p.subs[i], q, f->ty, fail, binds);
  }
  return;
}

// `[a, b, rest @ .., z]`: a length test (`== n` without `..`, `>= n - 1`
// with it), then each element by its index from the front (before the
// `..`) or from the back (after it); `rest @ ..` binds the elements between
// (the array method `slice`). Linear in the pattern's size.
void FnLowerer::MatchSlice(const Pattern& p, const Place& place, TyP ty, uint32_t fail,
                           std::map<std::string, uint32_t>& binds) {
  if (!ty->Is(Ty::Kind::kUnknown) && !ty->Is(Ty::Kind::kArray)) {
    Error(
        "MT2020", p.loc,
        absl::StrCat("mismatched types: a slice pattern needs an array, found `", ty->Name(), "`"));
    BindNamesOnly(p, place, binds);
    return;
  }
  const TyP elem = ty->Is(Ty::Kind::kArray) ? ty->Arg(0) : Ty::Unknown();
  const TyP int_ty = Ty::Make(Ty::Kind::kInt);
  const bool has_rest = p.rest_index >= 0;
  const int64_t fixed = static_cast<int64_t>(p.subs.size()) - (has_rest ? 1 : 0);
  Rvalue len;
  len.kind = Rvalue::Kind::kLen;
  len.ops = {Operand::Copy(place)};
  uint32_t n = ToLocal(Emit(std::move(len), int_ty));
  Require(Compare(has_rest ? ir::BinOp::kGe : ir::BinOp::kEq, Operand::Copy(Place{n, {}}),
                  ConstOp(ir::Constant::Int(fixed)))
              .op,
          fail);
  auto from_back = [&](int64_t k) {  // n - k
    return ToLocal(Emit(
        BinR(ir::BinOp::kSub, Operand::Copy(Place{n, {}}), ConstOp(ir::Constant::Int(k))), int_ty));
  };
  const int64_t size = static_cast<int64_t>(p.subs.size());
  for (int64_t i = 0; i < size; ++i) {
    const Pattern& sub = *p.subs[i];
    if (i == p.rest_index) {
      if (sub.kind != Pattern::Kind::kBind) continue;  // a bare `..`
      Rvalue r;
      r.kind = Rvalue::Kind::kMethodCall;
      r.place = place;
      r.name = "slice";
      r.ops = {ConstOp(ir::Constant::Int(i)), Operand::Copy(Place{from_back(size - 1 - i), {}})};
      uint32_t rest = ToLocal(Emit(std::move(r), ty->Is(Ty::Kind::kArray) ? ty : Ty::Unknown()));
      Bind(sub.name, sub.is_mut, Place{rest, {}}, ty, binds, sub.loc);
      continue;
    }
    if (sub.kind == Pattern::Kind::kWild) continue;
    uint32_t idx = has_rest && i > p.rest_index
                       ? from_back(size - i)
                       : ToLocal(Val{ConstOp(ir::Constant::Int(i)), int_ty});
    Place q = place;
    q.proj.push_back({ir::Projection::Kind::kIndex, idx, 0});
    MatchPattern(sub, q, elem, fail, binds);
  }
}

void FnLowerer::BindNamesOnly(const Pattern& p, const Place& place,
                              std::map<std::string, uint32_t>& binds) {
  if (p.kind == Pattern::Kind::kBind) Bind(p.name, p.is_mut, place, Ty::Unknown(), binds, p.loc);
  for (const PatPtr& sub : p.subs) BindNamesOnly(*sub, place, binds);
}

void FnLowerer::Bind(const std::string& name, bool is_mut, const Place& place, TyP ty,
                     std::map<std::string, uint32_t>& binds, Loc loc) {
  if (name == "_" || name.empty()) return;
  auto it = binds.find(name);
  uint32_t l;
  if (it != binds.end()) {
    l = it->second;
  } else {
    l = NamedLocal(name, ty, is_mut, loc, true);
    binds[name] = l;
  }
  Assign(Place{l, {}}, UseR(Operand::Copy(place)), loc_);
}

const VariantDef* FnLowerer::ResolveVariantPath(const std::vector<PathSeg>& path, TyP expected,
                                                std::string* adt, uint32_t* vi, Loc loc) {
  if (path.size() >= 2) {
    const std::string& en = path[path.size() - 2].name;
    const std::string& vn = path.back().name;
    auto it = g_.adts.find(en);
    if (it == g_.adts.end() || !it->second.is_enum) {
      Error("MT1003", loc, absl::StrCat("cannot find enum `", en, "` in this scope"),
            g_.suggest.Help(en, [&] {
              std::vector<std::string> enums;
              for (const auto& [n, a] : g_.adts)
                if (a.is_enum) enums.push_back(n);
              return enums;
            }));
      return nullptr;
    }
    const VariantDef* vd = g_.FindVariant(en, vn, vi);
    if (!vd) {
      Error("MT2003", loc, absl::StrCat("no variant named `", vn, "` in enum `", en, "`"),
            g_.suggest.Help(vn, [&] {
              std::vector<std::string> near;
              for (const VariantDef& v : it->second.variants) near.push_back(v.name);
              return near;
            }));
      return nullptr;
    }
    *adt = en;
    return vd;
  }
  const std::string& vn = path[0].name;
  if (expected && expected->Is(Ty::Kind::kAdt)) {
    if (const VariantDef* vd = g_.FindVariant(expected->name, vn, vi)) {
      *adt = expected->name;
      return vd;
    }
  }
  const AdtDef* owner = g_.BareVariantOwner(vn);
  if (!owner) {
    if (IsUpper(vn)) {
      Error("MT1004", loc, absl::StrCat("cannot find variant `", vn, "` in this scope"),
            g_.suggest.Help(vn,
                            [&] {
                              std::vector<std::string> near = g_.VariantNames();
                              for (const auto& [n, a] : g_.adts)
                                if (n.rfind("__", 0) != 0) near.push_back(n);
                              for (const auto& [n, c] : g_.consts) near.push_back(n);
                              return near;
                            }))
          .end = NameEnd(loc, vn);
    }
    return nullptr;
  }
  *adt = owner->name;
  return g_.FindVariant(owner->name, vn, vi);
}

FnLowerer::Val FnLowerer::LowerMatch(const Expr& e) {
  Val s = LowerExpr(*e.lhs);
  uint32_t sl = ToLocal(s);
  uint32_t result = Temp(Ty::Unknown());
  uint32_t done = NewBlock();
  TyP ty = Ty::Unknown();
  bool first_arm = true;
  uint32_t next = NewBlock();
  Goto(next);
  for (const MatchArm& arm : e.more->arms) {
    SetBlock(next);
    next = NewBlock();
    scopes_.emplace_back();
    std::map<std::string, uint32_t> binds;
    MatchPattern(*arm.pat, Place{sl, {}}, s.ty, next, binds);
    if (arm.guard) {
      Val g = LowerExpr(*arm.guard);
      uint32_t body = NewBlock();
      Branch(g.op, body, next);
      SetBlock(body);
    }
    Val v = LowerExpr(*arm.body);
    if (first_arm) {
      ty = v.ty;
      first_arm = false;
    } else if (!v.ty->Is(Ty::Kind::kUnit) && v.ty->Name() != ty->Name()) {
      ty = Ty::Unknown();
    }
    Assign(Place{result, {}}, UseR(v.op), arm.loc);
    Goto(done);
    scopes_.pop_back();
  }
  SetBlock(next);
  Term(ir::Terminator::Kind::kUnreachable);  // no arm matched: MT5005
  SetBlock(done);
  fn_.locals[result].type = ty->ToIr();
  return Val{Operand::Copy(Place{result, {}}), ty};
}

}  // namespace mty::frontend
