// The agent scheduler (runtime.md §5): tasks and turns, mailboxes, asks and
// replies, timers, host calls that complete later, spawning. Failure,
// supervision and restarts are supervision.cc; the records both share are
// agents_internal.h.
#include "mty/runtime/agents.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <thread>

#include "absl/strings/str_cat.h"
#include "agents_internal.h"
#include "boost/container/deque.hpp"
#include "mty/runtime/output.h"

namespace mty::runtime {

bool Scheduler::WaitsFor(const TaskRec* rec, uint64_t id) {
  return rec->waiting && rec->waiting_ask == id;
}

Scheduler::Scheduler(std::shared_ptr<const interp::Module> module, AgentOptions options,
                     std::shared_ptr<BudgetTracker> root, Host* host, Watchdog* watchdog)
    : module_(std::move(module)),
      options_(std::move(options)),
      root_(std::move(root)),
      host_(host),
      watchdog_(watchdog) {
  for (const interp::CompiledFunction& f : module_->functions)
    has_agents_ = has_agents_ || f.name.find("::__turn_") != std::string::npos;
}

Scheduler::~Scheduler() {
  DropHostWaits();
  for (auto& rec : tasks_)
    if (rec->task && watchdog_) watchdog_->Unwatch(*rec->task);
}

void Scheduler::Interrupt() {
  cancelled_.store(true);
  {
    std::lock_guard<std::mutex> lock(inbox_mu_);
    inbox_cv_.notify_all();  // a scheduler waiting for a host call or a timer
  }
  std::lock_guard<std::mutex> lock(current_mu_);
  if (current_) current_->Interrupt();
}

Scheduler::TaskRec* Scheduler::NewTask(int fn, std::vector<Value> args, Agent* agent,
                                       std::shared_ptr<BudgetTracker> meter, std::string* error,
                                       int64_t deadline) {
  auto rec = std::make_unique<TaskRec>();
  rec->agent = agent;
  if (!InitTask(rec.get(), fn, std::move(args), std::move(meter), error, deadline)) return nullptr;
  tasks_.push_back(std::move(rec));
  return tasks_.back().get();
}

bool Scheduler::InitTask(TaskRec* rec, int fn, std::vector<Value> args,
                         std::shared_ptr<BudgetTracker> meter, std::string* error,
                         int64_t deadline) {
  rec->host = std::make_unique<TaskHost>(this, rec);
  if (!spare_buffers_.empty()) {
    rec->task = std::make_unique<interp::Task>(module_, rec->host.get(), std::move(meter),
                                               std::move(spare_buffers_.back()));
    spare_buffers_.pop_back();
  } else {
    rec->task = std::make_unique<interp::Task>(module_, rec->host.get(), std::move(meter));
  }
  if (rec->agent) rec->task->SetStackPaid(rec->agent->stack_paid);
  rec->task->SetCpuMark(&cpu_mark_);
  // A turn answering an ask with a deadline stops at that deadline too
  // (not in a replay: its clock is the log's, the task's the real one).
  if (deadline && (!options_.clock || options_.clock->Waits()))
    rec->task->SetCancelDeadline(deadline);
  if (watchdog_) watchdog_->Watch(*rec->task);
  if (!rec->task->Start(fn, std::move(args), error)) {
    if (watchdog_) watchdog_->Unwatch(*rec->task);
    rec->task.reset();
    return false;
  }
  return true;
}

std::shared_ptr<BudgetTracker> Scheduler::ScopeOf(TaskRec* from) const {
  // Every meter of a task is a tracker this runtime made.
  if (from && from->task)
    return std::static_pointer_cast<BudgetTracker>(from->task->current_meter());
  return root_;
}

void Scheduler::Finished(TaskRec* rec) {
  // A task can end while the scheduler holds a wait for it (a breach found
  // at the flush as it suspended): the wait's timers and completion go stale.
  EndWait(rec);
  if (watchdog_) watchdog_->Unwatch(*rec->task);
  // The agent's stacks are paid up to the deepest any of its turns reached.
  if (rec->agent) {
    const interp::Task::StackPaid p = rec->task->stack_paid();
    rec->agent->stack_paid.registers = std::max(rec->agent->stack_paid.registers, p.registers);
    rec->agent->stack_paid.frames = std::max(rec->agent->stack_paid.frames, p.frames);
  }
  // A few finished tasks' buffers are kept for the next turns.
  constexpr size_t kSpareBuffers = 4;
  if (spare_buffers_.size() < kSpareBuffers) spare_buffers_.push_back(rec->task->TakeBuffers());
  rec->task.reset();
  rec->host.reset();
  rec->msg.args.clear();
  if (rec->agent && !rec->init && rec != main_) {
    RecycleTurnRec(rec);  // a turn: its record is reused
    return;
  }
  // Initialisers keep their outcome for the spawner to read.
  if (!rec->init) rec->outcome = ExecOutcome();
}

interp::ExecOutcome Scheduler::Run(int entry, std::vector<Value> args, std::string* error) {
  main_ = NewTask(entry, std::move(args), nullptr, root_, error);
  if (!main_) {
    main_outcome_.kind = Outcome::kTrap;
    return std::move(main_outcome_);
  }
  ready_.push_back(main_);
  while (!ready_.empty() || !timers_.empty() || !host_parked_.empty()) {
    DrainCompletions();
    FireTimers(/*wait=*/ready_.empty());
    if (ready_.empty()) {
      if (cancelled_.load()) {
        EndRun(std::nullopt);  // interrupted while every task waits
      } else if (timers_.empty() && !host_parked_.empty() && !InboxReady()) {
        // Only host calls can end the wait: until one completes, the
        // run's wall deadline or an interrupt.
        const std::optional<int64_t> wall = root_->WallDeadlineNs();
        const int64_t now = Now();
        if (!WallPassed(wall, now))
          WaitInbox(wall ? std::min(*wall, now + 100'000'000) : now + 100'000'000);
      }
      continue;
    }
    TaskRec* rec = ready_.front();
    ready_.pop_front();
    if (rec->pending && !BeginTurn(rec)) {
      RecycleTurnRec(rec);  // the turn did not start (dead, restarting, no handler)
      continue;
    }
    RunSlice(rec);
    if (ready_.empty() && timers_.empty() && host_parked_.empty() && !main_done_ &&
        main_->waiting) {
      // Nothing can run and main waits: no reply or room can ever come.
      main_->waiting = false;
      main_->task->ResumeTrap(TrapCode::kDeadAgent,
                              "ask failed: no reply can arrive (every agent is idle or waiting)");
      Wake(main_);
    }
  }
  DropHostWaits();
  return std::move(main_outcome_);
}

namespace {
ExecOutcome DeadlinePassed() {
  ExecOutcome o;
  o.kind = Outcome::kDeadlinePassed;
  return o;
}
}  // namespace

void Scheduler::RunSlice(TaskRec* rec) {
  if (rec->init && init_depth_ >= kMaxSpawnNesting) {
    rec->outcome = ExecOutcome();
    rec->outcome.kind = Outcome::kTrap;
    rec->outcome.code = TrapCode::kDepth;
    rec->outcome.message =
        absl::StrCat("spawn nesting exceeded: initialisers nested ", kMaxSpawnNesting,
                     " deep (an initialiser spawns an agent whose initialiser spawns ...)");
    Finished(rec);
    return;
  }
  // A turn whose asker's deadline passed while it waited (or before it
  // began) is cancelled before it runs on: decided by the scheduler's
  // clock, so that a replay decides it the same way.
  const bool late = !rec->init && rec->msg.deadline && Now() >= rec->msg.deadline;
  ExecOutcome o = late ? DeadlinePassed() : [&] {
    interp::Task& t = *rec->task;
    if (rec->init) ++init_depth_;
    interp::Task* outer = nullptr;
    {
      std::lock_guard<std::mutex> lock(current_mu_);
      outer = current_;
      current_ = &t;
    }
    if (cancelled_.load()) t.Interrupt();
    if (has_agents_ && !rec->init) t.SetQuantum(options_.quantum);
    ExecOutcome r = t.Run();
    if (rec->init) --init_depth_;
    {
      std::lock_guard<std::mutex> lock(current_mu_);
      current_ = outer;
    }
    return r;
  }();
  if (rec->init) {
    rec->outcome = std::move(o);
    Finished(rec);
    return;
  }
  switch (o.kind) {
    case Outcome::kSuspended:
      if (!rec->waiting) Wake(rec);  // a `suspend` terminator: yield
      return;
    case Outcome::kPreempted: Wake(rec); return;  // its quantum ran out
    case Outcome::kCancelled:
      main_outcome_ = std::move(o);
      main_done_ = true;
      ready_.clear();
      DropHostWaits();
      return;
    case Outcome::kDeadlinePassed:
      if (rec->msg.deadline) {
        // The ask's deadline passed: the late handler is cancelled at its
        // safepoint.
        CancelTurn(rec);
        return;
      }
      Wake(rec);
      return;
    case Outcome::kOk:
      if (rec == main_) {
        main_outcome_ = std::move(o);
        main_done_ = true;
        Finished(rec);
        return;
      } else if (rec->msg.deadline && Now() >= rec->msg.deadline) {
        // It ended after its asker's deadline (with no safepoint since):
        // cancelled like a late start, on the scheduler's clock.
        CancelTurn(rec);
        return;
      } else {
        Agent* a = rec->agent;
        Value reply;
        if (o.value.Is(interp::Tag::kTuple)) {
          auto* tup = static_cast<interp::ArrayObj*>(o.value.h());
          if (tup->items.size() == 2) {
            // A turn that began before a restart commits nothing.
            if (rec->generation == a->generation) a->state = tup->items[0];
            reply = tup->items[1];
          }
        }
        if (TaskRec* asker = rec->msg.asker)
          Answer(asker, rec->msg.ask_id,
                 rec->msg.deadline ? MakeOk(std::move(reply)) : std::move(reply));
        Finished(rec);
        a->busy = false;
        StartTurn(a);
        return;
      }
    default: break;  // a trap or a budget breach
  }
  if (rec == main_) {
    main_outcome_ = std::move(o);
    main_done_ = true;
    Finished(rec);
    ready_.clear();  // a trap in main ends the run
    DropHostWaits();
    return;
  }
  FailAgent(rec->agent, o.code, o.message, rec, o.breach ? &*o.breach : nullptr);
  Finished(rec);
}

void Scheduler::CancelTurn(TaskRec* rec) {
  EndWait(rec);
  if (TaskRec* asker = rec->msg.asker)
    Answer(asker, rec->msg.ask_id, AskErr(ir::prelude::kDeadlineExceeded));
  Agent* a = rec->agent;
  Finished(rec);
  a->busy = false;
  StartTurn(a);
}

uint64_t Scheduler::BeginWait(TaskRec* rec) {
  rec->waiting = true;
  rec->waiting_ask = next_ask_id_++;
  return rec->waiting_ask;
}

bool Scheduler::Serves(const TaskRec* rec, uint64_t ask_id) {
  return rec->task && rec->msg.asker && rec->msg.ask_id == ask_id;
}

void Scheduler::EndWait(TaskRec* rec) {
  if (rec->host_call) {  // a late completion is dropped
    host_parked_.erase(rec->waiting_ask);
    rec->host_call->Detach();
    rec->host_call.reset();
  }
  rec->waiting = false;
  rec->waiting_ask = 0;
}

void Scheduler::Answer(TaskRec* asker, uint64_t id, Value value) {
  if (!WaitsFor(asker, id)) return;  // answered already (deadline)
  asker->waiting = false;
  asker->waiting_ask = 0;
  asker->task->Resume(std::move(value));
  Wake(asker);
}

// Ends the run while every task waits: with the wall-clock breach (main
// stops at the instruction it waits in) or, for nullopt, cancelled.
void Scheduler::EndRun(std::optional<ir::Breach> breach) {
  if (!main_done_) {
    main_outcome_ = main_->task ? main_->task->EndWith(breach) : ExecOutcome();
    if (main_outcome_.kind == Outcome::kOk) {  // main could not be ended where it waits
      main_outcome_.kind = breach ? Outcome::kBreach : Outcome::kCancelled;
      if (breach) {
        main_outcome_.code = breach->Code();
        main_outcome_.message = breach->Message();
        main_outcome_.breach = std::move(breach);
      }
    }
    main_done_ = true;
  }
  ready_.clear();
  timers_.clear();
  DropHostWaits();
}

bool Scheduler::WallPassed(std::optional<int64_t> wall, int64_t now) {
  if (!wall || now < *wall) return false;
  std::optional<ir::Breach> b = root_->Exhausted(ir::LimitId::kWall);
  EndRun(
      b ? std::move(b)
        : ir::Breach::Over(ir::LimitId::kWall, 0, *root_->policy().limits.Get(ir::LimitId::kWall)));
  return true;
}

void Scheduler::ParkHostCall(TaskRec* rec, std::shared_ptr<interp::PendingCall> call) {
  BeginWait(rec);
  rec->host_call = call;
  host_parked_[rec->waiting_ask] = rec;
  // It ends at the task's wall deadline at the latest (a sandbox's or the
  // run's): the task then resumes into the breach.
  if (std::optional<int64_t> wall = rec->task->current_meter()->WallDeadline())
    AddTimer(Timer{*wall, rec->waiting_ask, rec, nullptr, /*sleep=*/false, /*host=*/true});
  call->Attach(this, rec->waiting_ask);  // posts at once when complete already
}

void Scheduler::Posted(uint64_t id) {
  std::lock_guard<std::mutex> lock(inbox_mu_);
  inbox_.push_back(id);
  inbox_cv_.notify_all();
}

bool Scheduler::InboxReady() {
  std::lock_guard<std::mutex> lock(inbox_mu_);
  return !inbox_.empty();
}

void Scheduler::WaitInbox(int64_t until) {
  if (options_.clock && !options_.clock->Waits()) return;  // replay: time comes from the log
  std::unique_lock<std::mutex> lock(inbox_mu_);
  const auto deadline = std::chrono::steady_clock::time_point(std::chrono::nanoseconds(until));
  inbox_cv_.wait_until(lock, deadline, [&] { return !inbox_.empty() || cancelled_.load(); });
}

void Scheduler::DrainCompletions() {
  std::vector<uint64_t> ids;
  {
    std::lock_guard<std::mutex> lock(inbox_mu_);
    if (inbox_.empty()) return;
    ids.swap(inbox_);
  }
  for (uint64_t id : ids) {
    auto it = host_parked_.find(id);
    if (it == host_parked_.end()) continue;  // its wait ended already (a deadline)
    TaskRec* rec = it->second;
    host_parked_.erase(it);
    interp::PendingCall::Finish finish = rec->host_call->Take();
    rec->host_call.reset();
    rec->waiting = false;
    rec->waiting_ask = 0;
    // The value is built here, on the run's thread, under its heap account.
    interp::HostError herr;
    std::optional<Value> v = finish ? finish(&herr) : std::nullopt;
    if (v) {
      rec->task->ResumeHostValue(std::move(*v));
    } else if (herr.breach) {
      rec->task->ResumeBreach(std::move(*herr.breach));
    } else {
      rec->task->ResumeTrap(herr.code == TrapCode::kNone ? TrapCode::kHost : herr.code,
                            herr.message.empty() ? "host function failed" : herr.message);
    }
    Wake(rec);
  }
}

void Scheduler::DropHostWaits() {
  for (auto& [id, rec] : host_parked_) {
    if (rec->host_call) rec->host_call->Detach();
    rec->host_call.reset();
  }
  host_parked_.clear();
}

void Scheduler::Sleep(TaskRec* rec, int64_t ns) {
  int64_t at;
  if (__builtin_add_overflow(Now(), ns, &at)) at = std::numeric_limits<int64_t>::max();
  // It ends at the task's wall deadline at the latest (a sandbox's or the
  // run's): the task then resumes into the breach.
  if (std::optional<int64_t> wall = rec->task->current_meter()->WallDeadline())
    at = std::min(at, *wall);
  AddTimer(Timer{at, BeginWait(rec), rec, nullptr, /*sleep=*/true});
}

void Scheduler::AddTimer(Timer t) {
  timers_.push_back(t);
  std::push_heap(timers_.begin(), timers_.end(),
                 [](const Timer& x, const Timer& y) { return x > y; });
}

// Room in `a`'s mailbox admits the senders that wait for it under `block`,
// however the room appeared (a turn started, a stale ask was dropped).
void Scheduler::AdmitBlocked(Agent* a) {
  while (a->HasBlocked() && a->mailbox.size() + (a->turn_pending ? 1 : 0) < a->mailbox_cap) {
    auto [sender, msg] = std::move(a->blocked->front());
    a->blocked->pop_front();
    if (!WaitsFor(sender, msg.ask_id)) continue;  // its sender was cancelled: never sent
    bool is_ask = msg.asker != nullptr;
    a->mailbox.push_back(std::move(msg));
    if (!is_ask) {
      EndWait(sender);
      sender->task->Resume(Value::Unit());
      Wake(sender);
    }
  }
}

bool Scheduler::Stale(const Timer& t) {
  if (t.restart) return false;
  return t.cancel ? !Serves(t.asker, t.ask_id) : !WaitsFor(t.asker, t.ask_id);
}

bool Scheduler::RestartHasWork(Agent* a) {
  // A loop, not a recursion: supervisors nest as deep as the guest makes them.
  std::vector<Agent*> todo{a};
  while (!todo.empty()) {
    Agent* x = todo.back();
    todo.pop_back();
    if (!x->mailbox.empty() || x->HasBlocked()) return true;
    if (x->IsSupervisor())
      todo.insert(todo.end(), x->Sv().children.begin(), x->Sv().children.end());
  }
  return false;
}

bool Scheduler::OnlyIdleRestarts() {
  for (const Timer& t : timers_)
    if (!Stale(t) && (!t.restart || RestartHasWork(t.restart))) return false;
  return true;
}

void Scheduler::FireTimers(bool wait) {
  auto later = [](const Timer& a, const Timer& b) { return a > b; };
  // Every wait ends at the run's wall deadline (runtime.md §2).
  const std::optional<int64_t> wall = root_->WallDeadlineNs();
  while (!timers_.empty()) {
    const Timer t = timers_.front();
    int64_t now = Now();
    const bool stale = Stale(t);
    if (t.at > now && !stale) {
      if (!wait || cancelled_.load() || InboxReady()) return;
      if (WallPassed(wall, now)) return;
      // After main, a backoff holds the run only for messages its restart
      // would handle: when every timer left is a restart that would find
      // none, the run ends now (the drain is done).
      if (t.restart && main_done_ && host_parked_.empty() && OnlyIdleRestarts()) {
        timers_.clear();
        return;
      }
      int64_t until = wall ? std::min(t.at, *wall) : t.at;
      // A host call's completion or an interrupt wakes it sooner.
      WaitInbox(std::min(until, now + 10'000'000));
      continue;
    }
    std::pop_heap(timers_.begin(), timers_.end(), later);
    timers_.pop_back();
    if (t.restart) {  // a backoff ended
      Restart(t.restart, 0);
      wait = false;
      continue;
    }
    if (stale) continue;
    if (t.cancel) {  // the ask this turn answers passed its deadline
      // A waiting turn ends now; one about to run is cancelled as it
      // begins its slice (RunSlice).
      if (t.asker->waiting) CancelTurn(t.asker);
      wait = false;
      continue;
    }
    if (t.host) {  // a late host call's wall deadline passed first
      auto it = host_parked_.find(t.ask_id);
      if (it != host_parked_.end()) {
        TaskRec* rec = it->second;
        EndWait(rec);
        const std::shared_ptr<interp::Meter>& m = rec->task->current_meter();
        std::optional<ir::Breach> b = m->Exhausted(ir::LimitId::kWall);
        if (b) {
          rec->task->ResumeBreach(std::move(*b));
        } else {
          rec->task->ResumeTrap(TrapCode::kBudget, "wall-clock budget exceeded");
        }
        Wake(rec);
      }
      wait = false;
      continue;
    }
    if (t.sleep) {  // a sleep ended
      t.asker->waiting = false;
      t.asker->waiting_ask = 0;
      // Cut at a wall deadline of its scope that has passed on the
      // scheduler's clock: it resumes into that breach (decided here, not
      // by the task's own reading of the clock, so that a replay decides
      // it the same way).
      if (std::optional<ir::Breach> b = ScopeOf(t.asker)->WallExhaustedAt(now)) {
        t.asker->task->ResumeBreach(std::move(*b));
      } else {
        t.asker->task->Resume(MakeOk(Value::Unit()));
      }
      Wake(t.asker);
    } else {
      Answer(t.asker, t.ask_id, AskErr(ir::prelude::kDeadlineExceeded));
    }
    wait = false;
  }
}

void Scheduler::StartTurn(Agent* a) {
  if (a->busy || a->dead || a->restarting) return;
  // Messages whose asker gave up (its deadline passed) are dropped, in a
  // loop: their number is the guest's.
  while (!a->mailbox.empty()) {
    const Agent::Msg& m = a->mailbox.front();
    if (!(m.deadline && m.asker && !WaitsFor(m.asker, m.ask_id))) break;
    a->mailbox.pop_front();
  }
  AdmitBlocked(a);
  if (a->mailbox.empty()) return;
  Agent::Msg m = std::move(a->mailbox.front());
  a->mailbox.pop_front();
  // The turn's task is made when the turn reaches the front of the run
  // queue (BeginTurn), so it sees the state as it is then (after a restart,
  // the fresh one). Until then its message still counts against the
  // mailbox's capacity.
  TaskRec* rec = AcquireTurnRec();
  rec->agent = a;
  rec->pending = true;
  rec->msg = std::move(m);
  a->busy = true;
  a->turn_pending = true;
  ready_.push_back(rec);
}

// Turn records are recycled: a record that messages or timers may still
// name as an asker is only ever consulted through `waiting && waiting_ask ==
// id`, and ask ids are never reused, so a stale name is harmless.
Scheduler::TaskRec* Scheduler::AcquireTurnRec() {
  if (!free_recs_.empty()) {
    TaskRec* rec = free_recs_.back();
    free_recs_.pop_back();
    return rec;
  }
  tasks_.push_back(std::make_unique<TaskRec>());
  return tasks_.back().get();
}

void Scheduler::RecycleTurnRec(TaskRec* rec) {
  *rec = TaskRec();
  free_recs_.push_back(rec);
}

int Scheduler::TurnFn(uint32_t init_fn, const std::string& type, const std::string& msg) {
  absl::flat_hash_map<std::string, int>& by_msg = turn_fns_[init_fn];
  auto it = by_msg.find(absl::string_view(msg.data(), msg.size()));
  if (it != by_msg.end()) return it->second;
  const int fn = module_->FindFunction(absl::StrCat(type, "::__turn_", msg));
  by_msg.emplace(msg, fn);
  return fn;
}

bool Scheduler::BeginTurn(TaskRec* rec) {
  Agent* a = rec->agent;
  rec->pending = false;
  a->turn_pending = false;  // its message no longer counts: room for a blocked sender
  AdmitBlocked(a);
  if (a->dead) {
    a->busy = false;
    TaskRec* asker = rec->msg.asker;
    if (asker && WaitsFor(asker, rec->msg.ask_id)) {
      if (rec->msg.deadline) {
        Answer(asker, rec->msg.ask_id, AskErr(ir::prelude::kDeadAgent));
      } else {
        asker->waiting = false;
        asker->task->ResumeTrap(TrapCode::kDeadAgent,
                                absl::StrCat("ask failed: agent ", a->name, " is dead"));
        Wake(asker);
      }
    }
    return false;
  }
  if (a->restarting) {  // back in the mailbox until the restart
    a->mailbox.push_front(std::move(rec->msg));
    a->busy = false;
    return false;
  }
  int fn = TurnFn(a->init_fn, a->type, rec->msg.name);
  if (fn < 0) {
    FailAgent(a, TrapCode::kHandlerMissing,
              absl::StrCat("handler missing: ", a->type, " has no handler for ", rec->msg.name),
              rec);
    return false;
  }
  std::vector<Value> args;
  args.push_back(a->state);
  for (Value& v : rec->msg.args) args.push_back(std::move(v));
  rec->msg.args.clear();
  std::string error;
  if (!InitTask(rec, fn, std::move(args), a->tracker, &error, rec->msg.deadline)) {
    FailAgent(a, TrapCode::kType, absl::StrCat(rec->msg.name, ": ", error), rec);
    return false;
  }
  rec->generation = a->generation;
  // Whatever it waits for, it waits until its asker's deadline at the
  // latest: then it is cancelled (runtime.md §5).
  if (rec->msg.deadline)
    AddTimer(Timer{rec->msg.deadline, rec->msg.ask_id, rec, nullptr, /*sleep=*/false,
                   /*host=*/false, /*cancel=*/true});
  return true;
}

void Scheduler::FailPlainAsk(TaskRec* asker, const std::string& text, const ir::Breach* breach) {
  asker->waiting = false;
  asker->waiting_ask = 0;
  std::optional<ir::Breach> shared;
  if (breach && breach->limit && asker->task)
    shared = asker->task->current_meter()->Exhausted(*breach->limit);
  if (shared) {
    asker->task->ResumeBreach(std::move(*shared));
  } else {
    asker->task->ResumeTrap(TrapCode::kDeadAgent, text);
  }
  Wake(asker);
}

void Scheduler::Emit(AgentEvent::Kind kind, const Agent* a, TrapCode code,
                     const std::string& message) {
  if (options_.on_event) options_.on_event(AgentEvent{kind, a->name, code, message});
}

std::optional<Value> Scheduler::Spawn(TaskRec* from, int init_fn, std::string_view name,
                                      std::vector<Value>& args, interp::HostError* err) {
  // The scope the spawner is in: the spawn counts against it (and every
  // tracker above it), and the new agent draws from it.
  std::shared_ptr<BudgetTracker> scope = ScopeOf(from);
  if (std::optional<ir::Breach> b = scope->RecordSpawn()) {
    err->breach = std::move(b);
    return std::nullopt;
  }
  if (init_fn < 0) {
    int children = module_->FindFunction(absl::StrCat(std::string(name), "::__children"));
    if (children >= 0) return SpawnSupervisor(from, children, name, scope, err);
    err->code = TrapCode::kType;
    err->message =
        absl::StrCat("spawn ", std::string(name), ": the program has no agent ", std::string(name));
    return std::nullopt;
  }
  auto a = std::make_unique<Agent>();
  a->id = static_cast<int64_t>(agents_.size()) + 1;
  a->init_fn = static_cast<uint32_t>(init_fn);
  a->type = std::string(name);
  a->name = absl::StrCat(std::string(name), "#", a->id);
  // An agent has no limits or grants of its own: its tracker is the scope's
  // (a child tracker with an empty policy would count exactly the same, at
  // 456 B per agent and one more level on every charge).
  a->tracker = scope;
  // The agent itself (its record, task, mailbox): a fixed charge; its state
  // is charged as its initialiser builds it.
  if (std::optional<ir::Breach> b = a->tracker->Charge(0, interp::cost::kAgent, 0)) {
    err->breach = std::move(b);
    return std::nullopt;
  }
  a->init_args = args;
  a->sup = spawning_sup_;
  // The tightest mailbox on its chain; the innermost policy.
  a->mailbox_cap = a->tracker->EffectiveMailbox().value_or(ir::kDefaultMailbox);
  a->mb_policy = a->tracker->EffectivePolicy();
  // The initialiser runs now, to completion, under the agent's chain.
  std::string error;
  TaskRec* init = NewTask(init_fn, std::move(args), nullptr, a->tracker, &error);
  if (!init) {
    err->code = TrapCode::kType;
    err->message = absl::StrCat("spawn ", std::string(name), ": ", error);
    return std::nullopt;
  }
  init->init = true;
  RunSlice(init);
  ExecOutcome& o = init->outcome;
  if (o.kind == Outcome::kSuspended) {
    err->code = TrapCode::kType;
    err->message =
        absl::StrCat("spawn ", std::string(name), ": an initialiser cannot wait for a reply");
    return std::nullopt;
  }
  if (o.kind == Outcome::kBreach) {  // a budget of the spawner's chain ran out
    err->breach = std::move(o.breach);
    return std::nullopt;
  }
  if (o.kind != Outcome::kOk) {
    err->code = o.code == TrapCode::kNone ? TrapCode::kType : o.code;
    err->message = o.code == TrapCode::kDepth ? o.message
                                              : absl::StrCat("spawn ", std::string(name),
                                                             ": initialiser failed: ", o.message);
    return std::nullopt;
  }
  a->state = std::move(o.value);
  if (spawning_sup_) spawning_sup_->Sv().children.push_back(a.get());
  agents_.push_back(std::move(a));
  if (options_.on_event)
    Emit(AgentEvent::Kind::kSpawned, agents_.back().get(), TrapCode::kNone, "");
  return Value::Agent(agents_.back()->id, static_cast<uint32_t>(init_fn));
}

Host::AskStatus Scheduler::Deliver(TaskRec* from, const Value& target, std::string_view msg,
                                   std::vector<Value>& args, bool ask,
                                   std::optional<int64_t> deadline_ns, Value* reply,
                                   interp::HostError* err) {
  // An ask with a deadline never traps: failures are Err(AskError) values.
  const bool result = ask && deadline_ns.has_value();
  if (!target.Is(interp::Tag::kAgent) || target.i() < 1 ||
      target.i() > static_cast<int64_t>(agents_.size())) {
    err->code = TrapCode::kType;
    err->message = absl::StrCat(ask ? "ask " : "send ", std::string(msg), " needs an agent handle");
    return Host::AskStatus::kFail;
  }
  Agent* a = agents_[target.i() - 1].get();
  if (a->dead) {
    if (!ask) return Host::AskStatus::kReply;  // a send to a dead agent is dropped
    if (result) {
      *reply = AskErr(ir::prelude::kDeadAgent);
      return Host::AskStatus::kReply;
    }
    err->code = TrapCode::kDeadAgent;
    err->message = absl::StrCat("ask failed: agent ", a->name, " is dead");
    return Host::AskStatus::kFail;
  }
  Agent::Msg m{std::string(msg), std::move(args), ask ? from : nullptr};
  const bool full = a->mailbox.size() + (a->turn_pending ? 1 : 0) >= a->mailbox_cap;
  if (full && a->mb_policy != ir::MailboxPolicy::kBlock) {
    if (!ask && a->mb_policy == ir::MailboxPolicy::kDrop) return Host::AskStatus::kReply;
    if (result) {
      *reply = AskErr(ir::prelude::kMailboxFull);
      return Host::AskStatus::kReply;
    }
    // The tracker whose mailbox limit it is names the breach.
    const uint64_t depth = a->mailbox.size() + (a->turn_pending ? 1 : 0) + 1;
    std::optional<ir::Breach> b = a->tracker->CheckMailboxDepth(depth, a->name);
    err->breach =
        b ? std::move(*b) : ir::Breach::Over(ir::LimitId::kMailbox, depth, a->mailbox_cap, a->name);
    return Host::AskStatus::kFail;
  }
  // The message's copy in the mailbox is charged to the sender's scope: its
  // record and its arguments (runtime.md §2).
  {
    uint64_t bytes = interp::cost::kMessage;
    for (const Value& v : m.args) bytes += interp::Estimate(v);
    if (std::optional<ir::Breach> b = ScopeOf(from)->Charge(0, bytes, 0)) {
      err->breach = std::move(b);
      return Host::AskStatus::kFail;
    }
  }
  if (ask || full) {
    // The sender waits from now on: for the reply (StartTurn below checks
    // it), for room (`block`), or both; the id names the wait either way.
    m.ask_id = BeginWait(from);
    if (result) {
      m.deadline = Now() + std::max<int64_t>(0, *deadline_ns);
      AddTimer(Timer{m.deadline, m.ask_id, from});
    }
  }
  if (full) {  // `block`: the sender waits for room
    a->Block().emplace_back(from, std::move(m));
    return Host::AskStatus::kWait;
  }
  a->mailbox.push_back(std::move(m));
  StartTurn(a);
  return ask ? Host::AskStatus::kWait : Host::AskStatus::kReply;
}

}  // namespace mty::runtime
