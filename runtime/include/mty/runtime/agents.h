// The agent runtime (runtime.md §5): agents with private state and FIFO
// mailboxes, and a deterministic single-threaded scheduler that runs the
// program's `main` task and agent turns from one FIFO run queue.
//
// A turn runs `A::__turn_Msg(state, args) -> (state, reply)` as its own
// interp::Task on a copy of the agent's state; the state is committed only
// when the turn completes, so a turn that traps or breaches changes nothing.
// `main`, turns and agent initialisers share the run's budget: what one task
// consumes is charged to the others before they continue
// (Task::ConsumeExternal).
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "mty/interp/vm.h"
#include "mty/ir/policy.h"
#include "mty/runtime/watchdog.h"

namespace mty::runtime {

using ir::TrapCode;

struct AgentOptions {
  interp::Limits limits;                   // the run's budget (shared by all tasks)
  std::optional<uint64_t> spawned;         // agents that may be spawned
  uint64_t mailbox = ir::kDefaultMailbox;  // messages queued per agent
  ir::MailboxPolicy mb_policy = ir::MailboxPolicy::kBlock;  // what a send to a full mailbox does
  // Steps a task runs before it yields to the others (programs that use
  // agents only; at least 10 000 by runtime.md §5).
  uint64_t quantum = 10000;
};

class Scheduler {
 public:
  // Makes the host of a new agent from the host of the task that spawns it
  // (so the agent keeps the capabilities of the scope active at spawn).
  using HostFactory = std::function<std::unique_ptr<interp::Host>(interp::Host& spawner)>;

  Scheduler(std::shared_ptr<const interp::Module> module, AgentOptions options,
            interp::Host* main_host, HostFactory make_host, Watchdog* watchdog);
  ~Scheduler();

  // Runs `entry(args)` as the main task, then drains: agents finish the
  // messages already queued. Returns main's outcome.
  interp::ExecOutcome Run(int entry, std::vector<interp::Value> args, std::string* error);
  // Cancels the run from another thread (main's outcome: kInterrupted).
  void Interrupt();

  // Which agent limit ended `main`, for the run's exit code: "spawned",
  // "mailbox" or "" (none).
  const std::string& main_breach() const { return main_breach_; }

  struct Agent;
  struct TaskRec;
  class TaskHost;
  // What a sandbox entry has left for the agents spawned in it.
  struct Envelope {
    interp::SandboxRemaining left;
    uint64_t spawned = 0;
  };

 private:
  friend class TaskHost;
  TaskRec* NewTask(int fn, std::vector<interp::Value> args, interp::Host* inner, Agent* agent,
                   std::string* error, int64_t deadline = 0);
  bool InitTask(TaskRec* rec, int fn, std::vector<interp::Value> args, interp::Host* inner,
                std::string* error, int64_t deadline);
  bool BeginTurn(TaskRec* rec);
  void RunSlice(TaskRec* rec);
  void StartTurn(Agent* a);
  void FailAgent(Agent* a, const std::string& why, TaskRec* turn);
  void Wake(TaskRec* rec) { ready_.push_back(rec); }
  void Finished(TaskRec* rec);

  // Host calls from tasks.
  std::optional<interp::Value> Spawn(TaskRec* from, int init_fn, std::string_view name,
                                     std::vector<interp::Value>& args, TrapCode* code,
                                     std::string* message);
  interp::Host::AskStatus Deliver(TaskRec* from, const interp::Value& target, std::string_view msg,
                                  std::vector<interp::Value>& args, bool ask,
                                  std::optional<int64_t> deadline_ns, interp::Value* reply,
                                  TrapCode* code, std::string* message);
  // Answers the ask `id` of `asker` if it still waits for it.
  void Answer(TaskRec* asker, uint64_t id, interp::Value value);
  void FireTimers(bool wait);

  void Supervise(Agent* sup, Agent* child);
  void Restart(Agent* a, int64_t delay_ns);
  void Escalate(Agent* sup, Agent* child, TrapCode code, const std::string& message);
  std::optional<interp::Value> SpawnSupervisor(TaskRec* from, int children_fn,
                                               std::string_view name, TrapCode* code,
                                               std::string* message);
  std::optional<interp::Value> Child(const interp::Value& sup, std::string_view name,
                                     TrapCode* code, std::string* message);
  Agent* spawning_sup_ = nullptr;  // while a supervisor's children are spawned
  std::vector<std::shared_ptr<Envelope>> EnvelopesOf(TaskRec* from);
  TaskRec* AcquireTurnRec();
  void RecycleTurnRec(TaskRec* rec);
  std::vector<TaskRec*> free_recs_;
  std::vector<std::shared_ptr<Envelope>> init_envelopes_;  // for spawns by a children task
  std::map<std::pair<TaskRec*, uint64_t>, std::shared_ptr<Envelope>> envelopes_;
  bool escalated_ = false;

  struct Timer {
    int64_t at;  // steady ns
    uint64_t ask_id;
    TaskRec* asker;
    Agent* restart = nullptr;  // a backoff: restart this agent
    bool operator>(const Timer& o) const { return at > o.at || (at == o.at && ask_id > o.ask_id); }
  };
  std::vector<Timer> timers_;  // a min-heap on `at`
  uint64_t next_ask_id_ = 1;
  bool has_agents_ = false;  // the program defines agents: tasks get quanta

  std::shared_ptr<const interp::Module> module_;
  AgentOptions options_;
  interp::Host* main_host_;
  HostFactory make_host_;
  Watchdog* watchdog_;
  std::vector<std::unique_ptr<Agent>> agents_;  // by id - 1
  std::vector<std::unique_ptr<TaskRec>> tasks_;
  std::deque<TaskRec*> ready_;
  TaskRec* main_ = nullptr;
  bool main_done_ = false;
  interp::ExecOutcome main_outcome_;
  std::string main_breach_;
  // What all tasks together have consumed (the run's budget).
  uint64_t total_steps_ = 0, total_mem_ = 0;
  int64_t total_cpu_ = 0;
  int64_t wall_deadline_ = 0;  // steady ns; 0 = none
  std::atomic<bool> cancelled_{false};
  std::mutex current_mu_;
  interp::Task* current_ = nullptr;
};

}  // namespace mty::runtime
