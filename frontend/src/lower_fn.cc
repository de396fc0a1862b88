// The per-function lowerer's core: finishing a function (dead blocks,
// terminators), blocks and `let` statements, places (lvalues) and fields.
#include <map>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "lower_internal.h"
#include "mty/ir/visit.h"

namespace mty::frontend {

using K = Expr::Kind;

ir::Function FnLowerer::Finish(const Val& v) {
  if (!terminated_) {
    Assign(Place{0, {}}, UseR(v.op), loc_);
    Term(ir::Terminator::Kind::kReturn);
  }
  // The block opened after the last terminator is dead: drop it when it is
  // empty, last and unreferenced; otherwise give it a terminator.
  if (!fn_.blocks[cur_].term_set && cur_ + 1 == fn_.blocks.size() && cur_ > 0 &&
      fn_.blocks[cur_].block.stmts.empty() && !Targeted(cur_)) {
    fn_.blocks.pop_back();
  } else if (!fn_.blocks[cur_].term_set) {
    ir::Terminator t;
    t.kind = ir::Terminator::Kind::kUnreachable;
    fn_.blocks[cur_].block.term = t;
  }
  ir::Function out;
  out.name = fn_.name;
  out.num_params = fn_.num_params;
  out.locals = fn_.locals;
  out.loc = fn_.loc;
  for (auto& b : fn_.blocks) out.blocks.push_back(std::move(b.block));
  return out;
}

bool FnLowerer::Targeted(uint32_t b) const {
  bool targeted = false;
  for (const PendingBlock& pb : fn_.blocks)
    if (pb.term_set) ir::ForEachTarget(pb.block.term, [&](uint32_t t) { targeted |= t == b; });
  return targeted;
}

// ---- blocks and statements ----

FnLowerer::Val FnLowerer::LowerBlock(const Block& b) {
  scopes_.emplace_back();
  Loc outer = loc_;
  Val last = Unit();
  for (size_t i = 0; i < b.stmts.size(); ++i) {
    const Stmt& s = b.stmts[i];
    loc_ = s.loc;
    bool is_tail = i + 1 == b.stmts.size() && s.kind == Stmt::Kind::kExpr && !s.has_semi;
    if (s.kind == Stmt::Kind::kLet) {
      LowerLet(s);
    } else if (s.kind == Stmt::Kind::kExpr && s.expr) {
      Val v = LowerExpr(*s.expr);
      if (is_tail) last = v;
    }
  }
  scopes_.pop_back();
  loc_ = outer;
  return last;
}

void FnLowerer::LowerLet(const Stmt& s) {
  TyP declared = g_.Resolve(s.type, &generics_);
  Val init = s.expr ? LowerExpr(*s.expr) : Val{UnitOp(), declared};
  TyP ty = declared->Is(Ty::Kind::kUnknown) ? init.ty : declared;
  if (s.pat->kind == Pattern::Kind::kBind && s.pat->subs.empty()) {
    uint32_t l = NamedLocal(s.pat->name, ty, s.pat->is_mut);
    Assign(Place{l, {}}, UseR(init.op), s.loc);
    return;
  }
  uint32_t src = ToLocal(Val{init.op, ty});
  uint32_t fail = NewBlock();
  std::map<std::string, uint32_t> binds;
  MatchPattern(*s.pat, Place{src, {}}, ty, fail, binds);
  uint32_t ok = cur_;
  SetBlock(fail);
  loc_ = s.loc;
  Term(ir::Terminator::Kind::kUnreachable);
  SetBlock(ok);
  terminated_ = fn_.blocks[ok].term_set;
}

// ---- places and fields ----

std::optional<Place> FnLowerer::PlaceOf(const Expr& e, TyP* ty, bool* root_mut,
                                        std::string* root_name) {
  switch (e.kind) {
    case K::kPath: {
      if (e.segs.size() != 1) return std::nullopt;
      const LocalInfo* li = FindLocal(e.segs[0].name);
      if (!li) return std::nullopt;
      *ty = li->ty;
      *root_mut = li->is_mut;
      *root_name = e.segs[0].name;
      return li->At();
    }
    case K::kField: {
      TyP bt;
      auto base = PlaceOf(*e.lhs, &bt, root_mut, root_name);
      if (!base) return std::nullopt;
      AutoDeref(*base, bt, root_mut);
      uint32_t fi;
      TyP fty;
      if (!ResolveField(bt, e.text, e.loc, &fi, &fty)) return std::nullopt;
      base->proj.push_back({ir::Projection::Kind::kField, fi, 0});
      *ty = fty;
      return base;
    }
    case K::kTupleField: {
      TyP bt;
      auto base = PlaceOf(*e.lhs, &bt, root_mut, root_name);
      if (!base) return std::nullopt;
      AutoDeref(*base, bt, root_mut);
      base->proj.push_back(
          {ir::Projection::Kind::kTupleIndex, static_cast<uint32_t>(e.int_value), 0});
      *ty = bt->Is(Ty::Kind::kTuple) ? bt->Arg(e.int_value) : Ty::Unknown();
      return base;
    }
    case K::kIndex: {
      TyP bt;
      auto base = PlaceOf(*e.lhs, &bt, root_mut, root_name);
      if (!base) return std::nullopt;
      AutoDeref(*base, bt, root_mut);
      Val idx = LowerExpr(*e.rhs);
      uint32_t il = ToLocal(idx);
      base->proj.push_back({ir::Projection::Kind::kIndex, il, 0});
      *ty = bt->Is(Ty::Kind::kArray) ? bt->Arg(0)
            : bt->Is(Ty::Kind::kMap) ? bt->Arg(1)
                                     : Ty::Unknown();
      return base;
    }
    case K::kDeref: {
      TyP bt;
      auto base = PlaceOf(*e.lhs, &bt, root_mut, root_name);
      if (!base) {
        // `*expr` where expr is not a place: evaluate into a temp.
        Val v = LowerExpr(*e.lhs);
        uint32_t l = ToLocal(v);
        base = Place{l, {}};
        bt = v.ty;
        *root_mut = false;
        *root_name = "";
      }
      if (bt->Is(Ty::Kind::kRef) && bt->is_mut) *root_mut = true;
      if (bt->Is(Ty::Kind::kUnknown)) *root_mut = true;  // checked at run time
      base->proj.push_back({ir::Projection::Kind::kDeref, 0, 0});
      *ty = bt->Is(Ty::Kind::kRef) ? bt->Arg(0) : Ty::Unknown();
      return base;
    }
    default: return std::nullopt;
  }
}

bool FnLowerer::ResolveField(TyP bt, const std::string& name, Loc loc, uint32_t* fi, TyP* fty) {
  if (bt->Is(Ty::Kind::kAdt)) {
    const FieldDef* f = g_.FindField(bt->name, name, fi);
    if (!f) {
      auto it = g_.adts.find(bt->name);
      Error("MT2002", loc,
            absl::StrCat(it != g_.adts.end() && it->second.is_enum ? "enum" : "struct", " `",
                         bt->name, "` has no field named `", name, "`"));
      return false;
    }
    *fty = Subst(f->ty, bt->name, bt);
    return true;
  }
  if (!bt->Is(Ty::Kind::kUnknown)) {
    Error("MT2002", loc, absl::StrCat("no field `", name, "` on type `", bt->Name(), "`"));
    return false;
  }
  // Unknown static type: the field name must pick one index.
  int found = -1;
  bool ambiguous = false;
  TyP ft = Ty::Unknown();
  for (const auto& [n, a] : g_.adts) {
    uint32_t i;
    if (const FieldDef* f = g_.FindField(n, name, &i)) {
      if (found >= 0 && static_cast<uint32_t>(found) != i) ambiguous = true;
      if (found < 0) ft = f->ty;
      found = static_cast<int>(i);
    }
  }
  if (found < 0) {
    Error("MT2002", loc, absl::StrCat("no struct has a field named `", name, "`"));
    return false;
  }
  if (ambiguous) {
    Error("MT2006", loc,
          absl::StrCat("cannot tell which struct's field `", name,
                       "` this is; annotate the value's type"));
    return false;
  }
  *fi = static_cast<uint32_t>(found);
  *fty = ft;
  return true;
}

TyP FnLowerer::Subst(TyP t, const std::string& adt, TyP actual) {
  if (!t) return Ty::Unknown();
  auto it = g_.adts.find(adt);
  if (it == g_.adts.end() || !actual || !actual->Is(Ty::Kind::kAdt)) {
    return t->Is(Ty::Kind::kAdt) && t->name.size() <= 2 ? Ty::Unknown() : t;
  }
  const auto& gens = it->second.generics;
  if (t->Is(Ty::Kind::kAdt) && t->args.empty()) {
    for (size_t i = 0; i < gens.size(); ++i)
      if (gens[i] == t->name) return actual->Arg(i);
  }
  return t;
}

}  // namespace mty::frontend
