// The per-function lowerer's core: finishing a function (dead blocks,
// terminators), blocks and `let` statements, places (lvalues) and fields.
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "builtin_macros.h"
#include "lower_internal.h"
#include "mty/ir/builtins.h"
#include "mty/ir/visit.h"

namespace mty::frontend {

using K = Expr::Kind;

ir::Function FnLowerer::Finish(const Val& v) {
  WarnUnused();
  if (!terminated_) {
    Assign(Place{0, {}}, UseR(Coerce(v, ret_).op), loc_);
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
  CheckDefiniteAssignment(out);
  return out;
}

void FnLowerer::CheckDefiniteAssignment(const ir::Function& f) {
  if (deferred_.empty()) return;
  std::map<uint32_t, size_t> slot;
  std::vector<uint32_t> ids;
  for (const auto& [l, d] : deferred_) {
    slot[l] = ids.size();
    ids.push_back(l);
  }
  const size_t k = ids.size(), n = f.blocks.size();
  using State = std::vector<char>;  // per deferred local: assigned
  auto tracked = [&](const Place& p) { return slot.find(p.local); };
  // Runs block b from `st`; on_read(local, stmt index) for each read of a
  // local not assigned there, on_write(local, stmt index, assigned before)
  // for each write of a whole one.
  auto transfer = [&](uint32_t b, State st, auto&& on_read, auto&& on_write) {
    const ir::Block& blk = f.blocks[b];
    for (size_t i = 0; i < blk.stmts.size(); ++i) {
      const ir::Statement& s = blk.stmts[i];
      ir::ForEachPlace(s, [&](const Place& p, ir::PlaceAccess a) {
        // Writing below a local (`x.f = 1`, `x[0] = 1`) needs it whole.
        bool reads =
            a == ir::PlaceAccess::kRead || (a == ir::PlaceAccess::kWrite && !p.proj.empty());
        if (auto it = tracked(p); reads && it != slot.end() && !st[it->second]) on_read(p.local, i);
      });
      ir::ForEachPlace(s, [&](const Place& p, ir::PlaceAccess a) {
        if (a != ir::PlaceAccess::kWrite || !p.proj.empty()) return;
        if (auto it = tracked(p); it != slot.end()) {
          const Deferred& d = deferred_.at(p.local);
          on_write(p.local, i, st[it->second] != 0);
          st[it->second] = !(d.block == b && d.stmt == i);  // the `let` un-assigns it
        }
      });
    }
    ir::ForEachOperand(blk.term, [&](const Operand& o) {
      if (o.kind == Operand::Kind::kConst) return;
      if (auto it = tracked(o.place); it != slot.end() && !st[it->second])
        on_read(o.place.local, blk.stmts.size());
    });
    return st;
  };
  auto no_read = [](uint32_t, size_t) {};
  auto no_write = [](uint32_t, size_t, bool) {};
  // The state entering each block: `surely` assigned on every path reaching
  // it (branches meet by intersection), else `maybe` assigned on some path
  // (by union, so a loop body's assignment reaches the loop's head again).
  auto solve = [&](bool surely, std::vector<char>& reached) {
    std::vector<State> in(n, State(k, surely ? 1 : 0));
    reached.assign(n, 0);
    in[0] = State(k, 0);
    reached[0] = 1;
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t b = 0; b < n; ++b) {
        if (!reached[b]) continue;
        State out = transfer(b, in[b], no_read, no_write);
        ir::ForEachTarget(f.blocks[b].term, [&](uint32_t t) {
          if (t >= n) return;
          State merged = in[t];
          for (size_t j = 0; j < k; ++j)
            merged[j] = surely ? merged[j] && out[j] : merged[j] || out[j];
          if (!reached[t] || merged != in[t]) {
            reached[t] = 1;
            in[t] = std::move(merged);
            changed = true;
          }
        });
      }
    }
    return in;
  };
  if (n == 0) return;
  std::vector<char> reached;
  std::vector<State> in = solve(true, reached);
  std::set<uint32_t> reported;
  for (uint32_t b = 0; b < n; ++b) {
    if (!reached[b]) continue;
    transfer(
        b, in[b],
        [&](uint32_t l, size_t i) {
          if (!reported.insert(l).second) return;
          const Deferred& d = deferred_.at(l);
          // The read as written: the last one lowered into this block at or
          // before the statement that consumes it; else the statement.
          Loc at;
          for (const DeferredRead& r : deferred_reads_)
            if (r.local == l && r.block == b && r.stmt <= i && r.loc.line) at = r.loc;
          if (!at.line) {
            const ir::Loc il =
                i < f.blocks[b].stmts.size() ? f.blocks[b].stmts[i].loc : f.blocks[b].term.loc;
            at = Loc{il.line, il.col};
          }
          Diagnostic& e = Error(
              "MT3016", at, absl::StrCat("`", d.name, "` is used before it is assigned"),
              absl::StrCat("assign it on every path before this read (in each branch of an `if` "
                           "or `match`; a loop's body may not run), or give it a value: `let mut ",
                           d.name, " = ..`"));
          e.end = NameEnd(at, d.name);
          if (d.loc.line)
            e.labels.push_back(
                Label{d.loc, NameEnd(d.loc, d.name),
                      absl::StrCat("`", d.name, "` is declared here without a value")});
        },
        no_write);
  }
  // An immutable `let x: T;` takes one assignment: none may run where an
  // earlier one may have (Rust's E0384).
  if (deferred_writes_.empty()) return;
  in = solve(false, reached);
  for (uint32_t b = 0; b < n; ++b) {
    if (!reached[b]) continue;
    transfer(b, in[b], no_read, [&](uint32_t l, size_t i, bool maybe) {
      if (!maybe || !reported.insert(l).second) return;
      for (const DeferredWrite& w : deferred_writes_) {
        if (w.local != l || w.block != b || w.stmt != i) continue;
        const Deferred& d = deferred_.at(l);
        Diagnostic& e =
            Error("MT3014", w.loc,
                  absl::StrCat("cannot assign twice to immutable variable `", d.name, "`"),
                  absl::StrCat("make it mutable: `let mut ", d.name, "`"));
        e.end = NameEnd(w.loc, d.name);
        if (d.loc.line)
          e.labels.push_back(Label{d.loc, NameEnd(d.loc, d.name),
                                   absl::StrCat("`", d.name, "` is declared here, without `mut`")});
        return;
      }
    });
  }
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
  const std::vector<std::string> nested = DeclareNestedFns(b);
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
      const bool result = is_tail && use == BlockUse::kFnBody;
      if (result) CheckReturn(*s.expr);
      Val v = result ? LowerAs(*s.expr, ret_) : LowerExpr(*s.expr);
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
  for (const std::string& n : nested) nested_fns_[n].pop_back();
  if (!nested.empty()) snapshot_.reset();
  scopes_.pop_back();
  loc_ = outer;
  return last;
}

bool FnLowerer::Diverges(const Stmt& s) const {
  if (s.kind != Stmt::Kind::kExpr || !s.expr) return false;
  return DivergesExpr(*s.expr);
}

bool FnLowerer::DivergesExpr(const Expr& e) const {
  switch (e.kind) {
    case K::kReturn:
    case K::kBreak:
    case K::kContinue: return true;
    case K::kMacro: {
      const BuiltinMacro* m = FindBuiltinMacro(e.text);
      return m && m->kind == BuiltinMacro::Kind::kPanic;
    }
    case K::kCall: {
      if (!e.lhs || e.lhs->kind != K::kPath || e.lhs->segs.size() != 1) return false;
      const std::string& n = e.lhs->segs[0].name;
      const ir::BuiltinFnInfo* b = ir::FindSourceBuiltin(n);
      return b && b->id == ir::BuiltinFnId::kPanic && !FindLocal(n) && !g_.fns.count(n);
    }
    default: return false;
  }
}

namespace {

// Whether an expression surely leaves the straight-line flow: one that
// `leaves` (return, break, continue, panic(..), unreachable!()), or a
// block, an `if`/`else` or a `match` every branch of which does.
bool ExprDiverges(const Expr& e, const std::function<bool(const Expr&)>& leaves);
bool BlockDiverges(const Block& b, const std::function<bool(const Expr&)>& leaves) {
  for (const Stmt& s : b.stmts)
    if (s.kind == Stmt::Kind::kExpr && s.expr && ExprDiverges(*s.expr, leaves)) return true;
  return false;
}
bool ExprDiverges(const Expr& e, const std::function<bool(const Expr&)>& leaves) {
  switch (e.kind) {
    case K::kBlock:
    case K::kUnsafe: return e.then_block && BlockDiverges(*e.then_block, leaves);
    case K::kIf:
    case K::kIfLet:
      return e.then_block && e.more->else_expr && BlockDiverges(*e.then_block, leaves) &&
             ExprDiverges(*e.more->else_expr, leaves);
    case K::kMatch:
      if (e.more->arms.empty()) return false;
      for (const MatchArm& a : e.more->arms)
        if (!a.body || !ExprDiverges(*a.body, leaves)) return false;
      return true;
    default: return leaves(e);
  }
}

}  // namespace

// `let PAT = e else { .. }`: the else block runs when PAT does not match
// and must diverge (MT1031); PAT's names are in scope after the statement
// only, not in the else block.
void FnLowerer::LowerLetElse(const Stmt& s, uint32_t src, TyP ty) {
  uint32_t fail = NewBlock();
  std::map<std::string, uint32_t> binds;
  scopes_.emplace_back();
  MatchPattern(*s.pat, Place{src, {}}, ty, fail, binds);
  std::map<std::string, LocalInfo> bound = std::move(scopes_.back());
  scopes_.pop_back();
  uint32_t ok = cur_;
  const bool ok_term = fn_.blocks[ok].term_set;
  SetBlock(fail);
  loc_ = s.loc;
  if (!BlockDiverges(*s.else_block, [&](const Expr& x) { return DivergesExpr(x); }))
    Error("MT1031", s.else_block->loc, "the `else` block of `let ... else` must diverge",
          "end it with `return`, `break`, `continue` or `panic(..)`: the names of the pattern "
          "have no value when it does not match");
  LowerBlock(*s.else_block, BlockUse::kDiscarded);
  loc_ = s.loc;
  Term(ir::Terminator::Kind::kUnreachable);
  SetBlock(ok);
  terminated_ = ok_term;
  for (auto& [n, li] : bound) scopes_.back()[n] = li;
}

std::vector<std::string> FnLowerer::DeclareNestedFns(const Block& b) {
  std::vector<std::string> added;
  std::vector<std::pair<const FnDecl*, std::string>> pending;
  std::set<std::string> here;
  for (const Stmt& s : b.stmts) {
    if (s.kind != Stmt::Kind::kFn || !s.fn_item) continue;
    const FnDecl& f = *s.fn_item;
    if (!here.insert(f.name).second) {
      g_.diags
          .Error("MT1008", f.loc,
                 absl::StrCat("the name `", f.name, "` is defined multiple times in this block"))
          .end = NameEnd(f.loc, f.name);
      continue;
    }
    std::string ir = absl::StrCat(fn_.name, "::", f.name);
    while (g_.fns.count(ir)) ir = absl::StrCat(fn_.name, "::", f.name, "_", ++g_.nested_counter);
    FnDef d = g_.MakeFnDef(f, ir, "");
    d.quiet = g_.quiet_warnings;
    g_.fns[ir] = d;
    nested_fns_[f.name].push_back(ir);
    added.push_back(f.name);
    pending.push_back({&f, ir});
  }
  if (pending.empty()) return added;
  snapshot_.reset();
  // What the items see: the items of this block and those around it, and
  // (for MT1032) the locals of this function: in scope here or bound by a
  // `let` of this block.
  auto inner = std::make_shared<NestedScope>();
  inner->fns = nested_fns_;
  inner->parent = enclosing_;
  for (const auto& sc : scopes_)
    for (const auto& [n, li] : sc)
      if (n.find('#') == std::string::npos) inner->outer_locals.insert(n);
  for (const Stmt& s : b.stmts)
    if (s.kind == Stmt::Kind::kLet && s.pat && s.pat->kind == Pattern::Kind::kBind)
      inner->outer_locals.insert(s.pat->name);
  std::shared_ptr<const NestedScope> shared = inner;
  for (const auto& [f, ir] : pending) {
    const Loc outer = loc_;
    g_.LowerFn(g_.fns.at(ir), *f, shared);
    loc_ = outer;
  }
  return added;
}

std::shared_ptr<const NestedScope> FnLowerer::Snapshot() {
  if (nested_fns_.empty()) return enclosing_;
  if (!snapshot_) {
    auto s = std::make_shared<NestedScope>();
    s->fns = nested_fns_;
    s->parent = enclosing_;
    snapshot_ = s;
  }
  return snapshot_;
}

const FnDef* FnLowerer::NestedFn(const std::string& name) const {
  auto find = [&](const std::map<std::string, std::vector<std::string>>& m) -> const FnDef* {
    auto it = m.find(name);
    if (it == m.end() || it->second.empty()) return nullptr;
    auto f = g_.fns.find(it->second.back());
    return f == g_.fns.end() ? nullptr : &f->second;
  };
  if (const FnDef* d = find(nested_fns_)) return d;
  for (const NestedScope* s = enclosing_.get(); s; s = s->parent.get())
    if (const FnDef* d = find(s->fns)) return d;
  return nullptr;
}

bool FnLowerer::ReportCapture(const std::string& name, Loc loc) {
  bool outer = false;
  for (const NestedScope* s = enclosing_.get(); s && !outer; s = s->parent.get())
    outer = s->outer_locals.count(name) > 0;
  if (!outer) return false;
  Error("MT1032", loc,
        absl::StrCat("can't capture dynamic environment in a fn item: `", name,
                     "` is a local of the enclosing function"),
        absl::StrCat("pass `", name, "` as a parameter, or use a closure instead: `let f = |..| ",
                     "..` captures it"))
      .end = NameEnd(loc, name);
  return true;
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

bool FnLowerer::CapturedWriteError(Loc loc, const std::string& root, const char* verb) {
  const LocalInfo* li = FindLocal(root);
  if (!li || li->binding < 0 || !bindings_[li->binding].captured || li->ty->Is(Ty::Kind::kRef))
    return false;
  if (written_captures_) {
    written_captures_->insert(root);  // captured by reference instead (LowerClosure)
    return true;
  }
  const Binding& b = bindings_[li->binding];
  // Only a `move` closure keeps copies it writes (LowerClosure).
  Diagnostic& d = Error(
      "MT3015", loc,
      absl::StrCat("cannot ", verb, " `", root,
                   "` inside a `move` closure: the closure owns a copy of it"),
      absl::StrCat("a `move` closure's copy is not kept from one call to the next: drop `move` "
                   "to write `",
                   root, "` itself, or return the new value"));
  if (b.loc.line)
    d.labels.push_back(Label{b.loc, NameEnd(b.loc, root),
                             absl::StrCat("`", root, "` is declared here, outside the closure")});
  return true;
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
  Val init = s.expr ? LowerAs(*s.expr, declared) : Val{UnitOp(), declared};
  // A written `Any` (or a generic parameter's name) stays unknown: the
  // value is checked where it is used, whatever it was made from.
  TyP ty = declared->Is(Ty::Kind::kUnknown) && s.type.kind == TypeExpr::Kind::kInfer ? init.ty
                                                                                     : declared;
  if (s.pat->kind == Pattern::Kind::kBind && s.pat->subs.empty() && !s.else_block) {
    uint32_t l = NamedLocal(s.pat->name, ty, s.pat->is_mut, s.pat->loc, true);
    bindings_.back().is_let = true;
    if (!s.expr && !terminated_)
      deferred_[l] = Deferred{s.pat->name, s.pat->loc, cur_, fn_.blocks[cur_].block.stmts.size()};
    Assign(Place{l, {}}, UseR(init.op), s.loc);
    return;
  }
  uint32_t src = ToLocal(Val{init.op, ty});
  if (s.else_block) return LowerLetElse(s, src, ty);
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

// ---- typed boundaries ----

FnLowerer::Val FnLowerer::Coerce(Val v, const TyP& want, const Place* into) {
  if (!want || !want->Is(Ty::Kind::kInt)) return v;
  const TyP have = v.ty ? v.ty : Ty::Unknown();
  // A reference is read through where it is used; a function value or a
  // value of another evident kind is reported by the static checks or
  // traps where it is used.
  if (have->Is(Ty::Kind::kRef)) return v;
  const bool is_const = v.op.kind == Operand::Kind::kConst;
  const ir::Constant::Kind ck = v.op.constant.kind;
  auto convert = [&](const char* fn) {
    if (!into) return Emit(CallBuiltin(fn, {ToLocalOp(v)}), want);
    Assign(*into, CallBuiltin(fn, {ToLocalOp(v)}), loc_);
    return Val{Operand::Copy(*into), want};
  };
  if (want->Unsigned()) {
    if (have->Unsigned()) return v;
    if (is_const && ck == ir::Constant::Kind::kUInt) return Val{v.op, want};
    if (is_const && ck == ir::Constant::Kind::kInt && v.op.constant.i >= 0)
      return Val{ConstOp(ir::Constant::UInt(static_cast<uint64_t>(v.op.constant.i))), want};
    return convert("into_u64");
  }
  if (!have->Unsigned()) return v;
  if (is_const && ck == ir::Constant::Kind::kUInt && v.op.constant.i >= 0)
    return Val{ConstOp(ir::Constant::Int(v.op.constant.i)), want};
  return convert("into_i64");
}

FnLowerer::Val FnLowerer::LowerAs(const Expr& e, const TyP& want) {
  if (!want) return LowerExpr(e);
  if (want->Unsigned() && e.kind == K::kInt && (e.is_mut || e.int_value >= 0))
    return Val{LowerIntLiteral(e, true).op, want};
  if (want->Is(Ty::Kind::kArray) && want->Arg(0)->Is(Ty::Kind::kInt) && e.kind == K::kArray &&
      !e.rhs) {
    std::vector<Operand> ops;
    for (const ExprPtr& a : e.args) ops.push_back(LowerAs(*a, want->Arg(0)).op);
    Rvalue r;
    r.kind = Rvalue::Kind::kArrayInit;
    r.ops = std::move(ops);
    return Emit(std::move(r), want);
  }
  return Coerce(LowerExpr(e), want);
}

// ---- places and fields ----

std::optional<TyP> FnLowerer::Project(const Expr& e, Place& base, TyP bt) {
  if (e.kind == K::kField) {
    uint32_t fi;
    TyP fty;
    bt = StaticOwner(e, bt);
    if (!ResolveField(bt, e.text, e.loc, &fi, &fty)) return std::nullopt;
    base.proj.push_back({ir::Projection::Kind::kField, fi, 0});
    return fty;
  }
  if (e.kind == K::kTupleField) {
    uint32_t fi;
    TyP fty;
    if (TupleStructIndex(bt, e.int_value, e.loc, &fi, &fty)) {  // `p.0` of `struct P(I64)`
      base.proj.push_back({ir::Projection::Kind::kField, fi, 0});
      return fty;
    }
    base.proj.push_back({ir::Projection::Kind::kTupleIndex, static_cast<uint32_t>(e.int_value), 0});
    return bt->Is(Ty::Kind::kTuple) ? bt->Arg(e.int_value) : Ty::Unknown();
  }
  RejectStrIndex(bt, e);
  Val idx = LowerExpr(*e.rhs);
  uint32_t il = ToLocal(idx);
  base.proj.push_back({ir::Projection::Kind::kIndex, il, 0});
  return bt->Is(Ty::Kind::kArray) ? bt->Arg(0)
         : bt->Is(Ty::Kind::kMap) ? bt->Arg(1)
                                  : Ty::Unknown();
}

std::optional<Place> FnLowerer::PlaceOf(const Expr& e, TyP* ty, bool* root_mut,
                                        std::string* root_name) {
  switch (e.kind) {
    case K::kPath: {
      if (e.segs.size() != 1) return std::nullopt;
      const LocalInfo* li = ReadLocal(e.segs[0].name, e.loc);
      if (!li) return std::nullopt;
      *ty = li->ty;
      *root_mut = li->is_mut;
      *root_name = e.segs[0].name;
      return li->At();
    }
    case K::kField:
    case K::kTupleField:
    case K::kIndex: {
      if (e.kind == K::kIndex && e.rhs->kind == K::kRange) return std::nullopt;  // a copy
      TyP bt;
      auto base = PlaceOf(*e.lhs, &bt, root_mut, root_name);
      if (!base) return std::nullopt;
      AutoDeref(*base, bt, root_mut);
      std::optional<TyP> t = Project(e, *base, bt);
      if (!t) return std::nullopt;
      *ty = *t;
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
      if (!bt->Is(Ty::Kind::kRef) && !bt->Is(Ty::Kind::kUnknown)) {
        // `*self` in a `&self` method (the receiver is passed as a value),
        // `*b` of a `Box[T]` (a box is its value): the value itself.
        *ty = bt;
        return base;
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
      if (e.segs.size() == 2 && g_.FindVariant(SelfName(e.segs[0].name), e.segs[1].name, nullptr))
        return variant_of(SelfName(e.segs[0].name));  // `Shape.Circle { r: 1.0 }`
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
          const std::string sn = SelfName(n);
          if (auto st = g_.adts.find(sn); st != g_.adts.end() && IsTupleStruct(st->second)) {
            if (!named(sn)) return nullptr;
            *what = absl::StrCat("tuple struct `", sn, "`");
            return Ty::Adt(sn);
          }
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

bool IntLiteralValue(const Expr& e, __int128* v) {
  if (e.kind == K::kUnary && e.unary_op == UnaryOp::kNeg && e.lhs && e.lhs->kind == K::kInt) {
    if (!IntLiteralValue(*e.lhs, v)) return false;
    *v = -*v;
    return true;
  }
  if (e.kind != K::kInt) return false;
  // A literal above I64::MAX keeps its 64 bits: unsuffixed (the parser
  // marks it) or with an unsigned suffix (`0xCAFE_BABE_DEAD_BEEF_u64`).
  const bool unsigned_bits = e.is_mut || (!e.text.empty() && e.text[0] == 'u');
  *v = unsigned_bits ? static_cast<__int128>(static_cast<uint64_t>(e.int_value)) : e.int_value;
  return true;
}

bool FnLowerer::CheckValue(const Expr& e, const TyP& want, const char* code,
                           const std::string& lead, Loc decl, const std::string& decl_msg) {
  if (!want || want->Is(Ty::Kind::kUnknown)) return true;
  // An integer literal out of the declared type's range (`-1` for a `U64`,
  // `300` for a `U8`): Rust's overflowing_literals, an error.
  __int128 lit, lo, hi;
  if (want->Is(Ty::Kind::kInt) && IntLiteralValue(e, &lit) &&
      IntTypeRange(want->Name(), &lo, &hi) && (lit < lo || lit > hi)) {
    auto text = [](__int128 v) {
      return v < 0 ? absl::StrCat("-", static_cast<uint64_t>(-v))
                   : absl::StrCat(static_cast<uint64_t>(v));
    };
    const bool spanned = e.begin.line != 0 && e.begin.line == e.end.line;
    Diagnostic& d =
        Error(code, spanned ? e.begin : e.loc,
              absl::StrCat(lead, "expected `", want->Name(), "`, found `", text(lit),
                           "`, which is out of its range"),
              absl::StrCat("`", want->Name(), "` holds ", text(lo), " ..= ", text(hi),
                           lit < 0 && lo == 0 ? "; a negative value needs a signed type" : ""));
    if (spanned) d.end = e.end;
    if (decl.line) d.labels.push_back(Label{decl, {}, decl_msg});
    return false;
  }
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
