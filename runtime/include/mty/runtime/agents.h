// The agent runtime (runtime.md §5): agents with private state and FIFO
// mailboxes, and a deterministic single-threaded scheduler that runs the
// program's `main` task and agent turns from one FIFO run queue.
//
// A turn runs `A::__turn_Msg(state, args) -> (state, reply)` as its own
// interp::Task on a copy of the agent's state; the state is committed only
// when the turn completes, so a turn that traps or breaches changes nothing.
// Budgets are one tracker chain (runtime/budget.h): each agent draws from
// the tracker of the scope its spawner was in (an agent has no limits of
// its own, so its child tracker would be an empty one: it is that scope's
// tracker itself), so its initialiser and turns draw from that sandbox (if
// any) and from the run, and each task refills its counters from the chain
// before it continues.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "mty/interp/vm.h"
#include "mty/runtime/budget.h"
#include "mty/runtime/output.h"
#include "mty/runtime/watchdog.h"
#include "mty/vocab/policy.h"

namespace mty::runtime {

using ir::TrapCode;

// How deep spawns may nest inside initialisers (a spawn in an initialiser
// run by a spawn in an initialiser ...); one more level is MT5018.
inline constexpr int kMaxSpawnNesting = 100;

// What happens to agents, as it happens (the embedding API's events).
struct AgentEvent {
  enum class Kind : uint8_t { kSpawned, kFailed, kRestarted, kEscalated };
  Kind kind;
  const std::string& agent;  // `Worker#2`
  TrapCode code;             // kFailed, kEscalated
  const std::string& message;
};

// A task entered or left a sandbox scope, or a sandbox's limit went over
// (interp::Host::SandboxChanged), with the breach in that case.
struct SandboxEvent {
  interp::Host::SandboxChange change;
  const std::string& sandbox;  // its name
  const ir::Breach* breach;    // kBreached
  ir::Loc loc;
};

// The scheduler's clock: what its timers, ask deadlines, backoffs and
// restart windows read (steady ns). Null in AgentOptions: the steady clock.
// Record and replay (docs/cli.md) supply one that logs each reading or
// serves it from a log; the scheduler's choices are a function of these
// readings and of the effects' results, so replaying both replays them.
class SchedulerClock {
 public:
  virtual ~SchedulerClock() = default;
  virtual int64_t Now() = 0;
  // False when the readings come from a log: the scheduler then never
  // waits for a timer or a completion in real time.
  virtual bool Waits() const { return true; }
};

struct AgentOptions {
  // Steps a task runs before it yields to the others (programs that use
  // agents only; at least 10 000 by runtime.md §5).
  uint64_t quantum = 10000;
  std::function<void(const AgentEvent&)> on_event;      // may be empty
  std::function<void(const SandboxEvent&)> on_sandbox;  // may be empty
  SchedulerClock* clock = nullptr;
};

class Scheduler : private interp::PendingCall::Sink {
 public:
  // `root` is the run's tracker; `host` the run's host (output, effects:
  // the grants are the tracker chain's, passed with each call).
  Scheduler(std::shared_ptr<const interp::Module> module, AgentOptions options,
            std::shared_ptr<BudgetTracker> root, interp::Host* host, Watchdog* watchdog);
  ~Scheduler();

  // Runs `entry(args)` as the main task, then drains: agents finish the
  // messages already queued. Returns main's outcome, or the escalation
  // that ended the run (kEscalated).
  interp::ExecOutcome Run(int entry, std::vector<interp::Value> args, std::string* error);
  // Cancels the run from another thread (main's outcome: kCancelled).
  void Interrupt();
  // Agents spawned so far.
  uint64_t agents_spawned() const { return agents_.size(); }

  struct Agent;
  struct TaskRec;
  class TaskHost;

 private:
  friend class TaskHost;
  TaskRec* NewTask(int fn, std::vector<interp::Value> args, Agent* agent,
                   std::shared_ptr<BudgetTracker> meter, std::string* error, int64_t deadline = 0);
  bool InitTask(TaskRec* rec, int fn, std::vector<interp::Value> args,
                std::shared_ptr<BudgetTracker> meter, std::string* error, int64_t deadline);
  bool BeginTurn(TaskRec* rec);
  void RunSlice(TaskRec* rec);
  void StartTurn(Agent* a);
  // `breach` is the budget the failed turn ran out of, if that was why.
  void FailAgent(Agent* a, TrapCode code, const std::string& message, TaskRec* turn,
                 const ir::Breach* breach = nullptr);
  void Emit(AgentEvent::Kind kind, const Agent* a, TrapCode code, const std::string& message);
  // Ends the wait of `asker` on its plain ask `m` whose turn failed: with
  // the breach when the asker draws from the budget that ran out (so the run
  // ends with that budget's exit code), else with MT5021 `text`.
  void FailPlainAsk(TaskRec* asker, const std::string& text, const ir::Breach* breach);
  void Wake(TaskRec* rec) { ready_.push_back(rec); }
  void Finished(TaskRec* rec);
  // The tracker of the scope `from` is in now (what it spawns draws from).
  std::shared_ptr<BudgetTracker> ScopeOf(TaskRec* from) const;

  // Host calls from tasks.
  std::optional<interp::Value> Spawn(TaskRec* from, int init_fn, std::string_view name,
                                     std::vector<interp::Value>& args, interp::HostError* err);
  interp::Host::AskStatus Deliver(TaskRec* from, const interp::Value& target, std::string_view msg,
                                  std::vector<interp::Value>& args, bool ask,
                                  std::optional<int64_t> deadline_ns, interp::Value* reply,
                                  interp::HostError* err);
  // Answers the ask `id` of `asker` if it still waits for it.
  void Answer(TaskRec* asker, uint64_t id, interp::Value value);
  // Task `rec` starts to wait (a sleep, a reply, room in a mailbox, a host
  // call): the new id of its wait (waiting_ask), which names it to timers,
  // replies and blocked queues.
  uint64_t BeginWait(TaskRec* rec);
  // Its wait ended (a parked host call's late completion is dropped).
  void EndWait(TaskRec* rec);
  static bool WaitsFor(const TaskRec* rec, uint64_t id);
  // Whether `rec` is a turn (begun, not finished) answering ask `ask_id`.
  static bool Serves(const TaskRec* rec, uint64_t ask_id);
  // The ask turn `rec` answers passed its deadline: the turn ends now,
  // whatever it waits for; it commits nothing, the asker gets
  // Err(DeadlineExceeded) if it has not yet, and the agent carries on.
  void CancelTurn(TaskRec* rec);
  void FireTimers(bool wait);

  void Supervise(Agent* sup, Agent* child);
  void Restart(Agent* a, int64_t delay_ns);
  void Escalate(Agent* sup, Agent* child, TrapCode code, const std::string& message);
  std::optional<interp::Value> SpawnSupervisor(TaskRec* from, int children_fn,
                                               std::string_view name,
                                               std::shared_ptr<BudgetTracker> scope,
                                               interp::HostError* err);
  std::optional<interp::Value> Child(const interp::Value& sup, std::string_view name,
                                     interp::HostError* err);
  Agent* spawning_sup_ = nullptr;  // while a supervisor's children are spawned
  // Initialisers (and supervisors' policies and children) run nested on the
  // host stack inside the spawn that starts them; a spawn in an initialiser
  // nests one level deeper. The nesting is capped (MT5018) so that a
  // guest-controlled count never grows the host stack without bound.
  int init_depth_ = 0;
  TaskRec* AcquireTurnRec();
  void RecycleTurnRec(TaskRec* rec);
  std::vector<TaskRec*> free_recs_;
  // Buffers of finished tasks, for the next turns' tasks (interp::Task::Buffers).
  std::vector<interp::Task::Buffers> spare_buffers_;
  // The tasks' shared CPU mark (interp::Task::SetCpuMark): the scheduler's
  // own CPU time between turns is charged to the next task that runs.
  int64_t cpu_mark_ = -1;

  struct Timer {
    int64_t at;       // steady ns
    uint64_t ask_id;  // the ask (or sleep) it ends; stale when the task waits for another
    TaskRec* asker;
    Agent* restart = nullptr;  // a backoff: restart this agent
    bool sleep = false;        // the end of a std.time.sleep
    bool host = false;         // the wall deadline of a host call that completes later
    bool cancel = false;       // the deadline of the ask a turn answers: cancel the turn
    bool operator>(const Timer& o) const { return at > o.at || (at == o.at && ask_id > o.ask_id); }
  };
  void AddTimer(Timer t);
  // A timer whose wait ended already (it does nothing when it fires).
  static bool Stale(const Timer& t);
  // Whether restarting `a` would find messages to handle (its own, or its
  // children's for a supervisor).
  static bool RestartHasWork(Agent* a);
  // Whether every timer still pending is stale or a restart that would find
  // no message to handle (after main: nothing more can happen).
  bool OnlyIdleRestarts();
  // std.time.sleep of task `rec` for `ns` (the host asked it to wait):
  // a timer ends the wait.
  void Sleep(TaskRec* rec, int64_t ns);
  // The scheduler's clock (AgentOptions::clock, else the steady clock).
  int64_t Now() { return options_.clock ? options_.clock->Now() : SteadyNowNs(); }
  void AdmitBlocked(Agent* a);
  void EndRun(std::optional<ir::Breach> breach);
  // Ends the run with the wall breach when its deadline has passed.
  bool WallPassed(std::optional<int64_t> wall, int64_t now);

  // Host calls that complete later (interp::PendingCall): the parked
  // tasks by wait id, and the ids completed on other threads (the inbox,
  // which also wakes the scheduler when it has nothing to run).
  void ParkHostCall(TaskRec* rec, std::shared_ptr<interp::PendingCall> call);
  void Posted(uint64_t id) override;  // any thread
  void DrainCompletions();
  // Waits until a completion arrives, an interrupt, or `until` (steady ns).
  void WaitInbox(int64_t until);
  bool InboxReady();
  void DropHostWaits();  // the run ended: late completions are dropped
  absl::flat_hash_map<uint64_t, TaskRec*> host_parked_;
  std::mutex inbox_mu_;
  std::condition_variable inbox_cv_;
  std::vector<uint64_t> inbox_;
  std::vector<Timer> timers_;  // a min-heap on `at`
  uint64_t next_ask_id_ = 1;
  bool has_agents_ = false;  // the program defines agents: tasks get quanta

  std::shared_ptr<const interp::Module> module_;
  // The turn function `A::__turn_Msg` of each (agent type, message) met so
  // far, or -1: by the type's init function, then the message name (no
  // string is built per message).
  absl::flat_hash_map<uint32_t, absl::flat_hash_map<std::string, int>> turn_fns_;
  int TurnFn(uint32_t init_fn, const std::string& type, const std::string& msg);
  AgentOptions options_;
  std::shared_ptr<BudgetTracker> root_;
  interp::Host* host_;
  Watchdog* watchdog_;
  std::vector<std::unique_ptr<Agent>> agents_;  // by id - 1
  std::vector<std::unique_ptr<TaskRec>> tasks_;
  std::deque<TaskRec*> ready_;
  TaskRec* main_ = nullptr;
  bool main_done_ = false;
  interp::ExecOutcome main_outcome_;
  std::atomic<bool> cancelled_{false};
  std::mutex current_mu_;
  interp::Task* current_ = nullptr;
};

}  // namespace mty::runtime
