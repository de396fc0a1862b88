// The per-function lowerer's core: finishing a function (dead blocks,
// terminators), blocks and `let` statements, places (lvalues) and fields.
#include <map>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "lower_internal.h"
#include "mty/ir/builtins.h"
#include "mty/ir/visit.h"

namespace mty::frontend {

using K = Expr::Kind;

ir::Function FnLowerer::Finish(const Val& v) {
  WarnUnused();
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

FnLowerer::Val FnLowerer::LowerBlock(const Block& b, BlockUse use) {
  scopes_.emplace_back();
  Loc outer = loc_;
  Val last = Unit();
  const Stmt* diverged = nullptr;  // the statement after which nothing runs
  bool warned = false;
  for (size_t i = 0; i < b.stmts.size(); ++i) {
    const Stmt& s = b.stmts[i];
    loc_ = s.loc;
    bool is_tail = i + 1 == b.stmts.size() && s.kind == Stmt::Kind::kExpr && !s.has_semi;
    if (diverged && !warned && s.kind != Stmt::Kind::kEmpty) {
      warned = true;
      Diagnostic& w = g_.Warn("MT8002", s.loc, "unreachable statement");
      w.labels.push_back(Label{diverged->loc, {}, "any code following this is unreachable"});
    }
    if (s.kind == Stmt::Kind::kLet) {
      LowerLet(s);
    } else if (s.kind == Stmt::Kind::kExpr && s.expr) {
      if (is_tail && use == BlockUse::kFnBody) CheckReturn(*s.expr);
      Val v = LowerExpr(*s.expr);
      if (is_tail) last = v;
      if (!v.must_use.empty() && (!is_tail || use == BlockUse::kDiscarded) &&
          EffectResultMatters(v.must_use))
        g_.Warn("MT8003", s.loc, absl::StrCat("unused `Result` of `", v.must_use, "`"),
                absl::StrCat("handle it (`?`, `match`, `.unwrap()`) or drop it explicitly: "
                             "`let _ = ",
                             v.must_use, "(..)`"))
            .end = s.expr->begin.line == s.loc.line && s.expr->begin.col == s.loc.col &&
                           s.expr->end.line == s.loc.line
                       ? s.expr->end
                       : Loc{};
    }
    if (!diverged && Diverges(s)) diverged = &s;
  }
  scopes_.pop_back();
  loc_ = outer;
  return last;
}

bool FnLowerer::Diverges(const Stmt& s) const {
  if (s.kind != Stmt::Kind::kExpr || !s.expr) return false;
  const Expr& e = *s.expr;
  switch (e.kind) {
    case K::kReturn:
    case K::kBreak:
    case K::kContinue: return true;
    case K::kMacro: return e.text == "unreachable";
    case K::kCall: {
      if (!e.lhs || e.lhs->kind != K::kPath || e.lhs->segs.size() != 1) return false;
      const std::string& n = e.lhs->segs[0].name;
      const ir::BuiltinFnInfo* b = ir::FindSourceBuiltin(n);
      return b && b->id == ir::BuiltinFnId::kPanic && !FindLocal(n) && !g_.fns.count(n);
    }
    default: return false;
  }
}

void FnLowerer::WarnUnused() {
  for (const Binding& b : bindings_) {
    if (!b.warn || b.used) continue;
    Diagnostic& w =
        b.assigned
            ? g_.Warn("MT8001", b.loc,
                      absl::StrCat("variable `", b.name, "` is assigned to, but never read"),
                      absl::StrCat("if this is intentional, prefix it with an underscore: `_",
                                   b.name, "`"))
            : g_.Warn("MT8001", b.loc,
                      absl::StrCat(b.is_param ? "unused parameter: `" : "unused variable: `",
                                   b.name, "`"),
                      absl::StrCat("if this is intentional, prefix it with an underscore: `_",
                                   b.name, "`"));
    w.end = NameEnd(b.loc, b.name);
  }
}

void FnLowerer::ImmutableError(Loc loc, const std::string& root, std::string what) {
  const LocalInfo* li = FindLocal(root);
  const Binding* b = li && li->binding >= 0 ? &bindings_[li->binding] : nullptr;
  std::string help;
  if (root == "self") {
    help = "take the receiver as `&mut self`";
  } else if (b && b->is_param) {
    help = absl::StrCat("make the parameter mutable: `mut ", root, "`");
  } else if (b && !b->is_let) {
    help = absl::StrCat("bind it mutably: `mut ", root, "`");
  } else {
    help = absl::StrCat("make it mutable: `let mut ", root, "`");
  }
  Diagnostic& d = Error("MT3014", loc, std::move(what), std::move(help));
  if (b && b->loc.line)
    d.labels.push_back(Label{b->loc, NameEnd(b->loc, root),
                             absl::StrCat("`", root, "` is declared here, without `mut`")});
}

void FnLowerer::LowerLet(const Stmt& s) {
  TyP declared = g_.Resolve(s.type, &generics_);
  if (s.expr && s.type.kind != TypeExpr::Kind::kInfer)
    CheckValue(*s.expr, declared, "MT2016", "mismatched types: ", s.type.loc,
               absl::StrCat("expected `", TypeText(s.type), "` because of this annotation"));
  const bool unsigned_lit = s.expr && s.expr->kind == Expr::Kind::kInt &&
                            s.type.kind == TypeExpr::Kind::kPath && IsUnsignedTypeName(s.type.name);
  Val init = unsigned_lit ? LowerIntLiteral(*s.expr, true)
             : s.expr     ? LowerExpr(*s.expr)
                          : Val{UnitOp(), declared};
  TyP ty = declared->Is(Ty::Kind::kUnknown) ? init.ty : declared;
  if (s.pat->kind == Pattern::Kind::kBind && s.pat->subs.empty()) {
    uint32_t l = NamedLocal(s.pat->name, ty, s.pat->is_mut, s.pat->loc, true);
    bindings_.back().is_let = true;
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
      const LocalInfo* li = ReadLocal(e.segs[0].name);
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
      // `p.norm` for the method `norm`: a method call needs parentheses.
      std::string help = g_.suggest.Help(name, [&] {
        std::vector<std::string> near;
        if (it != g_.adts.end() && !it->second.is_enum)
          for (const FieldDef& fd : it->second.variants[0].fields) near.push_back(fd.name);
        return near;
      });
      if (help.empty() && g_.methods.count(bt->name) && g_.methods.at(bt->name).count(name))
        help = absl::StrCat("`", name, "` is a method: call it as `", name, "(..)`");
      const std::string shown = bt->name.rfind("__agent_", 0) == 0 ? bt->name.substr(8) : bt->name;
      Error("MT2002", loc,
            absl::StrCat(it != g_.adts.end() && it->second.is_enum ? "enum" : "struct", " `", shown,
                         "` has no field named `", name, "`"),
            help)
          .end = NameEnd(loc, name);
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
    Error("MT2002", loc, absl::StrCat("no struct has a field named `", name, "`"),
          g_.suggest.Help(name,
                          [&] {
                            std::vector<std::string> near;
                            for (const auto& [n, a] : g_.adts)
                              if (!a.is_enum && n.rfind("__", 0) != 0)
                                for (const FieldDef& fd : a.variants[0].fields)
                                  near.push_back(fd.name);
                            return near;
                          }))
        .end = NameEnd(loc, name);
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

// ---- the static type checks ----

bool MentionsAny(const Ty& t, const std::vector<std::string>& names) {
  if (t.Is(Ty::Kind::kAdt))
    for (const std::string& n : names)
      if (t.name == n) return true;
  for (const TyP& a : t.args)
    if (a && MentionsAny(*a, names)) return true;
  return false;
}

namespace {

// Whether `t` is fully known (no unknown part): the declared result of a
// function that a call surely has.
bool Concrete(const Ty& t) {
  if (t.Is(Ty::Kind::kUnknown) || t.Is(Ty::Kind::kRef) || t.Is(Ty::Kind::kFn)) return false;
  for (const TyP& a : t.args)
    if (!a || !Concrete(*a)) return false;
  return true;
}

std::string Article(const Ty& t) {
  switch (t.kind) {
    case Ty::Kind::kInt: return "an integer";
    case Ty::Kind::kFloat: return "a float";
    case Ty::Kind::kStr: return "a string";
    case Ty::Kind::kChar: return "a char";
    case Ty::Kind::kBool: return "a bool";
    case Ty::Kind::kDuration: return "a duration";
    case Ty::Kind::kSize: return "a size";
    case Ty::Kind::kUnit: return "`()`";
    default: return absl::StrCat("`", t.Name(), "`");
  }
}

}  // namespace

TyP FnLowerer::KnownTy(const Expr& e, std::string* what) {
  auto lit = [&](Ty::Kind k) {
    TyP t = Ty::Make(k);
    *what = Article(*t);
    return t;
  };
  // The declared result of a user function, when it is concrete.
  auto result_of = [&](const FnDef& def, const std::string& shown) -> TyP {
    if (!def.decl || !def.ret || !Concrete(*def.ret)) return nullptr;
    if (def.decl->ret.kind == TypeExpr::Kind::kPath && def.decl->ret.name == "Never")
      return nullptr;
    *what = absl::StrCat("`", def.ret->Name(), "` (the result of `", shown, "`)");
    return def.ret;
  };
  // A type the annotations name as written (a user `struct Size` is not
  // what `: Size` means, which is the built-in Size).
  auto named = [&](const std::string& adt) {
    TyP t = g_.ResolveIr(ir::Type::Named(adt));
    return t->Is(Ty::Kind::kAdt) && t->name == adt;
  };
  auto variant_of = [&](const std::string& adt) -> TyP {
    if (!named(adt)) return nullptr;
    *what = absl::StrCat("`", adt, "`");
    return Ty::Adt(adt);
  };
  switch (e.kind) {
    case K::kInt: return lit(Ty::Kind::kInt);
    case K::kFloat: return lit(Ty::Kind::kFloat);
    case K::kStr: return lit(Ty::Kind::kStr);
    case K::kChar: return lit(Ty::Kind::kChar);
    case K::kBool: return lit(Ty::Kind::kBool);
    case K::kDuration: return lit(Ty::Kind::kDuration);
    case K::kSize: return lit(Ty::Kind::kSize);
    case K::kUnit: return lit(Ty::Kind::kUnit);
    case K::kUnary:
      if (e.lhs && e.unary_op == UnaryOp::kNeg &&
          (e.lhs->kind == K::kInt || e.lhs->kind == K::kFloat))
        return KnownTy(*e.lhs, what);
      if (e.lhs && e.unary_op == UnaryOp::kNot && e.lhs->kind == K::kBool)
        return lit(Ty::Kind::kBool);
      return nullptr;
    case K::kBinary:
      switch (e.binary_op) {
        case BinaryOp::kEq:
        case BinaryOp::kNe:
        case BinaryOp::kLt:
        case BinaryOp::kLe:
        case BinaryOp::kGt:
        case BinaryOp::kGe:
        case BinaryOp::kAnd:
        case BinaryOp::kOr: return lit(Ty::Kind::kBool);
        default: return nullptr;
      }
    case K::kMacro:
      if (e.text == "format") return lit(Ty::Kind::kStr);
      return nullptr;
    case K::kStruct: {
      std::string name = SelfName(e.segs.empty() ? "" : e.segs.back().name);
      auto it = g_.adts.find(name);
      if (it == g_.adts.end() || it->second.is_enum || !named(name)) return nullptr;
      *what = absl::StrCat("struct `", name, "`");
      return Ty::Adt(name);
    }
    case K::kPath: {
      if (e.segs.size() == 1) {
        const std::string& n = e.segs[0].name;
        if (!IsUpper(n) || FindLocal(n) || g_.consts.count(n) || g_.fns.count(n)) return nullptr;
        const AdtDef* owner = g_.BareVariantOwner(n);
        return owner ? variant_of(owner->name) : nullptr;
      }
      if (e.segs.size() == 2) {
        const std::string a = SelfName(e.segs[0].name);
        if (g_.FindVariant(a, e.segs[1].name, nullptr)) return variant_of(a);
      }
      return nullptr;
    }
    case K::kCall: {
      if (!e.lhs || e.lhs->kind != K::kPath) return nullptr;
      const std::vector<PathSeg>& segs = e.lhs->segs;
      if (segs.size() == 1) {
        const std::string& n = segs[0].name;
        if (FindLocal(n)) return nullptr;
        if (agent_)
          for (const FnDecl& h : agent_->fns)
            if (h.name == n) return nullptr;
        auto fit = g_.fns.find(n);
        if (fit != g_.fns.end()) return result_of(fit->second, n + "(..)");
        if (IsUpper(n) && !ir::FindSourceBuiltin(n)) {
          const AdtDef* owner = g_.BareVariantOwner(n);
          return owner ? variant_of(owner->name) : nullptr;
        }
        return nullptr;
      }
      if (segs.size() == 2) {
        const std::string a = SelfName(segs[0].name);
        const std::string& b = segs[1].name;
        if (FindLocal(a)) return nullptr;
        if (g_.FindVariant(a, b, nullptr)) return variant_of(a);
        auto m = g_.methods.find(a);
        if (m != g_.methods.end()) {
          auto f = m->second.find(b);
          if (f != m->second.end()) return result_of(g_.fns.at(f->second), a + "::" + b + "(..)");
        }
      }
      return nullptr;
    }
    case K::kMethodCall: {
      // `Point.new(..)`, `Shape.Circle(..)`: a type's associated function or variant.
      if (!e.lhs || e.lhs->kind != K::kPath || e.lhs->segs.size() != 1) return nullptr;
      const std::string a = SelfName(e.lhs->segs[0].name);
      if (FindLocal(a) || g_.consts.count(a) || !g_.adts.count(a)) return nullptr;
      if (g_.FindVariant(a, e.text, nullptr)) return variant_of(a);
      auto m = g_.methods.find(a);
      if (m == g_.methods.end()) return nullptr;
      auto f = m->second.find(e.text);
      if (f == m->second.end()) return nullptr;
      const FnDef& def = g_.fns.at(f->second);
      if (def.self_kind != Param::SelfKind::kNone) return nullptr;
      return result_of(def, a + "." + e.text + "(..)");
    }
    case K::kBlock:
    case K::kUnsafe: {
      // `{ stmts; tail }` with a tail of evident type (its own scope: only
      // when no statement binds a name the tail could mean).
      if (!e.then_block || e.then_block->stmts.size() != 1) return nullptr;
      const Stmt& t = e.then_block->stmts[0];
      if (t.kind != Stmt::Kind::kExpr || t.has_semi || !t.expr) return nullptr;
      return KnownTy(*t.expr, what);
    }
    default: return nullptr;
  }
}

bool FnLowerer::Fits(const Ty& have, const Ty& want) {
  const Ty* w = &want;
  while (w->Is(Ty::Kind::kRef)) w = w->Arg(0).get();
  if (have.Is(Ty::Kind::kRef) || have.Is(Ty::Kind::kFn) || w->Is(Ty::Kind::kFn)) return true;
  return TyFits(have, *w);
}

bool FnLowerer::CheckValue(const Expr& e, const TyP& want, const char* code,
                           const std::string& lead, Loc decl, const std::string& decl_msg) {
  if (!want || want->Is(Ty::Kind::kUnknown)) return true;
  std::string what;
  TyP have = KnownTy(e, &what);
  if (!have || Fits(*have, *want)) return true;
  const Ty* w = want.get();
  while (w->Is(Ty::Kind::kRef)) w = w->Arg(0).get();
  std::string help;
  if (e.kind == K::kInt && e.text.empty() && w->Is(Ty::Kind::kFloat))
    help = absl::StrCat("write `", e.int_value, ".0` for a float");
  else if (have->Is(Ty::Kind::kStr) && w->Is(Ty::Kind::kChar) && e.kind == K::kStr)
    help = "write a char with single quotes: 'c'";
  else if (have->Is(Ty::Kind::kInt) && w->Is(Ty::Kind::kStr))
    help = e.kind == K::kInt && e.text.empty()
               ? absl::StrCat("write `\"", e.int_value, "\"` for a string")
               : "convert it with `.to_str()`";
  else if (have->Is(Ty::Kind::kStr) && w->Is(Ty::Kind::kInt) && e.kind != K::kStr)
    help = "parse it with `.parse_int()`";
  // The whole value is underlined when the parser gave its span.
  const bool spanned = e.begin.line != 0 && e.begin.line == e.end.line;
  Diagnostic& d = Error(code, spanned ? e.begin : e.loc,
                        absl::StrCat(lead, "expected `", want->Name(), "`, found ", what), help);
  if (spanned) d.end = e.end;
  if (decl.line) d.labels.push_back(Label{decl, {}, decl_msg});
  return false;
}

void FnLowerer::CheckReturn(const Expr& e) {
  if (!check_ret_) return;
  CheckValue(e, check_ret_, "MT2019",
             absl::StrCat("mismatched types in the result of `", ret_fn_, "`: "), ret_loc_,
             absl::StrCat("`", ret_fn_, "` is declared to return `", check_ret_->Name(), "`"));
}

void FnLowerer::CheckArgs(const FnDef& def, const std::vector<ExprPtr>& args, size_t skip,
                          const std::string& shown) {
  if (!def.decl) return;
  std::vector<const Param*> declared;
  for (const Param& p : def.decl->params)
    if (p.self_kind == Param::SelfKind::kNone) declared.push_back(&p);
  for (size_t i = skip; i < args.size(); ++i) {
    size_t pi = i - skip;
    if (pi >= def.params.size() || pi >= declared.size()) break;
    const Param& p = *declared[pi];
    CheckValue(*args[i], def.params[pi], "MT2017",
               absl::StrCat("mismatched types in argument ", i + 1, " of `", shown, "`: "), p.loc,
               absl::StrCat("parameter `", p.name, ": ", TypeText(p.type), "`"));
  }
}

}  // namespace mty::frontend
