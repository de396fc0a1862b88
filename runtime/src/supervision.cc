// Failure, supervision and restarts (runtime.md §5): what happens when an
// agent's turn fails, how its supervisor's strategy restarts, escalates or
// gives up, and spawning a supervisor tree. The scheduler that runs the
// turns is agents.cc.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agents_internal.h"

namespace mty::runtime {

void Scheduler::FailAgent(Agent* a, TrapCode code, const std::string& message, TaskRec* turn,
                          const ir::Breach* breach) {
  const std::string why = absl::StrCat("trap ", ir::TrapText(code), ": ", message);
  host_->Stderr(absl::StrCat("agent ", a->name, " failed: ", why, "\n"));
  Emit(AgentEvent::Kind::kFailed, a, code, message);
  a->busy = false;
  if (a->sup && !a->sup->dead) {
    // Supervised: the failed turn's asker learns of it; the mailbox stays
    // for the restarted child.
    if (turn && turn->msg.asker) {
      TaskRec* asker = turn->msg.asker;
      if (WaitsFor(asker, turn->msg.ask_id)) {
        if (turn->msg.deadline) {
          Answer(asker, turn->msg.ask_id, AskErr(ir::prelude::kAgentFailed, why));
        } else {
          FailPlainAsk(asker, absl::StrCat("ask failed: agent ", a->name, " failed: ", why),
                       breach);
        }
      }
    }
    Supervise(a->sup, a);
    return;
  }
  a->dead = true;
  // A plain ask traps MT5021 in the asker; an ask with a deadline gets Err.
  auto fail_asker = [&](const Agent::Msg& m, const std::string& text, Value err,
                        const ir::Breach* b) {
    TaskRec* asker = m.asker;
    if (!asker || !WaitsFor(asker, m.ask_id)) return;
    if (m.deadline) {
      Answer(asker, m.ask_id, std::move(err));
      return;
    }
    FailPlainAsk(asker, text, b);
  };
  if (turn)
    fail_asker(turn->msg, absl::StrCat("ask failed: agent ", a->name, " failed: ", why),
               AskErr(ir::prelude::kAgentFailed, why), breach);
  std::string dead = absl::StrCat("ask failed: agent ", a->name, " is dead");
  for (Agent::Msg& m : a->mailbox) fail_asker(m, dead, AskErr(ir::prelude::kDeadAgent), nullptr);
  a->mailbox.clear();
  if (!a->blocked) return;
  for (auto& [sender, m] : *a->blocked) {
    if (m.asker) {
      fail_asker(m, dead, AskErr(ir::prelude::kDeadAgent), nullptr);
    } else if (WaitsFor(sender, m.ask_id)) {  // the send is dropped, the sender carries on
      EndWait(sender);
      sender->task->Resume(Value::Unit());
      Wake(sender);
    }
  }
  a->blocked->clear();
}

// Applies supervisor `s`'s policy to its failed child `c` (runtime.md §6).
void Scheduler::Supervise(Agent* s, Agent* c) {
  const Agent::Policy* p = nullptr;
  size_t index = 0;
  for (size_t i = 0; i < s->Sv().children.size(); ++i)
    if (s->Sv().children[i] == c) {
      index = i;
      if (i < s->Sv().policy.size()) p = &s->Sv().policy[i];
    }
  Agent::Policy fallback;  // no on_fail clause: restart up_to 3 in 5s
  if (!p) {
    fallback.up_to = 3;
    fallback.within = 5'000'000'000;
    p = &fallback;
  }
  if (s->Sv().strategy == "escalate" || p->escalate || !p->restart) {
    Escalate(s, c, TrapCode::kEscalated,
             absl::StrCat("supervisor escalated: ", c->Sv().child_name));
    return;
  }
  const int64_t now = Now();
  if (p->within > 0)
    while (!c->Sv().restarts.empty() && now - c->Sv().restarts.front() > p->within)
      c->Sv().restarts.pop_front();
  if (p->up_to >= 0 && static_cast<int64_t>(c->Sv().restarts.size()) >= p->up_to) {
    Escalate(
        s, c, TrapCode::kRestartLimit,
        absl::StrCat("supervisor escalated: ", c->Sv().child_name, " (restart limit ", p->up_to,
                     p->within > 0 ? absl::StrCat(" in ", FormatNs(p->within)) : "", ")"));
    return;
  }
  c->Sv().restarts.push_back(now);
  int64_t delay = 0;
  if (p->backoff_lo > 0) {
    delay = c->Sv().backoff ? std::min(c->Sv().backoff * 2, std::max(p->backoff_hi, p->backoff_lo))
                            : p->backoff_lo;
    c->Sv().backoff = delay;
  }
  std::vector<Agent*> targets;
  if (s->Sv().strategy == "one_for_all") {
    targets = s->Sv().children;
  } else if (s->Sv().strategy == "rest_for_one") {
    targets.assign(s->Sv().children.begin() + static_cast<std::ptrdiff_t>(index),
                   s->Sv().children.end());
  } else {
    targets = {c};
  }
  for (Agent* t : targets) Restart(t, delay);
}

void Scheduler::Restart(Agent* a, int64_t delay) {
  // A turn in flight finishes (its reply is delivered) but commits nothing.
  a->generation++;
  if (delay > 0) {
    a->restarting = true;
    AddTimer(Timer{Now() + delay, 0, nullptr, a});
    return;
  }
  a->restarting = false;
  if (a->IsSupervisor()) {  // a restarted supervisor restarts its children
    for (Agent* c : a->Sv().children) Restart(c, 0);
    return;
  }
  // A fresh state from the initialiser, with the same arguments.
  std::string error;
  TaskRec* init = NewTask(static_cast<int>(a->init_fn), a->init_args, nullptr, a->tracker, &error);
  ExecOutcome o;
  if (init) {
    init->init = true;
    RunSlice(init);
    o = std::move(init->outcome);
  }
  if (!init || o.kind != Outcome::kOk) {
    host_->Stderr(absl::StrCat(
        "agent ", a->name, " failed: restart: ",
        init ? absl::StrCat("trap ", ir::TrapText(o.code), ": ", o.message) : error, "\n"));
    Emit(AgentEvent::Kind::kFailed, a, init ? o.code : TrapCode::kType,
         absl::StrCat("restart: ", init ? o.message : error));
    if (a->sup)
      Escalate(a->sup, a, TrapCode::kEscalated,
               absl::StrCat("supervisor escalated: ", a->Sv().child_name));
    return;
  }
  a->state = std::move(o.value);
  Emit(AgentEvent::Kind::kRestarted, a, TrapCode::kNone, "");
  StartTurn(a);
}

// A supervisor gives up on child `c`: its own supervisor handles it as a
// failure of `s`; at the top the run ends (exit 8).
void Scheduler::Escalate(Agent* s, Agent* c, TrapCode code, const std::string& message) {
  Emit(AgentEvent::Kind::kEscalated, s, code, absl::StrCat(message, " (child ", c->name, ")"));
  if (s->sup && !s->sup->dead) {
    host_->Stderr(
        absl::StrCat("agent ", s->name, " failed: trap ", ir::TrapText(code), ": ", message, "\n"));
    Supervise(s->sup, s);
    return;
  }
  main_outcome_ = ExecOutcome();
  main_outcome_.kind = Outcome::kEscalated;
  main_outcome_.code = code;
  main_outcome_.message = message;
  main_done_ = true;
  ready_.clear();
  timers_.clear();
  DropHostWaits();
}

std::optional<Value> Scheduler::Child(const Value& sup, std::string_view name,
                                      interp::HostError* err) {
  if (sup.Is(interp::Tag::kAgent) && sup.i() >= 1 &&
      sup.i() <= static_cast<int64_t>(agents_.size())) {
    Agent* s = agents_[sup.i() - 1].get();
    for (Agent* c : s->Sv().children)
      if (c->Sv().child_name == name) return Value::Agent(c->id, c->init_fn);
    err->message = absl::StrCat(s->name, " has no child ", std::string(name));
  } else {
    err->message = absl::StrCat("`.", std::string(name), "` needs a supervisor handle");
  }
  err->code = TrapCode::kType;
  return std::nullopt;
}

// Spawns supervisor `name`: reads its policy (`S::__policy`), then spawns
// its children (`S::__children`) as its supervised children, in order.
std::optional<Value> Scheduler::SpawnSupervisor(TaskRec* from, int children_fn,
                                                std::string_view name,
                                                std::shared_ptr<BudgetTracker> scope,
                                                interp::HostError* err) {
  (void)from;
  auto s = std::make_unique<Agent>();
  s->id = static_cast<int64_t>(agents_.size()) + 1;
  s->Sv().is_supervisor = true;
  s->init_fn = static_cast<uint32_t>(children_fn);
  s->type = std::string(name);
  s->name = absl::StrCat(std::string(name), "#", s->id);
  s->sup = spawning_sup_;
  Agent* sp = s.get();
  agents_.push_back(std::move(s));
  if (options_.on_event) Emit(AgentEvent::Kind::kSpawned, sp, TrapCode::kNone, "");
  if (spawning_sup_) spawning_sup_->Sv().children.push_back(sp);  // a nested supervisor
  auto run = [&](int fn, ExecOutcome* o) {
    std::string error;
    // The policy and children run in the spawner's scope: what they spawn
    // draws from it.
    TaskRec* t = NewTask(fn, {}, nullptr, scope, &error);
    if (!t) {
      o->kind = Outcome::kTrap;
      o->message = error;
      return;
    }
    t->init = true;
    RunSlice(t);
    *o = std::move(t->outcome);
  };
  ExecOutcome po;
  int policy_fn = module_->FindFunction(absl::StrCat(std::string(name), "::__policy"));
  if (policy_fn >= 0) run(policy_fn, &po);
  if (policy_fn >= 0 && po.kind == Outcome::kOk && po.value.Is(interp::Tag::kTuple)) {
    auto* top = static_cast<interp::ArrayObj*>(po.value.h());
    if (top->items.size() == 2 && top->items[0].Is(interp::Tag::kStr) &&
        top->items[1].Is(interp::Tag::kArray)) {
      sp->Sv().strategy = static_cast<interp::StrObj*>(top->items[0].h())->s;
      for (const Value& cv : static_cast<interp::ArrayObj*>(top->items[1].h())->items) {
        if (!cv.Is(interp::Tag::kTuple)) continue;
        auto& f = static_cast<interp::ArrayObj*>(cv.h())->items;
        if (f.size() != 7) continue;
        Agent::Policy p;
        if (f[0].Is(interp::Tag::kStr)) p.name = static_cast<interp::StrObj*>(f[0].h())->s;
        p.restart = f[1].b();
        p.up_to = f[2].i();
        p.within = f[3].i();
        p.backoff_lo = f[4].i();
        p.backoff_hi = f[5].i();
        p.escalate = f[6].b();
        sp->Sv().policy.push_back(std::move(p));
      }
    }
  }
  Agent* outer = spawning_sup_;
  spawning_sup_ = sp;
  ExecOutcome co;
  run(children_fn, &co);
  spawning_sup_ = outer;
  if (co.kind != Outcome::kOk) {
    if (co.breach) {
      err->breach = std::move(co.breach);
      return std::nullopt;
    }
    err->code = co.code == TrapCode::kNone ? TrapCode::kType : co.code;
    err->message = co.code == TrapCode::kDepth
                       ? co.message
                       : absl::StrCat("spawn ", std::string(name), ": ", co.message);
    return std::nullopt;
  }
  for (size_t i = 0; i < sp->Sv().children.size() && i < sp->Sv().policy.size(); ++i)
    sp->Sv().children[i]->Sv().child_name = sp->Sv().policy[i].name;
  return Value::Agent(sp->id, static_cast<uint32_t>(children_fn));
}

}  // namespace mty::runtime
