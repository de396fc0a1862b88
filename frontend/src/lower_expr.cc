// Expression lowering: the LowerExpr dispatch (literals, fields, indexing,
// aggregates, `?`, casts, borrows), paths and constants, operators and
// assignment, control flow (`if`, loops, `for`), struct literals.
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lower_internal.h"

namespace mty::frontend {

using K = Expr::Kind;

namespace {

// Where an expression starts in the source (the parser locates postfix and
// binary nodes at their operator or name).
Loc StartLoc(const Expr& e) {
  switch (e.kind) {
    case K::kField:
    case K::kTupleField:
    case K::kIndex:
    case K::kMethodCall:
    case K::kCall:
    case K::kBinary:
    case K::kAssign:
    case K::kCast:
    case K::kTry:
    case K::kSend:
    case K::kAsk:
      if (e.lhs) return StartLoc(*e.lhs);
      return e.loc;
    case K::kPath: return e.segs.empty() ? e.loc : e.segs[0].loc;
    default: return e.loc;
  }
}

ir::BinOp IrBin(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd: return ir::BinOp::kAdd;
    case BinaryOp::kSub: return ir::BinOp::kSub;
    case BinaryOp::kMul: return ir::BinOp::kMul;
    case BinaryOp::kDiv: return ir::BinOp::kDiv;
    case BinaryOp::kRem: return ir::BinOp::kRem;
    case BinaryOp::kBitAnd: return ir::BinOp::kBitAnd;
    case BinaryOp::kBitOr: return ir::BinOp::kBitOr;
    case BinaryOp::kBitXor: return ir::BinOp::kBitXor;
    case BinaryOp::kShl: return ir::BinOp::kShl;
    case BinaryOp::kShr: return ir::BinOp::kShr;
    case BinaryOp::kEq: return ir::BinOp::kEq;
    case BinaryOp::kNe: return ir::BinOp::kNe;
    case BinaryOp::kLt: return ir::BinOp::kLt;
    case BinaryOp::kLe: return ir::BinOp::kLe;
    case BinaryOp::kGt: return ir::BinOp::kGt;
    case BinaryOp::kGe: return ir::BinOp::kGe;
    case BinaryOp::kAnd:
    case BinaryOp::kOr: break;  // short-circuit: lowered to branches, never an ir::BinOp
  }
  return ir::BinOp::kAdd;
}

bool IsComparison(BinaryOp op) {
  return op == BinaryOp::kEq || op == BinaryOp::kNe || op == BinaryOp::kLt || op == BinaryOp::kLe ||
         op == BinaryOp::kGt || op == BinaryOp::kGe;
}

}  // namespace

bool IsUnsignedTypeName(const std::string& t) { return t == "U64" || t == "USize" || t == "U128"; }

const char* MemFnName(const Expr& callee) {
  if (callee.kind != Expr::Kind::kPath || callee.segs.size() != 3 || callee.segs[0].name != "std" ||
      callee.segs[1].name != "mem")
    return nullptr;
  for (const char* f : {"swap", "replace", "take"})
    if (callee.segs[2].name == f) return f;
  return nullptr;
}

bool IsStrTypeName(const std::string& t) {
  return t == "Str" || t == "String" || t == "str" || t == "ParseIntError" ||
         t == "ParseFloatError";
}

// An integer literal: a U64 constant with a u64/usize/u128 suffix or where a
// U64 is expected (`let x: U64 = 5`), else an I64 one; an unsuffixed literal
// above I64::MAX is only valid in the former.
FnLowerer::Val FnLowerer::LowerIntLiteral(const Expr& e, bool want_unsigned) {
  // The checker's type of an unsuffixed literal (`acc | (1 << i)` with
  // `acc: U64` makes the `1` a U64, as in Rust).
  if (!want_unsigned && e.text.empty()) {
    TyP t = CheckedType(e);
    want_unsigned = t->Unsigned();
  }
  if (want_unsigned || e.text == "u64" || e.text == "usize" || e.text == "u128")
    return Val{ConstOp(ir::Constant::UInt(static_cast<uint64_t>(e.int_value))), Ty::UInt()};
  if (e.is_mut)
    Error("MT0006", e.loc, "integer literal is out of range for a 64-bit integer",
          absl::StrCat("a U64 literal: write `", static_cast<uint64_t>(e.int_value),
                       "_u64` or give it a `U64` type"));
  return Val{ConstOp(ir::Constant::Int(e.int_value)), Ty::Make(Ty::Kind::kInt)};
}

// F64's associated constants (`F64::EPSILON`, Rust's `f64::MAX`) and those
// of std::f64::consts (`f64::consts::PI`, `std::f64::consts::E`).
std::optional<double> FloatConst(const std::vector<PathSeg>& segs) {
  size_t i = !segs.empty() && segs[0].name == "std" ? 1 : 0;
  if (segs.size() < i + 2) return std::nullopt;
  const std::string& ty = segs[i].name;
  if (ty != "F64" && ty != "F32" && ty != "f64" && ty != "f32") return std::nullopt;
  const bool consts = segs.size() == i + 3 && segs[i + 1].name == "consts";
  if (segs.size() != i + 2 && !consts) return std::nullopt;
  const std::string& n = segs.back().name;
  static const std::map<std::string, double> kAssoc = {{"MAX", 1.7976931348623157e308},
                                                       {"MIN", -1.7976931348623157e308},
                                                       {"INFINITY", HUGE_VAL},
                                                       {"NEG_INFINITY", -HUGE_VAL},
                                                       {"NAN", std::nan("")},
                                                       {"EPSILON", 2.220446049250313e-16},
                                                       {"MIN_POSITIVE", 2.2250738585072014e-308}};
  static const std::map<std::string, double> kConsts = {{"PI", 3.14159265358979323846},
                                                        {"E", 2.71828182845904523536},
                                                        {"TAU", 6.28318530717958647692},
                                                        {"SQRT_2", 1.41421356237309504880},
                                                        {"LN_2", 0.693147180559945309417},
                                                        {"LN_10", 2.30258509299404568402},
                                                        {"FRAC_PI_2", 1.57079632679489661923},
                                                        {"FRAC_PI_4", 0.785398163397448309616},
                                                        {"FRAC_1_SQRT_2", 0.707106781186547524401},
                                                        {"LOG2_E", 1.44269504088896340736},
                                                        {"LOG10_E", 0.434294481903251827651}};
  const auto& table = consts ? kConsts : kAssoc;
  auto it = table.find(n);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

std::string CmpFn(const std::vector<PathSeg>& segs,
                  const std::map<std::string, std::string>& aliases) {
  if (segs.size() == 1) {
    auto it = aliases.find(segs[0].name);
    return it == aliases.end() ? "" : it->second;
  }
  const size_t i = segs[0].name == "std" ? 1 : 0;
  if (segs.size() != i + 2 || segs[i].name != "cmp") return "";
  const std::string& n = segs.back().name;
  return n == "max" || n == "min" ? n : "";
}

bool FlattenPath(const Expr& e, std::vector<std::string>* out) {
  if (e.kind == K::kPath) {
    for (const PathSeg& s : e.segs) out->push_back(s.name);
    return true;
  }
  if (e.kind == K::kField && e.lhs) {
    if (!FlattenPath(*e.lhs, out)) return false;
    out->push_back(e.text);
    return true;
  }
  return false;
}

FnLowerer::Val FnLowerer::LowerExpr(const Expr& e) {
  switch (e.kind) {
    case K::kInt: return LowerIntLiteral(e, false);
    case K::kFloat:
      return Val{ConstOp(ir::Constant::Float(e.float_value)), Ty::Make(Ty::Kind::kFloat)};
    case K::kStr: return Val{ConstOp(ir::Constant::Str(e.text)), Ty::Make(Ty::Kind::kStr)};
    case K::kChar:
      return Val{ConstOp(ir::Constant::Char(static_cast<uint32_t>(e.int_value))),
                 Ty::Make(Ty::Kind::kChar)};
    case K::kBool:
      return Val{ConstOp(ir::Constant::Bool(e.int_value != 0)), Ty::Make(Ty::Kind::kBool)};
    case K::kDuration:
      return Val{ConstOp(ir::Constant::Duration(e.int_value)), Ty::Make(Ty::Kind::kDuration)};
    case K::kSize: return Val{ConstOp(ir::Constant::Size(e.int_value)), Ty::Make(Ty::Kind::kSize)};
    case K::kUnit: return Unit();
    case K::kPath: return LowerPath(e);
    case K::kUnary: return LowerUnary(e);
    case K::kBinary: return LowerBinary(e);
    case K::kAssign: return LowerAssign(e);
    case K::kCall: return LowerCall(e);
    case K::kMethodCall: return LowerMethodCall(e);
    case K::kField: return LowerField(e);
    case K::kIndex:
      if (e.rhs->kind == K::kRange) return LowerRangeIndex(e);
      return LowerProjection(e);
    case K::kTupleField:
    case K::kDeref: return LowerProjection(e);
    case K::kTuple:
    case K::kArray:
    case K::kMap: return LowerAggregate(e);
    case K::kStruct: return LowerStruct(e);
    case K::kBlock: return LowerBlock(*e.then_block);
    case K::kUnsafe: return LowerBlock(*e.then_block);
    case K::kArena: return LowerArena(e);
    case K::kIf:
    case K::kIfLet: return LowerIf(e);
    case K::kMatch: return LowerMatch(e);
    case K::kWhile:
    case K::kWhileLet:
    case K::kLoop: return LowerLoop(e);
    case K::kFor: return LowerFor(e);
    case K::kBreak:
    case K::kContinue: return LowerJump(e);
    case K::kReturn: return LowerReturn(e);
    case K::kTry: return LowerTry(e);
    case K::kClosure: return LowerClosure(e);
    case K::kRange:
      Error("MT2010", e.loc, "a range is only allowed in `for` loops and patterns");
      return Unit();
    case K::kCast: return LowerCast(e);
    case K::kRef: return LowerRef(e);
    case K::kMacro: return LowerMacro(e);
    case K::kSpawn: return LowerSpawn(e);
    case K::kSend:
    case K::kAsk: return LowerMessage(e);
    case K::kSandbox: return LowerSandbox(e);
    case K::kBudget: return LowerBudget(e);
  }
  return Unit();
}

// `-x`, `!x`; a negated number literal is a constant.
FnLowerer::Val FnLowerer::LowerUnary(const Expr& e) {
  if (e.unary_op == UnaryOp::kNeg && e.lhs->kind == K::kInt && e.lhs->text.empty() &&
      !e.lhs->is_mut)
    return Val{ConstOp(ir::Constant::Int(
                   static_cast<int64_t>(0ULL - static_cast<uint64_t>(e.lhs->int_value)))),
               Ty::Make(Ty::Kind::kInt)};
  if (e.unary_op == UnaryOp::kNeg && e.lhs->kind == K::kFloat)
    return Val{ConstOp(ir::Constant::Float(-e.lhs->float_value)), Ty::Make(Ty::Kind::kFloat)};
  Val v = LowerExpr(*e.lhs);
  Operand o = ToLocalOp(v);
  std::string fn;
  bool is_mut = false;
  if (e.unary_op == UnaryOp::kNeg && v.ty->Is(Ty::Kind::kAdt) &&
      UserMethod(*v.ty, "neg", &fn, &is_mut))
    return CallUser(g_.fns.at(fn), {o}, e.loc);  // `impl Neg for Q`
  Rvalue r;
  r.kind = Rvalue::Kind::kUnOp;
  r.un = e.unary_op == UnaryOp::kNeg ? ir::UnOp::kNeg : ir::UnOp::kNot;
  r.ops = {o};
  return Emit(std::move(r), v.ty);
}

// `a.f`: a supervisor child's handle, an associated constant (`I64.MAX`),
// a field of a place, or of a temporary value.
FnLowerer::Val FnLowerer::LowerField(const Expr& e) {
  // `sup.w`: the handle of a supervisor child (lower_agent.cc).
  if (std::optional<Val> child = LowerChildHandle(e)) return *child;
  std::vector<std::string> segs;
  if (FlattenPath(e, &segs) && segs.size() == 2 && !FindLocal(segs[0])) {
    // `I64.MAX`, `Shape.Empty`, `Point.origin` (associated const-like).
    Expr p;
    p.kind = K::kPath;
    p.loc = e.loc;
    for (const std::string& s : segs) p.segs.push_back({s, e.loc});
    return LowerPath(p);
  }
  TyP ty;
  bool root_mut;
  std::string root;
  place_error_ = false;
  if (auto pl = PlaceOf(e, &ty, &root_mut, &root)) return Emit(UseR(Operand::Copy(*pl)), ty);
  if (place_error_) return Unit();
  return LowerTempProjection(e);  // a field of a temporary value
}

// `a.0`, `a[i]`, `*a`: a read of a place, or of a projection of a
// temporary value.
FnLowerer::Val FnLowerer::LowerProjection(const Expr& e) {
  TyP ty;
  bool root_mut;
  std::string root;
  if (auto pl = PlaceOf(e, &ty, &root_mut, &root)) return Emit(UseR(Operand::Copy(*pl)), ty);
  return LowerTempProjection(e);
}

// `x[lo..hi]`, `x[..hi]`, `x[lo..]`, `x[..]`, `x[lo..=hi]` of an array or a
// string: a copy of that part (index_range; a string's bounds are bytes).
FnLowerer::Val FnLowerer::LowerRangeIndex(const Expr& e) {
  Val base = LowerExpr(*e.lhs);
  Place p{ToLocal(base), {}};
  TyP bt = base.ty;
  AutoDeref(p, bt, nullptr);
  const Expr& r = *e.rhs;
  Operand lo = r.lhs ? LowerExpr(*r.lhs).op : ConstOp(ir::Constant::Int(0));
  Operand hi = r.rhs ? LowerExpr(*r.rhs).op : UnitOp();
  return Emit(CallBuiltin("index_range", {Operand::Copy(p), lo, hi,
                                          ConstOp(ir::Constant::Bool(r.inclusive && r.rhs))}),
              bt);
}

FnLowerer::Val FnLowerer::LowerTempProjection(const Expr& e) {
  Val base = LowerExpr(*e.lhs);
  uint32_t l = ToLocal(base);
  Place p{l, {}};
  TyP bt = base.ty;
  if (e.kind == K::kDeref) {
    p.proj.push_back({ir::Projection::Kind::kDeref, 0, 0});
    return Emit(UseR(Operand::Copy(p)), bt->Is(Ty::Kind::kRef) ? bt->Arg(0) : Ty::Unknown());
  }
  AutoDeref(p, bt, nullptr);
  if (auto index = g_.fns.find(bt->name + "::index");
      e.kind == K::kIndex && IsStdType(bt) && index != g_.fns.end()) {
    // `d[i]` of a std collection (lower_std.cc): its index(i).
    Val recv = Emit(UseR(Operand::Copy(p)), bt);
    return CallUser(index->second, {recv.op, LowerExpr(*e.rhs).op}, e.loc);
  }
  std::optional<TyP> t = Project(e, p, bt);
  if (!t) return Unit();
  return Emit(UseR(Operand::Copy(p)), *t);
}

// `(a, b)`, `[a, b]` (`[x; n]`: LowerArrayRepeat), `{k: v}`: the elements'
// values; the element type is the first's when all agree (an array of mixed
// kinds dispatches its methods at run time).
FnLowerer::Val FnLowerer::LowerAggregate(const Expr& e) {
  if (e.kind == K::kArray && e.rhs) return LowerArrayRepeat(e);
  std::vector<TyP> tys;
  std::vector<Operand> ops;
  bool mixed = false;
  for (const ExprPtr& a : e.args) {
    Val v = LowerExpr(*a);
    ops.push_back(v.op);
    mixed = mixed || (e.kind == K::kArray && !tys.empty() && tys[0]->Name() != v.ty->Name());
    tys.push_back(v.ty);
  }
  Rvalue r;
  r.ops = std::move(ops);
  auto at = [&](size_t i) { return i < tys.size() ? tys[i] : Ty::Unknown(); };
  switch (e.kind) {
    case K::kTuple:
      r.kind = Rvalue::Kind::kTupleInit;
      return Emit(std::move(r), Ty::With(Ty::Kind::kTuple, std::move(tys)));
    case K::kMap:
      r.kind = Rvalue::Kind::kMapInit;
      return Emit(std::move(r), Ty::With(Ty::Kind::kMap, {at(0), at(1)}));
    default:
      r.kind = Rvalue::Kind::kArrayInit;
      return Emit(std::move(r), Ty::With(Ty::Kind::kArray, {mixed ? Ty::Unknown() : at(0)}));
  }
}

// `arena { body }`: the body between an arena push and its pop.
FnLowerer::Val FnLowerer::LowerArena(const Expr& e) {
  ir::Statement s;
  s.kind = ir::Statement::Kind::kArenaPush;
  s.arena = static_cast<uint32_t>(arena_depth_++);
  s.loc = IrLoc(loc_);
  s.loc_explicit = true;
  Push(s);
  Val v = LowerBlock(*e.then_block);
  Operand keep = ToLocalOp(v);
  s.kind = ir::Statement::Kind::kArenaPop;
  Push(s);
  --arena_depth_;
  return Val{keep, v.ty};
}

// `break [value]`, `continue`: out of the sandboxes entered in the loop,
// then to its exit (with the value as its result) or its next step.
FnLowerer::Val FnLowerer::LowerJump(const Expr& e) {
  const bool is_break = e.kind == K::kBreak;
  if (loops_.empty()) {
    Error("MT1020", e.loc, is_break ? "`break` outside of a loop" : "`continue` outside of a loop");
    return Unit();
  }
  const LoopCtx* target = TargetLoop(e);
  if (!target) return Unit();
  LoopCtx l = *target;
  if (is_break) {
    Val v = e.lhs ? LowerExpr(*e.lhs) : Unit();
    Assign(Place{l.result, {}}, UseR(v.op), e.loc);
  }
  ExitSandboxesTo(l.sandbox_depth);
  Goto(is_break ? l.brk : l.cont);
  SetBlock(NewBlock());
  terminated_ = false;
  return Unit();
}

FnLowerer::Val FnLowerer::LowerReturn(const Expr& e) {
  if (e.lhs) {
    CheckReturn(*e.lhs);
  } else if (check_ret_ && !TyFits(*Ty::Make(Ty::Kind::kUnit), *check_ret_)) {
    Error("MT2019", e.loc,
          absl::StrCat("mismatched types in the result of `", ret_fn_, "`: expected `",
                       check_ret_->Name(), "`, found `()` (a `return` without a value)"))
        .labels.push_back(Label{
            ret_loc_,
            {},
            absl::StrCat("`", ret_fn_, "` is declared to return `", check_ret_->Name(), "`")});
  }
  Val v = e.lhs ? LowerAs(*e.lhs, ret_) : Unit();
  Assign(Place{0, {}}, UseR(v.op), e.loc);
  Term(ir::Terminator::Kind::kReturn);
  return Unit();
}

// `e?` whose error the checker found converted by a user `impl From[X] for
// T`: returns `Err(T::from(x))` from the Err(x) in local `t`.
bool FnLowerer::TryFromReturn(const Expr& e, uint32_t t) {
  if (!g_.types) return false;
  const std::string to = tc::TryFromType(*g_.types, e);
  if (to.empty()) return false;
  auto ms = g_.methods.find(to);
  if (ms == g_.methods.end() || !ms->second.count("from")) return false;
  const FnDef& from = g_.fns.at(ms->second.at("from"));
  Place payload{t, {{ir::Projection::Kind::kVariantField, 0, 1}}};
  Val x = Emit(UseR(Operand::Copy(payload)), Ty::Unknown());
  Val converted = CallUser(from, {ToLocalOp(x)}, e.loc);
  Val err = Emit(AdtInit("Result", "Err", {ToLocalOp(converted)}), Ty::Adt("Result"));
  Assign(Place{0, {}}, UseR(err.op), e.loc);
  Term(ir::Terminator::Kind::kReturn);
  return true;
}

// `e?`: the payload of an Ok/Some, else the Err/None returned.
FnLowerer::Val FnLowerer::LowerTry(const Expr& e) {
  Val v = LowerExpr(*e.lhs);
  uint32_t t = ToLocal(v);
  uint32_t ok = NewBlock(), err = NewBlock();
  ir::Terminator sw;
  sw.kind = ir::Terminator::Kind::kSwitchVariant;
  sw.op = Operand::Copy(Place{t, {}});
  sw.cases.push_back({0, ok});
  sw.target = err;
  SetTerm(std::move(sw));
  SetBlock(err);
  if (!TryFromReturn(e, t)) {
    ir::Terminator tr;
    tr.kind = ir::Terminator::Kind::kTryReturnErr;
    tr.op = Operand::Copy(Place{t, {}});
    TermWith(tr);
  }
  SetBlock(ok);
  Place payload{t, {{ir::Projection::Kind::kVariantField, 0, 0}}};
  TyP inner = v.ty->Is(Ty::Kind::kAdt) && (v.ty->name == "Option" || v.ty->name == "Result")
                  ? v.ty->Arg(0)
                  : Ty::Unknown();
  return Emit(UseR(Operand::Copy(payload)), inner);
}

FnLowerer::Val FnLowerer::LowerCast(const Expr& e) {
  Val v = LowerExpr(*e.lhs);
  TyP target = g_.Resolve(e.more->type, &generics_);
  ir::Type it = e.more->type.kind == TypeExpr::Kind::kPath ? ir::Type::Named(e.more->type.name)
                                                           : ir::Type::Named("?");
  if (it.name == "I128") it.name = "I64";
  if (it.name == "U128") it.name = "U64";
  if (!IsCastTargetName(it.name)) {
    Error("MT2009", e.loc, absl::StrCat("cannot cast to `", e.more->type.name, "`"));
    return Unit();
  }
  Rvalue r;
  r.kind = Rvalue::Kind::kCast;
  r.ops = {ToLocalOp(v)};
  r.type = it;
  return Emit(std::move(r), target);
}

// `&x` is the value `x` (references are values, docs/language.md §6; copy
// on write makes it cheap); `&mut x` is a reference to its place.
FnLowerer::Val FnLowerer::LowerRef(const Expr& e) {
  if (!e.is_mut) return LowerExpr(*e.lhs);
  if (e.lhs->kind == K::kIndex && e.lhs->rhs->kind == K::kRange) {
    // A slice is a copy: writes through it would not reach the array.
    Error("MT2010", e.lhs->loc, "a mutable slice `&mut v[a..b]` is not supported",
          "pass the whole array as `&mut v` with the bounds (`f(&mut v, a, b)`), or take the "
          "part, change it and write it back");
    return Unit();
  }
  TyP ty;
  bool root_mut = false;
  std::string root;
  auto pl = PlaceOf(*e.lhs, &ty, &root_mut, &root);
  if (!pl) {
    Val v = LowerExpr(*e.lhs);
    pl = Place{ToLocal(v), {}};
    ty = v.ty;
    root_mut = true;
  } else if (CapturedWriteError(e.lhs->loc, root, "mutably borrow")) {
  } else if (!root_mut) {
    ImmutableError(
        e.lhs->loc, root,
        absl::StrCat("cannot borrow `", root, "` as mutable, as it is not declared as mutable"));
  }
  return MutRef(*pl, ty);
}

// `&mut` the value at `place` (of type `ty`).
FnLowerer::Val FnLowerer::MutRef(const Place& place, const TyP& ty) {
  Rvalue r;
  r.kind = Rvalue::Kind::kRef;
  r.is_mut = true;
  r.place = place;
  auto rt = Ty::With(Ty::Kind::kRef, {ty});
  rt->is_mut = true;
  return Emit(std::move(r), rt);
}

namespace {

// The constants an expression names (a path of one segment that is a
// constant's name).
struct ConstRefs {
  const Globals& g;
  std::vector<std::string> names;
  void Pat(const Pattern* p) {
    if (!p) return;
    for (const PatPtr& s : p->subs) Pat(s.get());
    Expr(p->lit.get());
    Expr(p->hi.get());
  }
  void Block(const mty::frontend::Block* b) {
    if (!b) return;
    for (const Stmt& s : b->stmts) {
      Pat(s.pat.get());
      Expr(s.expr.get());
    }
  }
  void Expr(const mty::frontend::Expr* e) {
    if (!e) return;
    if (e->kind == Expr::Kind::kPath && e->segs.size() == 1 && g.consts.count(e->segs[0].name))
      names.push_back(e->segs[0].name);
    Expr(e->lhs.get());
    Expr(e->rhs.get());
    Expr(e->more->cond.get());
    Block(e->then_block.get());
    Expr(e->more->else_expr.get());
    Pat(e->more->pat.get());
    for (const ExprPtr& a : e->args) Expr(a.get());
    for (const FieldInit& f : e->more->fields) Expr(f.value.get());
    for (const MatchArm& a : e->more->arms) {
      Pat(a.pat.get());
      Expr(a.guard.get());
      Expr(a.body.get());
    }
    for (const ClosureParam& p : e->more->params) Pat(p.pat.get());
    Expr(e->more->closure_body.get());
    for (const SandboxEntry& en : e->more->entries) Expr(en.value.get());
  }
};

}  // namespace

void Globals::CheckConstCycles() {
  // Depth-first over "names" edges with an explicit stack (a chain of
  // 100 000 constants must not recurse on the host stack): a constant met
  // again while still on the stack closes a cycle, and every constant on
  // that cycle is MT1007.
  std::map<std::string, std::vector<std::string>> edges;
  for (const auto& [name, c] : consts) {
    ConstRefs r{*this, {}};
    r.Expr(c->value.get());
    edges[name] = std::move(r.names);
  }
  enum class Mark : uint8_t { kNew, kOpen, kDone };
  std::map<std::string, Mark> mark;
  for (const auto& [root, c0] : consts) {
    if (mark[root] != Mark::kNew) continue;
    std::vector<std::pair<std::string, size_t>> stack{{root, 0}};
    mark[root] = Mark::kOpen;
    while (!stack.empty()) {
      auto& [name, next] = stack.back();
      const std::vector<std::string>& out = edges[name];
      if (next == out.size()) {
        mark[name] = Mark::kDone;
        stack.pop_back();
        continue;
      }
      const std::string to = out[next++];
      Mark& m = mark[to];
      if (m == Mark::kNew) {
        m = Mark::kOpen;
        stack.push_back({to, 0});
      } else if (m == Mark::kOpen) {
        // The cycle: `to` and every constant above it on the stack.
        size_t i = stack.size();
        while (i > 0 && stack[i - 1].first != to) --i;
        std::string via;
        for (size_t j = i - 1; j < stack.size(); ++j) {
          const std::string& n = stack[j].first;
          if (const_cycle.insert(n).second) {
            const std::string& other = stack[j + 1 < stack.size() ? j + 1 : i - 1].first;
            diags.Error("MT1007", consts.at(n)->loc,
                        other == n ? absl::StrCat("constant `", n, "` refers to itself")
                                   : absl::StrCat("constant `", n, "` refers to itself (through `",
                                                  other, "`)"));
          }
        }
      }
    }
  }
}

void Globals::LowerConsts() {
  for (const auto& [name, c] : consts) {
    if (const_cycle.count(name)) continue;
    TyP ty = Resolve(c->type);
    FnLowerer fl(*this, name, ty);
    fl.SetLoc(c->loc);
    if (c->type.kind != TypeExpr::Kind::kInfer)
      fl.CheckValue(*c->value, ty, "MT2016", "mismatched types: ", c->type.loc,
                    absl::StrCat("expected `", TypeText(c->type), "` because of this annotation"));
    ir::Function f = fl.FinishWithExpr(*c->value, ty->Is(Ty::Kind::kUnit));
    f.once = true;
    program.functions.push_back(std::move(f));
  }
}

FnLowerer::Val FnLowerer::ConstValue(const std::string& name, Loc loc) {
  (void)loc;
  const ConstDecl* c = g_.consts.at(name);
  if (g_.const_cycle.count(name)) return Unit();
  return Emit(NamedR(Rvalue::Kind::kCall, name), g_.Resolve(c->type));
}

FnLowerer::Val FnLowerer::MakeVariant(const std::string& adt, uint32_t vi, const VariantDef& vd,
                                      const std::vector<ExprPtr>* args, TyP expected, Loc loc) {
  size_t given = args ? args->size() : 0;
  if (IsStructLike(vd)) {
    AddVariantLabel(
        Error("MT2008", loc,
              absl::StrCat("variant `", adt, "::", vd.name, "` has named fields: write `", adt,
                           "::", vd.name, " { ", vd.fields[0].name, ": .. }`")),
        adt, vd);
    return Unit();
  }
  if (given != vd.arity) {
    AddVariantLabel(Error("MT2008", loc,
                          absl::StrCat("variant `", adt, "::", vd.name, "` takes ", vd.arity,
                                       " field(s), given ", given)),
                    adt, vd);
    return Unit();
  }
  std::vector<Operand> ops;
  std::vector<TyP> tys;
  if (args) {
    const AdtDef* def = g_.adts.count(adt) ? &g_.adts.at(adt) : nullptr;
    for (size_t i = 0; i < args->size(); ++i) {
      Val v = def && i < vd.fields.size() ? LowerAs(*(*args)[i], FieldWant(*def, vd.fields[i]))
                                          : LowerExpr(*(*args)[i]);
      ops.push_back(v.op);
      tys.push_back(v.ty);
    }
  }
  TyP ty = Ty::Adt(adt);
  if (adt == "Option") {
    ty->args = {
        vi == 0 ? tys[0]
                : (expected && expected->Is(Ty::Kind::kAdt) ? expected->Arg(0) : Ty::Unknown())};
  } else if (adt == "Result") {
    ty->args = {vi == 0 ? tys[0] : Ty::Unknown(), vi == 1 ? tys[0] : Ty::Unknown()};
  }
  (void)vi;
  return Emit(AdtInit(adt, vd.name, std::move(ops)), ty);
}

FnLowerer::Val FnLowerer::LowerPath(const Expr& e) {
  if (e.segs.size() >= 2 && e.segs[0].name == "Self" && !self_type_.empty()) {
    Expr c;
    c.kind = K::kPath;
    c.loc = e.loc;
    c.segs = e.segs;
    c.segs[0].name = self_type_;
    return LowerPath(c);
  }
  const std::string& a = e.segs[0].name;
  if (e.segs.size() == 1) {
    if (const LocalInfo* li = ReadLocal(a, e.loc)) return Val{Operand::Copy(li->At()), li->ty};
    if (g_.consts.count(a)) return ConstValue(a, e.loc);
    if (auto fc = g_.float_consts.find(a); fc != g_.float_consts.end())
      return Val{ConstOp(ir::Constant::Float(fc->second)), Ty::Make(Ty::Kind::kFloat)};
    if (const FnDef* nf = NestedFn(a))
      return Val{ConstOp(ir::Constant::Fn(nf->ir_name)), Ty::Make(Ty::Kind::kFn)};
    if (IsPerType(a)) {
      Error("MT2030", e.loc,
            absl::StrCat("the generic function `", a,
                         "` needs its type parameters at run time and cannot be a value"),
            absl::StrCat("call it in a closure that fixes them: `|xs: Vec[I64]| ", a, "(xs)`"))
          .end = NameEnd(e.loc, a);
      return Unit();
    }
    if (g_.fns.count(a)) return Val{ConstOp(ir::Constant::Fn(a)), Ty::Make(Ty::Kind::kFn)};
    if (IsUpper(a)) return LowerTypeNamed(e, nullptr, e);
    return NotFound("MT1001", "value", a, e.loc, [&] { return ValueNames(); });
  }
  if (e.segs.size() == 2) {
    const std::string& b = e.segs[1].name;
    __int128 lo, hi;
    if (IsUnsignedTypeName(a) && (b == "MAX" || b == "MIN"))
      return Val{ConstOp(ir::Constant::UInt(b == "MAX" ? UINT64_MAX : 0)), Ty::Int(a)};
    if (IntTypeRange(a, &lo, &hi) && (b == "MAX" || b == "MIN"))
      return Val{ConstOp(ir::Constant::Int(static_cast<int64_t>(b == "MAX" ? hi : lo))),
                 Ty::Int(a)};
    if (std::optional<double> c = FloatConst(e.segs))
      return Val{ConstOp(ir::Constant::Float(*c)), Ty::Make(Ty::Kind::kFloat)};
    auto it = g_.adts.find(a);
    if (it != g_.adts.end() && it->second.is_enum) {
      std::string adt;
      uint32_t vi;
      if (const VariantDef* vd = ResolveVariantPath(e.segs, nullptr, &adt, &vi, e.loc))
        return MakeVariant(adt, vi, *vd, nullptr, nullptr, e.loc);
      return Unit();
    }
    std::string fname = absl::StrCat(a, "::", b);
    if (g_.fns.count(fname)) return Val{ConstOp(ir::Constant::Fn(fname)), Ty::Make(Ty::Kind::kFn)};
  }
  // `f64::consts::PI`, `std::f64::consts::E`: the constants of std::f64::consts.
  if (std::optional<double> c = FloatConst(e.segs))
    return Val{ConstOp(ir::Constant::Float(*c)), Ty::Make(Ty::Kind::kFloat)};
  std::string full;
  for (size_t i = 0; i < e.segs.size(); ++i) full += (i ? "::" : "") + e.segs[i].name;
  Error("MT1001", e.loc, absl::StrCat("cannot find value `", full, "` in this scope"));
  return Unit();
}

FnLowerer::Val FnLowerer::LowerAssign(const Expr& e) {
  TyP ty;
  bool root_mut = false;
  std::string root;
  // Writing a whole local (`x = e`, `x += e`) does not read it (MT8001).
  const LocalInfo* whole =
      e.lhs->kind == K::kPath && e.lhs->segs.size() == 1 ? FindLocal(e.lhs->segs[0].name) : nullptr;
  const int wb = whole ? whole->binding : -1;
  const bool was_read = wb >= 0 && bindings_[wb].used;
  auto pl = PlaceOf(*e.lhs, &ty, &root_mut, &root);
  if (wb >= 0) {
    bindings_[wb].used = was_read;
    bindings_[wb].assigned = true;
  }
  if (!pl) {
    Error("MT2011", e.lhs->loc, "invalid left-hand side of assignment");
    return Unit();
  }
  // `x = e` of an immutable `let x: T;` is its initialisation: checked at
  // the end that no other may have run before it (CheckDefiniteAssignment).
  const uint32_t local = whole ? whole->index : 0;
  const bool first_write =
      !root_mut && whole && whole->proj.empty() && !e.has_op && deferred_.count(local) > 0;
  if (CapturedWriteError(StartLoc(*e.lhs), root, "assign to")) {
  } else if (!root_mut && !first_write) {
    ImmutableError(StartLoc(*e.lhs), root,
                   absl::StrCat("cannot assign to `", root, "`, as it is not declared as mutable"));
  }
  Val rhs = e.has_op ? LowerExpr(*e.rhs) : LowerAs(*e.rhs, ty);
  std::string fn;
  bool is_mut = false;
  if (const char* m = e.has_op ? OperatorMethodName(e.binary_op) : nullptr;
      m && ty->Is(Ty::Kind::kAdt)) {
    // `impl AddAssign for Q`: `a += b` is `Q::add_assign(&mut a, b)`;
    // with only `impl Add`, `a = a + b`.
    if (UserMethod(*ty, absl::StrCat(m, "_assign"), &fn, &is_mut)) {
      CallUser(g_.fns.at(fn), {MutRef(*pl, ty).op, rhs.op}, e.loc);
      return Unit();
    }
    if (UserMethod(*ty, m, &fn, &is_mut)) {
      Val r = CallUser(g_.fns.at(fn), {Operand::Copy(*pl), rhs.op}, e.loc);
      Assign(*pl, UseR(r.op), e.loc);
      return Unit();
    }
  }
  if (e.has_op) {
    Val t = Emit(BinR(IrBin(e.binary_op), Operand::Copy(*pl), rhs.op),
                 BinaryTy(ty, rhs.ty, e.binary_op));
    Assign(*pl, UseR(Coerce(t, ty).op), e.loc);
  } else {
    Assign(*pl, UseR(Coerce(rhs, ty).op), e.loc);
  }
  if (first_write)
    deferred_writes_.push_back(
        {local, cur_, fn_.blocks[cur_].block.stmts.size() - 1, StartLoc(*e.lhs)});
  return Unit();
}

FnLowerer::Val FnLowerer::LowerBinary(const Expr& e) {
  if (e.binary_op == BinaryOp::kAnd || e.binary_op == BinaryOp::kOr) {
    uint32_t result = Temp(Ty::Make(Ty::Kind::kBool));
    Val a = LowerExpr(*e.lhs);
    uint32_t rhs_b = NewBlock(), short_b = NewBlock(), done = NewBlock();
    if (e.binary_op == BinaryOp::kAnd) {
      Branch(a.op, rhs_b, short_b);
    } else {
      Branch(a.op, short_b, rhs_b);
    }
    SetBlock(short_b);
    Assign(Place{result, {}}, UseR(ConstOp(ir::Constant::Bool(e.binary_op == BinaryOp::kOr))),
           e.loc);
    Goto(done);
    SetBlock(rhs_b);
    Val b = LowerExpr(*e.rhs);
    Assign(Place{result, {}}, UseR(b.op), e.loc);
    Goto(done);
    SetBlock(done);
    return Val{Operand::Copy(Place{result, {}}), Ty::Make(Ty::Kind::kBool)};
  }
  Val a = LowerExpr(*e.lhs);
  Operand ao = a.op;
  if (ao.kind != Operand::Kind::kConst) ao = ToLocalOp(a);
  Val b = LowerExpr(*e.rhs);
  // `impl Add for Q`: `a + b` is `Q::add(a, b)` (`!=` the negated `eq`).
  TyP base = a.ty;
  while (base->Is(Ty::Kind::kRef)) base = base->Arg(0);
  std::string fn;
  bool is_mut = false;
  if (const char* m = OperatorMethodName(e.binary_op);
      m && base->Is(Ty::Kind::kAdt) && UserMethod(*base, m, &fn, &is_mut)) {
    Val r = CallUser(g_.fns.at(fn), {ao, b.op}, e.loc);
    if (e.binary_op != BinaryOp::kNe) return r;
    Rvalue n;
    n.kind = Rvalue::Kind::kUnOp;
    n.un = ir::UnOp::kNot;
    n.ops = {ToLocalOp(r)};
    return Emit(std::move(n), Ty::Make(Ty::Kind::kBool));
  }
  // `<` of a type with its own `impl Ord` (`Reverse`): the sign of its
  // `cmp` against 0, as Rust's PartialOrd derived from Ord.
  if (const bool ordering = e.binary_op == BinaryOp::kLt || e.binary_op == BinaryOp::kLe ||
                            e.binary_op == BinaryOp::kGt || e.binary_op == BinaryOp::kGe;
      ordering && base->Is(Ty::Kind::kAdt) && UserMethod(*base, "cmp", &fn, &is_mut)) {
    Val ord = CallUser(g_.fns.at(fn), {ao, b.op}, e.loc);
    Val sign = Emit(CallBuiltin("ord_sign", {ToLocalOp(ord)}), Ty::Int());
    return Emit(BinR(IrBin(e.binary_op), sign.op, ConstOp(ir::Constant::Int(0))),
                Ty::Make(Ty::Kind::kBool));
  }
  return Emit(BinR(IrBin(e.binary_op), ao, b.op), BinaryTy(a.ty, b.ty, e.binary_op));
}

TyP BinaryTy(const TyP& a, const TyP& b, BinaryOp op) {
  if (IsComparison(op)) return Ty::Make(Ty::Kind::kBool);
  if (a->Is(Ty::Kind::kUnknown)) return b;
  if ((a->Is(Ty::Kind::kDuration) || a->Is(Ty::Kind::kSize)) && op == BinaryOp::kDiv &&
      b->kind == a->kind)
    return Ty::Make(Ty::Kind::kInt);
  // A U64 with an I64 computes as a U64 (language.md §4); a shift keeps
  // the left side's kind.
  if (a->Is(Ty::Kind::kInt) && b->Unsigned() && op != BinaryOp::kShl && op != BinaryOp::kShr)
    return b;
  return a;
}

FnLowerer::Val FnLowerer::LowerIf(const Expr& e) {
  uint32_t result = Temp(Ty::Unknown());
  uint32_t then_b = NewBlock(), else_b = NewBlock(), done = NewBlock();
  scopes_.emplace_back();
  if (e.kind == K::kIf) {
    Val c = LowerExpr(*e.more->cond);
    Branch(c.op, then_b, else_b);
    SetBlock(then_b);
  } else {
    Val s = LowerExpr(*e.lhs);
    uint32_t sl = ToLocal(s);
    Goto(then_b);
    SetBlock(then_b);
    std::map<std::string, uint32_t> binds;
    MatchPattern(*e.more->pat, Place{sl, {}}, s.ty, else_b, binds);
  }
  Val tv = LowerBlock(*e.then_block);
  Assign(Place{result, {}}, UseR(tv.op), e.loc);
  Goto(done);
  scopes_.pop_back();
  SetBlock(else_b);
  TyP ty = tv.ty;
  if (e.more->else_expr) {
    Val ev = LowerExpr(*e.more->else_expr);
    Assign(Place{result, {}}, UseR(ev.op), e.loc);
    if (ty->Is(Ty::Kind::kUnknown) || ty->Is(Ty::Kind::kUnit)) {
      ty = ev.ty;
    } else if (!ev.ty->Is(Ty::Kind::kUnit) && ev.ty->Name() != ty->Name()) {
      ty = Ty::Unknown();  // the branches disagree: dispatch at run time
    }
  } else {
    Assign(Place{result, {}}, UseR(UnitOp()), e.loc);
    ty = Ty::Make(Ty::Kind::kUnit);
  }
  Goto(done);
  SetBlock(done);
  fn_.locals[result].type = ty->ToIr();
  return Val{Operand::Copy(Place{result, {}}), ty};
}

const FnLowerer::LoopCtx* FnLowerer::TargetLoop(const Expr& e) {
  if (e.more->label.empty()) return &loops_.back();
  for (size_t i = loops_.size(); i-- > 0;)
    if (loops_[i].label == e.more->label) return &loops_[i];
  std::string help = g_.suggest.Help(e.more->label, [&] {
    std::vector<std::string> names;
    for (const LoopCtx& l : loops_)
      if (!l.label.empty()) names.push_back(l.label);
    return names;
  });
  const std::string lead = "did you mean `";
  if (help.rfind(lead, 0) == 0)
    help = absl::StrCat(lead, "'", help.substr(lead.size()));  // the label with its quote
  else
    help = "a label names an enclosing `loop`, `while` or `for`: `'outer: loop { .. }`";
  Error("MT1030", e.more->label_loc, absl::StrCat("use of undeclared label `'", e.more->label, "`"),
        std::move(help))
      .end = Loc{e.more->label_loc.line,
                 e.more->label_loc.col + static_cast<uint32_t>(e.more->label.size())};
  return nullptr;
}

FnLowerer::Val FnLowerer::LowerLoop(const Expr& e) {
  uint32_t result = Temp(Ty::Unknown());
  Assign(Place{result, {}}, UseR(UnitOp()), e.loc);
  uint32_t head = NewBlock(), exit = NewBlock();
  Goto(head);
  SetBlock(head);
  scopes_.emplace_back();
  if (e.kind == K::kWhile) {
    Require(LowerExpr(*e.more->cond).op, exit);
  } else if (e.kind == K::kWhileLet) {
    Val s = LowerExpr(*e.lhs);
    uint32_t sl = ToLocal(s);
    std::map<std::string, uint32_t> binds;
    MatchPattern(*e.more->pat, Place{sl, {}}, s.ty, exit, binds);
  }
  LowerLoopBody(e, exit, head, result);
  SetBlock(exit);
  return Val{Operand::Copy(Place{result, {}}),
             e.kind == K::kLoop ? Ty::Unknown() : Ty::Make(Ty::Kind::kUnit)};
}

void FnLowerer::LowerLoopBody(const Expr& e, uint32_t exit, uint32_t next, uint32_t result) {
  loops_.push_back(LoopCtx{exit, next, result, sandbox_depth_, e.more->label});
  LowerBlock(*e.then_block, BlockUse::kDiscarded);
  loops_.pop_back();
  Goto(next);
  scopes_.pop_back();
}

void FnLowerer::CountedLoopHead(uint32_t head, uint32_t body, uint32_t exit, uint32_t i, uint32_t n,
                                bool inclusive) {
  Goto(head);
  SetBlock(head);
  Val more = Compare(inclusive ? ir::BinOp::kLe : ir::BinOp::kLt, Operand::Copy(Place{i, {}}),
                     Operand::Copy(Place{n, {}}));
  Branch(more.op, body, exit);
  SetBlock(body);
  scopes_.emplace_back();
}

void FnLowerer::Increment(uint32_t i, Loc loc) {
  Assign(Place{i, {}},
         BinR(ir::BinOp::kAdd, Operand::Copy(Place{i, {}}), ConstOp(ir::Constant::Int(1))), loc);
}

void FnLowerer::LowerForBody(const Expr& e, const Place& elem, TyP ty, uint32_t exit, uint32_t step,
                             uint32_t result) {
  std::map<std::string, uint32_t> binds;
  uint32_t fail = NewBlock();
  MatchPattern(*e.more->pat, elem, ty, fail, binds);
  LowerLoopBody(e, exit, step, result);
  SetBlock(fail);
  Term(ir::Terminator::Kind::kUnreachable);
  SetBlock(step);
}

FnLowerer::Val FnLowerer::LowerFor(const Expr& e) {
  if (std::optional<Val> walk = LowerRangeWalk(e)) return *walk;
  uint32_t result = Temp(Ty::Make(Ty::Kind::kUnit));
  Assign(Place{result, {}}, UseR(UnitOp()), e.loc);
  const Expr& it = *e.lhs;
  uint32_t i = Temp(Ty::Make(Ty::Kind::kInt));
  uint32_t head = NewBlock(), body = NewBlock(), step = NewBlock(), exit = NewBlock();
  TyP elem;
  uint32_t items = 0, n = 0;
  bool is_range = it.kind == K::kRange;
  if (is_range) {
    if (!it.lhs || !it.rhs) {
      Error("MT2010", it.loc, "a `for` range needs both bounds");
      return Unit();
    }
    Val lo = LowerExpr(*it.lhs);
    Val hi = LowerExpr(*it.rhs);
    n = ToLocal(hi);
    Assign(Place{i, {}}, UseR(lo.op), e.loc);
    elem = Ty::Make(Ty::Kind::kInt);
  } else {
    Val v = LowerExpr(it);
    items = Temp(Ty::Unknown());
    TyP vt = v.ty;
    while (vt->Is(Ty::Kind::kRef)) vt = vt->Arg(0);
    if (auto iter = g_.fns.find(vt->name + "::iter");
        vt->Is(Ty::Kind::kAdt) && g_.std_types.count(vt->name) && iter != g_.fns.end()) {
      // A std collection (lower_std.cc) walks what its iter() gives.
      Place p{ToLocal(v), {}};
      AutoDeref(p, v.ty, nullptr);
      v = CallUser(iter->second, {Emit(UseR(Operand::Copy(p)), vt).op}, e.loc);
      elem =
          vt->args.size() == 1 ? vt->Arg(0) : Ty::With(Ty::Kind::kTuple, {vt->Arg(0), vt->Arg(1)});
    }
    Assign(Place{items, {}}, CallBuiltin("iter_items", {v.op}), e.loc);
    n = Temp(Ty::Make(Ty::Kind::kInt));
    Rvalue len;
    len.kind = Rvalue::Kind::kLen;
    len.ops = {Operand::Copy(Place{items, {}})};
    Assign(Place{n, {}}, std::move(len), e.loc);
    Assign(Place{i, {}}, UseR(ConstOp(ir::Constant::Int(0))), e.loc);
    TyP t = v.ty;
    while (t->Is(Ty::Kind::kRef)) t = t->Arg(0);
    if (!elem)
      elem = t->Is(Ty::Kind::kArray) ? t->Arg(0)
             : t->Is(Ty::Kind::kMap) ? Ty::With(Ty::Kind::kTuple, {t->Arg(0), t->Arg(1)})
             : t->Is(Ty::Kind::kStr) ? Ty::Make(Ty::Kind::kChar)
                                     : Ty::Unknown();
  }
  CountedLoopHead(head, body, exit, i, n, is_range && it.inclusive);
  uint32_t x = Temp(elem);
  if (is_range) {
    Assign(Place{x, {}}, UseR(Operand::Copy(Place{i, {}})), e.loc);
  } else {
    Rvalue ix;
    ix.kind = Rvalue::Kind::kIndexRead;
    ix.ops = {Operand::Copy(Place{items, {}}), Operand::Copy(Place{i, {}})};
    Assign(Place{x, {}}, std::move(ix), e.loc);
  }
  LowerForBody(e, Place{x, {}}, elem, exit, step, result);
  if (is_range && it.inclusive) {
    // Stop after the upper bound without overflowing at I64::MAX.
    Val lv = Compare(ir::BinOp::kEq, Operand::Copy(Place{i, {}}), Operand::Copy(Place{n, {}}));
    uint32_t inc = NewBlock();
    Branch(lv.op, exit, inc);
    SetBlock(inc);
  }
  Increment(i, e.loc);
  Goto(head);
  SetBlock(exit);
  return Val{Operand::Copy(Place{result, {}}), Ty::Make(Ty::Kind::kUnit)};
}

FnLowerer::Val FnLowerer::LowerTypeNamed(const Expr& path, const std::vector<ExprPtr>* args,
                                         const Expr& e) {
  const std::string& n = path.segs[0].name;
  if (std::optional<Val> s = args ? LowerStructCall(n, e) : LowerUnitStruct(n, e.loc)) return *s;
  std::string adt;
  uint32_t vi;
  if (const VariantDef* vd = ResolveVariantPath(path.segs, nullptr, &adt, &vi, path.loc))
    return MakeVariant(adt, vi, *vd, args, nullptr, e.loc);
  return Unit();
}

FnLowerer::Val FnLowerer::LowerStruct(const Expr& e) {
  if (std::optional<Val> v = LowerVariantStruct(e)) return *v;
  std::string name = SelfName(e.segs.empty() ? "" : e.segs.back().name);
  auto it = g_.adts.find(name);
  if (it == g_.adts.end()) {
    Error("MT1003", e.loc, absl::StrCat("cannot find struct `", name, "` in this scope"),
          g_.suggest.Help(name, [&] { return g_.TypeNames(); }))
        .end = NameEnd(e.loc, name);
    return Unit();
  }
  if (it->second.is_enum) {
    Error("MT2003", e.loc, absl::StrCat("`", name, "` is an enum; use one of its variants"));
    return Unit();
  }
  std::vector<Operand> all;
  if (!LowerFieldInits(e, name, it->second, it->second.variants[0], &all)) return Unit();
  return Emit(AdtInit(name, "", std::move(all)), Ty::Adt(name));
}

}  // namespace mty::frontend
