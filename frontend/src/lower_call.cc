// Calls: user, builtin, variant and indirect calls, methods (user, builtin
// and prelude), effects, closures, and the built-in macros (assert!, format!).
#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "builtin_macros.h"
#include "lower_internal.h"
#include "mty/ir/builtins.h"
#include "mty/ir/host_fns.h"

namespace mty::frontend {

using K = Expr::Kind;

namespace {

// The names a closure body refers to (candidates for capture).
void CollectNames(const Expr& e, std::set<std::string>& out);
void CollectBlock(const Block& b, std::set<std::string>& out) {
  for (const Stmt& s : b.stmts)
    if (s.expr) CollectNames(*s.expr, out);
}
void CollectNames(const Expr& e, std::set<std::string>& out) {
  if (e.kind == K::kPath && !e.segs.empty()) out.insert(e.segs[0].name);
  if (e.kind == K::kStruct)
    for (const FieldInit& f : e.more->fields)
      if (!f.value) out.insert(f.name);
  // A format string's inline names (`{x}`), whichever argument it is.
  for (const ExprPtr& fa : e.args) {
    if (e.kind != K::kMacro || fa->kind != K::kStr) continue;
    const std::string& s = fa->text;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] != '{') continue;
      size_t j = i + 1;
      while (j < s.size() && (isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      if (j > i + 1) out.insert(s.substr(i + 1, j - i - 1));
    }
  }
  for (const ExprPtr* p :
       {&e.lhs, &e.rhs, &e.more->cond, &e.more->else_expr, &e.more->closure_body})
    if (*p) CollectNames(**p, out);
  if (e.then_block) CollectBlock(*e.then_block, out);
  for (const ExprPtr& a : e.args) CollectNames(*a, out);
  for (const FieldInit& f : e.more->fields)
    if (f.value) CollectNames(*f.value, out);
  for (const MatchArm& a : e.more->arms) {
    if (a.guard) CollectNames(*a.guard, out);
    if (a.body) CollectNames(*a.body, out);
  }
  for (const SandboxEntry& s : e.more->entries)
    if (s.value) CollectNames(*s.value, out);
}

}  // namespace

std::vector<std::string> FnLowerer::ValueNames() const {
  std::vector<std::string> out;
  for (size_t i = scopes_.size(); i-- > 0;)
    for (const auto& [n, li] : scopes_[i])
      if (n.find('#') == std::string::npos) out.push_back(n);
  for (const auto& [n, c] : g_.consts) out.push_back(n);
  for (const auto& [n, f] : g_.fns)
    if (f.self_type.empty() && n.rfind("__", 0) != 0) out.push_back(n);
  return out;
}

std::vector<std::string> FnLowerer::CallableNames() const {
  std::vector<std::string> out = ValueNames();
  for (const ir::BuiltinFnInfo& b : ir::kBuiltinFns)
    if (b.source[0] && std::string(b.source).rfind("__", 0) != 0) out.push_back(b.source);
  if (agent_)
    for (const FnDecl& h : agent_->fns) out.push_back(h.name);
  return out;
}

std::vector<Operand> FnLowerer::LowerArgsFor(const FnDef& def, const std::vector<ExprPtr>& args,
                                             size_t skip) {
  std::vector<Operand> ops;
  for (size_t i = 0; i < args.size(); ++i) {
    const TyP want = i >= skip && i - skip < def.params.size() ? def.params[i - skip] : nullptr;
    const bool here =
        want && want->Is(Ty::Kind::kInt) && (!want->Unsigned() || args[i]->kind == K::kInt);
    Val v = here ? LowerAs(*args[i], want) : LowerExpr(*args[i]);
    // An `Any` argument for a signed integer parameter: a U64 there is an
    // I64 (above I64::MAX it traps MT5004), as it would be written plainly.
    if (here && !want->Unsigned() && v.ty->Is(Ty::Kind::kUnknown))
      v = Emit(CallBuiltin("into_i64", {ToLocalOp(v)}), want);
    ops.push_back(v.op);
  }
  return ops;
}

FnLowerer::Val FnLowerer::CallUser(const FnDef& def, std::vector<Operand> args, Loc loc) {
  (void)loc;
  Val v = Emit(NamedR(Rvalue::Kind::kCall, def.ir_name, std::move(args)), def.ret);
  if (def.ret && def.ret->Is(Ty::Kind::kAdt) && def.ret->name == "Result") v.must_use = def.ir_name;
  return v;
}

FnLowerer::Val FnLowerer::HostCall(const std::string& path, const std::vector<ExprPtr>& args,
                                   Loc loc) {
  const int index = ir::FindHostFn(g_.host_fns, path);
  if (index < 0) {
    std::string help;
    if (!g_.host_fns || g_.host_fns->empty()) {
      help =
          "this program is compiled without host functions; an embedder defines them with "
          "mty::Linker (docs/embedding.md)";
    } else {
      std::vector<std::string> names;
      for (const ir::HostFnDecl& d : *g_.host_fns) names.push_back(d.path);
      help = g_.suggest.HelpOr(
          path, [&] { return names; },
          absl::StrCat("the host defines ", absl::StrJoin(names, ", ")));
    }
    Error("MT1005", loc, absl::StrCat("unknown host function `", path, "`"), std::move(help));
    return Unit();
  }
  const ir::HostFnDecl& d = (*g_.host_fns)[index];
  if (args.size() != d.params.size()) {
    Error(
        "MT2001", loc,
        absl::StrCat("`", path, "` takes ", d.params.size(), " argument(s), given ", args.size()));
    return Unit();
  }
  ir::Statement s;
  s.kind = ir::Statement::Kind::kEffectInvoke;
  s.path = path;
  for (size_t i = 0; i < args.size(); ++i) {
    Val v = LowerExpr(*args[i]);
    TyP want = g_.ResolveIr(d.params[i]);
    if (v.ty && want && !TyFits(*v.ty, *want))
      Error("MT2015", args[i]->loc,
            absl::StrCat("mismatched types: argument ", i + 1, " of `", path, "` is ", want->Name(),
                         ", found ", v.ty->Name()));
    s.args.push_back(std::move(v.op));
  }
  TyP result = g_.ResolveIr(d.result);
  uint32_t t = Temp(result);
  s.has_dest = true;
  s.place = Place{t, {}};
  s.loc = IrLoc(loc_);
  s.loc_explicit = true;
  Push(std::move(s));
  return Val{Operand::Copy(Place{t, {}}), result};
}

FnLowerer::Val FnLowerer::Effect(const std::string& path, const std::vector<ExprPtr>& args,
                                 Loc loc) {
  if (ir::IsHostPath(path)) return HostCall(path, args, loc);
  int lo, hi;
  if (!IsKnownEffect(path, &lo, &hi)) {
    Error("MT1005", loc, absl::StrCat("unknown effect `", path, "`"),
          g_.suggest.HelpOr(
              path, [&] { return KnownEffectPaths(); },
              "the standard library surface is listed in docs/stdlib.md"));
    return Unit();
  }
  if (static_cast<int>(args.size()) < lo || static_cast<int>(args.size()) > hi) {
    Error("MT2001", loc,
          absl::StrCat("`", path, "` takes ",
                       lo == hi ? absl::StrCat(lo) : absl::StrCat(lo, " or ", hi),
                       " argument(s), given ", args.size()));
    return Unit();
  }
  ir::Statement s;
  s.kind = ir::Statement::Kind::kEffectInvoke;
  s.path = path;
  s.args = LowerArgs(args);
  uint32_t t = Temp(Ty::Adt("Result", {Ty::Unknown(), Ty::Make(Ty::Kind::kStr)}));
  s.has_dest = true;
  s.place = Place{t, {}};
  s.loc = IrLoc(loc_);
  s.loc_explicit = true;
  Push(std::move(s));
  return Val{Operand::Copy(Place{t, {}}),
             Ty::Adt("Result", {Ty::Unknown(), Ty::Make(Ty::Kind::kStr)}), path};
}

FnLowerer::Val FnLowerer::CallPrelude(const std::string& name, std::vector<Operand> ops, TyP ty) {
  g_.prelude_needed.insert("__mty_" + name);
  return Emit(NamedR(Rvalue::Kind::kCall, "__mty_" + name, std::move(ops)), ty);
}

bool FnLowerer::ArityMismatch(const Expr& e, size_t want, const char* kind, const std::string& name,
                              const FnDecl* decl, Loc end) {
  if (want == e.args.size()) return false;
  Diagnostic& d = Error(
      "MT2001", e.loc,
      absl::StrCat(kind, " `", name, "` takes ", want, " argument(s), given ", e.args.size()));
  d.end = end;
  if (decl) d.labels.push_back(DefinedHere(*decl));
  return true;
}

FnLowerer::Val FnLowerer::CallIndirect(Operand f, const std::vector<ExprPtr>& args) {
  Rvalue r;
  r.kind = Rvalue::Kind::kCallIndirect;
  r.ops.push_back(std::move(f));
  for (Operand& o : LowerArgs(args)) r.ops.push_back(std::move(o));
  return Emit(std::move(r), Ty::Unknown());
}

// std::mem::swap(&mut a, &mut b), replace(&mut a, v) (the old value),
// take(&mut a) (the old value; the type's default left behind): writes
// through the `&mut` references, as Rust's.
FnLowerer::Val FnLowerer::LowerMemFn(const Expr& e, const std::string& f) {
  const size_t want = f == "take" ? 1 : 2;
  if (e.args.size() != want) {
    Error("MT2001", e.loc,
          absl::StrCat("function `std::mem::", f, "` takes ", want, " argument(s), given ",
                       e.args.size()));
    return Unit();
  }
  auto target = [&](const Expr& a) -> std::optional<Place> {
    Val r = LowerExpr(a);
    if (!r.ty->Is(Ty::Kind::kRef)) {
      Error("MT2017", a.loc,
            absl::StrCat("`std::mem::", f, "` writes through a reference: pass `&mut` a place"));
      return std::nullopt;
    }
    return Place{ToLocal(r), {{ir::Projection::Kind::kDeref, 0, 0}}};
  };
  std::optional<Place> pa = target(*e.args[0]);
  if (!pa) return Unit();
  const TyP ty = CheckedType(*e.args[0]);
  Val old = Emit(UseR(Operand::Copy(*pa)), ty);
  if (f == "swap") {
    std::optional<Place> pb = target(*e.args[1]);
    if (!pb) return Unit();
    Assign(*pa, UseR(Operand::Copy(*pb)), e.loc);
    Assign(*pb, UseR(old.op), e.loc);
    return Unit();
  }
  std::optional<Operand> fresh =
      f == "replace"
          ? std::optional(ToLocalOp(LowerAs(*e.args[1], ty)))
          : DefaultFor(ty, e.loc, "`std::mem::take` needs the type of the place",
                       "annotate the variable's type", "use `std::mem::replace(&mut x, v)`");
  if (!fresh) return Unit();
  Assign(*pa, UseR(*fresh), e.loc);
  return old;
}

FnLowerer::Val FnLowerer::LowerCall(const Expr& e) {
  const Expr& callee = *e.lhs;
  // `std::cmp::max(a, b)`: b when they are equal (min: a), as Rust's.
  if (callee.kind == K::kPath && e.args.size() == 2 &&
      !(callee.segs.size() == 1 &&
        (FindLocal(callee.segs[0].name) || g_.fns.count(callee.segs[0].name))))
    if (std::string f = CmpFn(callee.segs, g_.cmp_fns); !f.empty()) {
      std::vector<Operand> ops = LowerArgs(e.args);
      return CallPrelude("cmp_" + f, std::move(ops), CheckedType(e));
    }
  if (callee.kind == K::kPath && callee.segs.size() == 1) return LowerNamedCall(e);
  if (const char* f = MemFnName(callee)) return LowerMemFn(e, f);
  if (std::optional<Val> d = LowerDefaultCall(e)) return *d;
  // `Box::new(x)`, `Rc::new(x)`, `Arc::new(x)`: values are not boxed, so
  // the value itself (docs/language.md §6).
  if (callee.kind == K::kPath && callee.segs.size() == 2 && callee.segs[1].name == "new" &&
      e.args.size() == 1 && !g_.adts.count(callee.segs[0].name) && IsBoxName(callee.segs[0].name))
    return LowerExpr(*e.args[0]);
  if (callee.kind == K::kPath && callee.segs.size() == 2) {
    const std::string a = SelfName(callee.segs[0].name);
    const std::string& b = callee.segs[1].name;
    auto it = g_.adts.find(a);
    uint32_t vi;
    if (it != g_.adts.end() && it->second.is_enum && g_.FindVariant(a, b, &vi)) {
      std::string adt;
      const VariantDef* vd = ResolveVariantPath(callee.segs, nullptr, &adt, &vi, callee.loc);
      return MakeVariant(adt, vi, *vd, &e.args, nullptr, e.loc);
    }
    Expr recv;
    recv.kind = K::kPath;
    recv.loc = callee.loc;
    recv.segs = {callee.segs[0]};
    recv.segs[0].name = a;
    Expr mc;
    mc.kind = K::kMethodCall;
    mc.loc = e.loc;
    mc.text = b;
    // Borrow the argument list for the method-call path.
    mc.lhs.reset(&recv);
    mc.args.swap(const_cast<std::vector<ExprPtr>&>(e.args));
    Val v = LowerMethodCall(mc);
    mc.args.swap(const_cast<std::vector<ExprPtr>&>(e.args));
    (void)mc.lhs.release();
    return v;
  }
  Val f = LowerExpr(callee);
  return CallIndirect(ToLocalOp(f), e.args);
}

// `f(x)` by a name: a closure in a local, an agent's own function, a user
// function (or an instance of a generic one compiled per type), a builtin
// function, a struct or variant constructor; else MT1002.
FnLowerer::Val FnLowerer::LowerNamedCall(const Expr& e) {
  const Expr& callee = *e.lhs;
  const std::string& n = callee.segs[0].name;
  if (const LocalInfo* li = ReadLocal(n)) {
    // `f: &mut dyn FnMut(A)` is called through the reference.
    Place p = li->At();
    TyP ty = li->ty;
    AutoDeref(p, ty, nullptr);
    return CallIndirect(Operand::Copy(p), e.args);
  }
  if (agent_) {
    for (const FnDecl& h : agent_->fns)
      if (h.name == n) {
        size_t want = 0;
        for (const Param& p : h.params)
          if (p.self_kind == Param::SelfKind::kNone) ++want;
        if (ArityMismatch(e, want, "function", n, &h, {})) return Unit();
        Rvalue r;
        r.kind = Rvalue::Kind::kCall;
        r.name = absl::StrCat(agent_->name, "::", n);
        r.ops.push_back(Operand::Copy(Place{1, {}}));  // the agent's state
        for (Operand& o : LowerArgs(e.args)) r.ops.push_back(std::move(o));
        return Emit(std::move(r), Ty::Unknown());
      }
  }
  const FnDef* nested = NestedFn(n);
  auto fit = g_.fns.find(n);
  if (nested || fit != g_.fns.end()) {
    const FnDef& def = nested ? *nested : fit->second;
    if (ArityMismatch(e, def.params.size(), "function", n, def.decl, NameEnd(callee.loc, n)))
      return Unit();
    CheckArgs(def, e.args, 0, n);
    if (!nested && IsPerType(n)) {
      const FnDef* inst = InstanceFor(def, e);
      if (!inst) return Unit();
      return CallUser(*inst, LowerArgsFor(*inst, e.args), e.loc);
    }
    return CallUser(def, LowerArgsFor(def, e.args), e.loc);
  }
  if (const ir::BuiltinFnInfo* b = ir::FindSourceBuiltin(n)) {
    if (static_cast<int>(e.args.size()) != b->min) {
      Error("MT2001", e.loc,
            absl::StrCat("`", n, "` takes ", b->min, " argument(s), given ", e.args.size()));
      return Unit();
    }
    const bool is_type_name = b->id == ir::BuiltinFnId::kTypeName;
    Val r = Emit(CallBuiltin(b->name, LowerArgs(e.args)),
                 Ty::Make(is_type_name                           ? Ty::Kind::kStr
                          : b->id == ir::BuiltinFnId::kHasMethod ? Ty::Kind::kBool
                          : b->id == ir::BuiltinFnId::kOrdSign   ? Ty::Kind::kInt
                                                                 : Ty::Kind::kUnit));
    if (b->id == ir::BuiltinFnId::kPanic) Term(ir::Terminator::Kind::kUnreachable);
    return r;
  }
  if (IsUpper(n)) return LowerTypeNamed(callee, &e.args, e);
  return NotFound("MT1002", "function", n, callee.loc, [&] { return CallableNames(); });
}

FnLowerer::Val FnLowerer::Receiver(const Expr& recv, Place* place, TyP* ty, bool mutating,
                                   Loc loc) {
  bool root_mut = false;
  std::string root;
  if (recv.kind == K::kRange) {
    // `(0..n).map(f)`: the range's array.
    Val v = RangeArray(recv);
    *place = Place{ToLocal(v), {}};
    *ty = v.ty;
    return v;
  }
  if (mutating && recv.kind == K::kIndex && recv.rhs->kind == K::kRange) {
    // A slice is a copy: the change would not reach the array.
    Error("MT2010", loc, "a method that changes its receiver on a slice `v[a..b]` is not supported",
          "change the array itself over the range (`for i in a..b { .. v[i] .. }`), or take the "
          "part, change it and write it back");
  }
  if (auto pl = PlaceOf(recv, ty, &root_mut, &root)) {
    if (mutating && CapturedWriteError(loc, root, "mutate")) {
    } else if (mutating && !root_mut && !(*ty)->Is(Ty::Kind::kRef)) {
      ImmutableError(loc, root,
                     absl::StrCat("cannot mutate `", root, "`, as it is not declared as mutable"));
    }
    *place = *pl;
    return Val{Operand::Copy(*pl), *ty};
  }
  Val v = LowerExpr(recv);
  *place = Place{ToLocal(v), {}};
  *ty = v.ty;
  return v;
}

FnLowerer::Val FnLowerer::LowerMethodCall(const Expr& e) {
  if (std::optional<Val> v = LowerEntry(e)) return *v;
  // `(lo..hi).take_while(f)`, `(lo..).take_while(f)`: walked, not built,
  // so a huge or open range stops at the first element f rejects.
  if (e.text == "take_while" && e.args.size() == 1 && e.lhs->kind == K::kRange && e.lhs->lhs) {
    const Expr& range = *e.lhs;
    Val lo = LowerExpr(*range.lhs);
    Operand hi = range.rhs ? LowerExpr(*range.rhs).op : ConstOp(ir::Constant::Int(INT64_MAX));
    Operand incl = ConstOp(ir::Constant::Bool(range.rhs ? range.inclusive : true));
    Operand f = LowerExpr(*e.args[0]).op;
    return CallPrelude("range_take_while", {lo.op, hi, incl, f},
                       Ty::With(Ty::Kind::kArray, {lo.ty}));
  }
  // `s.chars().next()`: `s.char_at(0)`, without building the chars.
  if (e.text == "next" && e.args.empty() && e.lhs->kind == K::kMethodCall &&
      e.lhs->text == "chars" && e.lhs->args.empty() &&
      CheckedType(*e.lhs->lhs)->Is(Ty::Kind::kStr)) {
    Rvalue r;
    r.kind = Rvalue::Kind::kMethodCall;
    r.place = Place{ToLocal(LowerExpr(*e.lhs->lhs)), {}};
    r.name = "char_at";
    r.ops = {ConstOp(ir::Constant::Int(0))};
    return Emit(std::move(r), Ty::Adt("Option", {Ty::Make(Ty::Kind::kChar)}));
  }
  if (std::optional<Val> v = LowerPathCall(e)) return *v;
  Val v = LowerValueMethod(e);
  // A built-in's integer result (`len()`, `find()`, ...) takes the type
  // the checker found for it; a `usize` one becomes unsigned here.
  if (v.ty && v.ty->Is(Ty::Kind::kInt) && !v.ty->Unsigned()) {
    const TyP checked = CheckedType(e);
    if (checked->Unsigned()) return Coerce(v, checked);
  }
  return v;
}

std::optional<FnLowerer::Val> FnLowerer::LowerPathCall(const Expr& e) {
  const Expr& recv = *e.lhs;
  std::vector<std::string> path;
  if (!FlattenPath(recv, &path)) path.clear();
  if (!path.empty()) path[0] = SelfName(path[0]);
  // `None.ok_or(e)`: a method of a bare unit variant's value, not a type's.
  const bool bare_unit_variant = path.size() == 1 && IsUpper(path[0]) && !g_.adts.count(path[0]) &&
                                 !g_.methods.count(path[0]) && !generics_.count(path[0]) &&
                                 !FindLocal(path[0]) && g_.BareVariantOwner(path[0]) != nullptr;
  if (path.empty() || FindLocal(path[0]) || g_.consts.count(path[0]) ||
      (path.size() == 1 && g_.float_consts.count(path[0])) || bare_unit_variant)
    return std::nullopt;
  // A module path: `std.fs.read(p)`, or `fs.read(p)` after `use std.fs`.
  std::vector<std::string> full;
  if (path[0] == "std" || path[0] == "host") {
    full = path;
  } else if (auto u = g_.uses.find(path[0]); u != g_.uses.end()) {
    full = u->second;
    full.insert(full.end(), path.begin() + 1, path.end());
  }
  if (!full.empty()) {
    full.push_back(e.text);
    std::string p;
    for (size_t i = 0; i < full.size(); ++i) p += (i ? "." : "") + full[i];
    return Effect(p, e.args, e.loc);
  }
  if (path.size() != 1) return std::nullopt;
  return LowerTypeCall(e, path[0]);
}

FnLowerer::Val FnLowerer::LowerTypeCall(const Expr& e, const std::string& tn) {
  const Expr& recv = *e.lhs;
  auto it = g_.adts.find(tn);
  // `I64::empty()`: an associated function of `impl Trait for I64`.
  const auto builtin = it == g_.adts.end() ? g_.methods.find(tn) : g_.methods.end();
  const bool builtin_fn = builtin != g_.methods.end() && builtin->second.count(e.text);
  if (it != g_.adts.end() || builtin_fn)
    return LowerAssocCall(e, tn, it != g_.adts.end() ? &it->second : nullptr);
  if (std::optional<Val> v = LowerLibraryCtor(e, tn)) return *v;
  // A generic parameter asked at run time outside an instance: the
  // checker says why (MT2030).
  if (generics_.count(tn) && g_.types_failed) return Unit();
  if (IsUpper(tn)) {
    Error("MT1003", recv.loc, absl::StrCat("cannot find type `", tn, "` in this scope"),
          g_.suggest.Help(tn, [&] { return g_.TypeNames(); }))
        .end = NameEnd(recv.loc, tn);
    return Unit();
  }
  Error("MT1001", recv.loc, absl::StrCat("cannot find value `", tn, "` in this scope"),
        g_.suggest.Help(tn,
                        [&] {
                          std::vector<std::string> near = ValueNames();
                          for (const auto& [alias, p] : g_.uses) near.push_back(alias);
                          near.push_back("std");
                          return near;
                        }))
      .end = NameEnd(recv.loc, tn);
  return Unit();
}

FnLowerer::Val FnLowerer::LowerAssocCall(const Expr& e, const std::string& tn, const AdtDef* adt) {
  const std::string& name = e.text;
  uint32_t vi;
  if (adt && adt->is_enum && g_.FindVariant(tn, name, &vi)) {
    std::string owner;
    std::vector<PathSeg> segs = {{tn, e.lhs->loc}, {name, e.loc}};
    const VariantDef* vd = ResolveVariantPath(segs, nullptr, &owner, &vi, e.loc);
    return MakeVariant(owner, vi, *vd, &e.args, nullptr, e.lhs->loc);
  }
  auto m = g_.methods[tn].find(name);
  if (m == g_.methods[tn].end()) {
    // Not a built-in kind's (it has the function): `adt` is set.
    auto members = [&] {
      std::vector<std::string> out;
      for (const auto& [mn, ir_name] : g_.methods[tn]) out.push_back(mn);
      if (adt->is_enum)
        for (const VariantDef& v : adt->variants) out.push_back(v.name);
      return out;
    };
    if (adt->is_enum && IsUpper(name))
      Error("MT2003", e.loc, absl::StrCat("no variant named `", name, "` in enum `", tn, "`"),
            g_.suggest.Help(name, members))
          .end = NameEnd(e.loc, name);
    else
      Error("MT2004", e.loc,
            absl::StrCat("no function or variant named `", name, "` found for `", tn, "`"),
            g_.suggest.Help(name, members))
          .end = NameEnd(e.loc, name);
    return Unit();
  }
  const FnDef& def = g_.fns.at(m->second);
  const size_t self_args = def.self_kind != Param::SelfKind::kNone ? 1 : 0;
  if (ArityMismatch(e, def.params.size() + self_args, "function", tn + "::" + name, def.decl, {}))
    return Unit();
  CheckArgs(def, e.args, self_args, tn + "::" + name);
  return CallUser(def, LowerArgsFor(def, e.args, self_args), e.loc);
}

std::optional<FnLowerer::Val> FnLowerer::LowerLibraryCtor(const Expr& e, const std::string& tn) {
  const std::string& name = e.text;
  if ((tn == "Vec" || tn == "Array") && (name == "new" || name == "with_capacity")) {
    for (const ExprPtr& a : e.args) LowerExpr(*a);
    Rvalue r;
    r.kind = Rvalue::Kind::kArrayInit;
    return Emit(std::move(r), Ty::With(Ty::Kind::kArray, {Ty::Unknown()}));
  }
  if ((tn == "Map" || tn == "HashMap") && name == "new") {
    Rvalue r;
    r.kind = Rvalue::Kind::kMapInit;
    return Emit(std::move(r), Ty::With(Ty::Kind::kMap, {Ty::Unknown(), Ty::Unknown()}));
  }
  if ((tn == "String" || tn == "Str") && name == "from_utf8" && e.args.size() == 1)
    return Emit(CallBuiltin("str_from_utf8", LowerArgs(e.args)),
                Ty::Adt("Result", {Ty::Make(Ty::Kind::kStr), Ty::Make(Ty::Kind::kStr)}));
  if ((tn == "String" || tn == "Str") &&
      (name == "new" || name == "from" || name == "from_str" || name == "with_capacity")) {
    // `String::from(s)`, upstream's `String.from_str(s)`: the string itself.
    if ((name == "from" || name == "from_str") && e.args.size() == 1) return LowerExpr(*e.args[0]);
    for (const ExprPtr& a : e.args) LowerExpr(*a);  // with_capacity(n): n is evaluated
    return Val{ConstOp(ir::Constant::Str("")), Ty::Make(Ty::Kind::kStr)};
  }
  if (tn != "char" && tn != "Char") return std::nullopt;
  // char::from_u32(i), char::from_digit(d, radix): the builtins char_<name>
  // of the table.
  const ir::BuiltinFnInfo* b = ir::FindBuiltinFn(absl::StrCat("char_", name));
  if (!b) return std::nullopt;
  if (static_cast<int>(e.args.size()) < b->min || static_cast<int>(e.args.size()) > b->max) {
    Error("MT2001", e.loc,
          absl::StrCat("function `char::", name, "` takes ", b->min, " argument(s), given ",
                       e.args.size()));
    return Unit();
  }
  std::vector<Operand> ops = LowerArgs(e.args);
  return Emit(CallBuiltin(b->name, std::move(ops)), Ty::Adt("Option", {Ty::Make(Ty::Kind::kChar)}));
}

bool FnLowerer::UserMethod(const Ty& base, const std::string& name, std::string* fn,
                           bool* is_mut) const {
  if (!base.Is(Ty::Kind::kAdt)) return false;
  auto m = g_.methods.find(base.name);
  if (m == g_.methods.end() || !m->second.count(name)) return false;
  *fn = m->second.at(name);
  *is_mut = g_.fns.at(*fn).self_kind == Param::SelfKind::kRefMut;
  return true;
}

FnLowerer::Val FnLowerer::LowerValueMethod(const Expr& e) {
  const Expr& recv = *e.lhs;
  const std::string& name = e.text;
  // Whether a user method takes &mut self decides the receiver's
  // mutability check. The static type of a simple local receiver picks
  // the method before the receiver is evaluated (once, by Receiver below).
  bool user_mut = false;
  std::string user_fn;
  TyP base = Ty::Unknown();
  if (recv.kind == K::kPath && recv.segs.size() == 1)
    if (const LocalInfo* li = FindLocal(recv.segs[0].name)) base = li->ty;
  while (base->Is(Ty::Kind::kRef)) base = base->Arg(0);
  const bool builtin_mut = MethodMutates(name, base.get());
  if (name == "to_string" && e.args.empty() && base->Is(Ty::Kind::kAdt) &&
      UserMethod(*base, "__display_fmt", &user_fn, &user_mut))
    if (std::optional<Val> own = UserFmt(LowerExpr(recv), false)) return *own;
  if (!UserMethod(*base, name, &user_fn, &user_mut))
    user_fn = BuiltinKindMethod(*base, name, &user_mut);
  Place place;
  TyP rty;
  Val rv = Receiver(recv, &place, &rty, user_fn.empty() ? builtin_mut : user_mut, e.loc);
  base = rty;
  while (base->Is(Ty::Kind::kRef)) base = base->Arg(0);
  const bool is_prelude = IsPreludeCall(*base, name);  // the receiver's type is known now
  if (user_fn.empty()) UserMethod(*base, name, &user_fn, &user_mut);
  if (name == "or_default" && IsStdType(base) && e.args.empty())
    if (auto ins = g_.fns.find(base->name + "::or_insert"); ins != g_.fns.end()) {
      // A BTreeMap entry's or_default() (lower_std.cc): or_insert of the
      // default of the value type the checker found.
      TyP v = CheckedType(e);
      while (v->Is(Ty::Kind::kRef)) v = v->Arg(0);
      std::optional<Operand> d =
          DefaultFor(v, e.loc, "`or_default` needs the map's value type",
                     "annotate the map (`let mut m: BTreeMap<&str, i64> = BTreeMap::new()`), or "
                     "use `or_insert(v)`",
                     "use `or_insert(v)`");
      if (!d) return Unit();
      Place p = place;
      TyP t = rty;
      AutoDeref(p, t, nullptr);
      return CallUser(ins->second, {Emit(UseR(Operand::Copy(p)), t).op, *d}, e.loc);
    }
  if (user_fn.empty())
    if (std::optional<Val> v = LowerDirected(e, place, rty)) return *v;
  if (user_fn.empty())
    if (std::optional<Val> v = LowerForm(e, place, rty, base)) return *v;
  if (user_fn.empty()) user_fn = BuiltinKindMethod(*base, name, &user_mut);
  if (!user_fn.empty()) return CallUserMethod(e, g_.fns.at(user_fn), user_mut, place, rty);
  return LowerBuiltinMethod(e, rv, place, rty, base, is_prelude);
}

FnLowerer::Val FnLowerer::CallUserMethod(const Expr& e, const FnDef& def, bool by_mut_ref,
                                         const Place& place, const TyP& rty) {
  const std::string& name = e.text;
  const std::string owner_name = def.self_type;
  if (def.self_kind == Param::SelfKind::kNone) {
    Error("MT2004", e.loc,
          absl::StrCat("`", owner_name, "::", name,
                       "` is an associated function, not a method; call it as `", owner_name,
                       "::", name, "(...)`"));
    return Unit();
  }
  if (ArityMismatch(e, def.params.size(), "method", name, def.decl, NameEnd(e.loc, name)))
    return Unit();
  CheckArgs(def, e.args, 0, owner_name + "::" + name);
  std::vector<Operand> ops;
  if (by_mut_ref) {
    ops.push_back(rty->Is(Ty::Kind::kRef) ? Operand::Copy(place) : MutRef(place, rty).op);
  } else {
    Place p = place;
    TyP t = rty;
    AutoDeref(p, t, nullptr);
    // The receiver's copy moves into the call: a temporary left holding it
    // would share the receiver's storage, and the caller's next write to
    // the receiver (`q.push_back(x)` after `q.len()`) would copy it whole.
    Val self = Emit(UseR(Operand::Copy(p)), t);
    ops.push_back(Operand::Move(self.op.place));
  }
  for (Operand& o : LowerArgsFor(def, e.args)) ops.push_back(std::move(o));
  return CallUser(def, std::move(ops), e.loc);
}

void FnLowerer::UnknownMethod(const Expr& e, const TyP& base) {
  const std::string& name = e.text;
  std::string help = g_.suggest.Help(name, [&] {
    std::vector<std::string> names = KnownMethodNames(*base);
    if (base->Is(Ty::Kind::kAdt) || !g_.BuiltinOwner(*base).empty())
      if (auto m = g_.methods.find(base->Is(Ty::Kind::kAdt) ? base->name : g_.BuiltinOwner(*base));
          m != g_.methods.end())
        for (const auto& [mn, ir_name] : m->second) names.push_back(mn);
    return names;
  });
  if (help.empty() && name.size() <= kMaxSuggestWord) {
    std::string alias = MethodAlias(name);
    if (alias.empty()) alias = MethodAlias(ir::Nearest(name, {"length", "size", "to_string"}));
    if (!alias.empty() && IsKnownMethod(*base, alias)) help = "did you mean `" + alias + "`?";
  }
  Error("MT2004", e.loc,
        absl::StrCat("no method named `", name, "` found for `", base->Name(), "`"), help)
      .end = NameEnd(e.loc, name);
}

namespace {

// The bit methods of a narrower integer type take its width (negative for
// a signed type) as a last argument: `5u32.reverse_bits()` reverses 32 bits.
std::optional<int64_t> BitWidthArg(const Ty& base, const std::string& name) {
  static const std::set<std::string> kBitMethods = {
      "count_ones",  "count_zeros",  "leading_zeros", "trailing_zeros",
      "rotate_left", "rotate_right", "reverse_bits",  "swap_bytes"};
  if (!base.Is(Ty::Kind::kInt) || !kBitMethods.count(name)) return std::nullopt;
  const std::string& n = base.name;
  const int64_t w = n == "U8" || n == "I8"     ? 8
                    : n == "U16" || n == "I16" ? 16
                    : n == "U32" || n == "I32" ? 32
                                               : 0;
  if (w == 0) return std::nullopt;
  return n[0] == 'I' ? -w : w;
}

}  // namespace

FnLowerer::Val FnLowerer::LowerBuiltinMethod(const Expr& e, const Val& rv, const Place& place,
                                             const TyP& rty, const TyP& base, bool is_prelude) {
  const std::string& name = e.text;
  std::vector<TyP> arg_tys;
  std::vector<Operand> ops;
  for (const ExprPtr& a : e.args) {
    // A range argument (`zip(5..8)`, `chain(0..3)`) is its array.
    Val v = a->kind == K::kRange ? RangeArray(*a) : LowerExpr(*a);
    ops.push_back(v.op);
    arg_tys.push_back(v.ty);
  }
  // An element stored into a container of declared integer element type
  // converts like any typed place (a `Vec[U64]`'s `push(5)` stores a U64).
  auto store = [&](size_t i, const TyP& want) {
    Val v = Coerce(Val{ops[i], arg_tys[i]}, want);
    ops[i] = v.op;
    arg_tys[i] = v.ty;
  };
  if (base->Is(Ty::Kind::kArray) && !ops.empty() &&
      (name == "push" || (name == "insert" && ops.size() == 2)))
    store(ops.size() - 1, base->Arg(0));
  if (base->Is(Ty::Kind::kMap) && name == "insert" && ops.size() == 2) {
    store(0, base->Arg(0));
    store(1, base->Arg(1));
  }
  is_prelude = PreludeByArgs(*base, name, arg_tys, is_prelude);
  if (!base->Is(Ty::Kind::kUnknown) && !IsKnownMethod(*base, name)) {
    UnknownMethod(e, base);
    return Unit();
  }
  if (int lo, hi; MethodArity(*base, name, is_prelude, &lo, &hi) &&
                  (static_cast<int>(e.args.size()) < lo || static_cast<int>(e.args.size()) > hi)) {
    Error("MT2001", e.loc,
          absl::StrCat("method `", name, "` takes ", lo == hi ? "" : absl::StrCat(lo, " to "), hi,
                       " argument(s), given ", e.args.size()));
    return Unit();
  }
  // A capability's narrowing methods take a Str (the CAP_METHOD table).
  if (base->Is(Ty::Kind::kCap) && !arg_tys.empty() && !arg_tys[0]->Is(Ty::Kind::kUnknown) &&
      !arg_tys[0]->Is(Ty::Kind::kStr) && !arg_tys[0]->Is(Ty::Kind::kRef)) {
    Error("MT2021", e.args[0]->loc,
          absl::StrCat("mismatched types: `", name, "` of `", base->Name(),
                       "` takes a `Str`, found `", arg_tys[0]->Name(), "`"));
    return Unit();
  }
  // A receiver of unknown kind (a generic parameter, a closure argument)
  // dispatches at run time: an unknown method traps MT5008 there.
  TyP result = MethodResult(base, name, arg_tys);
  // `v.sort()`, `v.iter().max()`, `min()` of values whose type has its own
  // `cmp` (`impl Ord`, `Reverse`): ordered by it, as Rust's Ord (the
  // prelude's sort_by/max_by/min_by given `T::cmp`).
  std::string own_cmp;
  if (bool m; base->Is(Ty::Kind::kArray) && ops.empty() &&
              (name == "sort" || name == "sort_unstable" || name == "max" || name == "min") &&
              base->Arg(0)->Is(Ty::Kind::kAdt) && UserMethod(*base->Arg(0), "cmp", &own_cmp, &m)) {
    const std::string by = name == "max" ? "max_by" : name == "min" ? "min_by" : "sort_by";
    return CallPreludeMethod(e, rv, place, rty, base, {ConstOp(ir::Constant::Fn(own_cmp))}, result,
                             by);
  }
  if (is_prelude) return CallPreludeMethod(e, rv, place, rty, base, std::move(ops), result);
  // The receiver's width: its type here, else the checker's (a literal).
  const TyP checked = base->Is(Ty::Kind::kInt) && base->name.empty() ? CheckedType(*e.lhs) : base;
  if (std::optional<int64_t> w = BitWidthArg(*checked, name))
    ops.push_back(ConstOp(ir::Constant::Int(*w)));
  Rvalue r;
  r.kind = Rvalue::Kind::kMethodCall;
  r.place = place;
  r.name = name;
  r.ops = std::move(ops);
  return Emit(std::move(r), result);
}

FnLowerer::Val FnLowerer::CallPreludeMethod(const Expr& e, const Val& rv, const Place& place,
                                            const TyP& rty, const TyP& base,
                                            std::vector<Operand> ops, const TyP& result,
                                            const std::string& as) {
  // Prelude functions take values: look through `&`/`&mut` receivers.
  Place val = place;
  for (TyP t = rty; t->Is(Ty::Kind::kRef); t = t->Arg(0))
    val.proj.push_back({ir::Projection::Kind::kDeref, 0, 0});
  std::vector<Operand> all{val.proj.empty() ? rv.op : Operand::Copy(val)};
  for (Operand& o : ops) all.push_back(std::move(o));
  // A mutating one (sort_by) gives the new receiver, written back below
  // (through a `&mut` reference when the receiver is one).
  const std::string& name = as.empty() ? e.text : as;
  const bool mutates = MethodMutates(name, base.get());
  // Rust's unstable sorts are the stable ones (the same order, and no
  // worse).
  const std::string fn = name == "sort_unstable_by"       ? "sort_by"
                         : name == "sort_unstable_by_key" ? "sort_by_key"
                                                          : name;
  Val v = CallPrelude(fn, std::move(all), mutates ? base : result);
  if (!mutates) return v;
  Assign(val, UseR(v.op), e.loc);
  return Unit();
}

FnLowerer::Val FnLowerer::LowerClosure(const Expr& e) {
  std::set<std::string> names;
  CollectNames(*e.more->closure_body, names);
  std::set<std::string> params;
  std::vector<std::pair<std::string, Loc>> param_names;
  for (const ClosureParam& p : e.more->params)
    if (p.pat && p.pat->kind == Pattern::Kind::kBind) {
      params.insert(p.pat->name);
      param_names.push_back({p.pat->name, p.pat->loc});
    }
  if (!g_.quiet_warnings) g_.CheckParamNames(param_names, "this closure");  // once per closure
  std::vector<std::pair<std::string, LocalInfo>> caps;
  for (const std::string& n : names) {
    if (params.count(n)) continue;
    if (const LocalInfo* li = ReadLocal(n, e.loc)) caps.push_back({n, *li});
  }
  // Which captures the closure writes (docs/language.md §11): known from an
  // earlier lowering of the same closure, else found by lowering it with
  // every capture a copy and the writes recorded; a closure that writes
  // one is lowered again with those captured by reference. A `move`
  // closure keeps its copies (a write is MT3015).
  std::set<std::string> by_ref;
  auto known = g_.closure_writes.find(&e);
  if (known != g_.closure_writes.end()) {
    by_ref = known->second;
  } else if (!e.more->is_move) {
    const int counter = g_.closure_counter, nested = g_.nested_counter;
    const size_t fns = g_.program.functions.size(), errors = g_.diags.Count();
    const size_t warnings = g_.pending_warnings.size(), dropped = g_.warnings_dropped;
    std::set<std::string> written;
    std::string name = LowerClosureFn(e, caps, by_ref, &written);
    if (written.empty() || g_.diags.Count() != errors)
      return MakeClosure(name, caps, by_ref, e.loc);
    g_.closure_counter = counter;
    g_.nested_counter = nested;
    g_.program.functions.resize(fns);
    g_.pending_warnings.resize(warnings);
    g_.warnings_dropped = dropped;
    by_ref = std::move(written);
  }
  if (!by_ref.empty()) g_.closure_writes[&e] = by_ref;
  return MakeClosure(LowerClosureFn(e, caps, by_ref, nullptr), caps, by_ref, e.loc);
}

// The closure value: its function and its captures, each a copy or (the
// names in `by_ref`) a `&mut` to the variable, which this function writes
// then too (an enclosing closure captures it by reference in turn).
FnLowerer::Val FnLowerer::MakeClosure(const std::string& name,
                                      const std::vector<std::pair<std::string, LocalInfo>>& caps,
                                      const std::set<std::string>& by_ref, Loc loc) {
  Rvalue r;
  r.kind = Rvalue::Kind::kClosure;
  r.name = name;
  for (const auto& [n, li] : caps) {
    if (!by_ref.count(n)) {
      r.ops.push_back(Operand::Copy(li.At()));
      continue;
    }
    CapturedWriteError(loc, n, "let a closure write");
    r.ops.push_back(MutRef(li.At(), li.ty).op);
  }
  return Emit(std::move(r), Ty::Make(Ty::Kind::kFn));
}

std::string FnLowerer::LowerClosureFn(const Expr& e,
                                      const std::vector<std::pair<std::string, LocalInfo>>& caps,
                                      const std::set<std::string>& by_ref,
                                      std::set<std::string>* written) {
  std::string name = absl::StrCat(fn_.name, "::__closure", g_.closure_counter++);
  FnLowerer inner(g_, name, Ty::Unknown());
  inner.SetLoc(e.loc);
  inner.loc_ = loc_;
  inner.self_type_ = self_type_;
  inner.generics_ = generics_;
  inner.spec_names_ = spec_names_;
  inner.spec_with_ = spec_with_;
  inner.enclosing_ = Snapshot();
  inner.written_captures_ = written;
  inner.move_closure_ = e.more->is_move;
  for (const auto& [n, li] : caps) {
    const bool ref = by_ref.count(n) > 0;
    TyP pty = li.ty;
    if (ref) {
      pty = Ty::With(Ty::Kind::kRef, {li.ty});
      pty->is_mut = true;
    }
    inner.AddParam(n, pty, li.is_mut, false, {}, false, /*convert=*/false);
    if (ref) {
      // The name is the variable itself, read and written through `*`.
      LocalInfo& in = inner.scopes_.back()[n];
      in.ty = li.ty;
      in.proj = {{ir::Projection::Kind::kDeref, 0, 0}};
    }
    if (li.binding >= 0) {
      // A captured name keeps its binding's place and kind (for MT3014's label).
      Binding& b = inner.bindings_.back();
      b.loc = bindings_[li.binding].loc;
      b.is_param = bindings_[li.binding].is_param;
      b.is_let = bindings_[li.binding].is_let;
    } else if (agent_) {
      // An agent state field: its declaration is the label's place.
      for (const AgentState& st : agent_->state)
        if (st.name == n) inner.bindings_.back().loc = st.loc;
    }
    inner.bindings_.back().captured = !ref;
  }
  std::vector<std::pair<uint32_t, const ClosureParam*>> pattern_params;
  for (const ClosureParam& p : e.more->params) {
    TyP t = g_.Resolve(p.type, &generics_);
    if (p.pat && p.pat->kind == Pattern::Kind::kBind && p.pat->subs.empty()) {
      inner.AddParam(p.pat->name, t, p.pat->is_mut, false, p.pat->loc, true);
    } else {
      uint32_t l = inner.AddParam("", t, false, false);
      pattern_params.push_back({l, &p});
    }
  }
  for (const auto& [l, p] : pattern_params) {
    uint32_t fail = inner.NewBlock();
    std::map<std::string, uint32_t> binds;
    inner.MatchPattern(*p->pat, Place{l, {}}, g_.Resolve(p->type, &generics_), fail, binds);
    uint32_t ok = inner.cur_;
    inner.SetBlock(fail);
    inner.Term(ir::Terminator::Kind::kUnreachable);
    inner.SetBlock(ok);
  }
  g_.AddFn(inner.FinishWithExpr(*e.more->closure_body));
  return name;
}

std::optional<FnLowerer::Val> FnLowerer::UserFmt(const Val& v, bool debug) {
  TyP base = v.ty;
  Place p{ToLocal(v), {}};
  AutoDeref(p, base, nullptr);
  std::string fn;
  bool is_mut = false;
  if (!base->Is(Ty::Kind::kAdt) ||
      !UserMethod(*base, debug ? "__debug_fmt" : "__display_fmt", &fn, &is_mut))
    return std::nullopt;
  const TyP str = Ty::Make(Ty::Kind::kStr);
  uint32_t buf = Temp(str);
  Assign(Place{buf, {}}, UseR(ConstOp(ir::Constant::Str(""))), loc_);
  CallUser(g_.fns.at(fn), {Operand::Copy(p), MutRef(Place{buf, {}}, str).op}, loc_);
  return Val{Operand::Copy(Place{buf, {}}), str};
}

// `write!(dst, f, ..)` / `writeln!`: the formatted text appended to the Str
// `dst` (a `String` variable, or the `fmt::Formatter` a `Display` impl
// gets, which is a `&mut Str`), and `Ok(())` (docs/language.md §11).
FnLowerer::Val FnLowerer::LowerWrite(const Expr& e, const BuiltinMacro& bm) {
  const TyP unit = Ty::Make(Ty::Kind::kUnit);
  const TyP result = Ty::Adt("Result", {unit, unit});
  if (e.args.size() < 2) {
    Error("MT2001", e.loc,
          absl::StrCat("`", e.text, "!` takes what it writes into and a format string"));
    return Unit();
  }
  TyP ty;
  bool root_mut = false;
  std::string root;
  const Expr* dst = e.args[0].get();
  if (dst->kind == K::kRef && dst->is_mut) dst = dst->lhs.get();  // `write!(&mut s, ..)`
  std::optional<Place> pl = PlaceOf(*dst, &ty, &root_mut, &root);
  if (!pl) {
    Error("MT2011", e.args[0]->loc,
          absl::StrCat("`", e.text, "!` writes into a `String` variable or a `fmt::Formatter`"));
    return Unit();
  }
  AutoDeref(*pl, ty, &root_mut);
  if (CapturedWriteError(e.args[0]->loc, root, "write into")) {
  } else if (!root_mut) {
    ImmutableError(
        e.args[0]->loc, root,
        absl::StrCat("cannot write into `", root, "`, as it is not declared as mutable"));
  }
  const TyP str = Ty::Make(Ty::Kind::kStr);
  Operand text = LowerFormat(e, 1).op;
  if (bm.newline)
    text = Emit(CallBuiltin("concat", {text, ConstOp(ir::Constant::Str("\n"))}), str).op;
  Assign(*pl, CallBuiltin("concat", {Operand::Copy(*pl), text}), e.loc);
  return Emit(AdtInit("Result", "Ok", {UnitOp()}), result);
}

// Traps MT5001 with the Str `msg` (the block ends: its successor is
// unreachable).
void FnLowerer::PanicWith(Operand msg, Loc loc) {
  Assign(Place{Temp(Ty::Unknown()), {}}, CallBuiltin("panic", {std::move(msg)}), loc);
  Term(ir::Terminator::Kind::kUnreachable);
}

// The built-in macros by their kind (builtin_macros.h). A message is Rust's:
// `todo!()` "not yet implemented", `todo!("x {}", 1)` "not yet implemented:
// x 1", `panic!("x {}", 1)` "x 1".
FnLowerer::Val FnLowerer::LowerMacro(const Expr& e) {
  using MK = BuiltinMacro::Kind;
  const std::string& m = e.text;
  const BuiltinMacro* bm = FindBuiltinMacro(m);
  const MK kind = bm ? bm->kind : MK::kVec;  // kVec is parsed as an array
  const size_t f = FormatArgIndex(kind);
  const bool has_fmt = e.args.size() > f;
  if (has_fmt && e.args[f]->kind != K::kStr) {
    Error("MT2005", e.args[f]->loc, absl::StrCat("`", m, "!` needs a string literal there"));
    return Unit();
  }
  const TyP str = Ty::Make(Ty::Kind::kStr);
  switch (kind) {
    case MK::kFormat:
      if (!has_fmt) {
        Error("MT2005", e.loc, "`format!` needs a string literal as its first argument");
        return Unit();
      }
      return LowerFormat(e, 0);
    case MK::kPrint: {
      // Only a macro that ends the line may be empty (`println!()`).
      if (!has_fmt && !bm->newline && std::string_view(bm->text) != "log") {
        Error("MT2001", e.loc, absl::StrCat("`", m, "!` needs a format string"));
        return Unit();
      }
      Operand text = has_fmt ? LowerFormat(e, 0).op : ConstOp(ir::Constant::Str(""));
      if (bm->newline)
        text = Emit(CallBuiltin("concat", {text, ConstOp(ir::Constant::Str("\n"))}), str).op;
      return Emit(CallBuiltin(bm->text, {text}), Ty::Make(Ty::Kind::kUnit));
    }
    case MK::kWrite: return LowerWrite(e, *bm);
    case MK::kPanic: {
      if (!has_fmt && m == "unreachable") {
        Term(ir::Terminator::Kind::kUnreachable);  // trap MT5005
        return Unit();
      }
      Operand msg = ConstOp(ir::Constant::Str(bm->text));
      if (has_fmt) {
        Operand text = LowerFormat(e, 0).op;
        msg = bm->message_alone
                  ? text
                  : Emit(CallBuiltin("concat", {msg, ConstOp(ir::Constant::Str(": ")), text}), str)
                        .op;
      }
      PanicWith(msg, e.loc);
      return Unit();
    }
    case MK::kAssert: {
      if (e.args.empty()) {
        Error("MT2001", e.loc, "`assert!` takes a condition and an optional message");
        return Unit();
      }
      Val c = LowerExpr(*e.args[0]);
      uint32_t bad = NewBlock(), ok = NewBlock();
      Branch(c.op, ok, bad);
      SetBlock(bad);
      PanicWith(has_fmt ? LowerFormat(e, f).op : ConstOp(ir::Constant::Str("assertion failed")),
                e.loc);
      SetBlock(ok);
      return Unit();
    }
    case MK::kAssertEq:
    case MK::kAssertNe: {
      if (e.args.size() < 2) {
        Error("MT2001", e.loc, absl::StrCat("`", m, "!` takes 2 arguments, given ", e.args.size()));
        return Unit();
      }
      const bool eq = kind == MK::kAssertEq;
      Val a = LowerExpr(*e.args[0]);
      Operand ao = ToLocalOp(a);
      Val b = LowerExpr(*e.args[1]);
      Operand bo = ToLocalOp(b);
      Val c = Compare(eq ? ir::BinOp::kEq : ir::BinOp::kNe, ao, bo);
      uint32_t bad = NewBlock(), ok = NewBlock();
      Branch(c.op, ok, bad);
      SetBlock(bad);
      // Rust's text: "assertion `left == right` failed[: msg]\n  left: a\n right: b".
      std::vector<Operand> parts = {ConstOp(
          ir::Constant::Str(absl::StrCat("assertion `left ", eq ? "==" : "!=", " right` failed")))};
      if (has_fmt) {
        parts.push_back(ConstOp(ir::Constant::Str(": ")));
        parts.push_back(LowerFormat(e, f).op);
      }
      parts.push_back(ConstOp(ir::Constant::Str("\n  left: ")));
      parts.push_back(Emit(CallBuiltin("debug_str", {ao}), str).op);
      parts.push_back(ConstOp(ir::Constant::Str("\n right: ")));
      parts.push_back(Emit(CallBuiltin("debug_str", {bo}), str).op);
      PanicWith(Emit(CallBuiltin("concat", std::move(parts)), str).op, e.loc);
      SetBlock(ok);
      return Unit();
    }
    case MK::kVec: break;
  }
  Error("MT1010", e.loc, absl::StrCat("cannot find macro `", m, "` in this scope"),
        g_.suggest.Help(m, [&]() -> std::vector<std::string> {
          std::vector<std::string> known;
          for (const BuiltinMacro& k : kBuiltinMacros) known.emplace_back(k.name);
          return known;
        }));
  return Unit();
}

// A format placeholder's name that is a positional index (`{0}`, `{1:?}`).
static bool IsPositional(const std::string& name) {
  return !name.empty() && name.size() <= 9 &&
         std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The names of a format string's placeholders, in order (`{}` gives "").
static std::vector<std::string> PlaceholderNames(const std::string& f) {
  std::vector<std::string> names;
  for (size_t i = 0; i < f.size(); ++i) {
    if ((f[i] == '{' || f[i] == '}') && i + 1 < f.size() && f[i + 1] == f[i]) {
      ++i;
      continue;
    }
    if (f[i] != '{') continue;
    size_t close = f.find('}', i);
    if (close == std::string::npos) break;
    std::string inner = f.substr(i + 1, close - i - 1);
    names.push_back(inner.substr(0, inner.find(':')));
    i = close;
  }
  return names;
}

FnLowerer::Val FnLowerer::LowerFormat(const Expr& e, size_t first) {
  const std::string& f = e.args[first]->text;
  std::vector<Operand> parts;
  std::string lit;
  size_t next_arg = first + 1;
  size_t used = 0;
  const size_t given = e.args.size() - first - 1;
  // With a positional placeholder (`{0}`, Rust's), every argument is
  // evaluated once, in order, before the string is built; each must be used.
  std::vector<std::string> names = PlaceholderNames(f);
  const bool positional = std::any_of(names.begin(), names.end(), IsPositional);
  std::vector<Val> pre;
  std::vector<bool> arg_used(given, false);
  if (positional)
    for (size_t k = first + 1; k < e.args.size(); ++k) {
      Val a = LowerExpr(*e.args[k]);
      pre.push_back(Val{ToLocalOp(a), a.ty});
    }
  auto flush = [&] {
    if (!lit.empty()) parts.push_back(ConstOp(ir::Constant::Str(lit)));
    lit.clear();
  };
  for (size_t i = 0; i < f.size(); ++i) {
    char c = f[i];
    if (c == '{' && i + 1 < f.size() && f[i + 1] == '{') {
      lit += '{';
      ++i;
      continue;
    }
    if (c == '}' && i + 1 < f.size() && f[i + 1] == '}') {
      lit += '}';
      ++i;
      continue;
    }
    if (c == '}') {
      Error("MT2005", e.args[first]->loc, "unmatched `}` in format string",
            "write `}}` for a literal brace");
      return Unit();
    }
    if (c != '{') {
      lit += c;
      continue;
    }
    size_t close = f.find('}', i);
    if (close == std::string::npos) {
      Error("MT2005", e.args[first]->loc, "unterminated `{` in format string",
            "write `{{` for a literal brace");
      return Unit();
    }
    std::string inner = f.substr(i + 1, close - i - 1);
    i = close;
    std::string name = inner, spec;
    if (size_t colon = inner.find(':'); colon != std::string::npos) {
      name = inner.substr(0, colon);
      spec = inner.substr(colon + 1);
    }
    flush();
    Val v;
    if (name.empty()) {
      if (next_arg >= e.args.size()) {
        ++used;
        ++next_arg;
        continue;
      }
      size_t k = next_arg++ - first - 1;
      if (positional) {
        v = pre[k];
        arg_used[k] = true;
      } else {
        v = LowerExpr(*e.args[first + 1 + k]);
      }
      ++used;
    } else if (IsPositional(name)) {
      size_t k = std::stoul(name);
      if (k >= given) {
        Error(
            "MT2005", e.args[first]->loc,
            absl::StrCat("invalid reference to positional argument ", k, " in `format!`: ",
                         given == 0 ? "there are no arguments"
                                    : absl::StrCat("the arguments are numbered 0 to ", given - 1)));
        return Unit();
      }
      v = pre[k];
      arg_used[k] = true;
    } else {
      Expr p;
      p.kind = K::kPath;
      p.loc = e.args[first]->loc;
      p.segs = {{name, p.loc}};
      v = LowerExpr(p);
    }
    // A type's own `Display`/`Debug` impl writes it (a width or precision
    // is then not applied, as Rust's `write!` in an impl ignores them).
    const bool debug = !spec.empty() && spec.back() == '?';
    if (std::optional<Val> own = UserFmt(v, debug)) {
      parts.push_back(own->op);
    } else if (spec.empty()) {
      parts.push_back(v.op);
    } else if (spec == "?") {
      parts.push_back(Emit(CallBuiltin("debug_str", {v.op}), Ty::Make(Ty::Kind::kStr)).op);
    } else {
      parts.push_back(Emit(CallBuiltin("fmt", {v.op, ConstOp(ir::Constant::Str(spec))}),
                           Ty::Make(Ty::Kind::kStr))
                          .op);
    }
  }
  flush();
  if (positional) {
    if (used > given) {
      Error(
          "MT2005", e.loc,
          absl::StrCat("`format!` has ", used, " `{}` placeholder(s) but ", given, " argument(s)"));
      return Unit();
    }
    for (size_t k = 0; k < given; ++k)
      if (!arg_used[k]) {
        Error("MT2005", e.args[first + 1 + k]->loc,
              absl::StrCat("argument ", k, " of `format!` is never used"),
              absl::StrCat("use it in a placeholder (`{}` or `{", k, "}`) or remove it"));
        return Unit();
      }
  } else if (used != given) {
    Error("MT2005", e.loc,
          absl::StrCat("`format!` has ", used, " placeholder(s) but ", given, " argument(s)"));
    return Unit();
  }
  if (parts.empty()) return Val{ConstOp(ir::Constant::Str("")), Ty::Make(Ty::Kind::kStr)};
  return Emit(CallBuiltin("concat", std::move(parts)), Ty::Make(Ty::Kind::kStr));
}

}  // namespace mty::frontend
