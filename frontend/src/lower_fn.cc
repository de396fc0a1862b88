// Per-function lowering: statements, expressions, patterns and control flow
// to MtyIR blocks, plus the item pass (Globals::Collect / LowerAll).
#include <algorithm>
#include <functional>

#include "absl/strings/str_cat.h"
#include "lower_internal.h"

namespace mty::frontend {

using ir::Operand;
using ir::Place;
using ir::Rvalue;
using K = Expr::Kind;

namespace {

ir::Loc IrLoc(Loc l) { return ir::Loc{l.line, l.col}; }

bool IsUpper(const std::string& s) { return !s.empty() && s[0] >= 'A' && s[0] <= 'Z'; }

const char* kBuiltinFns[] = {"log", "print", "eprint", "panic", "assert", "__type_name"};

bool IsBuiltinFn(const std::string& n) {
  for (const char* b : kBuiltinFns)
    if (n == b) return true;
  return false;
}

// Flattens `a.b.c` (kPath / kField chains of plain names) into segments.
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

Operand ConstOp(ir::Constant c) { return Operand::Const(std::move(c)); }
Operand UnitOp() { return ConstOp(ir::Constant::Unit()); }

Rvalue UseR(Operand o) {
  Rvalue r;
  r.ops.push_back(std::move(o));
  return r;
}

}  // namespace

class FnLowerer {
 public:
  struct Val {
    Operand op;
    TyP ty;
  };

  FnLowerer(Globals& g, std::string name, TyP ret) : g_(g), ret_(ret ? ret : Ty::Unknown()) {
    fn_.name = std::move(name);
    fn_.locals.push_back(ir::Local{ret_->ToIr(), true, ""});
    scopes_.emplace_back();
    cur_ = NewBlock();
  }

  uint32_t AddParam(const std::string& name, TyP ty, bool is_mut, bool is_mut_ref) {
    uint32_t l = static_cast<uint32_t>(fn_.locals.size());
    fn_.locals.push_back(ir::Local{ty->ToIr(), false, name});
    fn_.num_params = l;
    if (!name.empty()) scopes_.back()[name] = LocalInfo{l, ty, is_mut || is_mut_ref};
    return l;
  }

  void SetLoc(Loc l) {
    fn_.loc = IrLoc(l);
    loc_ = l;
  }
  void SetSelfType(const std::string& t) {
    self_type_ = t;
    if (!t.empty()) generics_["Self"] = Ty::Adt(t);
  }
  void SetGenerics(const std::map<std::string, TyP>& g) {
    for (const auto& [k, v] : g) generics_[k] = v;
  }
  std::string SelfName(const std::string& n) const {
    return n == "Self" && !self_type_.empty() ? self_type_ : n;
  }

  // Lowers a function body and returns the finished function.
  // Lowers a body; a function declared without a result (or `-> Unit`)
  // returns () whatever its last expression is.
  ir::Function FinishWithBlock(const Block& body, bool unit_ret = false) {
    Val v = LowerBlock(body);
    if (unit_ret) v = Unit();
    return Finish(v);
  }
  ir::Function FinishWithExpr(const Expr& body, bool unit_ret = false) {
    Val v = LowerExpr(body);
    if (unit_ret) v = Unit();
    return Finish(v);
  }

 private:
  struct LocalInfo {
    uint32_t index;
    TyP ty;
    bool is_mut;
    // A name can also alias a place below a local: agent state fields are
    // `_1.*.fN` inside handlers.
    std::vector<ir::Projection> proj = {};
    Place At() const { return Place{index, proj}; }
  };
  struct LoopCtx {
    uint32_t brk;
    uint32_t cont;
    uint32_t result;        // local for `break value`
    int sandbox_depth = 0;  // sandboxes entered outside the loop
  };
  // `break`/`continue` out of sandbox bodies leave them first.
  void ExitSandboxesTo(int depth) {
    for (int i = sandbox_depth_; i > depth; --i) {
      ir::Statement s;
      s.kind = ir::Statement::Kind::kSandboxExit;
      s.loc = IrLoc(loc_);
      s.loc_explicit = true;
      Push(s);
    }
  }

  ir::Function Finish(const Val& v) {
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

  bool Targeted(uint32_t b) const {
    for (const PendingBlock& pb : fn_.blocks) {
      const ir::Terminator& t = pb.block.term;
      if (!pb.term_set) continue;
      switch (t.kind) {
        case ir::Terminator::Kind::kGoto:
        case ir::Terminator::Kind::kSuspend:
          if (t.target == b) return true;
          break;
        case ir::Terminator::Kind::kIf:
          if (t.target == b || t.target2 == b) return true;
          break;
        case ir::Terminator::Kind::kSwitchInt:
        case ir::Terminator::Kind::kSwitchVariant:
          if (t.target == b) return true;
          for (const ir::SwitchCase& c : t.cases)
            if (c.target == b) return true;
          break;
        default: break;
      }
    }
    return false;
  }

  // ---- blocks, locals, statements ----
  struct PendingBlock {
    ir::Block block;
    bool term_set = false;
  };
  struct PendingFn {
    std::string name;
    uint32_t num_params = 0;
    std::vector<ir::Local> locals;
    std::vector<PendingBlock> blocks;
    ir::Loc loc;
  };

  uint32_t NewBlock() {
    fn_.blocks.emplace_back();
    return static_cast<uint32_t>(fn_.blocks.size() - 1);
  }
  void SetBlock(uint32_t b) {
    cur_ = b;
    terminated_ = fn_.blocks[b].term_set;
  }
  uint32_t Temp(const TyP& ty) {
    fn_.locals.push_back(ir::Local{(ty ? ty : Ty::Unknown())->ToIr(), true, ""});
    return static_cast<uint32_t>(fn_.locals.size() - 1);
  }
  uint32_t NamedLocal(const std::string& name, const TyP& ty, bool is_mut) {
    fn_.locals.push_back(ir::Local{(ty ? ty : Ty::Unknown())->ToIr(), is_mut, name});
    uint32_t l = static_cast<uint32_t>(fn_.locals.size() - 1);
    scopes_.back()[name] = LocalInfo{l, ty ? ty : Ty::Unknown(), is_mut};
    return l;
  }

  void Push(ir::Statement s) {
    if (terminated_) return;  // dead code after return/break: not emitted
    fn_.blocks[cur_].block.stmts.push_back(std::move(s));
  }
  void Assign(Place p, Rvalue r, Loc loc) {
    ir::Statement s;
    s.kind = ir::Statement::Kind::kAssign;
    s.place = std::move(p);
    s.rvalue = std::move(r);
    s.loc = IrLoc(loc_);  // statement granularity: where the source statement starts
    s.loc_explicit = true;
    (void)loc;
    Push(std::move(s));
  }
  // Sets the current block's terminator and opens a fresh (dead) block.
  void TermWith(ir::Terminator t) {
    if (!terminated_) {
      t.loc = IrLoc(loc_);
      t.loc_explicit = true;
      fn_.blocks[cur_].block.term = std::move(t);
      fn_.blocks[cur_].term_set = true;
    }
    SetBlock(NewBlock());
    terminated_ = false;
    dead_ = true;
  }
  void Term(ir::Terminator::Kind k) {
    ir::Terminator t;
    t.kind = k;
    TermWith(t);
  }
  void Goto(uint32_t b) {
    ir::Terminator t;
    t.kind = ir::Terminator::Kind::kGoto;
    t.target = b;
    if (!terminated_) {
      t.loc = IrLoc(loc_);
      t.loc_explicit = true;
      fn_.blocks[cur_].block.term = t;
      fn_.blocks[cur_].term_set = true;
    }
    terminated_ = true;
  }
  void Branch(Operand c, uint32_t yes, uint32_t no) {
    ir::Terminator t;
    t.kind = ir::Terminator::Kind::kIf;
    t.op = std::move(c);
    t.target = yes;
    t.target2 = no;
    if (!terminated_) {
      t.loc = IrLoc(loc_);
      t.loc_explicit = true;
      fn_.blocks[cur_].block.term = t;
      fn_.blocks[cur_].term_set = true;
    }
    terminated_ = true;
  }

  Operand ToLocalOp(const Val& v) {
    if (v.op.kind != Operand::Kind::kConst && v.op.place.IsLocal()) return v.op;
    uint32_t t = Temp(v.ty);
    Assign(Place{t, {}}, UseR(v.op), loc_);
    return Operand::Copy(Place{t, {}});
  }
  uint32_t ToLocal(const Val& v) {
    Operand o = ToLocalOp(v);
    return o.place.local;
  }
  Val Emit(Rvalue r, TyP ty) {
    uint32_t t = Temp(ty);
    Assign(Place{t, {}}, std::move(r), loc_);
    return Val{Operand::Copy(Place{t, {}}), ty ? ty : Ty::Unknown()};
  }
  Val Unit() { return Val{UnitOp(), Ty::Make(Ty::Kind::kUnit)}; }

  void Error(const char* code, Loc loc, std::string msg, std::string help = "") {
    place_error_ = true;
    g_.diags.Error(code, loc, std::move(msg), std::move(help));
  }

  const LocalInfo* FindLocal(const std::string& n) const {
    for (size_t i = scopes_.size(); i-- > 0;) {
      auto it = scopes_[i].find(n);
      if (it != scopes_[i].end()) return &it->second;
    }
    return nullptr;
  }

  Rvalue CallBuiltin(const char* name, std::vector<Operand> args) {
    Rvalue r;
    r.kind = Rvalue::Kind::kCall;
    r.is_builtin = true;
    r.name = name;
    r.ops = std::move(args);
    return r;
  }

  Rvalue AdtInit(const std::string& adt, const std::string& variant, std::vector<Operand> ops) {
    Rvalue r;
    r.kind = Rvalue::Kind::kAdtInit;
    r.name = adt;
    r.name2 = variant;
    r.ops = std::move(ops);
    return r;
  }

  // ---- blocks and statements ----
  Val LowerBlock(const Block& b) {
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

  void LowerLet(const Stmt& s) {
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

  // ---- patterns ----
  // Emits tests of `p` against the value at `place`; on failure control
  // goes to `fail`, on success it continues in the current block with the
  // pattern's names bound (new locals in the current scope).
  void MatchPattern(const Pattern& p, const Place& place, TyP ty, uint32_t fail,
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
        Bind(p.name, p.is_mut, place, ty, binds);
        return;
      }
      case Pattern::Kind::kLit: {
        Val lit = LowerExpr(*p.lit);
        Rvalue r;
        r.kind = Rvalue::Kind::kBinOp;
        r.bin = ir::BinOp::kEq;
        r.ops = {Operand::Copy(place), lit.op};
        Val c = Emit(std::move(r), Ty::Make(Ty::Kind::kBool));
        uint32_t ok = NewBlock();
        Branch(c.op, ok, fail);
        SetBlock(ok);
        return;
      }
      case Pattern::Kind::kRange: {
        Val lo = LowerExpr(*p.lit);
        Val hi = LowerExpr(*p.hi);
        Rvalue a;
        a.kind = Rvalue::Kind::kBinOp;
        a.bin = ir::BinOp::kGe;
        a.ops = {Operand::Copy(place), lo.op};
        Val c1 = Emit(std::move(a), Ty::Make(Ty::Kind::kBool));
        uint32_t mid = NewBlock();
        Branch(c1.op, mid, fail);
        SetBlock(mid);
        Rvalue b;
        b.kind = Rvalue::Kind::kBinOp;
        b.bin = p.inclusive ? ir::BinOp::kLe : ir::BinOp::kLt;
        b.ops = {Operand::Copy(place), hi.op};
        Val c2 = Emit(std::move(b), Ty::Make(Ty::Kind::kBool));
        uint32_t ok = NewBlock();
        Branch(c2.op, ok, fail);
        SetBlock(ok);
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
      case Pattern::Kind::kRef: {
        Place q = place;
        q.proj.push_back({ir::Projection::Kind::kDeref, 0, 0});
        MatchPattern(*p.subs[0], q, ty->Is(Ty::Kind::kRef) ? ty->Arg(0) : Ty::Unknown(), fail,
                     binds);
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
      case Pattern::Kind::kVariant: {
        std::string adt;
        uint32_t vi = 0;
        const VariantDef* vd = ResolveVariantPath(p.path, ty, &adt, &vi, p.loc);
        if (!vd) {
          if (!p.has_parens && p.path.size() == 1 && !IsUpper(p.path[0].name)) {
            Bind(p.path[0].name, false, place, ty, binds);
          }
          // After an error, still bind the sub-patterns' names so that uses
          // in the arm do not report follow-on errors.
          for (const PatPtr& sub : p.subs) BindNamesOnly(*sub, place, binds);
          return;
        }
        if (p.has_parens && p.subs.size() != vd->arity) {
          Error("MT2008", p.loc,
                absl::StrCat("variant `", adt, "::", vd->name, "` has ", vd->arity,
                             " field(s), the pattern has ", p.subs.size()));
          return;
        }
        ir::Terminator t;
        t.kind = ir::Terminator::Kind::kSwitchVariant;
        t.op = Operand::Copy(place);
        uint32_t ok = NewBlock();
        t.cases.push_back({static_cast<int64_t>(vi), ok});
        t.target = fail;
        if (!terminated_) {
          t.loc = IrLoc(loc_);
          t.loc_explicit = true;
          fn_.blocks[cur_].block.term = t;
          fn_.blocks[cur_].term_set = true;
        }
        SetBlock(ok);
        for (size_t i = 0; i < p.subs.size(); ++i) {
          Place q = place;
          q.proj.push_back({ir::Projection::Kind::kVariantField, static_cast<uint32_t>(i), vi});
          TyP fty = i < vd->fields.size() ? Subst(vd->fields[i].ty, adt, ty) : Ty::Unknown();
          MatchPattern(*p.subs[i], q, fty, fail, binds);
        }
        return;
      }
      case Pattern::Kind::kStruct: {
        std::string name = SelfName(p.path.empty() ? "" : p.path.back().name);
        auto it = g_.adts.find(name);
        if (it == g_.adts.end()) {
          Error("MT1003", p.loc, absl::StrCat("cannot find struct `", name, "` in this scope"));
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
                  absl::StrCat("struct `", name, "` has no field named `", p.field_names[i], "`"));
            continue;
          }
          Place q = place;
          q.proj.push_back({ir::Projection::Kind::kField, fi, 0});
          MatchPattern(*p.subs[i], q, f->ty, fail, binds);
        }
        return;
      }
    }
  }

  void BindNamesOnly(const Pattern& p, const Place& place, std::map<std::string, uint32_t>& binds) {
    if (p.kind == Pattern::Kind::kBind) Bind(p.name, p.is_mut, place, Ty::Unknown(), binds);
    for (const PatPtr& sub : p.subs) BindNamesOnly(*sub, place, binds);
  }

  void Bind(const std::string& name, bool is_mut, const Place& place, TyP ty,
            std::map<std::string, uint32_t>& binds) {
    if (name == "_" || name.empty()) return;
    auto it = binds.find(name);
    uint32_t l;
    if (it != binds.end()) {
      l = it->second;
    } else {
      l = NamedLocal(name, ty, is_mut);
      binds[name] = l;
    }
    Assign(Place{l, {}}, UseR(Operand::Copy(place)), loc_);
  }

  // Resolves a variant path in a pattern or expression: `Some`, `Shape.Circle`,
  // `Shape::Circle`, `Circle` (bare, unique). Reports MT2003 for a known enum
  // without the variant; returns null (no error) for an unknown bare name.
  const VariantDef* ResolveVariantPath(const std::vector<PathSeg>& path, TyP expected,
                                       std::string* adt, uint32_t* vi, Loc loc) {
    if (path.size() >= 2) {
      const std::string& en = path[path.size() - 2].name;
      const std::string& vn = path.back().name;
      auto it = g_.adts.find(en);
      if (it == g_.adts.end() || !it->second.is_enum) {
        Error("MT1003", loc, absl::StrCat("cannot find enum `", en, "` in this scope"));
        return nullptr;
      }
      const VariantDef* vd = g_.FindVariant(en, vn, vi);
      if (!vd) {
        Error("MT2003", loc, absl::StrCat("no variant named `", vn, "` in enum `", en, "`"));
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
      if (IsUpper(vn))
        Error("MT1004", loc, absl::StrCat("cannot find variant `", vn, "` in this scope"));
      return nullptr;
    }
    *adt = owner->name;
    return g_.FindVariant(owner->name, vn, vi);
  }

  // Substitutes the generic parameter names of `adt` in `t` by the args of
  // `actual` (Option[T] with actual Option[I64] gives I64 for T).
  TyP Subst(TyP t, const std::string& adt, TyP actual) {
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

  // Looks through references (Rust's auto-deref): appends a `.*` per `&`
  // level of `ty` and leaves `ty` at the referent. A `&mut` on the way makes
  // the place writable.
  static void AutoDeref(Place& place, TyP& ty, bool* root_mut) {
    while (ty->Is(Ty::Kind::kRef)) {
      if (root_mut && ty->is_mut) *root_mut = true;
      place.proj.push_back({ir::Projection::Kind::kDeref, 0, 0});
      ty = ty->Arg(0);
    }
  }

  // ---- places ----
  // A place for an lvalue expression (local, field, tuple field, index,
  // deref) or nullopt. `root_mut` reports whether the base may be written.
  std::optional<Place> PlaceOf(const Expr& e, TyP* ty, bool* root_mut, std::string* root_name) {
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

  // Resolves `.name` on a value of static type `bt`.
  bool ResolveField(TyP bt, const std::string& name, Loc loc, uint32_t* fi, TyP* fty) {
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

  // ---- expressions ----
 public:
  Val LowerExpr(const Expr& e);

 private:
  Val LowerPath(const Expr& e);
  Val LowerCall(const Expr& e);
  Val LowerMethodCall(const Expr& e);
  Val LowerAssign(const Expr& e);
  Val LowerBinary(const Expr& e);
  Val LowerIf(const Expr& e);
  Val LowerMatch(const Expr& e);
  Val LowerLoop(const Expr& e);
  Val LowerFor(const Expr& e);
  Val LowerClosure(const Expr& e);
  Val LowerMacro(const Expr& e);
  Val LowerFormat(const Expr& e, size_t first_arg);
  Val LowerStruct(const Expr& e);
  Val CallUser(const FnDef& def, std::vector<Operand> args, Loc loc);
  Val Effect(const std::string& path, const std::vector<ExprPtr>& args, Loc loc);
  std::vector<Operand> LowerArgs(const std::vector<ExprPtr>& args) {
    std::vector<Operand> ops;
    for (const ExprPtr& a : args) ops.push_back(LowerExpr(*a).op);
    return ops;
  }
  Val ConstValue(const std::string& name, Loc loc);
  Val MakeVariant(const std::string& adt, uint32_t vi, const VariantDef& vd,
                  const std::vector<ExprPtr>* args, TyP expected, Loc loc);
  Val Receiver(const Expr& recv, Place* place, TyP* ty, bool mutating, Loc loc);
  Val CallPrelude(const std::string& name, std::vector<Operand> ops, TyP ty);

 public:
  // ---- agents ----
  // The state of agent A is a struct `__agent_A` holding its constructor
  // parameters (read-only) and then its state fields. Inside handlers and
  // helpers, parameter 1 is `&mut` that state and every field name is an
  // alias of `_1.*.fN`.
  static std::string StateName(const AgentDecl& a) { return "__agent_" + a.name; }

  void BindAgentState(const AgentDecl& a) {
    agent_ = &a;
    TyP st = Ty::Adt(StateName(a));
    auto ref = Ty::With(Ty::Kind::kRef, {st});
    ref->is_mut = true;
    AddParam("", ref, false, true);
    uint32_t fi = 0;
    for (const Param& p : a.ctor_params)
      scopes_.back()[p.name] = LocalInfo{
          1,
          g_.Resolve(p.type, &generics_),
          false,
          {{ir::Projection::Kind::kDeref, 0, 0}, {ir::Projection::Kind::kField, fi++, 0}}};
    for (const AgentState& s : a.state)
      scopes_.back()[s.name] = LocalInfo{
          1,
          g_.Resolve(s.type, &generics_),
          true,
          {{ir::Projection::Kind::kDeref, 0, 0}, {ir::Projection::Kind::kField, fi++, 0}}};
  }

  // `A::__init(ctor params) -> __agent_A`: evaluates the state initialisers
  // in order (each may use the constructor parameters and earlier fields).
  ir::Function LowerAgentInit(const AgentDecl& a) {
    std::vector<Operand> ops;
    for (const Param& p : a.ctor_params) {
      uint32_t l = AddParam(p.name, g_.Resolve(p.type, &generics_), false, false);
      ops.push_back(Operand::Copy(Place{l, {}}));
    }
    for (const AgentState& s : a.state) {
      loc_ = s.loc;
      TyP declared = g_.Resolve(s.type, &generics_);
      Val v = s.init ? LowerExpr(*s.init) : Unit();
      if (!s.init)
        Error("MT2014", s.loc, absl::StrCat("state field `", s.name, "` needs an initial value"));
      uint32_t l = NamedLocal(s.name, declared->Is(Ty::Kind::kUnknown) ? v.ty : declared, true);
      Assign(Place{l, {}}, UseR(v.op), s.loc);
      ops.push_back(Operand::Copy(Place{l, {}}));
    }
    loc_ = a.loc;
    Val st = Emit(AdtInit(StateName(a), "", std::move(ops)), Ty::Adt(StateName(a)));
    return Finish(st);
  }

  ir::Function LowerHandler(const AgentDecl& a, const Handler& h) {
    BindAgentState(a);
    scopes_.emplace_back();  // handler parameters shadow state fields
    for (const Param& p : h.params)
      AddParam(p.name, g_.Resolve(p.type, &generics_), p.is_mut, false);
    loc_ = h.loc;
    Val v = h.body ? LowerExpr(*h.body) : Unit();
    return Finish(v);
  }

  ir::Function LowerAgentHelper(const AgentDecl& a, const FnDecl& f, TyP ret) {
    BindAgentState(a);
    scopes_.emplace_back();
    for (const Param& p : f.params)
      if (p.self_kind == Param::SelfKind::kNone)
        AddParam(p.name, g_.Resolve(p.type, &generics_), p.is_mut, false);
    bool unit_ret = ret->Is(Ty::Kind::kUnit);
    if (f.body) return FinishWithBlock(*f.body, unit_ret);
    if (f.expr_body) return FinishWithExpr(*f.expr_body, unit_ret);
    return Finish(Unit());
  }

  // `S::__children() -> [agent]`: the supervisor's child spawns, in order.
  // `S::__policy() -> (strategy, [(child, restart, up_to, within, backoff_lo,
  // backoff_hi, escalate)])`, in child order, for the agent runtime.
  ir::Function LowerSupervisorPolicy(const SupervisorDecl& s) {
    std::vector<Operand> children;
    for (const SupervisorChild& c : s.children) {
      loc_ = c.loc;
      const OnFail* of = nullptr;
      for (const OnFail& f : s.on_fail)
        if (f.child == c.name) of = &f;
      auto dur = [&](const ExprPtr& x) {
        return x ? LowerExpr(*x).op : ConstOp(ir::Constant::Duration(0));
      };
      std::vector<Operand> t;
      t.push_back(ConstOp(ir::Constant::Str(c.name)));
      t.push_back(ConstOp(ir::Constant::Bool(of ? of->restart : true)));
      // Without an on_fail clause: restart up_to 3 in 5s.
      t.push_back(ConstOp(ir::Constant::Int(of ? of->up_to : 3)));
      t.push_back(of ? dur(of->within) : ConstOp(ir::Constant::Duration(5'000'000'000)));
      t.push_back(of ? dur(of->backoff_lo) : ConstOp(ir::Constant::Duration(0)));
      t.push_back(of ? dur(of->backoff_hi) : ConstOp(ir::Constant::Duration(0)));
      t.push_back(ConstOp(ir::Constant::Bool(of ? of->escalate : false)));
      Rvalue tr;
      tr.kind = Rvalue::Kind::kTupleInit;
      tr.ops = std::move(t);
      children.push_back(Emit(std::move(tr), Ty::Unknown()).op);
    }
    Rvalue arr;
    arr.kind = Rvalue::Kind::kArrayInit;
    arr.ops = std::move(children);
    Val list = Emit(std::move(arr), Ty::With(Ty::Kind::kArray, {Ty::Unknown()}));
    Rvalue top;
    top.kind = Rvalue::Kind::kTupleInit;
    top.ops = {ConstOp(ir::Constant::Str(s.strategy.empty() ? "one_for_one" : s.strategy)),
               list.op};
    return Finish(Emit(std::move(top), Ty::Unknown()));
  }

  ir::Function LowerSupervisorChildren(const SupervisorDecl& s) {
    std::vector<Operand> ops;
    for (const SupervisorChild& c : s.children) {
      loc_ = c.loc;
      if (c.spawn) ops.push_back(LowerExpr(*c.spawn).op);
    }
    Rvalue r;
    r.kind = Rvalue::Kind::kArrayInit;
    r.ops = std::move(ops);
    return Finish(Emit(std::move(r), Ty::With(Ty::Kind::kArray, {Ty::Unknown()})));
  }

  // Checks one manifest entry (runtime.md §4) against the policy table.
  void CheckSandboxEntry(const SandboxEntry& en) {
    ir::Policy scratch;
    if (std::optional<EntryError> e = ApplySandboxEntry(en, scratch))
      Error(e->code, en.loc, e->message, e->note);
  }

 private:
  Globals& g_;
  TyP ret_;
  PendingFn fn_;
  uint32_t cur_ = 0;
  bool terminated_ = false;
  bool dead_ = false;
  Loc loc_;
  std::vector<std::map<std::string, LocalInfo>> scopes_;
  std::vector<LoopCtx> loops_;
  int sandbox_depth_ = 0;  // sandbox bodies entered in this function
  int arena_depth_ = 0;
  std::string self_type_;                // inside impl methods: what `Self` names
  const AgentDecl* agent_ = nullptr;     // inside agent handlers and helpers
  std::map<std::string, TyP> generics_;  // generic params (Unknown) and Self
  bool place_error_ = false;             // an error was reported (suppresses cascades)
  friend struct Globals;
};

// ---------------------------------------------------------------------------

FnLowerer::Val FnLowerer::LowerExpr(const Expr& e) {
  switch (e.kind) {
    case K::kInt: return Val{ConstOp(ir::Constant::Int(e.int_value)), Ty::Make(Ty::Kind::kInt)};
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
    case K::kUnary: {
      if (e.unary_op == UnaryOp::kNeg && e.lhs->kind == K::kInt)
        return Val{ConstOp(ir::Constant::Int(
                       static_cast<int64_t>(0ULL - static_cast<uint64_t>(e.lhs->int_value)))),
                   Ty::Make(Ty::Kind::kInt)};
      if (e.unary_op == UnaryOp::kNeg && e.lhs->kind == K::kFloat)
        return Val{ConstOp(ir::Constant::Float(-e.lhs->float_value)), Ty::Make(Ty::Kind::kFloat)};
      Val v = LowerExpr(*e.lhs);
      Operand o = ToLocalOp(v);
      Rvalue r;
      r.kind = Rvalue::Kind::kUnOp;
      r.un = e.unary_op == UnaryOp::kNeg ? ir::UnOp::kNeg : ir::UnOp::kNot;
      r.ops = {o};
      return Emit(std::move(r), v.ty);
    }
    case K::kBinary: return LowerBinary(e);
    case K::kAssign: return LowerAssign(e);
    case K::kCall: return LowerCall(e);
    case K::kMethodCall: return LowerMethodCall(e);
    case K::kField: {
      // `sup.w`: the handle of supervisor child `w` (valid across restarts).
      if (e.lhs && e.lhs->kind == K::kPath && e.lhs->segs.size() == 1) {
        const LocalInfo* li = FindLocal(e.lhs->segs[0].name);
        if (li && li->ty->Is(Ty::Kind::kAgent)) {
          auto sup = g_.supervisors.find(li->ty->name);
          if (sup != g_.supervisors.end()) {
            std::string child_type;
            bool found = false;
            for (const SupervisorChild& c : sup->second->children)
              if (c.name == e.text) {
                found = true;
                if (c.spawn && c.spawn->kind == K::kSpawn && !c.spawn->segs.empty())
                  child_type = c.spawn->segs.back().name;
              }
            if (!found) {
              Error("MT2002", e.loc,
                    absl::StrCat("supervisor `", sup->first, "` has no child `", e.text, "`"));
              return Unit();
            }
            Val s = LowerExpr(*e.lhs);
            auto t = Ty::Make(Ty::Kind::kAgent);
            t->name = child_type;
            return Emit(CallBuiltin("child", {s.op, ConstOp(ir::Constant::Str(e.text))}), t);
          }
        }
      }
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
      // A field of a temporary value.
      Val base = LowerExpr(*e.lhs);
      uint32_t l = ToLocal(base);
      Place p{l, {}};
      TyP bt = base.ty;
      AutoDeref(p, bt, nullptr);
      uint32_t fi;
      TyP fty;
      if (!ResolveField(bt, e.text, e.loc, &fi, &fty)) return Unit();
      p.proj.push_back({ir::Projection::Kind::kField, fi, 0});
      return Emit(UseR(Operand::Copy(p)), fty);
    }
    case K::kTupleField:
    case K::kIndex:
    case K::kDeref: {
      TyP ty;
      bool root_mut;
      std::string root;
      if (auto pl = PlaceOf(e, &ty, &root_mut, &root)) return Emit(UseR(Operand::Copy(*pl)), ty);
      Val base = LowerExpr(*e.lhs);
      uint32_t l = ToLocal(base);
      Place p{l, {}};
      TyP bt = base.ty;
      if (e.kind == K::kDeref) {
        p.proj.push_back({ir::Projection::Kind::kDeref, 0, 0});
        return Emit(UseR(Operand::Copy(p)), bt->Is(Ty::Kind::kRef) ? bt->Arg(0) : Ty::Unknown());
      }
      AutoDeref(p, bt, nullptr);
      if (e.kind == K::kTupleField) {
        p.proj.push_back(
            {ir::Projection::Kind::kTupleIndex, static_cast<uint32_t>(e.int_value), 0});
        return Emit(UseR(Operand::Copy(p)),
                    bt->Is(Ty::Kind::kTuple) ? bt->Arg(e.int_value) : Ty::Unknown());
      }
      Val idx = LowerExpr(*e.rhs);
      p.proj.push_back({ir::Projection::Kind::kIndex, ToLocal(idx), 0});
      return Emit(UseR(Operand::Copy(p)), bt->Is(Ty::Kind::kArray) ? bt->Arg(0)
                                          : bt->Is(Ty::Kind::kMap) ? bt->Arg(1)
                                                                   : Ty::Unknown());
    }
    case K::kTuple: {
      std::vector<TyP> tys;
      std::vector<Operand> ops;
      for (const ExprPtr& a : e.args) {
        Val v = LowerExpr(*a);
        ops.push_back(v.op);
        tys.push_back(v.ty);
      }
      Rvalue r;
      r.kind = Rvalue::Kind::kTupleInit;
      r.ops = std::move(ops);
      return Emit(std::move(r), Ty::With(Ty::Kind::kTuple, std::move(tys)));
    }
    case K::kArray: {
      TyP elem = Ty::Unknown();
      std::vector<Operand> ops;
      for (const ExprPtr& a : e.args) {
        Val v = LowerExpr(*a);
        ops.push_back(v.op);
        if (ops.size() == 1) {
          elem = v.ty;
        } else if (elem->Name() != v.ty->Name()) {
          elem = Ty::Unknown();  // mixed kinds: methods dispatch at run time
        }
      }
      Rvalue r;
      r.kind = Rvalue::Kind::kArrayInit;
      r.ops = std::move(ops);
      return Emit(std::move(r), Ty::With(Ty::Kind::kArray, {elem}));
    }
    case K::kMap: {
      TyP kt = Ty::Unknown(), vt = Ty::Unknown();
      std::vector<Operand> ops;
      for (size_t i = 0; i < e.args.size(); ++i) {
        Val v = LowerExpr(*e.args[i]);
        ops.push_back(v.op);
        if (i == 0) kt = v.ty;
        if (i == 1) vt = v.ty;
      }
      Rvalue r;
      r.kind = Rvalue::Kind::kMapInit;
      r.ops = std::move(ops);
      return Emit(std::move(r), Ty::With(Ty::Kind::kMap, {kt, vt}));
    }
    case K::kStruct: return LowerStruct(e);
    case K::kBlock: return LowerBlock(*e.then_block);
    case K::kUnsafe: return LowerBlock(*e.then_block);
    case K::kArena: {
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
    case K::kIf:
    case K::kIfLet: return LowerIf(e);
    case K::kMatch: return LowerMatch(e);
    case K::kWhile:
    case K::kWhileLet:
    case K::kLoop: return LowerLoop(e);
    case K::kFor: return LowerFor(e);
    case K::kBreak: {
      if (loops_.empty()) {
        Error("MT1020", e.loc, "`break` outside of a loop");
        return Unit();
      }
      LoopCtx l = loops_.back();
      Val v = e.lhs ? LowerExpr(*e.lhs) : Unit();
      Assign(Place{l.result, {}}, UseR(v.op), e.loc);
      ExitSandboxesTo(l.sandbox_depth);
      Goto(l.brk);
      SetBlock(NewBlock());
      terminated_ = false;
      return Unit();
    }
    case K::kContinue: {
      if (loops_.empty()) {
        Error("MT1020", e.loc, "`continue` outside of a loop");
        return Unit();
      }
      ExitSandboxesTo(loops_.back().sandbox_depth);
      Goto(loops_.back().cont);
      SetBlock(NewBlock());
      terminated_ = false;
      return Unit();
    }
    case K::kReturn: {
      Val v = e.lhs ? LowerExpr(*e.lhs) : Unit();
      Assign(Place{0, {}}, UseR(v.op), e.loc);
      Term(ir::Terminator::Kind::kReturn);
      return Unit();
    }
    case K::kTry: {
      Val v = LowerExpr(*e.lhs);
      uint32_t t = ToLocal(v);
      uint32_t ok = NewBlock(), err = NewBlock();
      ir::Terminator sw;
      sw.kind = ir::Terminator::Kind::kSwitchVariant;
      sw.op = Operand::Copy(Place{t, {}});
      sw.cases.push_back({0, ok});
      sw.target = err;
      if (!terminated_) {
        sw.loc = IrLoc(loc_);
        sw.loc_explicit = true;
        fn_.blocks[cur_].block.term = sw;
        fn_.blocks[cur_].term_set = true;
      }
      SetBlock(err);
      ir::Terminator tr;
      tr.kind = ir::Terminator::Kind::kTryReturnErr;
      tr.op = Operand::Copy(Place{t, {}});
      TermWith(tr);
      SetBlock(ok);
      Place payload{t, {{ir::Projection::Kind::kVariantField, 0, 0}}};
      TyP inner = v.ty->Is(Ty::Kind::kAdt) && (v.ty->name == "Option" || v.ty->name == "Result")
                      ? v.ty->Arg(0)
                      : Ty::Unknown();
      return Emit(UseR(Operand::Copy(payload)), inner);
    }
    case K::kClosure: return LowerClosure(e);
    case K::kRange:
      Error("MT2010", e.loc, "a range is only allowed in `for` loops and patterns");
      return Unit();
    case K::kCast: {
      Val v = LowerExpr(*e.lhs);
      TyP target = g_.Resolve(e.type, &generics_);
      ir::Type it = e.type.kind == TypeExpr::Kind::kPath ? ir::Type::Named(e.type.name)
                                                         : ir::Type::Named("?");
      if (it.name == "I128") it.name = "I64";
      if (it.name == "U128") it.name = "U64";
      if (!IsCastTargetName(it.name)) {
        Error("MT2009", e.loc, absl::StrCat("cannot cast to `", e.type.name, "`"));
        return Unit();
      }
      Rvalue r;
      r.kind = Rvalue::Kind::kCast;
      r.ops = {ToLocalOp(v)};
      r.type = it;
      return Emit(std::move(r), target);
    }
    case K::kRef: {
      TyP ty;
      bool root_mut = false;
      std::string root;
      auto pl = PlaceOf(*e.lhs, &ty, &root_mut, &root);
      if (!pl) {
        Val v = LowerExpr(*e.lhs);
        pl = Place{ToLocal(v), {}};
        ty = v.ty;
        root_mut = true;
      } else if (e.is_mut && !root_mut) {
        Error(
            "MT3014", e.lhs->loc,
            absl::StrCat("cannot borrow `", root, "` as mutable, as it is not declared as mutable"),
            absl::StrCat("consider changing this to `let mut ", root, "`"));
      }
      Rvalue r;
      r.kind = Rvalue::Kind::kRef;
      r.is_mut = e.is_mut;
      r.place = *pl;
      auto rt = Ty::With(Ty::Kind::kRef, {ty});
      rt->is_mut = e.is_mut;
      return Emit(std::move(r), rt);
    }
    case K::kMacro: return LowerMacro(e);
    case K::kSpawn: {
      std::string name = e.segs.empty() ? "" : e.segs.back().name;
      if (!g_.agents.count(name) && !g_.supervisors.count(name)) {
        Error("MT1004", e.segs.empty() ? e.loc : e.segs.back().loc,
              absl::StrCat("cannot find agent `", name, "` in this scope"));
        return Unit();
      }
      Rvalue r;
      r.kind = Rvalue::Kind::kAgentSpawn;
      r.name = name;
      r.ops = LowerArgs(e.args);
      auto t = Ty::Make(Ty::Kind::kAgent);
      t->name = name;
      return Emit(std::move(r), t);
    }
    case K::kSend:
    case K::kAsk: {
      Val target = LowerExpr(*e.lhs);
      // The target's agent type is known: the message must be one it handles.
      if (target.ty->Is(Ty::Kind::kAgent)) {
        auto ag = g_.agents.find(target.ty->name);
        if (ag != g_.agents.end()) {
          bool handled = false;
          for (const Handler& h : ag->second->handlers) handled = handled || h.msg == e.text;
          if (!handled)
            Error("MT1015", e.loc,
                  absl::StrCat("agent `", ag->first, "` has no handler for `", e.text, "`"));
        }
      }
      Rvalue r;
      r.kind = e.kind == K::kSend ? Rvalue::Kind::kSend : Rvalue::Kind::kAsk;
      r.name = e.text;
      r.ops.push_back(ToLocalOp(target));
      for (Operand& o : LowerArgs(e.args)) r.ops.push_back(std::move(o));
      if (e.kind == K::kAsk && e.rhs) r.deadline = LowerExpr(*e.rhs).op;
      return Emit(std::move(r), e.kind == K::kSend ? Ty::Make(Ty::Kind::kUnit) : Ty::Unknown());
    }
    case K::kSandbox: {
      if (e.entries.empty() && !g_.sandboxes.count(e.text))
        Error("MT1006", e.loc, absl::StrCat("cannot find sandbox `", e.text, "` in this scope"));
      for (const SandboxEntry& en : e.entries) CheckSandboxEntry(en);
      // `sandbox Name { body }` uses the named item's manifest; with entries
      // the manifest is inline (anonymous ones are named by location).
      std::string name = e.text;
      if (!e.entries.empty()) {
        if (name.empty()) name = absl::StrCat("anonymous@", e.loc.line, ":", e.loc.col);
        name = g_.DeclareSandbox(name, e.entries, e.loc);
      } else if (auto it = g_.sandboxes.find(name); it != g_.sandboxes.end()) {
        name = g_.DeclareSandbox(name, it->second->entries, it->second->loc);
      }
      ir::Statement s;
      s.kind = ir::Statement::Kind::kSandboxEnter;
      s.path = name;
      s.loc = IrLoc(loc_);
      s.loc_explicit = true;
      Push(s);
      ++sandbox_depth_;
      Val v = LowerBlock(*e.then_block);
      Operand keep = ToLocalOp(v);
      --sandbox_depth_;
      s.kind = ir::Statement::Kind::kSandboxExit;
      s.path.clear();
      Push(s);
      return Val{keep, v.ty};
    }
  }
  return Unit();
}

}  // namespace mty::frontend

namespace mty::frontend {

namespace {

bool IntTypeBounds(const std::string& t, int64_t* lo, int64_t* hi) {
  struct B {
    const char* n;
    int64_t lo, hi;
  };
  static const B k[] = {{"I8", INT8_MIN, INT8_MAX},
                        {"I16", INT16_MIN, INT16_MAX},
                        {"I32", INT32_MIN, INT32_MAX},
                        {"I64", INT64_MIN, INT64_MAX},
                        {"ISize", INT64_MIN, INT64_MAX},
                        {"I128", INT64_MIN, INT64_MAX},
                        {"U8", 0, UINT8_MAX},
                        {"U16", 0, UINT16_MAX},
                        {"U32", 0, UINT32_MAX},
                        {"U64", 0, INT64_MAX},
                        {"USize", 0, INT64_MAX},
                        {"U128", 0, INT64_MAX}};
  for (const B& b : k)
    if (t == b.n) {
      *lo = b.lo;
      *hi = b.hi;
      return true;
    }
  return false;
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
    default: return ir::BinOp::kAdd;
  }
}

bool IsComparison(BinaryOp op) {
  return op == BinaryOp::kEq || op == BinaryOp::kNe || op == BinaryOp::kLt || op == BinaryOp::kLe ||
         op == BinaryOp::kGt || op == BinaryOp::kGe;
}

// Methods whose closure argument must run as guest code: they are written in
// Mighty in the prelude (prelude.cc) and called as `__mty_<name>`.
bool IsPreludeMethod(const std::string& n) {
  static const char* k[] = {"map",      "filter",   "fold",           "any",     "all",
                            "find",     "sort_by",  "unwrap_or_else", "map_err", "and_then",
                            "for_each", "position", "count"};
  for (const char* x : k)
    if (n == x) return true;
  return false;
}

// The names a closure body refers to (candidates for capture).
void CollectNames(const Expr& e, std::set<std::string>& out);
void CollectBlock(const Block& b, std::set<std::string>& out) {
  for (const Stmt& s : b.stmts)
    if (s.expr) CollectNames(*s.expr, out);
}
void CollectNames(const Expr& e, std::set<std::string>& out) {
  if (e.kind == K::kPath && !e.segs.empty()) out.insert(e.segs[0].name);
  if (e.kind == K::kStruct)
    for (const FieldInit& f : e.fields)
      if (!f.value) out.insert(f.name);
  if (e.kind == K::kMacro && !e.args.empty() && e.args[0]->kind == K::kStr) {
    const std::string& s = e.args[0]->text;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] != '{') continue;
      size_t j = i + 1;
      while (j < s.size() && (isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
      if (j > i + 1) out.insert(s.substr(i + 1, j - i - 1));
    }
  }
  for (const ExprPtr* p : {&e.lhs, &e.rhs, &e.cond, &e.else_expr, &e.closure_body})
    if (*p) CollectNames(**p, out);
  if (e.then_block) CollectBlock(*e.then_block, out);
  for (const ExprPtr& a : e.args) CollectNames(*a, out);
  for (const FieldInit& f : e.fields)
    if (f.value) CollectNames(*f.value, out);
  for (const MatchArm& a : e.arms) {
    if (a.guard) CollectNames(*a.guard, out);
    if (a.body) CollectNames(*a.body, out);
  }
  for (const SandboxEntry& s : e.entries)
    if (s.value) CollectNames(*s.value, out);
}

}  // namespace

FnLowerer::Val FnLowerer::ConstValue(const std::string& name, Loc loc) {
  const ConstDecl* c = g_.consts.at(name);
  static thread_local int depth = 0;
  if (depth > 64) {
    Error("MT1007", loc, absl::StrCat("constant `", name, "` refers to itself"));
    return Unit();
  }
  ++depth;
  Val v = LowerExpr(*c->value);
  --depth;
  TyP declared = g_.Resolve(c->type);
  if (!declared->Is(Ty::Kind::kUnknown)) v.ty = declared;
  return v;
}

FnLowerer::Val FnLowerer::MakeVariant(const std::string& adt, uint32_t vi, const VariantDef& vd,
                                      const std::vector<ExprPtr>* args, TyP expected, Loc loc) {
  size_t given = args ? args->size() : 0;
  if (given != vd.arity) {
    Error("MT2008", loc,
          absl::StrCat("variant `", adt, "::", vd.name, "` takes ", vd.arity, " field(s), given ",
                       given));
    return Unit();
  }
  std::vector<Operand> ops;
  std::vector<TyP> tys;
  if (args)
    for (const ExprPtr& a : *args) {
      Val v = LowerExpr(*a);
      ops.push_back(v.op);
      tys.push_back(v.ty);
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
    if (const LocalInfo* li = FindLocal(a)) return Val{Operand::Copy(li->At()), li->ty};
    if (g_.consts.count(a)) return ConstValue(a, e.loc);
    if (g_.fns.count(a)) return Val{ConstOp(ir::Constant::Fn(a)), Ty::Make(Ty::Kind::kFn)};
    std::string adt;
    uint32_t vi;
    if (IsUpper(a)) {
      if (const VariantDef* vd = ResolveVariantPath(e.segs, nullptr, &adt, &vi, e.loc))
        return MakeVariant(adt, vi, *vd, nullptr, nullptr, e.loc);
      return Unit();
    }
    Error("MT1001", e.loc, absl::StrCat("cannot find value `", a, "` in this scope"));
    return Unit();
  }
  if (e.segs.size() == 2) {
    const std::string& b = e.segs[1].name;
    int64_t lo, hi;
    if (IntTypeBounds(a, &lo, &hi) && (b == "MAX" || b == "MIN"))
      return Val{ConstOp(ir::Constant::Int(b == "MAX" ? hi : lo)), Ty::Make(Ty::Kind::kInt)};
    if ((a == "F64" || a == "F32") && (b == "MAX" || b == "MIN" || b == "INFINITY" || b == "NAN")) {
      double v = b == "MAX"        ? 1.7976931348623157e308
                 : b == "MIN"      ? -1.7976931348623157e308
                 : b == "INFINITY" ? HUGE_VAL
                                   : std::nan("");
      return Val{ConstOp(ir::Constant::Float(v)), Ty::Make(Ty::Kind::kFloat)};
    }
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
  std::string full;
  for (size_t i = 0; i < e.segs.size(); ++i) full += (i ? "::" : "") + e.segs[i].name;
  Error("MT1001", e.loc, absl::StrCat("cannot find value `", full, "` in this scope"));
  return Unit();
}

FnLowerer::Val FnLowerer::CallUser(const FnDef& def, std::vector<Operand> args, Loc loc) {
  (void)loc;
  Rvalue r;
  r.kind = Rvalue::Kind::kCall;
  r.name = def.ir_name;
  r.ops = std::move(args);
  return Emit(std::move(r), def.ret);
}

FnLowerer::Val FnLowerer::Effect(const std::string& path, const std::vector<ExprPtr>& args,
                                 Loc loc) {
  int lo, hi;
  if (!IsKnownEffect(path, &lo, &hi)) {
    Error("MT1005", loc, absl::StrCat("unknown effect `", path, "`"),
          "the standard library surface is listed in docs/language.md");
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
             Ty::Adt("Result", {Ty::Unknown(), Ty::Make(Ty::Kind::kStr)})};
}

FnLowerer::Val FnLowerer::CallPrelude(const std::string& name, std::vector<Operand> ops, TyP ty) {
  g_.prelude_needed.insert("__mty_" + name);
  Rvalue r;
  r.kind = Rvalue::Kind::kCall;
  r.name = "__mty_" + name;
  r.ops = std::move(ops);
  return Emit(std::move(r), ty);
}

FnLowerer::Val FnLowerer::LowerCall(const Expr& e) {
  const Expr& callee = *e.lhs;
  if (callee.kind == K::kPath && callee.segs.size() == 1) {
    const std::string& n = callee.segs[0].name;
    if (const LocalInfo* li = FindLocal(n)) {
      Rvalue r;
      r.kind = Rvalue::Kind::kCallIndirect;
      r.ops.push_back(Operand::Copy(li->At()));
      for (Operand& o : LowerArgs(e.args)) r.ops.push_back(std::move(o));
      return Emit(std::move(r), Ty::Unknown());
    }
    if (agent_) {
      for (const FnDecl& h : agent_->fns)
        if (h.name == n) {
          size_t want = 0;
          for (const Param& p : h.params)
            if (p.self_kind == Param::SelfKind::kNone) ++want;
          if (want != e.args.size()) {
            Error("MT2001", e.loc,
                  absl::StrCat("function `", n, "` takes ", want, " argument(s), given ",
                               e.args.size()));
            return Unit();
          }
          Rvalue r;
          r.kind = Rvalue::Kind::kCall;
          r.name = absl::StrCat(agent_->name, "::", n);
          r.ops.push_back(Operand::Copy(Place{1, {}}));  // the agent's state
          for (Operand& o : LowerArgs(e.args)) r.ops.push_back(std::move(o));
          return Emit(std::move(r), Ty::Unknown());
        }
    }
    auto fit = g_.fns.find(n);
    if (fit != g_.fns.end()) {
      const FnDef& def = fit->second;
      if (def.params.size() != e.args.size()) {
        Error("MT2001", e.loc,
              absl::StrCat("function `", n, "` takes ", def.params.size(), " argument(s), given ",
                           e.args.size()));
        return Unit();
      }
      return CallUser(def, LowerArgs(e.args), e.loc);
    }
    if (IsBuiltinFn(n)) {
      if (e.args.size() != 1) {
        Error("MT2001", e.loc, absl::StrCat("`", n, "` takes 1 argument, given ", e.args.size()));
        return Unit();
      }
      Val v = LowerExpr(*e.args[0]);
      const char* b = n == "__type_name" ? "type_name" : n.c_str();
      Val r = Emit(CallBuiltin(b, {v.op}),
                   Ty::Make(n == "__type_name" ? Ty::Kind::kStr : Ty::Kind::kUnit));
      if (n == "panic") {
        Term(ir::Terminator::Kind::kUnreachable);
      }
      return r;
    }
    std::string adt;
    uint32_t vi;
    if (IsUpper(n)) {
      if (const VariantDef* vd = ResolveVariantPath(callee.segs, nullptr, &adt, &vi, callee.loc))
        return MakeVariant(adt, vi, *vd, &e.args, nullptr, e.loc);
      return Unit();
    }
    Error("MT1002", callee.loc, absl::StrCat("cannot find function `", n, "` in this scope"));
    return Unit();
  }
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
  Rvalue r;
  r.kind = Rvalue::Kind::kCallIndirect;
  r.ops.push_back(ToLocalOp(f));
  for (Operand& o : LowerArgs(e.args)) r.ops.push_back(std::move(o));
  return Emit(std::move(r), Ty::Unknown());
}

namespace {

TyP MethodResult(const TyP& rt, const std::string& n, const std::vector<TyP>& args) {
  using TK = Ty::Kind;
  auto B = [] { return Ty::Make(TK::kBool); };
  auto I = [] { return Ty::Make(TK::kInt); };
  auto S = [] { return Ty::Make(TK::kStr); };
  auto U = [] { return Ty::Make(TK::kUnit); };
  auto Opt = [](TyP t) { return Ty::Adt("Option", {t}); };
  if (n == "len" || n == "count") return I();
  if (n == "is_empty" || n == "contains" || n == "starts_with" || n == "ends_with" ||
      n == "contains_key" || n == "is_some" || n == "is_none" || n == "is_ok" || n == "is_err" ||
      n == "any" || n == "all")
    return B();
  if (n == "to_str" || n == "to_string" || n == "trim" || n == "trim_start" || n == "trim_end" ||
      n == "to_upper" || n == "to_lower" || n == "replace" || n == "repeat" || n == "join")
    return S();
  if (n == "push" || n == "insert_at" || n == "push_str" || n == "clear" || n == "reverse" ||
      n == "sort" || n == "sort_by" || n == "extend" || n == "for_each")
    return U();
  switch (rt->kind) {
    case TK::kStr:
      if (n == "split" || n == "lines") return Ty::With(TK::kArray, {S()});
      if (n == "chars") return Ty::With(TK::kArray, {Ty::Make(TK::kChar)});
      if (n == "bytes") return Ty::With(TK::kArray, {I()});
      if (n == "find" || n == "rfind") return Opt(I());
      if (n == "char_at") return Opt(Ty::Make(TK::kChar));
      if (n == "slice") return S();
      if (n == "parse_int") return Ty::Adt("Result", {I(), S()});
      if (n == "parse_float") return Ty::Adt("Result", {Ty::Make(TK::kFloat), S()});
      return Ty::Unknown();
    case TK::kArray:
      if (n == "get" || n == "first" || n == "last" || n == "pop" || n == "find" || n == "min" ||
          n == "max")
        return Opt(rt->Arg(0));
      if (n == "remove") return rt->Arg(0);
      if (n == "index_of" || n == "position") return Opt(I());
      if (n == "filter" || n == "slice" || n == "iter") return rt;
      if (n == "map") return Ty::With(TK::kArray, {Ty::Unknown()});
      if (n == "sum") return rt->Arg(0);
      return Ty::Unknown();
    case TK::kMap:
      if (n == "get" || n == "remove" || n == "insert") return Opt(rt->Arg(1));
      if (n == "keys") return Ty::With(TK::kArray, {rt->Arg(0)});
      if (n == "values") return Ty::With(TK::kArray, {rt->Arg(1)});
      return Ty::Unknown();
    case TK::kAdt:
      if (rt->name == "Option" || rt->name == "Result") {
        if (n == "unwrap" || n == "expect" || n == "unwrap_or" || n == "unwrap_or_else")
          return rt->Arg(0);
        if (n == "ok") return Opt(rt->Arg(0));
        if (n == "ok_or")
          return Ty::Adt("Result", {rt->Arg(0), args.empty() ? Ty::Unknown() : args[0]});
      }
      return Ty::Unknown();
    case TK::kInt:
      if (n == "abs" || n == "min" || n == "max" || n == "pow") return I();
      return Ty::Unknown();
    case TK::kFloat: return Ty::Make(TK::kFloat);
    case TK::kDuration:
      if (n == "as_millis" || n == "as_secs" || n == "as_nanos") return I();
      return Ty::Unknown();
    default: return Ty::Unknown();
  }
}

}  // namespace

FnLowerer::Val FnLowerer::Receiver(const Expr& recv, Place* place, TyP* ty, bool mutating,
                                   Loc loc) {
  bool root_mut = false;
  std::string root;
  if (auto pl = PlaceOf(recv, ty, &root_mut, &root)) {
    if (mutating && !root_mut && !(*ty)->Is(Ty::Kind::kRef)) {
      Error("MT3014", loc,
            absl::StrCat("cannot mutate `", root, "`, as it is not declared as mutable"),
            absl::StrCat("consider changing this to `let mut ", root, "`"));
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
  const Expr& recv = *e.lhs;
  const std::string& name = e.text;
  std::vector<std::string> path;
  if (!FlattenPath(recv, &path)) path.clear();
  if (!path.empty()) path[0] = SelfName(path[0]);
  if (!path.empty() && !FindLocal(path[0]) && !g_.consts.count(path[0])) {
    // A module path: `std.fs.read(p)`, or `fs.read(p)` after `use std.fs`.
    std::vector<std::string> full;
    if (path[0] == "std") {
      full = path;
    } else if (auto u = g_.uses.find(path[0]); u != g_.uses.end()) {
      full = u->second;
      full.insert(full.end(), path.begin() + 1, path.end());
    }
    if (!full.empty()) {
      full.push_back(name);
      std::string p;
      for (size_t i = 0; i < full.size(); ++i) p += (i ? "." : "") + full[i];
      return Effect(p, e.args, e.loc);
    }
    if (path.size() == 1) {
      const std::string& tn = path[0];
      auto it = g_.adts.find(tn);
      if (it != g_.adts.end()) {
        uint32_t vi;
        if (it->second.is_enum && g_.FindVariant(tn, name, &vi)) {
          std::string adt;
          std::vector<PathSeg> segs = {{tn, recv.loc}, {name, e.loc}};
          const VariantDef* vd = ResolveVariantPath(segs, nullptr, &adt, &vi, e.loc);
          return MakeVariant(adt, vi, *vd, &e.args, nullptr, recv.loc);
        }
        auto m = g_.methods[tn].find(name);
        if (m == g_.methods[tn].end() && it->second.is_enum && IsUpper(name)) {
          Error("MT2003", e.loc, absl::StrCat("no variant named `", name, "` in enum `", tn, "`"));
          return Unit();
        }
        if (m == g_.methods[tn].end()) {
          Error("MT2004", e.loc,
                absl::StrCat("no function or variant named `", name, "` found for `", tn, "`"));
          return Unit();
        }
        const FnDef& def = g_.fns.at(m->second);
        size_t want = def.params.size() + (def.self_kind != Param::SelfKind::kNone ? 1 : 0);
        if (want != e.args.size()) {
          Error("MT2001", e.loc,
                absl::StrCat("function `", tn, "::", name, "` takes ", want, " argument(s), given ",
                             e.args.size()));
          return Unit();
        }
        return CallUser(def, LowerArgs(e.args), e.loc);
      }
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
      if ((tn == "String" || tn == "Str") && (name == "new" || name == "from")) {
        if (name == "from" && e.args.size() == 1) return LowerExpr(*e.args[0]);
        return Val{ConstOp(ir::Constant::Str("")), Ty::Make(Ty::Kind::kStr)};
      }
      if (IsUpper(tn)) {
        Error("MT1003", recv.loc, absl::StrCat("cannot find type `", tn, "` in this scope"));
        return Unit();
      }
      Error("MT1001", recv.loc, absl::StrCat("cannot find value `", tn, "` in this scope"));
      return Unit();
    }
  }
  // A method on a value.
  bool builtin_mut = name == "push" || name == "pop" || name == "insert" || name == "remove" ||
                     name == "clear" || name == "reverse" || name == "sort" || name == "push_str" ||
                     name == "extend" || name == "sort_by";
  // Decide whether a user method takes &mut self, to check mutability.
  Place place;
  TyP rty;
  {
    // Peek at the static type first without emitting code twice: PlaceOf on
    // a pure place expression emits nothing except index temporaries.
  }
  bool user_mut = false;
  std::string user_fn;
  // Resolve the receiver (emits the receiver's evaluation once).
  TyP peek = Ty::Unknown();
  {
    bool rm;
    std::string rn;
    TyP t;
    // Static type of simple local receivers, to pick the method before evaluating.
    if (recv.kind == K::kPath && recv.segs.size() == 1)
      if (const LocalInfo* li = FindLocal(recv.segs[0].name)) peek = li->ty;
    (void)rm;
    (void)rn;
    (void)t;
  }
  TyP base = peek;
  while (base->Is(Ty::Kind::kRef)) base = base->Arg(0);
  if (base->Is(Ty::Kind::kAdt)) {
    auto m = g_.methods.find(base->name);
    if (m != g_.methods.end() && m->second.count(name)) {
      user_fn = m->second.at(name);
      user_mut = g_.fns.at(user_fn).self_kind == Param::SelfKind::kRefMut;
    }
  }
  bool is_prelude = IsPreludeMethod(name) && !(peek->Is(Ty::Kind::kStr) && name == "find");
  Val rv =
      Receiver(recv, &place, &rty, user_fn.empty() ? builtin_mut && !is_prelude : user_mut, e.loc);
  base = rty;
  while (base->Is(Ty::Kind::kRef)) base = base->Arg(0);
  if (base->Is(Ty::Kind::kStr) && name == "find") is_prelude = false;  // Str::find(substring)
  if (user_fn.empty() && base->Is(Ty::Kind::kAdt)) {
    auto m = g_.methods.find(base->name);
    if (m != g_.methods.end() && m->second.count(name)) {
      user_fn = m->second.at(name);
      user_mut = g_.fns.at(user_fn).self_kind == Param::SelfKind::kRefMut;
    }
  }
  if (!user_fn.empty()) {
    const FnDef& def = g_.fns.at(user_fn);
    if (def.self_kind == Param::SelfKind::kNone) {
      Error("MT2004", e.loc,
            absl::StrCat("`", base->name, "::", name,
                         "` is an associated function, not a method; call it as `", base->name,
                         "::", name, "(...)`"));
      return Unit();
    }
    if (def.params.size() != e.args.size()) {
      Error("MT2001", e.loc,
            absl::StrCat("method `", name, "` takes ", def.params.size(), " argument(s), given ",
                         e.args.size()));
      return Unit();
    }
    std::vector<Operand> ops;
    if (user_mut) {
      if (rty->Is(Ty::Kind::kRef)) {
        ops.push_back(Operand::Copy(place));
      } else {
        Rvalue r;
        r.kind = Rvalue::Kind::kRef;
        r.is_mut = true;
        r.place = place;
        auto rt = Ty::With(Ty::Kind::kRef, {rty});
        rt->is_mut = true;
        ops.push_back(Emit(std::move(r), rt).op);
      }
    } else {
      Place p = place;
      TyP t = rty;
      AutoDeref(p, t, nullptr);
      ops.push_back(Emit(UseR(Operand::Copy(p)), t).op);
    }
    for (Operand& o : LowerArgs(e.args)) ops.push_back(std::move(o));
    return CallUser(def, std::move(ops), e.loc);
  }
  std::vector<TyP> arg_tys;
  std::vector<Operand> ops;
  for (const ExprPtr& a : e.args) {
    Val v = LowerExpr(*a);
    ops.push_back(v.op);
    arg_tys.push_back(v.ty);
  }
  if (!base->Is(Ty::Kind::kUnknown) && !IsKnownMethod(base->kind, base->name, name)) {
    Error("MT2004", e.loc,
          absl::StrCat("no method named `", name, "` found for `", base->Name(), "`"));
    return Unit();
  }
  // A receiver of unknown kind (a generic parameter, a closure argument)
  // dispatches at run time: an unknown method traps MT5008 there.
  TyP result = MethodResult(base, name, arg_tys);
  if (is_prelude) {
    // Prelude functions take values: look through `&`/`&mut` receivers.
    Place val = place;
    for (TyP t = rty; t->Is(Ty::Kind::kRef); t = t->Arg(0))
      val.proj.push_back({ir::Projection::Kind::kDeref, 0, 0});
    std::vector<Operand> all{val.proj.empty() ? rv.op : Operand::Copy(val)};
    for (Operand& o : ops) all.push_back(std::move(o));
    Val v = CallPrelude(name, std::move(all), result);
    if (name == "sort_by") {
      // sort_by returns the sorted array; write it back to the receiver
      // (through a `&mut` reference when the receiver is one).
      Place dst = place;
      for (TyP t = rty; t->Is(Ty::Kind::kRef); t = t->Arg(0))
        dst.proj.push_back({ir::Projection::Kind::kDeref, 0, 0});
      Assign(dst, UseR(v.op), e.loc);
      return Unit();
    }
    return v;
  }
  Rvalue r;
  r.kind = Rvalue::Kind::kMethodCall;
  r.place = place;
  r.name = name;
  r.ops = std::move(ops);
  return Emit(std::move(r), result);
}

FnLowerer::Val FnLowerer::LowerAssign(const Expr& e) {
  TyP ty;
  bool root_mut = false;
  std::string root;
  auto pl = PlaceOf(*e.lhs, &ty, &root_mut, &root);
  if (!pl) {
    Error("MT2011", e.lhs->loc, "invalid left-hand side of assignment");
    return Unit();
  }
  if (!root_mut) {
    Error("MT3014", StartLoc(*e.lhs),
          absl::StrCat("cannot assign to `", root, "`, as it is not declared as mutable"),
          absl::StrCat("consider changing this to `let mut ", root, "`"));
  }
  Val rhs = LowerExpr(*e.rhs);
  if (e.has_op) {
    Rvalue r;
    r.kind = Rvalue::Kind::kBinOp;
    r.bin = IrBin(e.binary_op);
    r.ops = {Operand::Copy(*pl), rhs.op};
    Val t = Emit(std::move(r), ty);
    Assign(*pl, UseR(t.op), e.loc);
  } else {
    Assign(*pl, UseR(rhs.op), e.loc);
  }
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
  Rvalue r;
  r.kind = Rvalue::Kind::kBinOp;
  r.bin = IrBin(e.binary_op);
  r.ops = {ao, b.op};
  TyP ty;
  if (IsComparison(e.binary_op)) {
    ty = Ty::Make(Ty::Kind::kBool);
  } else if (a.ty->Is(Ty::Kind::kUnknown)) {
    ty = b.ty->Is(Ty::Kind::kDuration) || b.ty->Is(Ty::Kind::kSize) ? b.ty : b.ty;
  } else if ((a.ty->Is(Ty::Kind::kDuration) || a.ty->Is(Ty::Kind::kSize)) &&
             e.binary_op == BinaryOp::kDiv && b.ty->kind == a.ty->kind) {
    ty = Ty::Make(Ty::Kind::kInt);
  } else {
    ty = a.ty;
  }
  return Emit(std::move(r), ty);
}

FnLowerer::Val FnLowerer::LowerIf(const Expr& e) {
  uint32_t result = Temp(Ty::Unknown());
  uint32_t then_b = NewBlock(), else_b = NewBlock(), done = NewBlock();
  scopes_.emplace_back();
  if (e.kind == K::kIf) {
    Val c = LowerExpr(*e.cond);
    Branch(c.op, then_b, else_b);
    SetBlock(then_b);
  } else {
    Val s = LowerExpr(*e.lhs);
    uint32_t sl = ToLocal(s);
    Goto(then_b);
    SetBlock(then_b);
    std::map<std::string, uint32_t> binds;
    MatchPattern(*e.pat, Place{sl, {}}, s.ty, else_b, binds);
  }
  Val tv = LowerBlock(*e.then_block);
  Assign(Place{result, {}}, UseR(tv.op), e.loc);
  Goto(done);
  scopes_.pop_back();
  SetBlock(else_b);
  TyP ty = tv.ty;
  if (e.else_expr) {
    Val ev = LowerExpr(*e.else_expr);
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

FnLowerer::Val FnLowerer::LowerMatch(const Expr& e) {
  Val s = LowerExpr(*e.lhs);
  uint32_t sl = ToLocal(s);
  uint32_t result = Temp(Ty::Unknown());
  uint32_t done = NewBlock();
  TyP ty = Ty::Unknown();
  bool first_arm = true;
  uint32_t next = NewBlock();
  Goto(next);
  for (const MatchArm& arm : e.arms) {
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

FnLowerer::Val FnLowerer::LowerLoop(const Expr& e) {
  uint32_t result = Temp(Ty::Unknown());
  Assign(Place{result, {}}, UseR(UnitOp()), e.loc);
  uint32_t head = NewBlock(), exit = NewBlock();
  Goto(head);
  SetBlock(head);
  scopes_.emplace_back();
  if (e.kind == K::kWhile) {
    Val c = LowerExpr(*e.cond);
    uint32_t body = NewBlock();
    Branch(c.op, body, exit);
    SetBlock(body);
  } else if (e.kind == K::kWhileLet) {
    Val s = LowerExpr(*e.lhs);
    uint32_t sl = ToLocal(s);
    std::map<std::string, uint32_t> binds;
    MatchPattern(*e.pat, Place{sl, {}}, s.ty, exit, binds);
  }
  loops_.push_back(LoopCtx{exit, head, result, sandbox_depth_});
  LowerBlock(*e.then_block);
  loops_.pop_back();
  Goto(head);
  scopes_.pop_back();
  SetBlock(exit);
  return Val{Operand::Copy(Place{result, {}}),
             e.kind == K::kLoop ? Ty::Unknown() : Ty::Make(Ty::Kind::kUnit)};
}

FnLowerer::Val FnLowerer::LowerFor(const Expr& e) {
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
    Assign(Place{items, {}}, CallBuiltin("iter_items", {v.op}), e.loc);
    n = Temp(Ty::Make(Ty::Kind::kInt));
    Rvalue len;
    len.kind = Rvalue::Kind::kLen;
    len.ops = {Operand::Copy(Place{items, {}})};
    Assign(Place{n, {}}, std::move(len), e.loc);
    Assign(Place{i, {}}, UseR(ConstOp(ir::Constant::Int(0))), e.loc);
    TyP t = v.ty;
    while (t->Is(Ty::Kind::kRef)) t = t->Arg(0);
    elem = t->Is(Ty::Kind::kArray) ? t->Arg(0)
           : t->Is(Ty::Kind::kMap) ? Ty::With(Ty::Kind::kTuple, {t->Arg(0), t->Arg(1)})
           : t->Is(Ty::Kind::kStr) ? Ty::Make(Ty::Kind::kChar)
                                   : Ty::Unknown();
  }
  Goto(head);
  SetBlock(head);
  Rvalue c;
  c.kind = Rvalue::Kind::kBinOp;
  c.bin = is_range && it.inclusive ? ir::BinOp::kLe : ir::BinOp::kLt;
  c.ops = {Operand::Copy(Place{i, {}}), Operand::Copy(Place{n, {}})};
  Val cv = Emit(std::move(c), Ty::Make(Ty::Kind::kBool));
  Branch(cv.op, body, exit);
  SetBlock(body);
  scopes_.emplace_back();
  uint32_t x = Temp(elem);
  if (is_range) {
    Assign(Place{x, {}}, UseR(Operand::Copy(Place{i, {}})), e.loc);
  } else {
    Rvalue ix;
    ix.kind = Rvalue::Kind::kIndexRead;
    ix.ops = {Operand::Copy(Place{items, {}}), Operand::Copy(Place{i, {}})};
    Assign(Place{x, {}}, std::move(ix), e.loc);
  }
  std::map<std::string, uint32_t> binds;
  uint32_t fail = NewBlock();
  MatchPattern(*e.pat, Place{x, {}}, elem, fail, binds);
  loops_.push_back(LoopCtx{exit, step, result, sandbox_depth_});
  LowerBlock(*e.then_block);
  loops_.pop_back();
  Goto(step);
  scopes_.pop_back();
  SetBlock(fail);
  Term(ir::Terminator::Kind::kUnreachable);
  SetBlock(step);
  if (is_range && it.inclusive) {
    // Stop after the upper bound without overflowing at I64::MAX.
    Rvalue last;
    last.kind = Rvalue::Kind::kBinOp;
    last.bin = ir::BinOp::kEq;
    last.ops = {Operand::Copy(Place{i, {}}), Operand::Copy(Place{n, {}})};
    Val lv = Emit(std::move(last), Ty::Make(Ty::Kind::kBool));
    uint32_t inc = NewBlock();
    Branch(lv.op, exit, inc);
    SetBlock(inc);
  }
  Rvalue inc;
  inc.kind = Rvalue::Kind::kBinOp;
  inc.bin = ir::BinOp::kAdd;
  inc.ops = {Operand::Copy(Place{i, {}}), ConstOp(ir::Constant::Int(1))};
  Assign(Place{i, {}}, std::move(inc), e.loc);
  Goto(head);
  SetBlock(exit);
  return Val{Operand::Copy(Place{result, {}}), Ty::Make(Ty::Kind::kUnit)};
}

FnLowerer::Val FnLowerer::LowerClosure(const Expr& e) {
  std::set<std::string> names;
  CollectNames(*e.closure_body, names);
  std::set<std::string> params;
  for (const ClosureParam& p : e.params)
    if (p.pat && p.pat->kind == Pattern::Kind::kBind) params.insert(p.pat->name);
  std::vector<std::pair<std::string, LocalInfo>> caps;
  for (const std::string& n : names) {
    if (params.count(n)) continue;
    if (const LocalInfo* li = FindLocal(n)) caps.push_back({n, *li});
  }
  std::string name = absl::StrCat(fn_.name, "::__closure", g_.closure_counter++);
  FnLowerer inner(g_, name, Ty::Unknown());
  inner.SetLoc(e.loc);
  inner.loc_ = loc_;
  inner.self_type_ = self_type_;
  inner.generics_ = generics_;
  for (const auto& [n, li] : caps) inner.AddParam(n, li.ty, li.is_mut, false);
  std::vector<std::pair<uint32_t, const ClosureParam*>> pattern_params;
  for (const ClosureParam& p : e.params) {
    TyP t = g_.Resolve(p.type, &generics_);
    if (p.pat && p.pat->kind == Pattern::Kind::kBind && p.pat->subs.empty()) {
      inner.AddParam(p.pat->name, t, p.pat->is_mut, false);
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
  g_.AddFn(inner.FinishWithExpr(*e.closure_body));
  Rvalue r;
  r.kind = Rvalue::Kind::kClosure;
  r.name = name;
  for (const auto& [n, li] : caps) r.ops.push_back(Operand::Copy(li.At()));
  return Emit(std::move(r), Ty::Make(Ty::Kind::kFn));
}

FnLowerer::Val FnLowerer::LowerStruct(const Expr& e) {
  std::string name = SelfName(e.segs.empty() ? "" : e.segs.back().name);
  auto it = g_.adts.find(name);
  if (it == g_.adts.end()) {
    Error("MT1003", e.loc, absl::StrCat("cannot find struct `", name, "` in this scope"));
    return Unit();
  }
  if (it->second.is_enum) {
    Error("MT2003", e.loc, absl::StrCat("`", name, "` is an enum; use one of its variants"));
    return Unit();
  }
  const auto& fields = it->second.variants[0].fields;
  std::vector<std::optional<Operand>> ops(fields.size());
  for (const FieldInit& f : e.fields) {
    uint32_t fi;
    if (!g_.FindField(name, f.name, &fi)) {
      Error("MT2002", f.loc, absl::StrCat("struct `", name, "` has no field named `", f.name, "`"));
      continue;
    }
    if (ops[fi]) {
      Error("MT2012", f.loc, absl::StrCat("field `", f.name, "` specified more than once"));
      continue;
    }
    if (f.value) {
      ops[fi] = LowerExpr(*f.value).op;
    } else {
      Expr p;
      p.kind = K::kPath;
      p.loc = f.loc;
      p.segs = {{f.name, f.loc}};
      ops[fi] = LowerExpr(p).op;
    }
  }
  std::vector<Operand> all;
  std::vector<std::string> missing;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!ops[i]) {
      missing.push_back(fields[i].name);
      all.push_back(UnitOp());
    } else {
      all.push_back(*ops[i]);
    }
  }
  if (!missing.empty()) {
    std::string list;
    for (size_t i = 0; i < missing.size(); ++i) list += (i ? ", `" : "`") + missing[i] + "`";
    Error("MT2007", e.loc,
          absl::StrCat("missing field(s) ", list, " in initializer of `", name, "`"));
    return Unit();
  }
  return Emit(AdtInit(name, "", std::move(all)), Ty::Adt(name));
}

FnLowerer::Val FnLowerer::LowerMacro(const Expr& e) {
  const std::string& m = e.text;
  if (m == "format") {
    if (e.args.empty() || e.args[0]->kind != K::kStr) {
      Error("MT2005", e.loc, "`format!` needs a string literal as its first argument");
      return Unit();
    }
    return LowerFormat(e, 0);
  }
  if (m == "assert") {
    if (e.args.empty() || e.args.size() > 2) {
      Error("MT2001", e.loc, "`assert!` takes a condition and an optional message");
      return Unit();
    }
    Val c = LowerExpr(*e.args[0]);
    uint32_t bad = NewBlock(), ok = NewBlock();
    Branch(c.op, ok, bad);
    SetBlock(bad);
    Operand msg = ConstOp(ir::Constant::Str("assertion failed"));
    if (e.args.size() == 2) msg = LowerExpr(*e.args[1]).op;
    Assign(Place{Temp(Ty::Unknown()), {}}, CallBuiltin("panic", {msg}), e.loc);
    Term(ir::Terminator::Kind::kUnreachable);
    SetBlock(ok);
    return Unit();
  }
  if (m == "assert_eq" || m == "assert_ne") {
    if (e.args.size() != 2) {
      Error("MT2001", e.loc, absl::StrCat("`", m, "!` takes 2 arguments, given ", e.args.size()));
      return Unit();
    }
    Val a = LowerExpr(*e.args[0]);
    Operand ao = ToLocalOp(a);
    Val b = LowerExpr(*e.args[1]);
    Operand bo = ToLocalOp(b);
    Rvalue r;
    r.kind = Rvalue::Kind::kBinOp;
    r.bin = m == "assert_eq" ? ir::BinOp::kEq : ir::BinOp::kNe;
    r.ops = {ao, bo};
    Val c = Emit(std::move(r), Ty::Make(Ty::Kind::kBool));
    uint32_t bad = NewBlock(), ok = NewBlock();
    Branch(c.op, ok, bad);
    SetBlock(bad);
    Val da = Emit(CallBuiltin("debug_str", {ao}), Ty::Make(Ty::Kind::kStr));
    Val db = Emit(CallBuiltin("debug_str", {bo}), Ty::Make(Ty::Kind::kStr));
    Val msg =
        Emit(CallBuiltin("concat", {ConstOp(ir::Constant::Str(absl::StrCat(
                                        "assertion `left ",
                                        m == "assert_eq" ? "==" : "!=", " right` failed: left: "))),
                                    da.op, ConstOp(ir::Constant::Str(", right: ")), db.op}),
             Ty::Make(Ty::Kind::kStr));
    Assign(Place{Temp(Ty::Unknown()), {}}, CallBuiltin("panic", {msg.op}), e.loc);
    Term(ir::Terminator::Kind::kUnreachable);
    SetBlock(ok);
    return Unit();
  }
  if (m == "unreachable") {
    Term(ir::Terminator::Kind::kUnreachable);
    return Unit();
  }
  Error("MT1010", e.loc, absl::StrCat("cannot find macro `", m, "` in this scope"));
  return Unit();
}

FnLowerer::Val FnLowerer::LowerFormat(const Expr& e, size_t first) {
  const std::string& f = e.args[first]->text;
  std::vector<Operand> parts;
  std::string lit;
  size_t next_arg = first + 1;
  size_t used = 0;
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
    Operand v;
    if (name.empty()) {
      if (next_arg >= e.args.size()) {
        ++used;
        ++next_arg;
        continue;
      }
      v = LowerExpr(*e.args[next_arg++]).op;
      ++used;
    } else {
      Expr p;
      p.kind = K::kPath;
      p.loc = e.args[first]->loc;
      p.segs = {{name, p.loc}};
      v = LowerExpr(p).op;
    }
    if (spec.empty()) {
      parts.push_back(v);
    } else if (spec == "?") {
      parts.push_back(Emit(CallBuiltin("debug_str", {v}), Ty::Make(Ty::Kind::kStr)).op);
    } else {
      parts.push_back(
          Emit(CallBuiltin("fmt", {v, ConstOp(ir::Constant::Str(spec))}), Ty::Make(Ty::Kind::kStr))
              .op);
    }
  }
  flush();
  size_t given = e.args.size() - first - 1;
  if (used != given) {
    Error("MT2005", e.loc,
          absl::StrCat("`format!` has ", used, " placeholder(s) but ", given, " argument(s)"));
    return Unit();
  }
  if (parts.empty()) return Val{ConstOp(ir::Constant::Str("")), Ty::Make(Ty::Kind::kStr)};
  return Emit(CallBuiltin("concat", std::move(parts)), Ty::Make(Ty::Kind::kStr));
}

// ------------------------------------------------------------- items ----

void Globals::Collect(const Module& m) {
  auto dup = [&](const std::string& n, Loc loc, std::set<std::string>& seen) {
    if (!seen.insert(n).second) {
      diags.Error("MT1008", loc, absl::StrCat("the name `", n, "` is defined multiple times"));
      return true;
    }
    return false;
  };
  std::set<std::string> type_names = {"Option", "Result"}, value_names;
  // Pass 1: names of types, aliases and the like.
  for (const Item& it : m.items) {
    switch (it.kind) {
      case Item::Kind::kStruct: {
        if (dup(it.struct_decl.name, it.struct_decl.loc, type_names)) break;
        AdtDef d;
        d.name = it.struct_decl.name;
        d.generics = it.struct_decl.generics;
        adts[d.name] = d;
        break;
      }
      case Item::Kind::kEnum: {
        if (dup(it.enum_decl.name, it.enum_decl.loc, type_names)) break;
        AdtDef d;
        d.name = it.enum_decl.name;
        d.is_enum = true;
        d.generics = it.enum_decl.generics;
        adts[d.name] = d;
        break;
      }
      case Item::Kind::kAgent: agents[it.agent_decl.name] = &it.agent_decl; break;
      case Item::Kind::kSupervisor:
        supervisors[it.supervisor_decl.name] = &it.supervisor_decl;
        break;
      case Item::Kind::kSandbox: sandboxes[it.sandbox_decl.name] = &it.sandbox_decl; break;
      case Item::Kind::kProtocol: protocols[it.protocol_decl.name] = &it.protocol_decl; break;
      case Item::Kind::kTrait: traits.insert(it.trait_decl.name); break;
      case Item::Kind::kUse: {
        std::string alias = it.use_decl.alias.empty() && !it.use_decl.path.empty()
                                ? it.use_decl.path.back()
                                : it.use_decl.alias;
        uses[alias] = it.use_decl.path;
        break;
      }
      default: break;
    }
  }
  for (const Item& it : m.items)
    if (it.kind == Item::Kind::kTypeAlias)
      aliases[it.alias_decl.name] = Resolve(it.alias_decl.type);
  // Pass 2: fields and variants.
  for (const Item& it : m.items) {
    if (it.kind == Item::Kind::kStruct) {
      std::map<std::string, TyP> gens;
      for (const std::string& g : it.struct_decl.generics) gens[g] = Ty::Adt(g);
      VariantDef v;
      v.name = it.struct_decl.name;
      std::set<std::string> seen;
      for (const auto& [fname, ftype] : it.struct_decl.fields) {
        if (!seen.insert(fname).second)
          diags.Error("MT1008", ftype.loc, absl::StrCat("field `", fname, "` is already declared"));
        v.fields.push_back({fname, Resolve(ftype, &gens)});
      }
      v.arity = v.fields.size();
      adts[v.name].variants = {v};
    } else if (it.kind == Item::Kind::kEnum) {
      std::map<std::string, TyP> gens;
      for (const std::string& g : it.enum_decl.generics) gens[g] = Ty::Adt(g);
      AdtDef& d = adts[it.enum_decl.name];
      std::set<std::string> seen;
      for (const EnumVariant& ev : it.enum_decl.variants) {
        if (!seen.insert(ev.name).second)
          diags.Error("MT1008", ev.loc,
                      absl::StrCat("variant `", ev.name, "` is already declared"));
        VariantDef v;
        v.name = ev.name;
        for (const TypeExpr& t : ev.fields) v.fields.push_back({"", Resolve(t, &gens)});
        v.arity = v.fields.size();
        d.variants.push_back(v);
      }
    }
  }
  // Pass 3: functions and methods.
  auto add_fn = [&](const FnDecl& f, const std::string& self_type, bool is_trait_impl) {
    std::string ir_name = self_type.empty() ? f.name : absl::StrCat(self_type, "::", f.name);
    if (!self_type.empty() && is_trait_impl && methods[self_type].count(f.name)) {
      // An inherent method of the same name wins (language.md §2).
      return;
    }
    if (fns.count(ir_name)) {
      diags.Error("MT1008", f.loc,
                  absl::StrCat("the name `", ir_name, "` is defined multiple times"));
      return;
    }
    FnDef d;
    d.ir_name = ir_name;
    d.decl = &f;
    d.self_type = self_type;
    for (const std::string& g : f.generics) d.generics[g] = Ty::Unknown();
    if (!self_type.empty()) d.generics["Self"] = Ty::Adt(self_type);
    for (const Param& p : f.params) {
      if (p.self_kind != Param::SelfKind::kNone) {
        d.self_kind = p.self_kind;
        continue;
      }
      d.params.push_back(Resolve(p.type, &d.generics));
    }
    d.ret = f.ret.kind == TypeExpr::Kind::kInfer ? Ty::Make(Ty::Kind::kUnit)
                                                 : Resolve(f.ret, &d.generics);
    fns[ir_name] = d;
    if (!self_type.empty()) methods[self_type][f.name] = ir_name;
  };
  for (const Item& it : m.items)
    if (it.kind == Item::Kind::kFn) add_fn(it.fn, "", false);
  for (const Item& it : m.items)
    if (it.kind == Item::Kind::kImpl && it.impl_decl.trait_name.empty()) {
      const std::string& tn = it.impl_decl.self_type.name;
      if (!adts.count(tn)) {
        diags.Error("MT1003", it.impl_decl.loc,
                    absl::StrCat("cannot find type `", tn, "` in this scope"));
        continue;
      }
      for (const FnDecl& f : it.impl_decl.fns) add_fn(f, tn, false);
    }
  for (const Item& it : m.items)
    if (it.kind == Item::Kind::kImpl && !it.impl_decl.trait_name.empty()) {
      const std::string& tn = it.impl_decl.self_type.name;
      if (!adts.count(tn)) {
        diags.Error("MT1003", it.impl_decl.loc,
                    absl::StrCat("cannot find type `", tn, "` in this scope"));
        continue;
      }
      if (!traits.count(it.impl_decl.trait_name)) {
        diags.Error(
            "MT1009", it.impl_decl.loc,
            absl::StrCat("cannot find trait `", it.impl_decl.trait_name, "` in this scope"));
        continue;
      }
      std::set<std::string> given;
      for (const FnDecl& f : it.impl_decl.fns) {
        add_fn(f, tn, true);
        given.insert(f.name);
      }
      // Default methods of the trait that the impl does not override.
      for (const Item& t : m.items)
        if (t.kind == Item::Kind::kTrait && t.trait_decl.name == it.impl_decl.trait_name)
          for (const FnDecl& f : t.trait_decl.fns)
            if ((f.body || f.expr_body) && !given.count(f.name)) add_fn(f, tn, true);
    }
  for (const Item& it : m.items)
    if (it.kind == Item::Kind::kConst) {
      if (consts.count(it.const_decl.name) || fns.count(it.const_decl.name))
        diags.Error("MT1008", it.const_decl.loc,
                    absl::StrCat("the name `", it.const_decl.name, "` is defined multiple times"));
      consts[it.const_decl.name] = &it.const_decl;
    }
  // Agent state structs: constructor parameters, then state fields.
  for (const Item& it : m.items) {
    if (it.kind != Item::Kind::kAgent) continue;
    const AgentDecl& a = it.agent_decl;
    AdtDef d;
    d.name = "__agent_" + a.name;
    VariantDef v;
    v.name = d.name;
    std::set<std::string> seen;
    for (const Param& p : a.ctor_params) {
      if (!seen.insert(p.name).second)
        diags.Error("MT1008", p.loc,
                    absl::StrCat("`", p.name, "` is declared twice in agent `", a.name, "`"));
      v.fields.push_back({p.name, Resolve(p.type)});
    }
    for (const AgentState& s : a.state) {
      if (!seen.insert(s.name).second)
        diags.Error("MT1008", s.loc,
                    absl::StrCat("`", s.name, "` is declared twice in agent `", a.name, "`"));
      v.fields.push_back({s.name, Resolve(s.type)});
    }
    v.arity = v.fields.size();
    d.variants = {v};
    adts[d.name] = d;
    ir::Adt ia;
    ia.name = d.name;
    ir::Variant iv;
    iv.name = d.name;
    for (const FieldDef& f : v.fields) iv.fields.push_back({f.name, f.ty->ToIr()});
    ia.variants.push_back(iv);
    program.adts.push_back(ia);
  }
  // Supervisors: on_fail must name a child.
  for (const auto& [name, s] : supervisors) {
    std::set<std::string> kids;
    for (const SupervisorChild& c : s->children) kids.insert(c.name);
    for (const OnFail& f : s->on_fail)
      if (!kids.count(f.child))
        diags.Error("MT1014", f.loc,
                    absl::StrCat("supervisor `", name, "` has no child named `", f.child, "`"));
  }
  // ADTs into the program (in declaration order, after the prelude).
  for (const Item& it : m.items) {
    if (it.kind != Item::Kind::kStruct && it.kind != Item::Kind::kEnum) continue;
    const std::string& n = it.kind == Item::Kind::kStruct ? it.struct_decl.name : it.enum_decl.name;
    const AdtDef& d = adts[n];
    ir::Adt a;
    a.name = n;
    a.is_enum = d.is_enum;
    for (const VariantDef& v : d.variants) {
      ir::Variant iv;
      iv.name = v.name;
      for (const FieldDef& f : v.fields)
        iv.fields.push_back({f.name, f.ty ? f.ty->ToIr() : ir::Type::Named("Any")});
      a.variants.push_back(iv);
    }
    if (program.FindAdtIndex(n) < 0) program.adts.push_back(a);
  }
}

void Globals::LowerFn(const FnDef& def, const FnDecl& decl) {
  FnLowerer fl(*this, def.ir_name, def.ret);
  fl.SetLoc(decl.loc);
  fl.SetSelfType(def.self_type);
  fl.SetGenerics(def.generics);
  size_t pi = 0;
  for (const Param& p : decl.params) {
    if (p.self_kind != Param::SelfKind::kNone) {
      TyP st = Ty::Adt(def.self_type);
      if (p.self_kind == Param::SelfKind::kRefMut) {
        auto r = Ty::With(Ty::Kind::kRef, {st});
        r->is_mut = true;
        fl.AddParam("self", r, false, true);
      } else {
        fl.AddParam("self", st, false, false);
      }
      continue;
    }
    TyP t = def.params[pi++];
    fl.AddParam(p.name, t, false, t->Is(Ty::Kind::kRef) && t->is_mut);
  }
  bool unit_ret = def.ret->Is(Ty::Kind::kUnit);
  ir::Function f;
  if (decl.body) {
    f = fl.FinishWithBlock(*decl.body, unit_ret);
  } else if (decl.expr_body) {
    f = fl.FinishWithExpr(*decl.expr_body, unit_ret);
  } else {
    return;
  }
  program.functions.push_back(std::move(f));
}

// `A::__turn_Msg(state, params) -> (state, reply)`: one handler turn on a
// copy of the state, which the agent runtime commits only when the turn
// completes (runtime.md §5: transactional turns).
static ir::Function AgentTurn(const std::string& agent, const std::string& msg, size_t nparams,
                              Loc loc) {
  ir::Loc at{static_cast<uint32_t>(loc.line), static_cast<uint32_t>(loc.col)};
  ir::Type state = ir::Type::Named("__agent_" + agent);
  ir::Function f;
  f.name = absl::StrCat(agent, "::__turn_", msg);
  f.loc = at;
  f.num_params = static_cast<uint32_t>(1 + nparams);
  ir::Type result;
  result.kind = ir::Type::Kind::kTuple;
  result.args = {state, ir::Type::Named("Any")};
  f.locals.push_back(ir::Local{result, false, ""});
  f.locals.push_back(ir::Local{state, true, "state"});
  for (size_t i = 0; i < nparams; ++i)
    f.locals.push_back(ir::Local{ir::Type::Named("Any"), false, ""});
  ir::Type ref;
  ref.kind = ir::Type::Kind::kRef;
  ref.is_mut = true;
  ref.args = {state};
  const uint32_t k = static_cast<uint32_t>(f.locals.size());
  f.locals.push_back(ir::Local{ref, true, ""});
  f.locals.push_back(ir::Local{ir::Type::Named("Any"), true, "reply"});
  auto assign = [&](uint32_t local, ir::Rvalue r) {
    ir::Statement s;
    s.kind = ir::Statement::Kind::kAssign;
    s.place.local = local;
    s.rvalue = std::move(r);
    s.loc = at;
    s.loc_explicit = true;
    return s;
  };
  ir::Block b;
  ir::Rvalue mk_ref;
  mk_ref.kind = ir::Rvalue::Kind::kRef;
  mk_ref.is_mut = true;
  mk_ref.place.local = 1;
  b.stmts.push_back(assign(k, std::move(mk_ref)));
  ir::Rvalue call;
  call.kind = ir::Rvalue::Kind::kCall;
  call.name = absl::StrCat(agent, "::on_", msg);
  ir::Place kp;
  kp.local = k;
  call.ops.push_back(ir::Operand::Move(kp));
  for (size_t i = 0; i < nparams; ++i) {
    ir::Place p;
    p.local = static_cast<uint32_t>(2 + i);
    call.ops.push_back(ir::Operand::Move(p));
  }
  b.stmts.push_back(assign(k + 1, std::move(call)));
  ir::Rvalue tup;
  tup.kind = ir::Rvalue::Kind::kTupleInit;
  ir::Place s1, rp;
  s1.local = 1;
  rp.local = k + 1;
  tup.ops = {ir::Operand::Move(s1), ir::Operand::Move(rp)};
  b.stmts.push_back(assign(0, std::move(tup)));
  b.term.kind = ir::Terminator::Kind::kReturn;
  b.term.loc = at;
  b.term.loc_explicit = true;
  f.blocks.push_back(std::move(b));
  return f;
}

std::optional<EntryError> ApplySandboxEntry(const SandboxEntry& en, ir::Policy& p) {
  using K = Expr::Kind;
  const Expr* v = en.value.get();
  std::optional<ir::Key> key = ir::FindKey(en.key);
  if (!key)
    return EntryError{"MT1013", absl::StrCat("unknown sandbox entry `", en.key, "`"),
                      absl::StrCat("known entries: ", ir::KnownKeys())};
  auto bad = [&](std::string what) {
    return EntryError{"MT2013", absl::StrCat("sandbox entry `", en.key, "` needs ", what), ""};
  };
  switch (key->kind) {
    case ir::Key::Kind::kLimit: {
      // Values are data: an integer, or a number with a unit suffix that
      // fits the limit's unit (the policy table's rules, as everywhere).
      const ir::LimitInfo& info = ir::Limit(key->limit);
      bool fits = false;
      if (v && v->kind == K::kInt && v->text.empty()) {
        fits = info.unit != ir::Unit::kDuration;
      } else if (v && (v->kind == K::kSize || v->kind == K::kDuration)) {
        const ir::UnitSuffix* u = ir::FindUnitSuffix(v->text);
        fits = u && ir::SuffixFits(info.unit, u->unit);
      }
      if (!fits || v->int_value < 0) return bad(ir::UnitExpectation(info.unit));
      uint64_t n = static_cast<uint64_t>(v->int_value);
      if (absl::Status s = ir::CheckLimitValue(key->limit, n); !s.ok())
        return bad(std::string(s.message()));
      p.limits.Set(key->limit, n);
      return std::nullopt;
    }
    case ir::Key::Kind::kMbPolicy: {
      std::string name = v && v->kind == K::kPath && v->segs.size() == 1 ? v->segs[0].name
                         : v && v->kind == K::kStr                       ? v->text
                                                                         : "";
      std::optional<ir::MailboxPolicy> mp = ir::ParseMailboxPolicy(name);
      if (!mp) return bad(ir::ChoiceList(ir::kMbPolicyChoice));
      p.limits.mb_policy = mp;
      return std::nullopt;
    }
    case ir::Key::Kind::kGrant: {
      if (!v || v->kind != K::kArray) return bad("a list of strings, e.g. [\"./data\"]");
      std::vector<std::string> list;
      for (const ExprPtr& x : v->args) {
        if (x->kind != K::kStr) return bad("a list of strings, e.g. [\"./data\"]");
        if (absl::Status s = ir::CheckGrantEntry(key->grant, x->text); !s.ok())
          return EntryError{"MT2013", std::string(s.message()), ""};
        list.push_back(x->text);
      }
      p.grants.Set(key->grant, std::move(list));
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string Globals::DeclareSandbox(const std::string& name,
                                    const std::vector<SandboxEntry>& entries, Loc loc) {
  ir::SandboxDecl d;
  d.name = name;
  d.loc = ir::Loc{static_cast<uint32_t>(loc.line), static_cast<uint32_t>(loc.col)};
  // Entries were checked by CheckSandboxEntry; malformed ones are skipped.
  for (const SandboxEntry& en : entries) (void)ApplySandboxEntry(en, d.policy);
  std::string key = name;
  for (const ir::SandboxDecl& have : program.sandboxes) {
    if (have.name != name) continue;
    ir::SandboxDecl same = d;
    same.loc = have.loc;
    if (same == have) return name;
    key = absl::StrCat(name, "@", loc.line, ":", loc.col);
  }
  if (program.FindSandbox(key)) return key;
  d.name = key;
  program.sandboxes.push_back(std::move(d));
  return key;
}

void Globals::LowerAll(const Module& m) {
  // Agents: handler names must be messages of their protocols.
  for (const auto& [name, a] : agents) {
    std::set<std::string> msgs;
    bool has_proto = false;
    for (const std::string& pn : a->protocols) {
      auto p = protocols.find(pn);
      if (p == protocols.end()) {
        diags.Error("MT1011", a->loc,
                    absl::StrCat("cannot find protocol `", pn, "` in this scope"));
        continue;
      }
      has_proto = true;
      for (const ProtocolMsg& m2 : p->second->msgs) msgs.insert(m2.name);
    }
    if (has_proto)
      for (const Handler& h : a->handlers)
        if (!msgs.count(h.msg))
          diags.Error("MT1012", h.loc,
                      absl::StrCat("handler `", h.msg, "` is not a message of agent `", name,
                                   "`'s protocol"));
  }

  for (const auto& [name, sb] : sandboxes) {
    FnLowerer check(*this, "__sandbox_check", Ty::Unknown());
    for (const SandboxEntry& en : sb->entries) check.CheckSandboxEntry(en);
  }
  // Functions in declaration order: free functions first as declared, then
  // methods; closures are appended as they are lowered.
  std::vector<const FnDef*> order;
  for (const Item& it : m.items)
    if (it.kind == Item::Kind::kFn) {
      auto f = fns.find(it.fn.name);
      if (f != fns.end() && f->second.decl == &it.fn) order.push_back(&f->second);
    }
  for (const auto& [n, d] : fns)
    if (!d.self_type.empty()) order.push_back(&d);
  for (const FnDef* d : order) LowerFn(*d, *d->decl);
  // Agents: the state initialiser, each handler and each helper become
  // functions `A::__init`, `A::on_Msg`, `A::helper` (run by the agent runtime).
  for (const Item& it : m.items) {
    if (it.kind == Item::Kind::kAgent) {
      const AgentDecl& a = it.agent_decl;
      {
        FnLowerer fl(*this, a.name + "::__init", Ty::Adt("__agent_" + a.name));
        fl.SetLoc(a.loc);
        program.functions.push_back(fl.LowerAgentInit(a));
      }
      std::set<std::string> seen;
      for (const Handler& h : a.handlers) {
        if (!seen.insert(h.msg).second) {
          diags.Error("MT1008", h.loc,
                      absl::StrCat("agent `", a.name, "` handles `", h.msg, "` twice"));
          continue;
        }
        FnLowerer fl(*this, a.name + "::on_" + h.msg, Ty::Unknown());
        fl.SetLoc(h.loc);
        program.functions.push_back(fl.LowerHandler(a, h));
        program.functions.push_back(AgentTurn(a.name, h.msg, h.params.size(), h.loc));
      }
      for (const FnDecl& f : a.fns) {
        TyP ret = f.ret.kind == TypeExpr::Kind::kInfer ? Ty::Make(Ty::Kind::kUnit) : Resolve(f.ret);
        FnLowerer fl(*this, a.name + "::" + f.name, ret);
        fl.SetLoc(f.loc);
        program.functions.push_back(fl.LowerAgentHelper(a, f, ret));
      }
    } else if (it.kind == Item::Kind::kSupervisor) {
      const SupervisorDecl& s = it.supervisor_decl;
      FnLowerer fl(*this, s.name + "::__children", Ty::Unknown());
      fl.SetLoc(s.loc);
      program.functions.push_back(fl.LowerSupervisorChildren(s));
      FnLowerer pl(*this, s.name + "::__policy", Ty::Unknown());
      pl.SetLoc(s.loc);
      program.functions.push_back(pl.LowerSupervisorPolicy(s));
    }
  }
  LowerPrelude();
}

}  // namespace mty::frontend
