// Internal to the agent runtime (agents.cc: the scheduler; supervision.cc:
// failure, supervision and restarts): the records of an agent and of a task,
// the host each task calls through, and the values both build.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "boost/container/deque.hpp"
#include "mty/runtime/agents.h"

namespace mty::runtime {

using interp::ExecOutcome;
using interp::Host;
using interp::MakeAdt;
using interp::Outcome;
using interp::Value;

using interp::MakeOk;
// Err(AskError::<variant>(why)): `why` only for AgentFailed.
inline Value AskErr(uint32_t variant, std::string why = "") {
  std::vector<Value> fields;
  if (variant == ir::prelude::kAgentFailed) fields.push_back(interp::MakeStr(std::move(why)));
  return interp::MakeErr(MakeAdt(ir::prelude::kAskError, variant, std::move(fields)));
}
inline std::string FormatNs(int64_t ns) {
  if (ns % 1'000'000'000 == 0) return absl::StrCat(ns / 1'000'000'000, "s");
  if (ns % 1'000'000 == 0) return absl::StrCat(ns / 1'000'000, "ms");
  return absl::StrCat(ns, "ns");
}

struct Scheduler::Agent {
  interp::Task::StackPaid stack_paid;  // carried from turn to turn
  struct Msg {
    std::string name;
    std::vector<Value> args;
    TaskRec* asker = nullptr;  // an ask waits for the reply
    uint64_t ask_id = 0;
    int64_t deadline = 0;  // steady ns; an ask with a deadline gets a Result
  };
  int64_t id = 0;
  uint32_t init_fn = 0;
  std::string type;  // A
  std::string name;  // A#id
  Value state;
  // Boost.Container deques allocate nothing until used (idle agents stay small).
  boost::container::deque<Msg> mailbox;
  // Senders waiting for room (`block`): made when the first one waits.
  using Blocked = boost::container::deque<std::pair<TaskRec*, Msg>>;
  std::unique_ptr<Blocked> blocked;
  Blocked& Block() {
    if (!blocked) blocked = std::make_unique<Blocked>();
    return *blocked;
  }
  bool HasBlocked() const { return blocked && !blocked->empty(); }
  // Its budget and grants: the tracker of the scope its spawner was in.
  std::shared_ptr<BudgetTracker> tracker;
  bool busy = false;
  bool turn_pending = false;  // a turn taken from the mailbox that has not started (it counts)
  bool dead = false;
  bool restarting = false;  // waiting out a backoff
  ir::MailboxPolicy mb_policy = ir::MailboxPolicy::kBlock;
  // Supervision (runtime.md §6).
  std::vector<Value> init_args;  // to restart with a fresh state
  uint64_t generation = 0;       // bumped by a restart: older turns commit nothing
  Agent* sup = nullptr;          // its supervisor
  uint64_t mailbox_cap = 1024;
  struct Policy {
    std::string name;
    bool restart = true;
    int64_t up_to = -1, within = 0, backoff_lo = 0, backoff_hi = 0;
    bool escalate = false;
  };
  // What only supervisors and supervised children use, made when first
  // needed (an idle unsupervised agent stays under 1 KiB: docs/performance.md).
  struct Supervision {
    std::string child_name;                     // its name there (`w` of `child w = ...`)
    int64_t backoff = 0;                        // the last backoff delay
    boost::container::deque<int64_t> restarts;  // when it was restarted (steady ns)
    // A supervisor's own record.
    bool is_supervisor = false;
    std::string strategy;
    std::vector<Policy> policy;
    std::vector<Agent*> children;
  };
  std::unique_ptr<Supervision> supervision;
  Supervision& Sv() {
    if (!supervision) supervision = std::make_unique<Supervision>();
    return *supervision;
  }
  bool IsSupervisor() const { return supervision && supervision->is_supervisor; }
};

struct Scheduler::TaskRec {
  std::unique_ptr<TaskHost> host;
  std::unique_ptr<interp::Task> task;
  Agent* agent = nullptr;    // a turn of this agent
  uint64_t generation = 0;   // the agent's generation when the turn began
  Agent::Msg msg;            // the turn's message
  bool waiting = false;      // for a reply or for mailbox room
  uint64_t waiting_ask = 0;  // the ask it waits for
  bool init = false;         // an agent initialiser (run at spawn)
  bool pending = false;      // a turn whose task is made when it reaches the front
  std::shared_ptr<interp::PendingCall> host_call;  // the late host call it waits for
  ExecOutcome outcome;                             // init tasks: how it ended
};

// The host of one task: the scheduler for agent operations, the run's host
// for everything else (the task's grants travel with each call as its
// tracker chain).
class Scheduler::TaskHost : public Host {
 public:
  TaskHost(Scheduler* s, TaskRec* rec) : s_(s), rec_(rec) {
    sandbox_events_ = static_cast<bool>(s->options_.on_sandbox);
  }
  void Stdout(std::string_view text) override { s_->host_->Stdout(text); }
  void Stderr(std::string_view text) override { s_->host_->Stderr(text); }
  std::optional<Value> InvokeEffect(ir::EffectId id, std::vector<Value>& args, interp::Meter& scope,
                                    interp::HostError* err) override {
    std::optional<Value> v = s_->host_->InvokeEffect(id, args, scope, err);
    // A sleep suspends only the sleeping task: a timer wakes it (runtime.md §5).
    if (!v && err->wait && err->sleep_ns >= 0) s_->Sleep(rec_, err->sleep_ns);
    return v;
  }
  void SandboxChanged(SandboxChange change, const interp::Meter& scope, const ir::Breach* breach,
                      ir::Loc loc) override {
    if (s_->options_.on_sandbox)
      s_->options_.on_sandbox(
          SandboxEvent{change, breach ? breach->sandbox : scope.name(), breach, loc});
  }
  std::optional<Value> InvokeHostFn(uint32_t index, std::vector<Value>& args, interp::Meter& scope,
                                    interp::HostError* err) override {
    std::optional<Value> v = s_->host_->InvokeHostFn(index, args, scope, err);
    // A host function that completes later: only this task waits.
    if (!v && err->wait && err->pending) s_->ParkHostCall(rec_, std::move(err->pending));
    return v;
  }
  std::optional<Value> Spawn(int init_fn, std::string_view agent, std::vector<Value>& args,
                             interp::HostError* err) override {
    return s_->Spawn(rec_, init_fn, agent, args, err);
  }
  AskStatus Send(const Value& target, std::string_view msg, std::vector<Value>& args,
                 interp::HostError* err) override {
    return s_->Deliver(rec_, target, msg, args, false, std::nullopt, nullptr, err);
  }
  std::optional<Value> Child(const Value& sup, std::string_view name,
                             interp::HostError* err) override {
    return s_->Child(sup, name, err);
  }
  AskStatus Ask(const Value& target, std::string_view msg, std::vector<Value>& args,
                std::optional<int64_t> deadline_ns, Value* reply, interp::HostError* err) override {
    return s_->Deliver(rec_, target, msg, args, true, deadline_ns, reply, err);
  }

 private:
  Scheduler* s_;
  TaskRec* rec_;
};

}  // namespace mty::runtime
