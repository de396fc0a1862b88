// The type checker: expressions, statements and blocks, calls, methods,
// fields, operators, closures, `?` and agent messages.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "builtin_macros.h"
#include "mty/ir/builtins.h"
#include "mty/vocab/policy.h"
#include "typeck.h"

namespace mty::frontend::tc {

namespace {

// How deep expressions nest before the checker stops descending (the
// parser's own limit is lower; this guards macro expansions).
constexpr int kMaxExprDepth = 2000;

std::string IntSuffix(const std::string& text) {
  static const char* kNames[][2] = {{"i8", "I8"},    {"i16", "I16"},     {"i32", "I32"},
                                    {"i64", "I64"},  {"i128", "I64"},    {"u8", "U8"},
                                    {"u16", "U16"},  {"u32", "U32"},     {"u64", "U64"},
                                    {"u128", "U64"}, {"isize", "ISize"}, {"usize", "USize"}};
  for (const auto& n : kNames) {
    const std::string s = n[0];
    if (text.size() >= s.size() && text.compare(text.size() - s.size(), s.size(), s) == 0 &&
        (text.size() == s.size() ||
         !std::isalpha(static_cast<unsigned char>(text[text.size() - s.size() - 1]))))
      return n[1];
  }
  return "";
}

bool IsEmptyCollection(const Expr& e) {
  if (e.kind == Expr::Kind::kArray && e.args.empty() && !e.rhs) return true;
  if (e.kind == Expr::Kind::kPath && e.segs.size() == 1 && e.segs[0].name == "None") return true;
  if (e.kind == Expr::Kind::kMap && e.args.empty()) return true;
  if ((e.kind == Expr::Kind::kMethodCall && e.text == "new" && e.args.empty() && e.lhs &&
       e.lhs->kind == Expr::Kind::kPath && e.lhs->segs.size() == 1)) {
    const std::string& n = e.lhs->segs[0].name;
    return n == "Vec" || n == "Map" || n == "HashMap";
  }
  if (e.kind == Expr::Kind::kCall && e.args.empty() && e.lhs && e.lhs->kind == Expr::Kind::kPath &&
      e.lhs->segs.size() == 2 && e.lhs->segs[1].name == "new") {
    const std::string& n = e.lhs->segs[0].name;
    return n == "Vec" || n == "Map" || n == "HashMap";
  }
  return false;
}

}  // namespace

TypeId Checker::Expr_(const Expr& e, TypeId expect) {
  if (depth_ > kMaxExprDepth) return t_.Prim(TK::kDyn);
  ++depth_;
  TypeId t = ExprInner(e, expect);
  --depth_;
  info_.of[&e] = t;
  return t;
}

TypeId Checker::Block_(const Block& b, TypeId expect) {
  Push();
  TypeId value = t_.Prim(TK::kUnit);
  bool diverges = false;  // a statement never ends (`return`, `panic(..)`, `loop {}`)
  for (size_t i = 0; i < b.stmts.size(); ++i) {
    const Stmt& s = b.stmts[i];
    const bool last = i + 1 == b.stmts.size();
    if (last && s.kind == Stmt::Kind::kExpr && !s.has_semi && s.expr) {
      value = Expr_(*s.expr, expect);
      diverges = false;  // the tail's own type counts, as in Rust
    } else {
      Stmt_(s);
      if (s.kind == Stmt::Kind::kExpr && s.expr && t_.Kind(info_.of[s.expr.get()]) == TK::kNever)
        diverges = true;
    }
  }
  Pop();
  return diverges ? t_.Prim(TK::kNever) : value;
}

void Checker::Stmt_(const Stmt& s) {
  switch (s.kind) {
    case Stmt::Kind::kLet: {
      const bool annotated = s.type.kind != TypeExpr::Kind::kInfer;
      TypeId t = annotated ? FromType(s.type) : t_.Var(s.loc);
      if (s.expr) {
        TypeId v = Expr_(*s.expr, t);
        Expect(v, t, *s.expr, annotated ? "MT2016" : "MT2023", annotated ? "the `let`'s type" : "");
        if (!annotated && s.pat && s.pat->kind == Pattern::Kind::kBind &&
            IsEmptyCollection(*s.expr))
          pending_.push_back(Pending{t, s.pat->loc, s.pat->name});
      }
      if (const size_t n = t_.TreeSize(t, kMaxTypeTree + 1); n > kMaxTypeTree) {
        info_.fatal = true;
        if (failed_) return;
        failed_ = true;
        diags_.Error("MT2035", s.loc,
                     absl::StrCat("this value's type is too large: over ", kMaxTypeTree,
                                  " parts written out (`", t_.Show(t), "`)"),
                     "a type that doubles at each step (`let b = (a, a)`) grows past any use; "
                     "keep such values in a `Vec` or a struct");
        return;
      }
      if (s.else_block) {
        Block_(*s.else_block, t_.Prim(TK::kDyn));
        if (s.pat) Pattern_(*s.pat, t, false);
      } else if (s.pat) {
        Pattern_(*s.pat, t, true);
        if (s.expr) CheckIrrefutable(*s.pat, t, s.pat->loc);
      }
      return;
    }
    case Stmt::Kind::kExpr:
      if (s.expr) Expr_(*s.expr, t_.Prim(TK::kDyn));
      return;
    case Stmt::Kind::kFn: {
      const FnDecl& f = *s.fn_item;
      FnSig sig = MakeSig(f, "", {}, {}, 0);
      if (sig.generics.empty()) {
        std::vector<TypeId> ps = sig.params;
        Bind(f.name, t_.Fn(std::move(ps), sig.ret));
      } else {
        Bind(f.name, t_.Prim(TK::kDyn));
      }
      std::vector<FnCtx> outer;
      outer.swap(fn_);
      const bool outer_failed = failed_;
      // A nested item is not the top-level function it sits in: what it
      // asks of its own type parameters is not the outer function's.
      std::string outer_fn;
      outer_fn.swap(cur_fn_);
      CheckFnBody(f, sig, 0);
      cur_fn_.swap(outer_fn);
      failed_ = outer_failed || failed_;
      fn_.swap(outer);
      return;
    }
    case Stmt::Kind::kEmpty: return;
  }
}

TypeId Checker::ExprInner(const Expr& e, TypeId expect) {
  using K = Expr::Kind;
  switch (e.kind) {
    case K::kInt: return IntLit(e);
    case K::kFloat: return t_.FloatVar(e.loc);
    case K::kStr: return t_.Prim(TK::kStr);
    case K::kChar: return t_.Prim(TK::kChar);
    case K::kBool: return t_.Prim(TK::kBool);
    case K::kDuration: return t_.Prim(TK::kDuration);
    case K::kSize: return t_.Prim(TK::kSize);
    case K::kUnit: return t_.Prim(TK::kUnit);
    case K::kPath: return Path(e, expect);
    case K::kUnary: return Unary(e, expect);
    case K::kBinary: return Binary(e, expect);
    case K::kAssign: return Assign(e);
    case K::kCall: return Call(e, expect);
    case K::kMethodCall: return MethodCall(e, expect);
    case K::kField: return Field(e);
    case K::kTupleField: return TupleField(e);
    case K::kIndex: return Index(e);
    case K::kTuple: return TupleLit(e, expect);
    case K::kArray: return ArrayLit(e, expect);
    case K::kMap: return MapLit(e, expect);
    case K::kStruct: return StructLit(e);
    case K::kBlock:
    case K::kUnsafe:
    case K::kArena:
    case K::kSandbox:
    case K::kBudget:
      if (e.kind == K::kSandbox || e.kind == K::kBudget)
        for (const SandboxEntry& en : e.more->entries)
          if (en.value) Expr_(*en.value, t_.Prim(TK::kDyn));
      return e.then_block ? Block_(*e.then_block, expect) : t_.Prim(TK::kUnit);
    case K::kIf: return If(e, expect);
    case K::kIfLet: return IfLet(e, expect);
    case K::kMatch: return Match(e, expect);
    case K::kWhile:
    case K::kWhileLet:
    case K::kLoop:
    case K::kFor: return Loop(e);
    case K::kBreak: return Break(e);
    case K::kContinue: return t_.Prim(TK::kNever);
    case K::kReturn: return Return(e);
    case K::kTry: return Try(e);
    case K::kClosure: return Closure(e, expect);
    case K::kRange: {
      TypeId el = t_.Var(e.loc);
      if (e.lhs) Expect(Expr_(*e.lhs, el), el, *e.lhs, "MT2023", "the range's other end");
      if (e.rhs) Expect(Expr_(*e.rhs, el), el, *e.rhs, "MT2023", "the range's other end");
      return t_.Adt("Range", {el});
    }
    case K::kCast: {
      Expr_(*e.lhs, t_.Prim(TK::kDyn));
      return FromType(e.more->type);
    }
    case K::kRef:
    case K::kDeref: return Expr_(*e.lhs, expect);
    case K::kMacro: return Macro(e);
    case K::kSpawn:
    case K::kSend:
    case K::kAsk: return AgentOp(e);
  }
  return t_.Prim(TK::kDyn);
}

TypeId Checker::IntLit(const Expr& e) {
  std::string w = IntSuffix(e.text);
  if (!w.empty()) return t_.Int(w);
  if (e.text.size() > 3 &&
      (e.text.substr(e.text.size() - 3) == "f64" || e.text.substr(e.text.size() - 3) == "f32"))
    return t_.Prim(TK::kFloat);
  TypeId v = t_.IntVar(e.loc);
  // `-1` (a negative literal, folded by the parser) cannot be unsigned.
  if (!e.is_mut && e.int_value < 0) obligations_.push_back(Obligation{v, "Neg", e.loc});
  return v;
}

TypeId Checker::Unary(const Expr& e, TypeId expect) {
  TypeId a = Expr_(*e.lhs, expect);
  TK k = t_.Kind(a);
  // `impl Neg for Q`: `-q` is `q.neg()`.
  TypeId self;
  if (const FnSig* sig =
          k == TK::kAdt && e.unary_op == UnaryOp::kNeg ? FindMethod(a, "neg", &self) : nullptr;
      sig && sig->params.empty()) {
    std::vector<TypeId> ps;
    return Instantiate(*sig, self, &ps, e.loc);
  }
  const bool ok = e.unary_op == UnaryOp::kNeg
                      ? (k == TK::kInt || k == TK::kIntVar || k == TK::kFloat ||
                         k == TK::kFloatVar || k == TK::kDuration || k == TK::kSize ||
                         k == TK::kVar || t_.IsLoose(a) || k == TK::kParam)
                      : (k == TK::kBool || k == TK::kInt || k == TK::kIntVar || k == TK::kVar ||
                         t_.IsLoose(a) || k == TK::kParam);
  const bool unsigned_neg = e.unary_op == UnaryOp::kNeg && IsUnsigned(a);
  // A literal's type may be fixed later (`big > -1` with `big: U64`):
  // whether it may be negated is then proved with the function's bounds.
  if (e.unary_op == UnaryOp::kNeg && k == TK::kIntVar)
    obligations_.push_back(Obligation{a, "Neg", e.loc});
  if ((!ok || unsigned_neg) && !failed_) {
    failed_ = true;
    diags_.Error(
        "MT2029", e.loc,
        absl::StrCat("cannot apply unary operator `", e.unary_op == UnaryOp::kNeg ? "-" : "!",
                     "` to type `", t_.Show(a), "`"));
  }
  return a;
}

TypeId Checker::Assign(const Expr& e) {
  TypeId l = Expr_(*e.lhs, t_.Prim(TK::kDyn));
  TypeId r = Expr_(*e.rhs, l);
  if (!e.has_op) {
    Expect(r, l, *e.rhs, "MT2023", "the assigned place's type");
  } else if (e.binary_op != BinaryOp::kShl && e.binary_op != BinaryOp::kShr) {
    TK lk = t_.Kind(l), rk = t_.Kind(r);
    const bool scaled =
        (lk == TK::kDuration || lk == TK::kSize) && (rk == TK::kInt || rk == TK::kIntVar);
    if (!scaled) Expect(r, l, *e.rhs, "MT2023", "the assigned place's type");
  }
  return t_.Prim(TK::kUnit);
}

TypeId Checker::TupleField(const Expr& e) {
  TypeId l = Strip(Expr_(*e.lhs, t_.Prim(TK::kDyn)));
  const TNode& n = t_.At(l);
  const size_t i = static_cast<size_t>(e.int_value);
  if (n.kind == TK::kTuple) return i < n.args.size() ? n.args[i] : t_.Prim(TK::kErr);
  if (n.kind == TK::kAdt && adts_.count(n.name) && !adts_.at(n.name).is_enum) {
    const AdtInfo& a = adts_.at(n.name);
    if (a.variants.empty() || i >= a.variants[0].fields.size()) return t_.Prim(TK::kErr);
    std::vector<TypeId> args = n.args;
    return t_.Subst(a.variants[0].fields[i], a.generics, args);
  }
  return t_.Prim(TK::kDyn);
}

TypeId Checker::Index(const Expr& e) {
  const TypeId dyn = t_.Prim(TK::kDyn);
  TypeId l = Strip(Expr_(*e.lhs, dyn));
  TypeId i = Expr_(*e.rhs, dyn);
  const TNode n = t_.At(l);
  if (e.rhs->kind == Expr::Kind::kRange) return l;
  if (n.kind == TK::kArray) {
    if (!IsIntLike(i)) Mismatch("MT2023", e.rhs->begin, e.rhs->end, t_.Int("USize"), i, "an index");
    return n.args[0];
  }
  if (n.kind == TK::kMap) {
    Expect(i, n.args[0], *e.rhs, "MT2023", "the map's key type");
    return n.args[1];
  }
  // `d[i]` of a std collection (lower_std.cc): its index(i).
  if (n.kind == TK::kAdt && g_.std_types.count(n.name)) {
    TypeId self;
    if (const FnSig* f = FindMethod(l, "index", &self)) {
      std::vector<const Expr*> args{e.rhs.get()};
      return Apply(*f, args, e, self);
    }
  }
  return dyn;
}

// An integer or what may be one (an index, an array length).
bool Checker::IsIntLike(TypeId t) {
  TK k = t_.Kind(t);
  return k == TK::kInt || k == TK::kIntVar || t_.IsLoose(t) || k == TK::kVar || k == TK::kNever;
}

TypeId Checker::TupleLit(const Expr& e, TypeId expect) {
  std::vector<TypeId> hint;
  if (t_.Kind(expect) == TK::kTuple) hint = t_.At(expect).args;
  std::vector<TypeId> a;
  for (size_t i = 0; i < e.args.size(); ++i)
    a.push_back(Expr_(*e.args[i], i < hint.size() ? hint[i] : t_.Prim(TK::kDyn)));
  return t_.Tuple(std::move(a));
}

TypeId Checker::ArrayLit(const Expr& e, TypeId expect) {
  TypeId elem = t_.Kind(expect) == TK::kArray ? t_.At(expect).args[0] : t_.Var(e.loc);
  for (const ExprPtr& a : e.args)
    Expect(Expr_(*a, elem), elem, *a, "MT2023", "the array's other elements");
  if (e.rhs) {
    TypeId n = Expr_(*e.rhs, t_.Prim(TK::kDyn));
    if (!IsIntLike(n) || t_.Kind(n) == TK::kNever)
      Mismatch("MT2023", e.rhs->begin, e.rhs->end, t_.Int("USize"), n, "an array length");
  }
  return t_.Array(elem);
}

TypeId Checker::MapLit(const Expr& e, TypeId expect) {
  TypeId k = t_.Var(e.loc), v = t_.Var(e.loc);
  if (t_.Kind(expect) == TK::kMap) {
    k = t_.At(expect).args[0];
    v = t_.At(expect).args[1];
  }
  for (size_t i = 0; i + 1 < e.args.size(); i += 2) {
    Expect(Expr_(*e.args[i], k), k, *e.args[i], "MT2023", "the map's other keys");
    Expect(Expr_(*e.args[i + 1], v), v, *e.args[i + 1], "MT2023", "the map's other values");
  }
  return t_.Map(k, v);
}

TypeId Checker::If(const Expr& e, TypeId expect) {
  Expect(Expr_(*e.more->cond, t_.Prim(TK::kBool)), t_.Prim(TK::kBool), *e.more->cond, "MT2023",
         "an `if` condition");
  // Where a `dyn Trait` is wanted each branch gives one of its own type.
  if (t_.Kind(expect) == TK::kDynTrait && e.more->else_expr) {
    Expect(Block_(*e.then_block, expect), expect, e, "MT2023", "the wanted type");
    Expect(Expr_(*e.more->else_expr, expect), expect, *e.more->else_expr, "MT2023",
           "the wanted type");
    return expect;
  }
  TypeId a = Block_(*e.then_block, e.more->else_expr ? expect : t_.Prim(TK::kDyn));
  if (!e.more->else_expr) return t_.Prim(TK::kUnit);
  if (!t_.IsLoose(expect) && t_.Fits(a, expect)) t_.Unify(a, expect);
  TypeId b = Expr_(*e.more->else_expr, a);
  if (t_.Kind(a) == TK::kNever) return b;
  Expect(b, a, *e.more->else_expr, "MT2023",
         "the `if` branch's type (`if` and `else` have incompatible types)");
  return a;
}

TypeId Checker::IfLet(const Expr& e, TypeId expect) {
  const TypeId dyn = t_.Prim(TK::kDyn);
  TypeId s = Expr_(*e.lhs, dyn);
  Push();
  Pattern_(*e.more->pat, s, false);
  TypeId a = Block_(*e.then_block, e.more->else_expr ? expect : dyn);
  Pop();
  if (!e.more->else_expr) return t_.Prim(TK::kUnit);
  TypeId b = Expr_(*e.more->else_expr, a);
  if (t_.Kind(a) == TK::kNever) return b;
  Expect(b, a, *e.more->else_expr, "MT2023", "the `if let` branch's type");
  return a;
}

TypeId Checker::Match(const Expr& e, TypeId expect) {
  TypeId s = Expr_(*e.lhs, t_.Prim(TK::kDyn));
  TypeId result = 0;
  for (const MatchArm& arm : e.more->arms) {
    Push();
    Pattern_(*arm.pat, s, false);
    if (arm.guard)
      Expect(Expr_(*arm.guard, t_.Prim(TK::kBool)), t_.Prim(TK::kBool), *arm.guard, "MT2023",
             "a match guard");
    TypeId b = Expr_(*arm.body, result ? result : expect);
    Pop();
    if (t_.Kind(b) == TK::kNever) continue;
    if (t_.Kind(expect) == TK::kDynTrait) {
      Expect(b, expect, *arm.body, "MT2023", "the wanted type");
      result = expect;
      continue;
    }
    if (!result) {
      result = b;
    } else {
      Expect(b, result, *arm.body, "MT2023",
             "the first arm's type (`match` arms have incompatible types)");
    }
  }
  CheckMatch(e, s);
  return result ? result : t_.Prim(TK::kNever);
}

// `while`, `while let`, `loop`, `for`: a `loop` is of its `break`s' type
// (Never when none leaves it), the others are ().
TypeId Checker::Loop(const Expr& e) {
  using K = Expr::Kind;
  const TypeId dyn = t_.Prim(TK::kDyn);
  Push();
  if (e.kind == K::kWhile)
    Expect(Expr_(*e.more->cond, t_.Prim(TK::kBool)), t_.Prim(TK::kBool), *e.more->cond, "MT2023",
           "a `while` condition");
  if (e.kind == K::kWhileLet) Pattern_(*e.more->pat, Expr_(*e.lhs, dyn), false);
  if (e.kind == K::kFor) {
    TypeId it = Expr_(*e.lhs, dyn);
    Pattern_(*e.more->pat, ForIter(it, e.lhs->loc), true);
  }
  TypeId brk = e.kind == K::kLoop ? t_.Var(e.loc) : t_.Prim(TK::kUnit);
  if (!fn_.empty()) fn_.back().loops.emplace_back(e.more->label, brk);
  Block_(*e.then_block, dyn);
  if (!fn_.empty()) fn_.back().loops.pop_back();
  Pop();
  if (e.kind == K::kLoop) return t_.Kind(brk) == TK::kVar ? t_.Prim(TK::kNever) : brk;
  return t_.Prim(TK::kUnit);
}

TypeId Checker::Break(const Expr& e) {
  const std::pair<std::string, TypeId>* loop = nullptr;
  if (!fn_.empty())
    for (auto it = fn_.back().loops.rbegin(); it != fn_.back().loops.rend() && !loop; ++it)
      if (e.more->label.empty() || it->first == e.more->label) loop = &*it;
  if (loop) {
    TypeId want = loop->second;
    if (e.lhs)
      Expect(Expr_(*e.lhs, want), want, *e.lhs, "MT2023", "the loop's other `break`s");
    else if (t_.Kind(want) == TK::kVar)
      t_.Unify(want, t_.Prim(TK::kUnit));
  } else if (e.lhs) {
    Expr_(*e.lhs, t_.Prim(TK::kDyn));
  }
  return t_.Prim(TK::kNever);
}

TypeId Checker::Return(const Expr& e) {
  if (fn_.empty()) return t_.Prim(TK::kNever);
  TypeId want = fn_.back().ret;
  if (e.lhs) {
    Expect(Expr_(*e.lhs, want), want, *e.lhs, "MT2019", "the declared result");
  } else if (!t_.Unify(t_.Prim(TK::kUnit), want)) {
    Mismatch("MT2019", e.loc, NameEnd(e.loc, "return"), want, t_.Prim(TK::kUnit),
             "the declared result");
  }
  return t_.Prim(TK::kNever);
}

TypeId Checker::Path(const Expr& e, TypeId /*expect*/) {
  const TypeId dyn = t_.Prim(TK::kDyn);
  if (e.segs.empty()) return dyn;
  const std::string& n = e.segs[0].name;
  if (e.segs.size() == 1) {
    if (const Local* l = Lookup(n)) return l->ty;
    if (auto c = consts_.find(n); c != consts_.end()) return c->second;
    if (g_.float_consts.count(n)) return t_.Prim(TK::kFloat);
    if (auto f = fns_.find(n); f != fns_.end()) {
      std::vector<TypeId> ps;
      TypeId r = Instantiate(f->second, 0, &ps, e.loc);
      if (f->second.loose_params) return dyn;
      return t_.Fn(std::move(ps), r);
    }
    // A bare unit variant: `None`, `Empty`.
    std::vector<PathSeg> path = e.segs;
    size_t vi = 0;
    if (const AdtInfo* a = VariantOf(path, dyn, &vi); a && a->variants[vi].fields.empty()) {
      std::vector<TypeId> args;
      for (size_t i = 0; i < a->generics.size(); ++i) args.push_back(t_.Var(e.loc));
      return t_.Adt(a->name, std::move(args));
    }
    return t_.Prim(TK::kErr);  // the lowering names it (MT1001)
  }
  const std::string& last = e.segs.back().name;
  // `f64::consts::PI`, `std::f64::consts::E`.
  if (e.segs.size() >= 3 && e.segs[e.segs.size() - 2].name == "consts") return t_.Prim(TK::kFloat);
  if (e.segs.size() == 2) {
    // (The parser wrote Rust's `u64::MAX` as `U64::MAX`.)
    static const std::set<std::string> kIntNames = {"I8",  "I16", "I32", "I64",   "U8",
                                                    "U16", "U32", "U64", "ISize", "USize"};
    if (kIntNames.count(n) && (last == "MAX" || last == "MIN")) return t_.Int(n);
    if ((n == "F64" || n == "F32") && std::isupper(last[0])) return t_.Prim(TK::kFloat);
    size_t vi = 0;
    if (const AdtInfo* a = VariantOf(e.segs, dyn, &vi); a && a->variants[vi].fields.empty()) {
      std::vector<TypeId> args;
      for (size_t i = 0; i < a->generics.size(); ++i) args.push_back(t_.Var(e.loc));
      return t_.Adt(a->name, std::move(args));
    }
    // `Point::new` as a value.
    if (auto m = methods_.find(n); m != methods_.end())
      if (auto f = m->second.find(last); f != m->second.end() && !f->second.has_self) {
        std::vector<TypeId> ps;
        TypeId self = adts_.count(n) ? t_.Adt(n, {}) : 0;
        if (adts_.count(n) && !adts_.at(n).generics.empty()) return dyn;
        TypeId r = Instantiate(f->second, self, &ps, e.loc);
        return t_.Fn(std::move(ps), r);
      }
  }
  return dyn;
}

TypeId Checker::Instantiate(const FnSig& sig, TypeId self_ty, std::vector<TypeId>* params, Loc at,
                            const std::vector<TypeId>* explicit_args,
                            std::vector<TypeId>* with_out) {
  std::vector<std::string> names = sig.generics;
  std::vector<TypeId> with;
  for (size_t i = 0; i < names.size(); ++i) {
    TypeId v = explicit_args && i < explicit_args->size() ? (*explicit_args)[i] : t_.Var(at);
    with.push_back(v);
    for (const std::string& b : sig.bounds[i]) obligations_.push_back(Obligation{v, b, at});
  }
  if (self_ty) {
    names.push_back("Self");
    with.push_back(self_ty);
    // A method of a generic type: its type's parameters from the receiver.
    const TNode st = t_.At(self_ty);
    if (st.kind == TK::kAdt && adts_.count(st.name)) {
      const AdtInfo& a = adts_.at(st.name);
      for (size_t i = 0; i < a.generics.size() && i < st.args.size(); ++i)
        for (size_t k = 0; k < sig.generics.size(); ++k)
          if (sig.generics[k] == a.generics[i]) with[k] = st.args[i];
    }
  }
  if (with_out) with_out->assign(with.begin(), with.begin() + sig.generics.size());
  params->clear();
  for (TypeId p : sig.params) params->push_back(t_.Subst(p, names, with));
  return t_.Subst(sig.ret, names, with);
}

TypeId Checker::Apply(const FnSig& sig, const std::vector<const Expr*>& args, const Expr& at,
                      TypeId self_ty, const std::vector<TypeId>* explicit_args,
                      std::vector<TypeId>* with_out) {
  std::vector<TypeId> ps;
  TypeId r = Instantiate(sig, self_ty, &ps, at.loc, explicit_args, with_out);
  for (size_t i = 0; i < args.size(); ++i) {
    if (i >= ps.size()) {
      Expr_(*args[i], t_.Prim(TK::kDyn));
      continue;
    }
    Expect(Expr_(*args[i], ps[i]), ps[i], *args[i], "MT2017", "this function's parameter");
  }
  return r;
}

TypeId Checker::CallFn(const std::string& name, const FnSig& sig,
                       const std::vector<const Expr*>& args, const Expr& at,
                       const std::vector<TypeId>* explicit_args) {
  if (sig.generics.empty()) return Apply(sig, args, at, 0, explicit_args);
  std::vector<TypeId> with;
  TypeId r = Apply(sig, args, at, 0, explicit_args, &with);
  if (!cur_fn_.empty()) calls_[cur_fn_].push_back({name, with});
  info_.generic_args[&at] = std::move(with);
  return r;
}

void Checker::FindPerType() {
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [caller, calls] : calls_) {
      if (info_.per_type.count(caller)) continue;
      for (const auto& [callee, with] : calls) {
        if (!info_.per_type.count(callee)) continue;
        if (std::any_of(with.begin(), with.end(), [&](TypeId t) { return t_.HasParam(t); })) {
          info_.per_type.insert(caller);
          grew = true;
          break;
        }
      }
    }
  }
}

TypeId Checker::LooseArgs(const std::vector<const Expr*>& args) {
  const TypeId dyn = t_.Prim(TK::kDyn);
  for (const Expr* a : args) t_.Unify(Expr_(*a, dyn), dyn);
  return dyn;
}

TypeId Checker::Call(const Expr& e, TypeId expect) {
  const TypeId dyn = t_.Prim(TK::kDyn);
  std::vector<const Expr*> args;
  for (const ExprPtr& a : e.args) args.push_back(a.get());
  auto loose = [&] { return LooseArgs(args); };
  const Expr& callee = *e.lhs;
  if (const char* f = MemFnName(callee)) {
    // std::mem::swap(&mut a, &mut b), replace(&mut a, v), take(&mut a):
    // references are values to the checker, so both sides have one type.
    const TypeId t = t_.Var(e.loc);
    for (const Expr* a : args) Expect(Expr_(*a, t), t, *a, "MT2017");
    if (std::string_view(f) == "take") DefaultCall(e, t);
    return std::string_view(f) == "swap" ? t_.Prim(TK::kUnit) : t;
  }
  // `std::cmp::max(a, b)`, `min`: both of one type, the result too.
  if (callee.kind == Expr::Kind::kPath && args.size() == 2 &&
      !(callee.segs.size() == 1 &&
        (Lookup(callee.segs[0].name) || fns_.count(callee.segs[0].name))) &&
      !CmpFn(callee.segs, g_.cmp_fns).empty()) {
    TypeId a = Expr_(*args[0], expect);
    Expect(Expr_(*args[1], a), a, *args[1], "MT2023", "the other argument");
    return a;
  }
  if (callee.kind == Expr::Kind::kPath && callee.segs.size() == 1 && !Lookup(callee.segs[0].name)) {
    const std::string& n = callee.segs[0].name;
    if (auto f = fns_.find(n); f != fns_.end()) {
      if (!callee.more->has_type_args) return CallFn(n, f->second, args, e);
      // `id::[I64](1)`: the turbofish gives the generic parameters.
      const std::vector<TypeExpr>& written = callee.more->type_args;
      const size_t want = f->second.generics.size();
      if (written.size() != want) {
        if (!failed_) {
          failed_ = true;
          diags_
              .Error("MT2025", callee.loc,
                     absl::StrCat("function `", n, "` takes ", want, " generic argument(s) but ",
                                  written.size(), (written.size() == 1 ? " was" : " were"),
                                  " supplied"),
                     absl::StrCat("write ", want, " type(s) in the turbofish, or none"))
              .end = NameEnd(callee.loc, n);
        }
        return loose();
      }
      std::vector<TypeId> given;
      for (const TypeExpr& t : written) given.push_back(FromType(t));
      return CallFn(n, f->second, args, e, &given);
    }
    // Printing takes a value of any type: the arguments keep theirs.
    if (n == "log" || n == "print" || n == "eprint" || n == "panic") {
      for (const Expr* a : args) Expr_(*a, dyn);
      return t_.Prim(n == "panic" ? TK::kNever : TK::kUnit);
    }
    if (n == "assert") {
      for (const Expr* a : args) Expect(Expr_(*a, t_.Prim(TK::kBool)), t_.Prim(TK::kBool), *a);
      return t_.Prim(TK::kUnit);
    }
    // A tuple struct or a variant: `Pair(1, "a")`, `Some(x)`, `Circle(1.0)`.
    size_t vi = 0;
    const AdtInfo* a = nullptr;
    if (auto s = adts_.find(n); s != adts_.end() && !s->second.is_enum) a = &s->second;
    if (!a) a = VariantOf(callee.segs, dyn, &vi);
    if (a && vi < a->variants.size()) {
      std::vector<TypeId> targs;
      for (size_t i = 0; i < a->generics.size(); ++i) targs.push_back(t_.Var(e.loc));
      if (t_.Kind(expect) == TK::kAdt && t_.At(expect).name == a->name &&
          t_.At(expect).args.size() == targs.size())
        targs = t_.At(expect).args;
      return Construct(*a, vi, args, std::move(targs));
    }
    return loose();
  }
  if (callee.kind == Expr::Kind::kPath && callee.segs.size() == 2 && !Lookup(callee.segs[0].name)) {
    const std::string& owner = callee.segs[0].name;
    const std::string& name = callee.segs[1].name;
    size_t vi = 0;
    if (const AdtInfo* a = VariantOf(callee.segs, dyn, &vi); a && a->is_enum) {
      std::vector<TypeId> targs;
      for (size_t i = 0; i < a->generics.size(); ++i) targs.push_back(t_.Var(e.loc));
      return Construct(*a, vi, args, std::move(targs));
    }
    return AssocCall(owner, name, args, e, expect);
  }
  TypeId c = Strip(Expr_(callee, dyn));
  const TNode cn = t_.At(c);
  if (cn.kind == TK::kFn) {
    const size_t n = cn.args.size() - 1;
    if (args.size() != n && !failed_) {
      failed_ = true;
      diags_
          .Error("MT2001", e.loc,
                 absl::StrCat("this function takes ", n, " argument(s) but ", args.size(),
                              (args.size() == 1 ? " was" : " were"), " supplied"),
                 absl::StrCat("its type is `", t_.Show(c), "`"))
          .end = e.end;
    }
    for (size_t i = 0; i < args.size(); ++i) {
      if (i >= n) {
        Expr_(*args[i], dyn);
        continue;
      }
      Expect(Expr_(*args[i], cn.args[i]), cn.args[i], *args[i], "MT2017",
             "the function value's parameter");
    }
    return cn.args.back();
  }
  if (cn.kind == TK::kVar) {
    std::vector<TypeId> ps;
    for (const Expr* a : args) ps.push_back(Expr_(*a, dyn));
    TypeId r = t_.Var(e.loc);
    t_.Unify(c, t_.Fn(std::move(ps), r));
    return r;
  }
  if (t_.IsLoose(c) || cn.kind == TK::kNever || cn.kind == TK::kAgent) return loose();
  if (!failed_) {
    failed_ = true;
    Diagnostic& d = diags_.Error("MT2026", callee.begin.line ? callee.begin : callee.loc,
                                 absl::StrCat("expected function, found `", t_.Show(c), "`"),
                                 "only functions and closures can be called");
    d.end = callee.end;
    d.label = "call expression requires a function";
  }
  loose();
  return t_.Prim(TK::kErr);
}

TypeId Checker::AssocCall(const std::string& owner, const std::string& name,
                          const std::vector<const Expr*>& args, const Expr& e, TypeId expect) {
  const TypeId dyn = t_.Prim(TK::kDyn);
  auto loose = [&] { return LooseArgs(args); };
  // `Default::default()`, `T::default()`, `I64::default()`, and a struct's
  // derived one: the default of the type.
  if (name == "default" && args.empty() &&
      !(methods_.count(owner) && methods_.at(owner).count("default"))) {
    if (owner == "Default") {
      TypeId target = t_.Var(e.loc);
      if (!t_.IsVar(expect) && !t_.IsLoose(expect)) t_.Unify(target, expect);
      return DefaultCall(e, target);
    }
    if (TypeId t = FromName(owner, e.loc); t_.Kind(t) != TK::kDyn) return DefaultCall(e, t);
  }
  // `Box::new(x)` (and Rc's, Arc's): the value itself (docs/language.md §6).
  if (IsBoxName(owner) && name == "new" && args.size() == 1 && !adts_.count(owner))
    return Expr_(*args[0], expect);
  // `T::empty()` through a bound of a generic parameter.
  if (auto g = generics_.find(owner); g != generics_.end()) {
    TypeId self = t_.Make(TK::kParam, owner, {});
    if (!cur_fn_.empty()) {
      info_.per_type.insert(cur_fn_);
    } else if (owner != "Self" && !failed_) {
      // Only top-level generic functions are compiled per type (§6).
      failed_ = true;
      diags_.Error("MT2030", e.lhs && e.lhs->begin.line ? e.lhs->begin : e.loc,
                   absl::StrCat("`", owner, "::", name, "` needs the type `", owner,
                                "` at run time, which only a top-level generic function has"),
                   "move this function to the top level (a nested function, a method or an "
                   "impl's generic parameter is compiled once for every type)");
    }
    for (const std::string& b : g->second)
      if (auto tr = traits_.find(b); tr != traits_.end())
        if (auto m = tr->second.methods.find(name); m != tr->second.methods.end())
          return Apply(m->second, args, e, self);
    if (!failed_) {
      failed_ = true;
      diags_.Error(
          "MT2032", e.lhs && e.lhs->begin.line ? e.lhs->begin : e.loc,
          absl::StrCat("no function `", name, "` for type parameter `", owner, "`"),
          absl::StrCat("add a bound `", owner, ": Trait` whose trait declares `fn ", name, "`"));
    }
    return loose();
  }
  if (adts_.count(owner) && owner != "Option" && owner != "Result") {
    auto m = methods_.find(owner);
    if (m != methods_.end())
      if (auto f = m->second.find(name); f != m->second.end()) {
        std::vector<TypeId> targs;
        for (size_t i = 0; i < adts_.at(owner).generics.size(); ++i) targs.push_back(t_.Var(e.loc));
        TypeId self = t_.Adt(owner, targs);
        if (f->second.has_self && !args.empty()) {
          // `Point::norm(p)`: the receiver is the first argument.
          Expect(Expr_(*args[0], self), self, *args[0], "MT2017", "the method's receiver");
          std::vector<const Expr*> rest(args.begin() + 1, args.end());
          return Apply(f->second, rest, e, self);
        }
        return Apply(f->second, args, e, self);
      }
    return loose();
  }
  // `I64::empty()`: an associated function of `impl Trait for I64`.
  if (auto m = methods_.find(owner); m != methods_.end() && !adts_.count(owner))
    if (auto f = m->second.find(name); f != m->second.end() && !f->second.has_self) {
      return Apply(f->second, args, e, FromName(owner, e.loc));
    }
  // `Vec::<I64>::new()`: the type's written arguments, else fresh variables.
  auto owner_arg = [&](size_t i) {
    const Expr* callee = e.lhs.get();
    if (callee && i < callee->more->owner_type_args.size())
      return FromType(callee->more->owner_type_args[i]);
    return t_.Var(e.loc);
  };
  if (owner == "Vec" || owner == "Array") {
    loose();
    if (name == "new" || name == "with_capacity") return t_.Array(owner_arg(0));
    return dyn;
  }
  if (owner == "Map" || owner == "HashMap") {
    loose();
    if (name == "new" || name == "with_capacity") return t_.Map(owner_arg(0), owner_arg(1));
    return dyn;
  }
  if (owner == "String" || owner == "Str") {
    loose();
    if (name == "new" || name == "from" || name == "from_str" || name == "with_capacity")
      return t_.Prim(TK::kStr);
    if (name == "from_utf8") return t_.Adt("Result", {t_.Prim(TK::kStr), t_.Prim(TK::kStr)});
    return dyn;
  }
  return loose();
}

TypeId Checker::Field(const Expr& e) {
  const TypeId dyn = t_.Prim(TK::kDyn);
  // `std.fs` and other module paths, `sup.w` children: not values here.
  if (e.lhs->kind == Expr::Kind::kPath && e.lhs->segs.size() == 1 && !Lookup(e.lhs->segs[0].name))
    return dyn;
  TypeId l = Strip(Expr_(*e.lhs, dyn));
  const TNode n = t_.At(l);
  if (n.kind == TK::kAdt && adts_.count(n.name) && !adts_.at(n.name).is_enum) {
    const AdtInfo& a = adts_.at(n.name);
    if (a.variants.empty()) return dyn;
    const VariantInfo& v = a.variants[0];
    for (size_t i = 0; i < v.field_names.size(); ++i)
      if (v.field_names[i] == e.text) {
        info_.field_owner[&e] = n.name;
        return t_.Subst(v.fields[i], a.generics, n.args);
      }
    // A closure's parameter may be a struct the lowering cannot see: say it here.
    if (!failed_) {
      failed_ = true;
      std::vector<std::string> names = v.field_names;
      diags_
          .Error("MT2002", e.loc,
                 absl::StrCat("no field `", e.text, "` on type `", t_.Show(l), "`"),
                 DidYouMeanOr(e.text, names,
                              absl::StrCat("`", n.name, "` has ", names.size(), " field(s)")))
          .end = NameEnd(e.loc, e.text);
    }
    return t_.Prim(TK::kErr);
  }
  if (n.kind == TK::kParam && !failed_) {
    failed_ = true;
    diags_
        .Error("MT2032", e.loc,
               absl::StrCat("no field `", e.text, "` on type parameter `", n.name, "`"),
               absl::StrCat("a generic parameter has only the methods of its bounds; take the "
                            "struct's type instead, or add a trait method that gives `",
                            e.text, "`"))
        .end = NameEnd(e.loc, e.text);
    return t_.Prim(TK::kErr);
  }
  return dyn;
}

TypeId Checker::Binary(const Expr& e, TypeId expect) {
  const TypeId dyn = t_.Prim(TK::kDyn);
  const TypeId boolean = t_.Prim(TK::kBool);
  const BinaryOp op = e.binary_op;
  if (op == BinaryOp::kAnd || op == BinaryOp::kOr) {
    Expect(Expr_(*e.lhs, boolean), boolean, *e.lhs, "MT2029",
           absl::StrCat("the `", BinaryOpText(op), "` operator"));
    Expect(Expr_(*e.rhs, boolean), boolean, *e.rhs, "MT2029",
           absl::StrCat("the `", BinaryOpText(op), "` operator"));
    return boolean;
  }
  const bool compare = op == BinaryOp::kEq || op == BinaryOp::kNe || op == BinaryOp::kLt ||
                       op == BinaryOp::kLe || op == BinaryOp::kGt || op == BinaryOp::kGe;
  TypeId a = Expr_(*e.lhs, compare ? dyn : expect);
  TypeId b = Expr_(*e.rhs, a);
  // An operand that never returns (`g + panic("x")`) is not coerced to the
  // other's type: as rustc's `!`, it falls back to `()` (E0277 there).
  for (TypeId* x : {&a, &b})
    if (t_.Kind(*x) == TK::kNever) *x = t_.Prim(TK::kUnit);
  if (std::optional<TypeId> r = OperatorMethod(e, a, b)) return *r;
  auto bad = [&] {
    if (failed_) return;
    failed_ = true;
    Diagnostic& d = diags_.Error(
        "MT2029", e.loc,
        absl::StrCat(compare ? "cannot compare `" : "cannot apply `",
                     compare ? t_.Show(a) : BinaryOpText(op), compare ? "` with `" : "` to `",
                     compare ? t_.Show(b) : t_.Show(a),
                     compare ? "`" : absl::StrCat("` and `", t_.Show(b), "`")));
    d.labels.push_back(Label{e.lhs->begin, e.lhs->end, t_.Show(a)});
    d.labels.push_back(Label{e.rhs->begin, e.rhs->end, t_.Show(b)});
  };
  // An operator on a generic parameter needs a bound that provides it
  // (`T: PartialOrd` for `<`, `T: PartialEq` for `==`, `T: Add` for `+`).
  for (TypeId x : {a, b}) {
    const TNode& xn = t_.At(x);
    if (xn.kind != TK::kParam || failed_) continue;
    static const std::set<std::string> kEq = {"PartialEq", "Eq", "PartialOrd", "Ord", "Hash"};
    static const std::set<std::string> kOrd = {"PartialOrd", "Ord", "Ordered"};
    static const std::set<std::string> kNum = {"Add",    "Sub", "Mul",     "Div",    "Rem",
                                               "Neg",    "Num", "Numeric", "BitAnd", "BitOr",
                                               "BitXor", "Shl", "Shr"};
    const bool eq = op == BinaryOp::kEq || op == BinaryOp::kNe;
    const std::set<std::string>& want = eq ? kEq : compare ? kOrd : kNum;
    bool has = false;
    if (auto g = generics_.find(xn.name); g != generics_.end())
      for (const std::string& bnd : g->second) has = has || want.count(bnd);
    if (has) continue;
    failed_ = true;
    const char* trait = eq                     ? "PartialEq"
                        : compare              ? "PartialOrd"
                        : op == BinaryOp::kAdd ? "Add"
                        : op == BinaryOp::kSub ? "Sub"
                        : op == BinaryOp::kMul ? "Mul"
                                               : "Div";
    diags_
        .Error("MT2032", e.loc,
               absl::StrCat("binary operation `", BinaryOpText(op), "` cannot be applied to type `",
                            xn.name, "`"),
               absl::StrCat("add the bound where `", xn.name, "` is declared: `", xn.name, ": ",
                            trait, "`"))
        .end = NameEnd(e.loc, BinaryOpText(op));
    return compare ? boolean : a;
  }
  if (compare) {
    if (!t_.Unify(a, b)) bad();
    return boolean;
  }
  TK ka = t_.Kind(a), kb = t_.Kind(b);
  auto is_int = [](TK k) { return k == TK::kInt || k == TK::kIntVar; };
  auto loose = [&](TypeId x) {
    TK k = t_.Kind(x);
    return k == TK::kDyn || k == TK::kErr || k == TK::kVar || k == TK::kParam || k == TK::kNever;
  };
  if (op == BinaryOp::kShl || op == BinaryOp::kShr) {
    if ((!is_int(ka) && !loose(a)) || (!is_int(kb) && !loose(b))) bad();
    return a;
  }
  // Durations and sizes scale by integers.
  if ((ka == TK::kDuration || ka == TK::kSize) && is_int(kb) &&
      (op == BinaryOp::kMul || op == BinaryOp::kDiv))
    return a;
  if ((kb == TK::kDuration || kb == TK::kSize) && is_int(ka) && op == BinaryOp::kMul) return b;
  if (loose(a) && !loose(b)) {
    t_.Unify(a, b);
    return b;
  }
  if (!t_.Unify(a, b)) {
    bad();
    return t_.Prim(TK::kErr);
  }
  TK k = t_.Kind(a);
  bool ok = loose(a);
  switch (op) {
    case BinaryOp::kAdd:
      ok = ok || is_int(k) || k == TK::kFloat || k == TK::kFloatVar || k == TK::kStr ||
           k == TK::kDuration || k == TK::kSize;
      break;
    case BinaryOp::kSub:
    case BinaryOp::kMul:
    case BinaryOp::kDiv:
    case BinaryOp::kRem:
      ok = ok || is_int(k) || k == TK::kFloat || k == TK::kFloatVar || k == TK::kDuration ||
           k == TK::kSize;
      break;
    default: ok = ok || is_int(k) || k == TK::kBool; break;
  }
  if (!ok) bad();
  return a;
}

std::optional<TypeId> Checker::OperatorMethod(const Expr& e, TypeId a, TypeId b) {
  const char* name = OperatorMethodName(e.binary_op);
  if (!name || t_.Kind(Strip(a)) != TK::kAdt) return std::nullopt;
  TypeId self;
  const FnSig* sig = FindMethod(a, name, &self);
  if (!sig || sig->params.size() != 1) return std::nullopt;
  std::vector<TypeId> ps;
  TypeId r = Instantiate(*sig, self, &ps, e.loc);
  Expect(b, ps[0], *e.rhs, "MT2017", absl::StrCat("the parameter of `", name, "`"));
  if (e.binary_op == BinaryOp::kNe || e.binary_op == BinaryOp::kEq) return t_.Prim(TK::kBool);
  return r;
}

TypeId Checker::Closure(const Expr& e, TypeId expect) {
  const ExprMore& m = *e.more;
  TypeId ex = t_.Find(expect);
  std::vector<TypeId> want_ps;
  TypeId want_ret = 0;
  if (t_.Kind(ex) == TK::kFn) {
    const TNode& fn = t_.At(ex);
    want_ps.assign(fn.args.begin(), fn.args.end() - 1);
    want_ret = fn.args.back();
    if (want_ps.size() != m.params.size() && !failed_) {
      failed_ = true;
      diags_
          .Error("MT2001", e.loc,
                 absl::StrCat("closure takes ", m.params.size(), " argument(s) but ",
                              want_ps.size(), " are expected here"),
                 absl::StrCat("the expected type is `", t_.Show(ex), "`"))
          .end = e.end;
      want_ps.clear();
      want_ret = 0;
    }
  }
  Push();
  std::vector<TypeId> ps;
  for (size_t i = 0; i < m.params.size(); ++i) {
    const ClosureParam& p = m.params[i];
    TypeId t = p.type.kind != TypeExpr::Kind::kInfer ? FromType(p.type)
                                                     : t_.Var(p.pat ? p.pat->loc : e.loc);
    if (i < want_ps.size()) t_.Unify(t, want_ps[i]);
    if (p.pat) Pattern_(*p.pat, t, true);
    ps.push_back(t);
  }
  TypeId ret = m.type.kind != TypeExpr::Kind::kInfer ? FromType(m.type) : t_.Var(e.loc);
  if (want_ret) t_.Unify(ret, want_ret);
  fn_.push_back(FnCtx{ret, false, e.loc, {}});
  if (m.closure_body)
    Expect(Expr_(*m.closure_body, ret), ret, *m.closure_body, "MT2023", "the closure's result");
  fn_.pop_back();
  Pop();
  return t_.Fn(std::move(ps), ret);
}

TypeId Checker::Macro(const Expr& e) {
  const TypeId dyn = t_.Prim(TK::kDyn);
  for (size_t i = 0; i < e.args.size(); ++i) Expr_(*e.args[i], dyn);
  using MK = BuiltinMacro::Kind;
  const BuiltinMacro* m = FindBuiltinMacro(e.text);
  if (!m) return dyn;
  switch (m->kind) {
    case MK::kFormat: return t_.Prim(TK::kStr);
    case MK::kPanic: return t_.Prim(TK::kNever);
    case MK::kAssertEq:
    case MK::kAssertNe:
      if (e.args.size() >= 2) {
        TypeId a = info_.of[e.args[0].get()], b = info_.of[e.args[1].get()];
        if (!t_.Unify(a, b) && !failed_) {
          failed_ = true;
          diags_.Error("MT2029", e.loc,
                       absl::StrCat("cannot compare `", t_.Show(a), "` with `", t_.Show(b), "`"));
        }
      }
      return t_.Prim(TK::kUnit);
    case MK::kPrint:
    case MK::kAssert: return t_.Prim(TK::kUnit);
    case MK::kVec: break;
    case MK::kWrite: {
      // Into a `String` or a `Formatter` (a Str, docs/language.md §11).
      if (!e.args.empty())
        Expect(info_.of[e.args[0].get()], t_.Prim(TK::kStr), *e.args[0], "MT2023",
               "what `write!` writes into (a `String` or a `fmt::Formatter`)");
      const TypeId unit = t_.Prim(TK::kUnit);
      return t_.Adt("Result", {unit, unit});
    }
  }
  return dyn;
}

TypeId Checker::StructLit(const Expr& e) {
  const TypeId dyn = t_.Prim(TK::kDyn);
  const AdtInfo* a = nullptr;
  size_t vi = 0;
  if (e.segs.size() == 1) {
    auto it = adts_.find(e.segs[0].name);
    if (it != adts_.end() && !it->second.is_enum) a = &it->second;
    if (!a)
      if (auto al = aliases_.find(e.segs[0].name); al != aliases_.end()) {
        TypeId t = FromType(al->second->type);
        if (t_.Kind(t) == TK::kAdt && adts_.count(t_.At(t).name)) a = &adts_.at(t_.At(t).name);
      }
  }
  if (!a) a = VariantOf(e.segs, dyn, &vi);
  if (!a || vi >= a->variants.size()) {
    for (const FieldInit& f : e.more->fields)
      if (f.value) Expr_(*f.value, dyn);
    if (e.rhs) Expr_(*e.rhs, dyn);
    return dyn;
  }
  std::vector<TypeId> targs;
  for (size_t i = 0; i < a->generics.size(); ++i) targs.push_back(t_.Var(e.loc));
  const VariantInfo& v = a->variants[vi];
  for (const FieldInit& f : e.more->fields) {
    if (!f.value) continue;
    TypeId want = dyn;
    for (size_t i = 0; i < v.field_names.size(); ++i)
      if (v.field_names[i] == f.name) want = t_.Subst(v.fields[i], a->generics, targs);
    Expect(Expr_(*f.value, want), want, *f.value, "MT2018",
           absl::StrCat("the field `", f.name, "`'s declared type"));
  }
  TypeId t = t_.Adt(a->name, std::move(targs));
  if (e.rhs) Expect(Expr_(*e.rhs, t), t, *e.rhs, "MT2023", "the struct being updated");
  return t;
}

TypeId Checker::AgentOp(const Expr& e) {
  const TypeId dyn = t_.Prim(TK::kDyn);
  if (e.kind == Expr::Kind::kSpawn) {
    const std::string n = e.segs.empty() ? "" : e.segs.back().name;
    auto a = agents_.find(n);
    if (a == agents_.end()) {
      for (const ExprPtr& x : e.args) t_.Unify(Expr_(*x, dyn), dyn);
      return dyn;
    }
    if (e.args.size() != a->second.ctor.size() && !failed_) {
      failed_ = true;
      diags_.Error("MT2001", e.loc,
                   absl::StrCat("agent `", n, "` takes ", a->second.ctor.size(),
                                " constructor argument(s) but ", e.args.size(),
                                (e.args.size() == 1 ? " was" : " were"), " supplied"));
    }
    for (size_t i = 0; i < e.args.size(); ++i) {
      if (i >= a->second.ctor.size()) {
        Expr_(*e.args[i], dyn);
        continue;
      }
      TypeId want = a->second.ctor[i];
      Expect(Expr_(*e.args[i], want), want, *e.args[i], "MT2034",
             "the agent's constructor parameter");
    }
    return t_.Make(TK::kAgent, n, {});
  }
  TypeId h = Strip(Expr_(*e.lhs, dyn));
  const TNode hn = t_.At(h);
  const AgentInfo::Msg* msg = nullptr;
  if (hn.kind == TK::kAgent)
    if (auto a = agents_.find(hn.name); a != agents_.end())
      if (auto m = a->second.msgs.find(e.text); m != a->second.msgs.end()) msg = &m->second;
  if (msg && e.args.size() != msg->params.size() && !failed_) {
    failed_ = true;
    diags_.Error("MT2001", e.loc,
                 absl::StrCat("`", hn.name, "`'s handler for `", e.text, "` takes ",
                              msg->params.size(), " argument(s) but ", e.args.size(),
                              (e.args.size() == 1 ? " was" : " were"), " supplied"));
  }
  for (size_t i = 0; i < e.args.size(); ++i) {
    if (!msg || i >= msg->params.size()) {
      t_.Unify(Expr_(*e.args[i], dyn), dyn);
      continue;
    }
    TypeId want = msg->params[i];
    Expect(Expr_(*e.args[i], want), want, *e.args[i], "MT2034",
           absl::StrCat("the parameter of `", hn.name, "`'s handler for `", e.text, "`"));
  }
  if (e.kind == Expr::Kind::kSend) return t_.Prim(TK::kUnit);
  if (e.rhs) Expr_(*e.rhs, t_.Prim(TK::kDuration));
  TypeId reply = msg ? msg->reply : dyn;
  if (e.rhs) return t_.Result(reply, t_.Adt("AskError"));
  return reply;
}

TypeId Checker::Try(const Expr& e) {
  const TypeId dyn = t_.Prim(TK::kDyn);
  TypeId o = Strip(Expr_(*e.lhs, dyn));
  const TNode on = t_.At(o);
  if (on.kind == TK::kVar || t_.IsLoose(o) || on.kind == TK::kNever) return dyn;
  const bool is_result = on.kind == TK::kAdt && on.name == "Result";
  const bool is_option = on.kind == TK::kAdt && on.name == "Option";
  if (!is_result && !is_option) {
    if (!failed_) {
      failed_ = true;
      diags_
          .Error("MT2027", e.loc,
                 absl::StrCat("the `?` operator can only be applied to a `Result` or an `Option`, "
                              "not `",
                              t_.Show(o), "`"))
          .end = e.loc;
    }
    return t_.Prim(TK::kErr);
  }
  if (fn_.empty()) return on.args[0];
  TypeId ret = t_.Find(fn_.back().ret);
  const TNode rn = t_.At(ret);
  if (rn.kind == TK::kVar) {
    t_.Unify(ret, is_result ? t_.Result(t_.Var(e.loc), on.args[1]) : t_.Option(t_.Var(e.loc)));
    return on.args[0];
  }
  if (t_.IsLoose(ret)) return on.args[0];
  const bool ret_result = rn.kind == TK::kAdt && rn.name == "Result";
  const bool ret_option = rn.kind == TK::kAdt && rn.name == "Option";
  if ((is_result && !ret_result) || (is_option && !ret_option)) {
    if (!failed_) {
      failed_ = true;
      Diagnostic& d = diags_.Error(
          "MT2027", e.loc,
          absl::StrCat("the `?` operator on ", is_result ? "a `Result`" : "an `Option`",
                       " can only be used in a function that returns ",
                       is_result ? "`Result`" : "`Option`", ", not `", t_.Show(ret), "`"),
          absl::StrCat("declare the function `-> ", is_result ? "Result[T, E]" : "Option[T]",
                       "`, or handle the value with `match`"));
      d.end = e.loc;
      if (fn_.back().ret_loc.line)
        d.labels.push_back(Label{fn_.back().ret_loc, {}, "the function's result is declared here"});
    }
    return on.args[0];
  }
  if (is_result && !t_.Unify(rn.args[1], on.args[1]) && !TryFrom(e, rn.args[1], on.args[1]) &&
      !failed_) {
    failed_ = true;
    Diagnostic& d =
        diags_.Error("MT2028", e.loc,
                     absl::StrCat("`?` couldn't convert the error to `", t_.Show(rn.args[1]),
                                  "`: the value's error type is `", t_.Show(on.args[1]), "`"),
                     absl::StrCat("convert it first: `.map_err(|e| ...)?`"));
    d.end = e.loc;
    if (fn_.back().ret_loc.line)
      d.labels.push_back(
          Label{fn_.back().ret_loc, {}, "the function's error type is declared here"});
  }
  return on.args[0];
}

// `?` converting the error `from` into the function's `to` by the user's
// `impl From[from] for to`, as Rust's `?` calls `From::from`.
bool Checker::TryFrom(const Expr& e, TypeId to, TypeId from) {
  const TNode tn = t_.At(t_.Find(to));
  if (tn.kind != TK::kAdt) return false;
  auto m = methods_.find(tn.name);
  if (m == methods_.end()) return false;
  auto f = m->second.find("from");
  if (f == m->second.end() || f->second.has_self || f->second.params.size() != 1) return false;
  std::vector<TypeId> ps;
  TypeId r = Instantiate(f->second, to, &ps, e.loc);
  if (!t_.Unify(ps[0], from) || !t_.Unify(r, to)) return false;
  info_.try_from[&e] = tn.name;
  return true;
}

// `Pair(1, "a")`, `Some(x)`, `Shape::Circle(1.0)`: the arguments against
// the fields of variant `vi` of `a` with the type arguments `targs`.
TypeId Checker::Construct(const AdtInfo& a, size_t vi, const std::vector<const Expr*>& args,
                          std::vector<TypeId> targs) {
  const VariantInfo& v = a.variants[vi];
  for (size_t i = 0; i < args.size(); ++i) {
    if (i >= v.fields.size()) {
      Expr_(*args[i], t_.Prim(TK::kDyn));
      continue;
    }
    TypeId want = t_.Subst(v.fields[i], a.generics, targs);
    Expect(Expr_(*args[i], want), want, *args[i], "MT2017",
           a.is_enum ? "the variant's payload" : "the struct's field");
  }
  return t_.Adt(a.name, std::move(targs));
}

TypeId Checker::ForIter(TypeId it, Loc at) {
  it = Strip(it);
  const TNode n = t_.At(it);
  switch (n.kind) {
    case TK::kArray: return n.args[0];
    case TK::kMap: return t_.Tuple({n.args[0], n.args[1]});
    case TK::kStr: return t_.Prim(TK::kChar);
    case TK::kAdt:
      if (n.name == "Range" && n.args.size() == 1) return n.args[0];
      // A std collection (lower_std.cc): what its iter() gives.
      if (g_.std_types.count(n.name) && (n.args.size() == 1 || n.args.size() == 2))
        return n.args.size() == 1 ? n.args[0] : t_.Tuple({n.args[0], n.args[1]});
      return t_.Prim(TK::kDyn);
    default:
      if (!IsScalar(n.kind) && n.kind != TK::kFn) return t_.Prim(TK::kDyn);
      if (!failed_) {
        failed_ = true;
        diags_.Error("MT2023", at,
                     absl::StrCat("`", t_.Show(it),
                                  "` is not an iterator: `for` walks a range, "
                                  "an array, a map or a string"),
                     n.kind == TK::kInt || n.kind == TK::kIntVar ? "write a range: `0..n`" : "");
      }
      return t_.Prim(TK::kErr);
  }
}

const FnSig* Checker::FindMethod(TypeId recv, const std::string& name, TypeId* self_out) {
  recv = Strip(recv);
  *self_out = recv;
  std::string owner = OwnerName(recv);
  if (owner.empty()) return nullptr;
  auto m = methods_.find(owner);
  if (m == methods_.end()) return nullptr;
  auto f = m->second.find(name);
  return f == m->second.end() ? nullptr : &f->second;
}

TypeId Checker::MethodCall(const Expr& e, TypeId expect) {
  const TypeId dyn = t_.Prim(TK::kDyn);
  std::vector<const Expr*> args;
  for (const ExprPtr& a : e.args) args.push_back(a.get());
  auto loose = [&] { return LooseArgs(args); };
  // `Point.new(1)`, `T.empty()`, `Vec.new()`: an associated function.
  // `None.ok_or(e)`: a method of a unit variant's value.
  const bool unit_variant = e.lhs->kind == Expr::Kind::kPath && e.lhs->segs.size() == 1 &&
                            !Lookup(e.lhs->segs[0].name) && !adts_.count(e.lhs->segs[0].name) &&
                            variant_owners_.count(e.lhs->segs[0].name) > 0;
  if (e.lhs->kind == Expr::Kind::kPath && e.lhs->segs.size() == 1 && !Lookup(e.lhs->segs[0].name) &&
      !unit_variant && !g_.float_consts.count(e.lhs->segs[0].name)) {
    const std::string& n = e.lhs->segs[0].name;
    if (adts_.count(n) || generics_.count(n) || n == "Vec" || n == "Map" || n == "HashMap" ||
        n == "String" || n == "Str" || n == "Array")
      return AssocCall(n, e.text, args, e, expect);
    return loose();  // `std`, a `use` alias, `host`, an agent or a supervisor
  }
  // Effects through module paths: `std.fs.read(p)`.
  std::vector<std::string> path;
  if (!unit_variant && FlattenPath(*e.lhs, &path) && !path.empty() && !Lookup(path[0])) {
    if (path[0] == "std" || g_.uses.count(path[0])) return EffectCall(path, e);
    return loose();
  }
  TypeId r = Strip(Expr_(*e.lhs, dyn));
  const TNode rn = t_.At(r);
  if (rn.kind == TK::kVar || t_.IsLoose(r) || rn.kind == TK::kNever) return loose();
  TypeId self = r;
  if (const FnSig* sig = FindMethod(r, e.text, &self)) return Apply(*sig, args, e, self);
  // `to_string()` of a type with its own `Display` impl.
  if (e.text == "to_string" && args.empty() && FindMethod(r, "__display_fmt", &self))
    return t_.Prim(TK::kStr);
  if (rn.kind != TK::kParam && rn.kind != TK::kDynTrait)
    if (std::optional<TypeId> d = DirectedMethod(r, e, expect)) return *d;
  if (rn.kind == TK::kParam || rn.kind == TK::kDynTrait) {
    std::vector<std::string> bounds;
    if (rn.kind == TK::kDynTrait)
      bounds = {rn.name};
    else if (auto g = generics_.find(rn.name); g != generics_.end())
      bounds = g->second;
    for (const std::string& b : bounds)
      if (auto tr = traits_.find(b); tr != traits_.end())
        if (auto m = tr->second.methods.find(e.text); m != tr->second.methods.end())
          return Apply(m->second, args, e, r);
    static const std::set<std::string> kAny = {
        "to_str", "to_string", "clone", "as_ref", "borrow", "eq", "ne", "cmp", "partial_cmp",
        "hash",   "fmt",       "into",  "lt",     "le",     "gt", "ge", "max", "min"};
    if (kAny.count(e.text)) return loose();
    bool all_markers = !bounds.empty();
    for (const std::string& b : bounds) all_markers = all_markers && !traits_.count(b);
    // Marker bounds (`T: Clone`) leave a method open, unless the program's
    // own trait declares it: then that trait is the bound to add.
    std::string declaring;
    for (const auto& [tn, tr] : traits_)
      if (tr.methods.count(e.text)) {
        declaring = tn;
        break;
      }
    if (rn.kind == TK::kParam && all_markers && !declaring.empty() && !failed_) {
      failed_ = true;
      diags_
          .Error("MT2032", e.loc,
                 absl::StrCat("no method named `", e.text, "` found for type parameter `", rn.name,
                              "` in the current scope"),
                 absl::StrCat("add the bound where `", rn.name, "` is declared: `", rn.name, ": ",
                              declaring, "` (trait `", declaring, "` declares `fn ", e.text, "`)"))
          .end = NameEnd(e.loc, e.text);
      return loose();
    }
    if (!failed_ && !all_markers && rn.kind == TK::kDynTrait) {
      failed_ = true;
      diags_
          .Error("MT2004", e.loc,
                 absl::StrCat("no method named `", e.text, "` found for `dyn ", rn.name, "`"),
                 absl::StrCat("a trait object has the methods its trait declares; declare `fn ",
                              e.text, "` in trait `", rn.name, "`"))
          .end = NameEnd(e.loc, e.text);
    } else if (!failed_ && !all_markers) {
      failed_ = true;
      diags_
          .Error("MT2032", e.loc,
                 absl::StrCat("no method named `", e.text, "` found for type parameter `", rn.name,
                              "` in the current scope"),
                 absl::StrCat("add a bound where `", rn.name, "` is declared: `", rn.name,
                              ": Trait`, with a trait that declares `fn ", e.text, "`"))
          .end = NameEnd(e.loc, e.text);
    }
    return loose();
  }
  return BuiltinMethod(r, e, expect);
}

TypeId Checker::EffectCall(const std::vector<std::string>& path, const Expr& e) {
  const TypeId dyn = t_.Prim(TK::kDyn);
  std::vector<const Expr*> args;
  for (const ExprPtr& a : e.args) args.push_back(a.get());
  // The full path, as the lowering spells it (`use std.fs as f`: `f.read`).
  std::vector<std::string> full = path;
  if (path[0] != "std") {
    full = g_.uses.at(path[0]);
    full.insert(full.end(), path.begin() + 1, path.end());
  }
  std::string p;
  for (const std::string& s : full) absl::StrAppend(&p, p.empty() ? "" : ".", s);
  absl::StrAppend(&p, ".", e.text);
  const ir::EffectInfo* effect = ir::FindEffect(p);
  std::vector<TypeId> ps;
  TypeId ret = 0;
  // An unknown effect or a wrong count is the lowering's to say (MT1005, MT2001).
  if (!effect || !EffectSig(t_, *effect, e.loc, &ps, &ret) ||
      (args.size() != ps.size() && args.size() != ps.size() + 1)) {
    LooseArgs(args);
    return t_.Result(dyn, t_.Prim(TK::kStr));
  }
  size_t first = 0;
  if (args.size() == ps.size() + 1) {
    // The optional leading capability: of the type the effect's family has.
    const ir::CapInfo* cap = ir::FindCapFamily(effect->family);
    TypeId want = cap ? t_.Make(TK::kCap, cap->type, {}) : dyn;
    Expect(Expr_(*args[0], want), want, *args[0], "MT2017", absl::StrCat("`", p, "`'s capability"));
    first = 1;
  }
  for (size_t i = first; i < args.size(); ++i)
    Expect(Expr_(*args[i], ps[i - first]), ps[i - first], *args[i], "MT2017",
           absl::StrCat("`", p, "`'s parameter"));
  return ret;
}

TypeId Checker::BuiltinMethod(TypeId r, const Expr& e, TypeId /*expect*/) {
  const TypeId dyn = t_.Prim(TK::kDyn);
  std::vector<const Expr*> args;
  for (const ExprPtr& a : e.args) args.push_back(a.get());
  std::optional<ir::Recv> recv = RecvOfType(t_, r);
  const TNode rn = t_.At(r);
  std::vector<TypeId> ps;
  TypeId ret = 0;
  if (recv && BuiltinSig(t_, *recv, e.text, r, rn.args, e.loc, &ps, &ret)) {
    // A closure argument's parameters come from the signature, so they are
    // typed before its body is checked.
    for (size_t i = 0; i < args.size(); ++i) {
      if (i >= ps.size()) {
        Expr_(*args[i], dyn);
        continue;
      }
      TypeId a = Expr_(*args[i], ps[i]);
      // A range where an array is wanted (`zip(10..13)`): its elements.
      if (t_.Kind(a) == TK::kAdt && t_.At(a).name == "Range" && t_.At(a).args.size() == 1 &&
          t_.Kind(ps[i]) == TK::kArray)
        a = t_.Array(t_.At(a).args[0]);
      Expect(a, ps[i], *args[i], "MT2017", "this method's parameter");
    }
    return ret;
  }
  // A method no row of the receiver's kind has (the lowering says so where it
  // knows the type; here the type may come from inference).
  if (recv && !failed_) {
    std::optional<ir::MethodName> id = ir::FindMethodName(e.text);
    const bool known = id && (ir::FindMethod(*recv, *id) || ir::FindPreludeMethod(*recv, *id) ||
                              ir::FindFormMethod(*recv, *id));
    if (!known && *recv != ir::Recv::kCap && *recv != ir::Recv::kTuple) {
      failed_ = true;
      diags_
          .Error("MT2004", e.loc,
                 absl::StrCat("no method named `", e.text, "` found for `", t_.Show(r), "`"))
          .end = NameEnd(e.loc, e.text);
      for (const Expr* a : args) t_.Unify(Expr_(*a, dyn), dyn);
      return t_.Prim(TK::kErr);
    }
  }
  // No signature yet: the arguments are unchecked, the result is the row's
  // shape, and what the receiver's type had left to infer is left to the run.
  t_.Unify(r, dyn);
  std::vector<TyP> arg_tys;
  for (const Expr* a : args) {
    TypeId at = Expr_(*a, dyn);
    arg_tys.push_back(ToTy(t_, at));
    if (t_.IsVar(at) && t_.Kind(at) == TK::kVar) t_.Unify(at, dyn);
  }
  return FromTy(t_, MethodResult(ToTy(t_, r), e.text, arg_tys));
}

}  // namespace mty::frontend::tc
