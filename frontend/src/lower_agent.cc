// Agents, supervisors and sandboxes: agent state, init, handlers, helpers
// and turns; supervisor policies; spawn/send/ask; sandbox blocks and manifests.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "lower_internal.h"

namespace mty::frontend {

using K = Expr::Kind;

// ---- agents ----

void FnLowerer::BindAgentState(const AgentDecl& a) {
  agent_ = &a;
  TyP st = Ty::Adt(StateName(a));
  auto ref = Ty::With(Ty::Kind::kRef, {st});
  ref->is_mut = true;
  AddParam("", ref, false, true);
  // Each name is a field of the state behind the `&mut` parameter 1: the
  // constructor's parameters (read-only), then the state's fields.
  uint32_t fi = 0;
  auto bind = [&](const std::string& name, const TypeExpr& type, bool is_mut) {
    scopes_.back()[name] =
        LocalInfo{1,
                  g_.Resolve(type, &generics_),
                  is_mut,
                  {{ir::Projection::Kind::kDeref, 0, 0}, {ir::Projection::Kind::kField, fi++, 0}}};
  };
  for (const Param& p : a.ctor_params) bind(p.name, p.type, false);
  for (const AgentState& s : a.state) bind(s.name, s.type, true);
}

ir::Function FnLowerer::LowerAgentInit(const AgentDecl& a) {
  std::vector<Operand> ops;
  for (const Param& p : a.ctor_params) {
    uint32_t l = AddParam(p.name, g_.Resolve(p.type, &generics_), false, false);
    ops.push_back(Operand::Copy(Place{l, {}}));
  }
  for (const AgentState& s : a.state) {
    loc_ = s.loc;
    TyP declared = g_.Resolve(s.type, &generics_);
    if (s.init && s.type.kind != TypeExpr::Kind::kInfer)
      CheckValue(*s.init, declared, "MT2016", "mismatched types: ", s.type.loc,
                 absl::StrCat("expected `", TypeText(s.type), "` because of this annotation"));
    Val v = s.init ? LowerAs(*s.init, declared) : Unit();
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

ir::Function FnLowerer::LowerHandler(const AgentDecl& a, const Handler& h) {
  BindAgentState(a);
  scopes_.emplace_back();  // handler parameters shadow state fields
  for (const Param& p : h.params)
    AddParam(p.name, g_.Resolve(p.type, &generics_), p.is_mut, false, p.loc, true);
  loc_ = h.loc;
  Val v = h.body ? LowerExpr(*h.body) : Unit();
  return Finish(v);
}

ir::Function FnLowerer::LowerAgentHelper(const AgentDecl& a, const FnDecl& f, TyP ret) {
  BindAgentState(a);
  scopes_.emplace_back();
  for (const Param& p : f.params)
    if (p.self_kind == Param::SelfKind::kNone)
      AddParam(p.name, g_.Resolve(p.type, &generics_), p.is_mut, false, p.loc, true);
  bool unit_ret = ret->Is(Ty::Kind::kUnit);
  if (!unit_ret && f.ret.kind != TypeExpr::Kind::kInfer &&
      !(f.ret.kind == TypeExpr::Kind::kPath && f.ret.name == "Never"))
    SetCheckedReturn(ret, f.ret.loc, a.name + "::" + f.name);
  if (f.body) return FinishWithBlock(*f.body, unit_ret);
  if (f.expr_body) return FinishWithExpr(*f.expr_body, unit_ret);
  return Finish(Unit());
}

// `A::__turn_Msg(state, params) -> (state, reply)`: one handler turn on a
// copy of the state, which the agent runtime commits only when the turn
// completes (runtime.md §5: transactional turns).
ir::Function AgentTurn(const std::string& agent, const std::string& msg, size_t nparams, Loc loc) {
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

// ---- supervisors ----

ir::Function FnLowerer::LowerSupervisorPolicy(const SupervisorDecl& s) {
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
  top.ops = {ConstOp(ir::Constant::Str(s.strategy.empty() ? "one_for_one" : s.strategy)), list.op};
  return Finish(Emit(std::move(top), Ty::Unknown()));
}

ir::Function FnLowerer::LowerSupervisorChildren(const SupervisorDecl& s) {
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

// `sup.w`: the handle of supervisor child `w` (valid across restarts);
// nullopt when `e` is not a field of a supervisor handle.
std::optional<FnLowerer::Val> FnLowerer::LowerChildHandle(const Expr& e) {
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
  return std::nullopt;
}

// ---- spawn, send, ask ----

FnLowerer::Val FnLowerer::LowerSpawn(const Expr& e) {
  std::string name = e.segs.empty() ? "" : e.segs.back().name;
  if (!g_.agents.count(name) && !g_.supervisors.count(name)) {
    Loc at = e.segs.empty() ? e.loc : e.segs.back().loc;
    Error("MT1004", at, absl::StrCat("cannot find agent `", name, "` in this scope"),
          g_.suggest.Help(name,
                          [&] {
                            std::vector<std::string> near;
                            for (const auto& [n, a] : g_.agents) near.push_back(n);
                            for (const auto& [n, s] : g_.supervisors) near.push_back(n);
                            return near;
                          }))
        .end = NameEnd(at, name);
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

FnLowerer::Val FnLowerer::LowerMessage(const Expr& e) {
  Val target = LowerExpr(*e.lhs);
  // The target's agent type is known: the message must be one it handles.
  if (target.ty->Is(Ty::Kind::kAgent)) {
    auto ag = g_.agents.find(target.ty->name);
    if (ag != g_.agents.end()) {
      bool handled = false;
      std::vector<std::string> msgs;
      for (const Handler& h : ag->second->handlers) {
        handled = handled || h.msg == e.text;
        msgs.push_back(h.msg);
      }
      if (!handled)
        Error("MT1015", e.loc,
              absl::StrCat("agent `", ag->first, "` has no handler for `", e.text, "`"),
              g_.suggest.Help(e.text, [&] { return msgs; }));
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

// ---- sandboxes ----

void FnLowerer::ExitSandboxesTo(int depth) {
  for (int i = sandbox_depth_; i > depth; --i) {
    ir::Statement s;
    s.kind = ir::Statement::Kind::kSandboxExit;
    s.loc = IrLoc(loc_);
    s.loc_explicit = true;
    Push(s);
  }
}

FnLowerer::Val FnLowerer::LowerSandbox(const Expr& e) {
  if (e.more->entries.empty() && !g_.sandboxes.count(e.text)) {
    Error("MT1006", e.loc, absl::StrCat("cannot find sandbox `", e.text, "` in this scope"),
          g_.suggest.Help(e.text, [&] {
            std::vector<std::string> near;
            for (const auto& [n, sb] : g_.sandboxes) near.push_back(n);
            return near;
          }));
  }
  for (const SandboxEntry& en : e.more->entries) CheckSandboxEntry(en);
  // `sandbox Name { body }` uses the named item's manifest; with entries
  // the manifest is inline (anonymous ones are named by location).
  std::string name = e.text;
  std::string body_fn;
  if (!e.more->entries.empty()) {
    if (name.empty()) name = absl::StrCat("anonymous@", e.loc.line, ":", e.loc.col);
    name = g_.DeclareSandbox(name, e.more->entries, e.loc);
  } else if (auto it = g_.sandboxes.find(name); it != g_.sandboxes.end()) {
    if (!e.then_block) {
      // `run Name`: the item's own body.
      if (!it->second->body) {
        Error("MT1006", e.loc, absl::StrCat("sandbox `", name, "` has no body to run"),
              absl::StrCat("give the item a body (`sandbox ", name,
                           " with { .. } { body }`) or run a block in it: `run ", name, " { .. }`"))
            .end = NameEnd(e.loc, name);
        return Unit();
      }
      body_fn = Globals::SandboxBodyFn(name);
    }
    name = g_.DeclareSandbox(name, it->second->entries, it->second->loc);
  } else if (!e.then_block) {
    return Unit();  // MT1006 above
  }
  return RunInSandbox(name, e.then_block.get(), body_fn);
}

FnLowerer::Val FnLowerer::RunInSandbox(const std::string& name, const Block* body,
                                       const std::string& body_fn) {
  ir::Statement s;
  s.kind = ir::Statement::Kind::kSandboxEnter;
  s.path = name;
  s.loc = IrLoc(loc_);
  s.loc_explicit = true;
  Push(s);
  ++sandbox_depth_;
  Val v;
  if (body) {
    v = LowerBlock(*body);
  } else {
    v = Emit(NamedR(Rvalue::Kind::kCall, body_fn), Ty::Unknown());
  }
  Operand keep = ToLocalOp(v);
  --sandbox_depth_;
  s.kind = ir::Statement::Kind::kSandboxExit;
  s.path.clear();
  Push(s);
  return Val{keep, v.ty};
}

// `budget { cpu 150ms  steps 1k } run { body }`: a sandbox of limits only,
// so the capabilities of the code around it stay as they are (an unset
// grant restricts nothing, ir/policy.h); the limits are the sandbox
// entries' (same keys, units and checks: ApplySandboxEntry).
FnLowerer::Val FnLowerer::LowerBudget(const Expr& e) {
  bool ok = true;
  for (const SandboxEntry& en : e.more->entries) {
    std::optional<ir::Key> key = ir::FindKey(en.key);
    if (key && key->kind == ir::Key::Kind::kGrant) {
      std::string limits;
      for (const ir::LimitInfo& l : ir::kLimits)
        absl::StrAppend(&limits, limits.empty() ? "" : ", ", l.key);
      Error(
          "MT2013", en.loc,
          absl::StrCat("`", en.key, "` is a capability grant, not a budget limit"),
          absl::StrCat("a budget sets limits (", limits,
                       "); grant capabilities with `sandbox with { ", en.key, " = [..] } { .. }`"));
      ok = false;
      continue;
    }
    ir::Policy scratch;
    if (std::optional<EntryError> err = ApplySandboxEntry(en, scratch)) {
      Error(err->code, en.loc, err->message, err->note);
      ok = false;
    }
  }
  if (!ok) return LowerBlock(*e.then_block);
  std::string name = g_.DeclareSandbox(absl::StrCat("budget@", e.loc.line, ":", e.loc.col),
                                       e.more->entries, e.loc);
  return RunInSandbox(name, e.then_block.get(), "");
}

// Checks one manifest entry (runtime.md §4) against the policy table.
void FnLowerer::CheckSandboxEntry(const SandboxEntry& en) {
  ir::Policy scratch;
  if (std::optional<EntryError> e = ApplySandboxEntry(en, scratch))
    Error(e->code, en.loc, e->message, e->note);
}

std::optional<EntryError> ApplySandboxEntry(const SandboxEntry& en, ir::Policy& p) {
  using K = Expr::Kind;
  const Expr* v = en.value.get();
  std::optional<ir::Key> key = ir::FindKey(en.key);
  if (!key) {
    std::vector<std::string> keys = absl::StrSplit(ir::KnownKeys(), ", ");
    return EntryError{"MT1013", absl::StrCat("unknown sandbox entry `", en.key, "`"),
                      DidYouMeanOr(en.key, keys, absl::StrCat("known entries: ", ir::KnownKeys()))};
  }
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
        return EntryError{"MT2013", absl::StrCat("sandbox entry ", s.message()), ""};
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

}  // namespace mty::frontend
