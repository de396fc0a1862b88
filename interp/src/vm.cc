// The dispatch loop. One body per instruction, instantiated three times:
// kFree (no budgets: no accounting at all), kMetered (steps charged per
// segment on entry, memory with one add and one compare) and kExact (per
// statement counting, entered only when the remaining step budget is smaller
// than the next segment, so the breach lands on exactly the N+1-th step).
#include "mty/interp/vm.h"

#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <new>

#include "absl/strings/str_cat.h"
#include "builtins.h"
#include "mty/ir/text.h"

#if (defined(__GNUC__) || defined(__clang__)) && !defined(MTY_FORCE_SWITCH_DISPATCH)
#define MTY_COMPUTED_GOTO 1
#else
#define MTY_COMPUTED_GOTO 0
#endif

namespace mty::interp {

namespace {
enum class Mode { kFree, kMetered, kExact };
enum class Stop {
  kDone,
  kTrap,
  kStepBudget,
  kMemBudget,
  kWallBudget,
  kCpuBudget,
  kSuspended,
  kInterrupted,
  kToExact,
  kReMode,    // the loop mode must change (a scope added or dropped limits); pc_ is set
  kContinue,  // (internal) nothing to stop for
};
// Owner slots of Task::owner_: which scope's limit is the effective one.
enum Owner { kOwnSteps = 0, kOwnMem = 1, kOwnDepth = 2, kOwnWall = 3, kOwnCpu = 4 };
// owner_[kOwnSteps] while a scheduler quantum is the tightest step limit.
constexpr int kQuantumOwner = -2;
int64_t SteadyNow() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
int64_t ThreadCpuNow() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}
int64_t SatAdd(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<int64_t>::max() : r;
}
constexpr int64_t kUnlimitedSteps = std::numeric_limits<int64_t>::max();
// References to references are followed this many times at most; more means
// a cycle (a reference stored into the place it refers to).
constexpr int kMaxRefHops = 64;
// Open sandbox scopes per task.
constexpr size_t kMaxScopes = 10000;
}  // namespace

Task::Task(std::shared_ptr<const Module> m, Host* host, Limits limits)
    : module_(std::move(m)), host_(host), limits_(limits) {
  consts_.resize(module_->functions.size());
  metered_ = limits_.steps || limits_.memory;
  steps_left_ = limits_.steps
                    ? static_cast<int64_t>(std::min<uint64_t>(*limits_.steps, kUnlimitedSteps))
                    : kUnlimitedSteps;
  mem_limit_ = limits_.memory ? *limits_.memory : std::numeric_limits<uint64_t>::max();
}

Task::~Task() {
  // Release registers before the module's constants go away.
  stack_.clear();
}

uint64_t Task::steps_used() const {
  if (!limits_.steps) return 0;
  const uint64_t limit = *limits_.steps;
  uint64_t left = static_cast<uint64_t>(std::max<int64_t>(steps_left_, 0));
  for (const Scope& s : scopes_) left += static_cast<uint64_t>(s.withheld_steps);
  if (quantum_) left += static_cast<uint64_t>(quantum_withheld_);
  return limit > left ? limit - left : 0;
}

void Task::ResumeTrap(TrapCode code, std::string message) {
  resume_reg_ = -1;
  pending_trap_code_ = std::move(code);
  pending_trap_message_ = std::move(message);
}

void Task::ConsumeExternal(uint64_t steps, uint64_t memory, int64_t cpu_ns) {
  if (limits_.steps)
    steps_left_ =
        steps_left_ > static_cast<int64_t>(steps) ? steps_left_ - static_cast<int64_t>(steps) : 0;
  mem_used_ += memory;
  cpu_base_ += cpu_ns;
}

void Task::SetQuantum(uint64_t steps) {
  if (steps == 0 || quantum_ || finished_) return;
  metered_ = true;
  int64_t lim = static_cast<int64_t>(std::min<uint64_t>(steps, kUnlimitedSteps));
  if (lim >= steps_left_) return;  // the budget is tighter already
  quantum_ = true;
  quantum_withheld_ = steps_left_ - lim;
  steps_left_ = lim;
  quantum_prev_owner_ = owner_[kOwnSteps];
  owner_[kOwnSteps] = kQuantumOwner;
}

void Task::Resume(Value reply) {
  if (resume_reg_ >= 0 && static_cast<size_t>(resume_reg_) < stack_.size())
    stack_[resume_reg_] = std::move(reply);
  resume_reg_ = -1;
}

int64_t Task::cpu_used_ns() const {
  return running_ ? cpu_base_ + (ThreadCpuNow() - thread_cpu_at_run_) : cpu_base_;
}

struct Exec {
  // ---- frames ----
  static const std::vector<Value>& Consts(Task& t, uint32_t fi) {
    std::vector<Value>& c = t.consts_[fi];
    const CompiledFunction& f = t.module_->functions[fi];
    if (c.size() != f.constants.size()) {
      c.clear();
      for (const ir::Constant& k : f.constants) {
        switch (k.kind) {
          case ir::Constant::Kind::kUnit: c.push_back(Value::Unit()); break;
          case ir::Constant::Kind::kBool: c.push_back(Value::Bool(k.i)); break;
          case ir::Constant::Kind::kInt: c.push_back(Value::Int(k.i)); break;
          case ir::Constant::Kind::kFloat: c.push_back(Value::Float(k.f)); break;
          case ir::Constant::Kind::kChar:
            c.push_back(Value::Char(static_cast<uint32_t>(k.i)));
            break;
          case ir::Constant::Kind::kStr: c.push_back(MakeStr(k.s)); break;
          case ir::Constant::Kind::kDuration: c.push_back(Value::Duration(k.i)); break;
          case ir::Constant::Kind::kSize: c.push_back(Value::Size(k.i)); break;
          case ir::Constant::Kind::kFn:
            c.push_back(Value::Fn(static_cast<uint32_t>(t.module_->FindFunction(k.s))));
            break;
        }
      }
    }
    return c;
  }

  // Pushes a frame for fn `fi` at the top of the stack; its locals are
  // initialised to (), its constants materialised. Arguments are written by
  // the caller afterwards at stack_[base + 1 + i]. Returns the base.
  static bool PushFrame(Task& t, uint32_t fi, uint32_t base, uint32_t ret_pc, int32_t ret_reg) {
    if (t.frames_.size() >= t.limits_.depth) return false;
    const CompiledFunction& f = t.module_->functions[fi];
    size_t need = static_cast<size_t>(base) + f.frame_size;
    if (t.stack_.size() < need) t.stack_.resize(std::max(need, t.stack_.size() * 2));
    // Registers above the top frame hold no heap values (PopFrame releases
    // them), so they are initialised without release checks.
    Value* r = t.stack_.data() + base;
    for (uint32_t i = 0; i < f.num_locals; ++i) r[i].RawSetUnit();
    const std::vector<Value>& c = Consts(t, fi);
    for (size_t i = 0; i < c.size(); ++i) {
      if (c[i].IsHeap()) {
        r[f.num_locals + i].RawSetUnit();
        r[f.num_locals + i] = c[i];
      } else {
        r[f.num_locals + i].RawCopyImmediate(c[i]);
      }
    }
    t.frames_.push_back(Frame{fi, f.frame_size, base, ret_pc, ret_reg, t.next_frame_id_++});
    return true;
  }

  static void PopFrame(Task& t) {
    const Frame& fr = t.frames_.back();
    Value* r = t.stack_.data() + fr.base;
    for (uint32_t i = 0; i < fr.size; ++i)
      if (r[i].IsHeap()) r[i].SetImm(Tag::kUnit, 0);
    t.frames_.pop_back();
  }

  static uint32_t TopOfStack(const Task& t) {
    const Frame& fr = t.frames_.back();
    return fr.base + fr.size;
  }

  // ---- traps ----
  static void SetTrap(Task& t, TrapCode code, std::string message) {
    t.trap_code_ = std::move(code);
    t.trap_message_ = std::move(message);
    t.trap_backtrace_.clear();
    uint32_t pc = t.pc_;
    for (size_t i = t.frames_.size(); i-- > 0;) {
      const Frame& fr = t.frames_[i];
      const CompiledFunction& f = t.module_->functions[fr.fn];
      ir::Loc loc = pc < f.loc.size() ? f.loc[pc] : ir::Loc{};
      t.trap_backtrace_.push_back({f.name, loc});
      pc = fr.ret_pc > 0 ? fr.ret_pc - 1 : 0;
    }
  }

  static Stop Trap(Task& t, TrapCode code, std::string message) {
    SetTrap(t, std::move(code), std::move(message));
    return Stop::kTrap;
  }

  // ---- scopes, fences and deadlines ----
  // Ends a scheduler quantum: the steps it withheld are the task's again.
  static void EndQuantum(Task& t) {
    if (!t.quantum_) return;
    t.quantum_ = false;
    if (t.owner_[kOwnSteps] == kQuantumOwner) {
      // The quantum was the binding limit: its steps are the task's again.
      t.steps_left_ = SatAdd(t.steps_left_, t.quantum_withheld_);
      t.owner_[kOwnSteps] = t.quantum_prev_owner_;
    } else {
      // A scope entered under the quantum owns the counter: the steps the
      // quantum held back belong behind the outermost such scope.
      for (Task::Scope& s : t.scopes_)
        if (s.prev_owner[kOwnSteps] == kQuantumOwner) {
          s.withheld_steps = SatAdd(s.withheld_steps, t.quantum_withheld_);
          break;
        }
    }
    t.quantum_withheld_ = 0;
    for (Task::Scope& s : t.scopes_)
      if (s.prev_owner[kOwnSteps] == kQuantumOwner) s.prev_owner[kOwnSteps] = t.quantum_prev_owner_;
  }

  static const ir::SandboxDecl* OwnerDecl(const Task& t, int slot) {
    int o = t.owner_[slot];
    return o < 0 ? nullptr : &t.module_->sandboxes[t.scopes_[o].decl];
  }
  static std::string Prefix(const ir::SandboxDecl* d) {
    return d ? absl::StrCat("sandbox ", d->name, ": ") : std::string();
  }
  static std::string DepthMessage(const Task& t) {
    const ir::SandboxDecl* d = OwnerDecl(t, kOwnDepth);
    return absl::StrCat(Prefix(d), "call depth exceeded: ",
                        d ? *d->policy.limits.Get(ir::LimitId::kDepth) : t.limits_.depth,
                        " frames");
  }

  // Publishes the effective deadlines to the watchdog and the host.
  static void PublishFences(Task& t) {
    t.fences_.wall_deadline.store(t.wall_deadline_, std::memory_order_relaxed);
    int64_t cpu = Fences::kNone;
    if (t.cpu_deadline_ != Fences::kNone && t.running_)
      cpu = SatAdd(t.thread_cpu_at_run_, t.cpu_deadline_ - t.cpu_base_);
    t.fences_.cpu_deadline.store(cpu, std::memory_order_relaxed);
    if (t.host_) t.host_->SetWallDeadline(t.wall_deadline_);
    if (t.watcher_) t.watcher_->FencesChanged(t);
  }

  // Whether a wall or CPU deadline has passed.
  static Stop CheckDeadlines(Task& t) {
    if (t.wall_deadline_ != Fences::kNone && SteadyNow() >= t.wall_deadline_)
      return Stop::kWallBudget;
    if (t.cpu_deadline_ != Fences::kNone && t.cpu_used_ns() >= t.cpu_deadline_)
      return Stop::kCpuBudget;
    return Stop::kContinue;
  }

  // The interrupt flag was set: by the host (cancel) or by a watchdog.
  static Stop Poked(Task& t) {
    t.interrupt_.store(false, std::memory_order_relaxed);
    if (t.cancel_.exchange(false, std::memory_order_relaxed)) return Stop::kInterrupted;
    return CheckDeadlines(t);
  }

  // Enters sandbox `di`: applies its limits where they are tighter than the
  // enclosing ones and asks the host to narrow capabilities. The step
  // counter is exact here (a scope change ends a segment).
  static Stop EnterScope(Task& t, uint32_t di, bool with_host = true,
                         const SandboxRemaining* rem = nullptr) {
    const ir::SandboxDecl& d = t.module_->sandboxes[di];
    const ir::Limits& dl = d.policy.limits;
    // With `rem`, what the sandbox has left replaces its full limits.
    std::optional<uint64_t> d_steps = dl.Get(ir::LimitId::kSteps);
    std::optional<uint64_t> d_memory = dl.Get(ir::LimitId::kMemory);
    std::optional<uint64_t> d_depth = dl.Get(ir::LimitId::kDepth);
    std::optional<int64_t> d_wall, d_cpu;
    if (auto w = dl.Get(ir::LimitId::kWall)) d_wall = static_cast<int64_t>(*w);
    if (auto c = dl.Get(ir::LimitId::kCpu)) d_cpu = static_cast<int64_t>(*c);
    const std::optional<uint64_t> full_steps = d_steps, full_memory = d_memory;
    if (rem) {
      if (rem->steps) d_steps = static_cast<uint64_t>(std::max<int64_t>(0, *rem->steps));
      if (rem->memory) d_memory = static_cast<uint64_t>(std::max<int64_t>(0, *rem->memory));
      if (rem->cpu_ns) d_cpu = std::max<int64_t>(1, *rem->cpu_ns);
      if (rem->wall_deadline) d_wall = std::max<int64_t>(1, rem->wall_deadline - SteadyNow());
    }
    // Hostile MtyIR can enter sandboxes in a loop without leaving them.
    if (t.scopes_.size() >= kMaxScopes)
      return Trap(t, TrapCode::kDepth,
                  absl::StrCat("sandbox nesting exceeded: ", kMaxScopes, " scopes"));
    const int me = static_cast<int>(t.scopes_.size());
    Task::Scope s;
    s.decl = di;
    s.frame = static_cast<uint32_t>(t.frames_.size());
    s.instance = ++t.next_scope_instance_;
    s.executed_at_entry = t.executed_steps();
    s.cpu_at_entry = t.cpu_used_ns();
    s.wall_at_entry = SteadyNow();
    if (rem) {  // account as if entered when the sandbox was
      if (rem->steps && full_steps)
        s.executed_at_entry -= std::min<uint64_t>(s.executed_at_entry, *full_steps - *d_steps);
    }
    std::copy(std::begin(t.owner_), std::end(t.owner_), std::begin(s.prev_owner));
    if (d_steps) {
      t.metered_ = true;
      // A scheduler quantum ends here (the scope's limit is measured against
      // the task's real remaining steps); the next slice gets a new one.
      EndQuantum(t);
      int64_t lim = static_cast<int64_t>(std::min<uint64_t>(*d_steps, kUnlimitedSteps));
      if (lim <= t.steps_left_) {
        s.withheld_steps = t.steps_left_ - lim;
        t.steps_left_ = lim;
        t.owner_[kOwnSteps] = me;
      }
    }
    s.mem_at_entry = t.mem_used_;
    // Entered with what is left: a breach reports the sandbox's whole use
    // (unsigned wrap-around cancels out in `used = mem - mem_at_entry`).
    if (rem && rem->memory && full_memory) s.mem_at_entry -= *full_memory - *d_memory;
    s.prev_mem_limit = t.mem_limit_;
    if (d_memory) {
      t.metered_ = true;
      uint64_t lim = t.mem_used_ + *d_memory;
      if (lim < t.mem_used_) lim = std::numeric_limits<uint64_t>::max();
      if (lim <= t.mem_limit_) {
        t.mem_limit_ = lim;
        t.owner_[kOwnMem] = me;
      }
    }
    s.prev_depth = t.limits_.depth;
    if (d_depth) {
      uint64_t lim = t.frames_.size() + *d_depth;
      if (lim <= t.limits_.depth) {
        t.limits_.depth = static_cast<uint32_t>(lim);
        t.owner_[kOwnDepth] = me;
      }
    }
    s.prev_wall = t.wall_deadline_;
    if (d_wall) {
      int64_t dline = SatAdd(SteadyNow(), *d_wall);
      if (dline <= t.wall_deadline_) {
        t.wall_deadline_ = dline;
        t.owner_[kOwnWall] = me;
      }
    }
    s.prev_cpu = t.cpu_deadline_;
    if (d_cpu) {
      int64_t dline = SatAdd(t.cpu_used_ns(), *d_cpu);
      if (dline <= t.cpu_deadline_) {
        t.cpu_deadline_ = dline;
        t.owner_[kOwnCpu] = me;
      }
    }
    t.scopes_.push_back(s);
    TrapCode code = TrapCode::kNone;
    std::string message;
    t.scopes_.back().host_scope = with_host;
    if (with_host && t.host_ && !t.host_->EnterSandbox(d, &code, &message)) {
      PopScope(t, /*host=*/false);
      return Trap(t, code == TrapCode::kNone ? TrapCode::kCapability : code, message);
    }
    if (d_wall || d_cpu) PublishFences(t);
    return Stop::kContinue;
  }

  // Leaves the innermost scope, restoring the enclosing limits; what the
  // scope consumed stays charged to the enclosing ones.
  static void PopScope(Task& t, bool host = true) {
    const Task::Scope s = t.scopes_.back();
    t.scopes_.pop_back();
    t.steps_left_ = SatAdd(t.steps_left_, s.withheld_steps);
    t.mem_limit_ = s.prev_mem_limit;
    t.limits_.depth = s.prev_depth;
    bool fences = t.wall_deadline_ != s.prev_wall || t.cpu_deadline_ != s.prev_cpu;
    t.wall_deadline_ = s.prev_wall;
    t.cpu_deadline_ = s.prev_cpu;
    std::copy(std::begin(s.prev_owner), std::end(s.prev_owner), std::begin(t.owner_));
    if (host && s.host_scope && t.host_) t.host_->ExitSandbox();
    if (fences) PublishFences(t);
  }

  static std::string Kind(Task& t, const Value& v) { return KindName(*t.module_, v); }

  // ---- places and references ----
  struct Chain {
    std::vector<HeapObj*> objs;  // heap objects along a written path
    bool inserted = false;       // a map key was inserted by the path
    uint64_t key_est = 0;
  };

  // Applies one projection step to cur. key is the index/key for kIndex.
  static Value* Step(Task& t, Value* cur, RefStep::Kind kind, uint32_t index, uint32_t variant,
                     const Value* key, bool write, Chain* chain) {
    // Projections look through references, as Rust's auto-deref does.
    for (int hops = 0; cur->Is(Tag::kRef); ++hops) {
      if (hops > kMaxRefHops) {
        Trap(t, TrapCode::kType, "reference cycle: a reference that leads back to itself");
        return nullptr;
      }
      cur = RefTarget(t, static_cast<RefObj*>(cur->h()), write, chain);
      if (!cur) return nullptr;
    }
    const Module& m = *t.module_;
    switch (kind) {
      case RefStep::Kind::kField:
      case RefStep::Kind::kVariantField: {
        bool tuple_ok = kind == RefStep::Kind::kField && cur->Is(Tag::kTuple) && variant == 1;
        if (tuple_ok) {
          auto* a = static_cast<ArrayObj*>(write ? MakeUnique(*cur) : cur->h());
          if (index >= a->items.size()) {
            Trap(t, TrapCode::kIndex,
                 absl::StrCat("tuple index ", index, " out of range for a tuple of ",
                              a->items.size()));
            return nullptr;
          }
          if (write) chain->objs.push_back(a);
          return &a->items[index];
        }
        if (!cur->Is(Tag::kAdt)) {
          Trap(t, cur->Is(Tag::kDead) ? TrapCode::kUseOfDropped : TrapCode::kType,
               cur->Is(Tag::kDead) ? "use of a moved or dropped value"
                                   : absl::StrCat("field access on ", Kind(t, *cur)));
          return nullptr;
        }
        auto* a = static_cast<AdtObj*>(write ? MakeUnique(*cur) : cur->h());
        if (kind == RefStep::Kind::kVariantField && a->variant != variant) {
          const AdtInfo& info = m.adts[a->adt];
          Trap(t, TrapCode::kType,
               absl::StrCat("expected variant ",
                            variant < info.variant_names.size() ? info.variant_names[variant]
                                                                : absl::StrCat(variant),
                            " of ", info.name, ", found ", info.variant_names[a->variant]));
          return nullptr;
        }
        if (index >= a->fields.size()) {
          Trap(t, TrapCode::kType, absl::StrCat(m.adts[a->adt].name, " has no field ", index));
          return nullptr;
        }
        if (write) chain->objs.push_back(a);
        return &a->fields[index];
      }
      case RefStep::Kind::kIndex: {
        if (cur->Is(Tag::kArray)) {
          if (!key->Is(Tag::kInt)) {
            Trap(t, TrapCode::kType,
                 absl::StrCat("array index must be Int, found ", Kind(t, *key)));
            return nullptr;
          }
          auto* a = static_cast<ArrayObj*>(write ? MakeUnique(*cur) : cur->h());
          int64_t i = key->i();
          if (i < 0 || static_cast<uint64_t>(i) >= a->items.size()) {
            Trap(t, TrapCode::kIndex,
                 absl::StrCat("index ", i, " out of range for an array of length ",
                              a->items.size()));
            return nullptr;
          }
          if (write) chain->objs.push_back(a);
          return &a->items[i];
        }
        if (cur->Is(Tag::kMap)) {
          auto* mo = static_cast<MapObj*>(write ? MakeUnique(*cur) : cur->h());
          int j = mo->Find(*key);
          if (j < 0) {
            if (!write) {
              Trap(t, TrapCode::kIndex, absl::StrCat("key ", Debug(m, *key), " not found in map"));
              return nullptr;
            }
            if (!IsMapKey(*key)) {
              Trap(t, TrapCode::kType,
                   absl::StrCat("map keys must be Int, Str, Char, Bool or tuples, found ",
                                Kind(t, *key)));
              return nullptr;
            }
            mo->entries.push_back({*key, Value::Unit()});
            mo->index.emplace(*key, static_cast<uint32_t>(mo->entries.size() - 1));
            uint64_t k = Estimate(*key);
            mo->est += k + 8;
            chain->inserted = true;
            chain->key_est = k;
            for (HeapObj* h : chain->objs) h->est += k + 8;
            j = static_cast<int>(mo->entries.size() - 1);
          }
          if (write) chain->objs.push_back(mo);
          return &mo->entries[j].second;
        }
        Trap(t, cur->Is(Tag::kDead) ? TrapCode::kUseOfDropped : TrapCode::kType,
             cur->Is(Tag::kDead) ? "use of a moved or dropped value"
                                 : absl::StrCat("cannot index ", Kind(t, *cur)));
        return nullptr;
      }
    }
    return nullptr;
  }

  static Value* RefTarget(Task& t, const RefObj* r, bool write, Chain* chain) {
    if (r->frame_id != 0) {
      bool live = false;
      for (size_t i = t.frames_.size(); i-- > 0;) {
        const Frame& fr = t.frames_[i];
        if (r->slot >= fr.base && r->slot < fr.base + fr.size) {
          live = fr.id == r->frame_id;
          break;
        }
      }
      if (!live) {
        Trap(t, TrapCode::kUseOfDropped, "use of a reference to a local whose frame has returned");
        return nullptr;
      }
    }
    if (write && !r->is_mut) {
      Trap(t, TrapCode::kType, "write through a shared reference (&); use &mut");
      return nullptr;
    }
    Value* cur = &t.stack_[r->slot];
    for (const RefStep& s : r->steps) {
      uint32_t idx = s.kind == RefStep::Kind::kIndex ? 0 : static_cast<uint32_t>(s.key.i());
      cur = Step(t, cur, s.kind, idx, s.variant, &s.key, write, chain);
      if (!cur) return nullptr;
    }
    return cur;
  }

  static Value* Resolve(Task& t, Value* R, const PlaceDesc& d, bool write, Chain* chain) {
    Value* cur = &R[d.base];
    for (const ir::Projection& pr : d.proj) {
      switch (pr.kind) {
        case ir::Projection::Kind::kDeref:
          if (!cur->Is(Tag::kRef)) {
            Trap(t, TrapCode::kType, absl::StrCat("deref of ", Kind(t, *cur), ", not a reference"));
            return nullptr;
          }
          cur = RefTarget(t, static_cast<RefObj*>(cur->h()), write, chain);
          break;
        case ir::Projection::Kind::kField:
          cur = Step(t, cur, RefStep::Kind::kField, pr.index, 0, nullptr, write, chain);
          break;
        case ir::Projection::Kind::kTupleIndex:
          if (!cur->Is(Tag::kTuple)) {
            Trap(t, cur->Is(Tag::kDead) ? TrapCode::kUseOfDropped : TrapCode::kType,
                 cur->Is(Tag::kDead) ? "use of a moved or dropped value"
                                     : absl::StrCat("tuple access on ", Kind(t, *cur)));
            return nullptr;
          }
          cur = Step(t, cur, RefStep::Kind::kField, pr.index, 1, nullptr, write, chain);
          break;
        case ir::Projection::Kind::kVariantField:
          cur = Step(t, cur, RefStep::Kind::kVariantField, pr.index, pr.variant, nullptr, write,
                     chain);
          break;
        case ir::Projection::Kind::kIndex:
          cur = Step(t, cur, RefStep::Kind::kIndex, 0, 0, &R[pr.index], write, chain);
          break;
      }
      if (!cur) return nullptr;
    }
    return cur;
  }

  static bool MakeRef(Task& t, Value* R, const PlaceDesc& d, bool is_mut, Value& out) {
    auto* ref = new RefObj();
    Value result = Value::Heap(ref);
    ref->is_mut = is_mut;
    const Frame& fr = t.frames_.back();
    ref->slot = fr.base + static_cast<uint32_t>(d.base);
    ref->frame_id = fr.id;
    for (const ir::Projection& pr : d.proj) {
      switch (pr.kind) {
        case ir::Projection::Kind::kDeref: {
          Value* cur = RefTarget(t, ref, false, nullptr);
          if (!cur) return false;
          if (!cur->Is(Tag::kRef)) {
            Trap(t, TrapCode::kType, absl::StrCat("deref of ", Kind(t, *cur), ", not a reference"));
            return false;
          }
          auto* inner = static_cast<RefObj*>(cur->h());
          if (is_mut && !inner->is_mut) {
            Trap(t, TrapCode::kType, "&mut through a shared reference");
            return false;
          }
          ref->slot = inner->slot;
          ref->frame_id = inner->frame_id;
          ref->steps = inner->steps;
          break;
        }
        case ir::Projection::Kind::kField:
          ref->steps.push_back({RefStep::Kind::kField, 0, Value::Int(pr.index)});
          break;
        case ir::Projection::Kind::kTupleIndex:
          ref->steps.push_back({RefStep::Kind::kField, 1, Value::Int(pr.index)});
          break;
        case ir::Projection::Kind::kVariantField:
          ref->steps.push_back({RefStep::Kind::kVariantField, pr.variant, Value::Int(pr.index)});
          break;
        case ir::Projection::Kind::kIndex:
          ref->steps.push_back({RefStep::Kind::kIndex, 0, R[pr.index]});
          break;
      }
    }
    // Check now that the place exists, so a bad reference fails where made.
    if (!RefTarget(t, ref, false, nullptr)) return false;
    out = std::move(result);
    return true;
  }

  static void AddEst(Chain& chain, int64_t delta) {
    for (HeapObj* h : chain.objs)
      h->est = static_cast<uint64_t>(static_cast<int64_t>(h->est) + delta);
  }

  // ---- the loop ----
  template <Mode M>
  static Stop Loop(Task& t);

  static ExecOutcome Finish(Task& t, Stop s);
};

template <Mode M>
Stop Exec::Loop(Task& t) {
  const Module& mod = *t.module_;
  const CompiledFunction* fn = &mod.functions[t.frames_.back().fn];
  const Instr* code = fn->code.data();
  const Instr* pc = code + t.pc_;
  Value* R = t.stack_.data() + t.frames_.back().base;
  int64_t steps = t.steps_left_;
  uint64_t mem = t.mem_used_;
  uint64_t mem_limit = t.mem_limit_;
  std::atomic<bool>& interrupt = t.interrupt_;
  Ctx cx{mod, t.host_, &mem, mem_limit, {}, {}, false};
  // Handlers leave through computed gotos, which skip destructors: a handler
  // must not keep a local that owns memory alive at NEXT()/DISPATCH(). These
  // reusable buffers live for the whole loop instead.
  std::vector<Value> args;
  Chain chain;
  std::string effect_msg;
  TrapCode effect_code = TrapCode::kNone;
  Value target_buf;  // a send's or ask's target
  uint32_t target_for_push = 0;

#define SAVE()                                \
  do {                                        \
    t.pc_ = static_cast<uint32_t>(pc - code); \
    t.steps_left_ = steps;                    \
    t.mem_used_ = mem;                        \
  } while (0)
#define RELOAD()                                 \
  do {                                           \
    fn = &mod.functions[t.frames_.back().fn];    \
    code = fn->code.data();                      \
    R = t.stack_.data() + t.frames_.back().base; \
  } while (0)
#define TRAP(c, msg)        \
  do {                      \
    SAVE();                 \
    return Trap(t, c, msg); \
  } while (0)
#define FAIL_CX()                               \
  do {                                          \
    SAVE();                                     \
    if (cx.mem_breach) return Stop::kMemBudget; \
    return Trap(t, cx.code, cx.message);        \
  } while (0)
#define FAILED()        \
  do {                  \
    SAVE();             \
    return Stop::kTrap; \
  } while (0)
// Copies (or moves) call arguments `from` onwards into `args`; with
// from == 1, argument 0 (a send's or ask's target) goes to `target_buf`.
#define GATHER_ARGS(d, from)                          \
  do {                                                \
    args.clear();                                     \
    for (size_t i_ = 0; i_ < (d).args.size(); ++i_) { \
      const ArgDesc& a_ = (d).args[i_];               \
      DEAD_CHECK(R[a_.reg]);                          \
      if ((from) > 0 && i_ == 0) {                    \
        target_buf = R[a_.reg];                       \
      } else {                                        \
        args.push_back(R[a_.reg]);                    \
      }                                               \
      if (a_.move) R[a_.reg].Kill();                  \
    }                                                 \
  } while (0)
// The host makes the task wait (a reply, mailbox room): stop after this
// instruction; Task::Resume writes the result to its destination.
#define WAIT_FOR_HOST()                                                  \
  do {                                                                   \
    t.resume_reg_ = static_cast<int64_t>(t.frames_.back().base) + pc->a; \
    ++pc;                                                                \
    SAVE();                                                              \
    return Stop::kSuspended;                                             \
  } while (0)
#define CHARGE_MEM(n)                     \
  do {                                    \
    if constexpr (M != Mode::kFree) {     \
      mem += (n);                         \
      if (mem > mem_limit) [[unlikely]] { \
        SAVE();                           \
        return Stop::kMemBudget;          \
      }                                   \
    }                                     \
  } while (0)
  // Entering the segment that starts at `target` (a pc in fn).
#define ENTER_SEGMENT(target_pc)             \
  do {                                       \
    if constexpr (M == Mode::kMetered) {     \
      int64_t cost_ = code[(target_pc)].seg; \
      if (steps < cost_) [[unlikely]] {      \
        pc = code + (target_pc);             \
        SAVE();                              \
        return Stop::kToExact;               \
      }                                      \
      steps -= cost_;                        \
    }                                        \
  } while (0)
#define SAFEPOINT(target_pc)                                      \
  do {                                                            \
    if (interrupt.load(std::memory_order_relaxed)) [[unlikely]] { \
      pc = code + (target_pc);                                    \
      SAVE();                                                     \
      Stop s_ = Poked(t);                                         \
      if (s_ != Stop::kContinue) return s_;                       \
    }                                                             \
  } while (0)
#define JUMP(target_pc)                                                     \
  do {                                                                      \
    int32_t tgt_ = (target_pc);                                             \
    SAFEPOINT(tgt_);                                                        \
    if constexpr (M == Mode::kExact) {                                      \
      if (t.relax_exact_) [[unlikely]] { /* back to metered at a segment */ \
        pc = code + tgt_;                                                   \
        SAVE();                                                             \
        t.relax_exact_ = false;                                             \
        t.exact_ = false;                                                   \
        return Stop::kReMode;                                               \
      }                                                                     \
    }                                                                       \
    ENTER_SEGMENT(tgt_);                                                    \
    pc = code + tgt_;                                                       \
    DISPATCH();                                                             \
  } while (0)
#define EXACT_STEP()                                                     \
  do {                                                                   \
    if constexpr (M == Mode::kExact) {                                   \
      int64_t k_ = fn->steps_at[pc - code];                              \
      if (k_) {                                                          \
        if (steps < k_) {                                                \
          t.breach_index_ = static_cast<uint32_t>(steps);                \
          steps = 0; /* the budget is used up: the breach is step N+1 */ \
          SAVE();                                                        \
          return Stop::kStepBudget;                                      \
        }                                                                \
        steps -= k_;                                                     \
      }                                                                  \
    }                                                                    \
  } while (0)

#if MTY_COMPUTED_GOTO
  static void* const kLabels[] = {
#define OP(name, text, fmt, doc) &&L_##name,
#include "mty/interp/opcodes.def"
#undef OP
  };
#define DISPATCH()                           \
  do {                                       \
    EXACT_STEP();                            \
    goto* kLabels[static_cast<int>(pc->op)]; \
  } while (0)
#define CASE(name) L_##name:
  DISPATCH();
#else
#define DISPATCH() goto dispatch
#define CASE(name) case Op::name:
dispatch:
  EXACT_STEP();
  switch (pc->op) {
#endif
#define NEXT()  \
  do {          \
    ++pc;       \
    DISPATCH(); \
  } while (0)
#define DEAD_CHECK(v)                                                   \
  do {                                                                  \
    if ((v).Is(Tag::kDead)) [[unlikely]]                                \
      TRAP(TrapCode::kUseOfDropped, "use of a moved or dropped value"); \
  } while (0)

  CASE(Move) {
    DEAD_CHECK(R[pc->b]);
    R[pc->a] = R[pc->b];
    NEXT();
  }
  CASE(MoveKill) {
    DEAD_CHECK(R[pc->b]);
    R[pc->a] = std::move(R[pc->b]);
    R[pc->b].Kill();
    NEXT();
  }
  CASE(Kill) {
    R[pc->a].Kill();
    NEXT();
  }
  CASE(Live) {
    R[pc->a].SetImm(Tag::kUnit, 0);
    NEXT();
  }
  CASE(LoadPlace) {
    SAVE();
    Value* v = Resolve(t, R, fn->places[pc->b], false, nullptr);
    if (!v) return Stop::kTrap;
    DEAD_CHECK(*v);
    Value copy = *v;
    R[pc->a] = std::move(copy);
    NEXT();
  }
  CASE(StorePlace) {
    SAVE();
    DEAD_CHECK(R[pc->b]);
    Value v = R[pc->b];
    chain.objs.clear();
    chain.inserted = false;
    Value* dst = Resolve(t, R, fn->places[pc->a], true, &chain);
    if (!dst) return Stop::kTrap;
    int64_t delta = static_cast<int64_t>(Estimate(v)) - static_cast<int64_t>(Estimate(*dst));
    *dst = std::move(v);
    AddEst(chain, delta);
    if (chain.inserted) CHARGE_MEM(chain.key_est + Estimate(*dst));
    NEXT();
  }

#define INT_BINOP(name, expr_ok)                           \
  CASE(name) {                                             \
    const Value& a_ = R[pc->b];                            \
    const Value& b_ = R[pc->c];                            \
    if (a_.Is(Tag::kInt) && b_.Is(Tag::kInt)) [[likely]] { \
      int64_t x = a_.i(), y = b_.i(), r_;                  \
      expr_ok R[pc->a].SetInt(r_);                         \
      NEXT();                                              \
    }                                                      \
    goto slow_binop;                                       \
  }
  INT_BINOP(Add, if (__builtin_add_overflow(x, y, &r_)) [[unlikely]] goto slow_binop;)
  INT_BINOP(Sub, if (__builtin_sub_overflow(x, y, &r_)) [[unlikely]] goto slow_binop;)
  INT_BINOP(Mul, if (__builtin_mul_overflow(x, y, &r_)) [[unlikely]] goto slow_binop;)
  INT_BINOP(Div, if (y == 0 || (y == -1 && x == INT64_MIN)) [[unlikely]] goto slow_binop;
            r_ = x / y;)
  INT_BINOP(Rem, if (y == 0 || (y == -1 && x == INT64_MIN)) [[unlikely]] goto slow_binop;
            r_ = x % y;)
  INT_BINOP(BitAnd, r_ = x & y;)
  INT_BINOP(BitOr, r_ = x | y;)
  INT_BINOP(BitXor, r_ = x ^ y;)
  INT_BINOP(Shl, if (y < 0 || y > 63) [[unlikely]] goto slow_binop;
            r_ = static_cast<int64_t>(static_cast<uint64_t>(x) << y);)
  INT_BINOP(Shr, if (y < 0 || y > 63) [[unlikely]] goto slow_binop; r_ = x >> y;)
#undef INT_BINOP
#define CMP_BINOP(name, op)                                \
  CASE(name) {                                             \
    const Value& a_ = R[pc->b];                            \
    const Value& b_ = R[pc->c];                            \
    if (a_.Is(Tag::kInt) && b_.Is(Tag::kInt)) [[likely]] { \
      R[pc->a].SetBool(a_.i() op b_.i());                  \
      NEXT();                                              \
    }                                                      \
    goto slow_binop;                                       \
  }
  CMP_BINOP(Eq, ==)
  CMP_BINOP(Ne, !=)
  CMP_BINOP(Lt, <)
  CMP_BINOP(Le, <=)
  CMP_BINOP(Gt, >)
  CMP_BINOP(Ge, >=)
#undef CMP_BINOP
  CASE(Neg) {
    Value out;
    if (!Unary(cx, Op::Neg, R[pc->b], out)) FAIL_CX();
    R[pc->a] = std::move(out);
    NEXT();
  }
  CASE(Not) {
    Value out;
    if (!Unary(cx, Op::Not, R[pc->b], out)) FAIL_CX();
    R[pc->a] = std::move(out);
    NEXT();
  }
  CASE(MakeRef) {
    SAVE();
    Value out;
    if (!MakeRef(t, R, fn->places[pc->b], pc->c != 0, out)) return Stop::kTrap;
    R[pc->a] = std::move(out);
    NEXT();
  }
  CASE(Deref) {
    const Value& r = R[pc->b];
    if (!r.Is(Tag::kRef))
      TRAP(TrapCode::kType, absl::StrCat("deref of ", Kind(t, r), ", not a reference"));
    SAVE();
    Value* target = RefTarget(t, static_cast<RefObj*>(r.h()), false, nullptr);
    if (!target) return Stop::kTrap;
    DEAD_CHECK(*target);
    Value copy = *target;
    R[pc->a] = std::move(copy);
    NEXT();
  }
  CASE(NewAdt) {
    const CallDesc& d = fn->calls[pc->b];
    auto* o = new AdtObj();
    Value v = Value::Heap(o);
    o->adt = static_cast<uint32_t>(d.adt);
    o->variant = d.variant;
    o->fields.reserve(d.args.size());
    uint64_t est = 24;
    for (const ArgDesc& a : d.args) {
      DEAD_CHECK(R[a.reg]);
      est += Estimate(R[a.reg]);
      if (a.move) {
        o->fields.push_back(std::move(R[a.reg]));
        R[a.reg].Kill();
      } else {
        o->fields.push_back(R[a.reg]);
      }
    }
    o->est = est;
    CHARGE_MEM(est);
    R[pc->a] = std::move(v);
    NEXT();
  }
  CASE(NewTuple) {
    const CallDesc& d = fn->calls[pc->b];
    auto* o = new ArrayObj(Tag::kTuple);
    Value v = Value::Heap(o);
    o->items.reserve(d.args.size());
    uint64_t sum = 0;
    for (const ArgDesc& a : d.args) {
      DEAD_CHECK(R[a.reg]);
      sum += Estimate(R[a.reg]);
      if (a.move) {
        o->items.push_back(std::move(R[a.reg]));
        R[a.reg].Kill();
      } else {
        o->items.push_back(R[a.reg]);
      }
    }
    o->est = 24 + sum;  // a tuple value's estimate; TupleInit charges 16 + elements
    CHARGE_MEM(16 + sum);
    R[pc->a] = std::move(v);
    NEXT();
  }
  CASE(NewArray) {
    const CallDesc& d = fn->calls[pc->b];
    auto* o = new ArrayObj(Tag::kArray);
    Value v = Value::Heap(o);
    o->items.reserve(d.args.size());
    uint64_t est = 24;
    for (const ArgDesc& a : d.args) {
      DEAD_CHECK(R[a.reg]);
      est += Estimate(R[a.reg]);
      if (a.move) {
        o->items.push_back(std::move(R[a.reg]));
        R[a.reg].Kill();
      } else {
        o->items.push_back(R[a.reg]);
      }
    }
    o->est = est;
    CHARGE_MEM(est);
    R[pc->a] = std::move(v);
    NEXT();
  }
  CASE(NewMap) {
    const CallDesc& d = fn->calls[pc->b];
    auto* o = new MapObj();
    Value v = Value::Heap(o);
    for (size_t i = 0; i + 1 < d.args.size(); i += 2) {
      const Value& k = R[d.args[i].reg];
      const Value& x = R[d.args[i + 1].reg];
      DEAD_CHECK(k);
      DEAD_CHECK(x);
      if (!IsMapKey(k))
        TRAP(TrapCode::kType,
             absl::StrCat("map keys must be Int, Str, Char, Bool or tuples, found ", Kind(t, k)));
      int j = o->Find(k);
      if (j >= 0) {
        o->est -= Estimate(o->entries[j].second);
        o->entries[j].second = x;
        o->est += Estimate(x);
      } else {
        o->entries.push_back({k, x});
        o->index.emplace(k, static_cast<uint32_t>(o->entries.size() - 1));
        o->est += Estimate(k) + Estimate(x);
      }
    }
    for (const ArgDesc& a : d.args)
      if (a.move) R[a.reg].Kill();
    o->est += 24;
    CHARGE_MEM(o->est);
    R[pc->a] = std::move(v);
    NEXT();
  }
  CASE(GetField) {
    if (R[pc->b].Is(Tag::kRef)) {
      SAVE();
      Value* v = Step(t, &R[pc->b], RefStep::Kind::kField, static_cast<uint32_t>(pc->c), 0, nullptr,
                      false, nullptr);
      if (!v) return Stop::kTrap;
      Value copy = *v;
      R[pc->a] = std::move(copy);
      NEXT();
    }
    const Value& s = R[pc->b];
    if (!s.Is(Tag::kAdt)) {
      DEAD_CHECK(s);
      TRAP(TrapCode::kType, absl::StrCat("field access on ", Kind(t, s)));
    }
    auto* o = static_cast<AdtObj*>(s.h());
    if (static_cast<uint32_t>(pc->c) >= o->fields.size())
      TRAP(TrapCode::kType, absl::StrCat(mod.adts[o->adt].name, " has no field ", pc->c));
    Value copy = o->fields[pc->c];
    R[pc->a] = std::move(copy);
    NEXT();
  }
  CASE(GetTuple) {
    if (R[pc->b].Is(Tag::kRef)) {
      SAVE();
      Value* v = Step(t, &R[pc->b], RefStep::Kind::kField, static_cast<uint32_t>(pc->c), 1, nullptr,
                      false, nullptr);
      if (!v) return Stop::kTrap;
      Value copy = *v;
      R[pc->a] = std::move(copy);
      NEXT();
    }
    const Value& s = R[pc->b];
    if (!s.Is(Tag::kTuple)) {
      DEAD_CHECK(s);
      TRAP(TrapCode::kType, absl::StrCat("tuple access on ", Kind(t, s)));
    }
    auto* o = static_cast<ArrayObj*>(s.h());
    if (static_cast<uint32_t>(pc->c) >= o->items.size())
      TRAP(TrapCode::kIndex,
           absl::StrCat("tuple index ", pc->c, " out of range for a tuple of ", o->items.size()));
    Value copy = o->items[pc->c];
    R[pc->a] = std::move(copy);
    NEXT();
  }
  CASE(GetIndex) {
    SAVE();
    Value* v = Step(t, &R[pc->b], RefStep::Kind::kIndex, 0, 0, &R[pc->c], false, nullptr);
    if (!v) return Stop::kTrap;
    Value copy = *v;
    R[pc->a] = std::move(copy);
    NEXT();
  }
  CASE(Len) {
    const Value* sp = &R[pc->b];
    for (int hops = 0; sp->Is(Tag::kRef); ++hops) {
      SAVE();
      if (hops > kMaxRefHops)
        return Trap(t, TrapCode::kType, "reference cycle: a reference that leads back to itself");
      sp = RefTarget(t, static_cast<RefObj*>(sp->h()), false, nullptr);
      if (!sp) return Stop::kTrap;
    }
    const Value& s = *sp;
    int64_t n;
    switch (s.tag()) {
      case Tag::kStr: n = static_cast<int64_t>(static_cast<StrObj*>(s.h())->s.size()); break;
      case Tag::kArray:
      case Tag::kTuple:
        n = static_cast<int64_t>(static_cast<ArrayObj*>(s.h())->items.size());
        break;
      case Tag::kMap: n = static_cast<int64_t>(static_cast<MapObj*>(s.h())->entries.size()); break;
      default: DEAD_CHECK(s); TRAP(TrapCode::kType, absl::StrCat("len of ", Kind(t, s)));
    }
    R[pc->a].SetInt(n);
    NEXT();
  }
  CASE(Cast) {
    Value out;
    DEAD_CHECK(R[pc->b]);
    if (!DoCast(cx, R[pc->b], static_cast<CastKind>(pc->c), out)) FAIL_CX();
    R[pc->a] = std::move(out);
    NEXT();
  }
  CASE(MakeClosure) {
    const CallDesc& d = fn->calls[pc->b];
    auto* o = new ClosureObj();
    Value v = Value::Heap(o);
    o->fn = static_cast<uint32_t>(d.callee);
    for (const ArgDesc& a : d.args) {
      DEAD_CHECK(R[a.reg]);
      o->captures.push_back(R[a.reg]);
      if (a.move) R[a.reg].Kill();
    }
    CHARGE_MEM(16);
    R[pc->a] = std::move(v);
    NEXT();
  }
  CASE(MakeCap) {
    const CallDesc& d = fn->calls[pc->b];
    auto* o = new CapObj();
    Value v = Value::Heap(o);
    o->family = d.name;
    o->constraint = fn->messages[d.callee];
    CHARGE_MEM(16);
    R[pc->a] = std::move(v);
    NEXT();
  }
  CASE(Call) {
    const CallDesc& d = fn->calls[pc->b];
    const uint32_t base = TopOfStack(t);
    const uint32_t ret_pc = static_cast<uint32_t>(pc - code) + 1;
    const int32_t ret_reg = static_cast<int32_t>(t.frames_.back().base) + pc->a;
    for (const ArgDesc& a : d.args) DEAD_CHECK(R[a.reg]);
    SAFEPOINT(ret_pc - 1);
    SAVE();
    if (!PushFrame(t, static_cast<uint32_t>(d.callee), base, ret_pc, ret_reg))
      TRAP(TrapCode::kDepth, DepthMessage(t));
    Value* caller = t.stack_.data() + t.frames_[t.frames_.size() - 2].base;
    Value* callee = t.stack_.data() + base;
    for (size_t i = 0; i < d.args.size(); ++i) {
      if (d.args[i].move) {
        callee[1 + i] = std::move(caller[d.args[i].reg]);
        caller[d.args[i].reg].Kill();
      } else {
        callee[1 + i] = caller[d.args[i].reg];
      }
    }
    RELOAD();
    pc = code;
    ENTER_SEGMENT(0);
    DISPATCH();
  }
  CASE(CallIndirect) {
    const CallDesc& d = fn->calls[pc->b];
    const Value& c = R[d.callee];
    uint32_t target;
    args.clear();
    if (c.Is(Tag::kFn)) {
      target = static_cast<uint32_t>(c.i());
    } else if (c.Is(Tag::kClosure)) {
      auto* cl = static_cast<ClosureObj*>(c.h());
      target = cl->fn;
      for (const Value& v : cl->captures) args.push_back(v);
    } else {
      DEAD_CHECK(c);
      TRAP(TrapCode::kType, absl::StrCat("call of ", Kind(t, c), ", not a function"));
    }
    for (const ArgDesc& a : d.args) {
      DEAD_CHECK(R[a.reg]);
      args.push_back(R[a.reg]);
      if (a.move) R[a.reg].Kill();
    }
    const CompiledFunction& callee_fn = mod.functions[target];
    if (callee_fn.num_params != args.size())
      TRAP(TrapCode::kType, absl::StrCat("fn ", callee_fn.name, " takes ", callee_fn.num_params,
                                         " argument(s), given ", args.size()));
    target_for_push = target;
    goto push_call_target;
  }
  CASE(CallMethod) {
    const CallDesc& d = fn->calls[pc->b];
    SAVE();
    // Find the receiver (following references) without changing it yet.
    Value* recv = Resolve(t, R, fn->places[d.place], false, nullptr);
    if (!recv) return Stop::kTrap;
    for (int hops = 0; recv->Is(Tag::kRef); ++hops) {
      if (hops > kMaxRefHops)
        return Trap(t, TrapCode::kType, "reference cycle: a reference that leads back to itself");
      recv = RefTarget(t, static_cast<RefObj*>(recv->h()), false, nullptr);
      if (!recv) return Stop::kTrap;
    }
    DEAD_CHECK(*recv);
    args.clear();
    if (recv->Is(Tag::kAdt)) {
      const auto& table = mod.methods[static_cast<AdtObj*>(recv->h())->adt];
      auto it = table.find(d.name);
      if (it != table.end()) {
        uint32_t target = static_cast<uint32_t>(it->second);
        const CompiledFunction& callee_fn = mod.functions[target];
        if (callee_fn.first_param_is_mut_ref) {
          Value ref;
          if (!MakeRef(t, R, fn->places[d.place], true, ref)) return Stop::kTrap;
          // Follow references held in the place so the method sees the value.
          for (int hops = 0; hops <= kMaxRefHops; ++hops) {
            Value* cur = RefTarget(t, static_cast<RefObj*>(ref.h()), false, nullptr);
            if (!cur || !cur->Is(Tag::kRef)) break;
            ref = *cur;
          }
          args.push_back(std::move(ref));
        } else {
          args.push_back(*recv);
        }
        for (const ArgDesc& a : d.args) {
          DEAD_CHECK(R[a.reg]);
          args.push_back(R[a.reg]);
          if (a.move) R[a.reg].Kill();
        }
        if (callee_fn.num_params != args.size())
          TRAP(TrapCode::kType,
               absl::StrCat("method ", callee_fn.name, " takes ", callee_fn.num_params,
                            " argument(s) including self, given ", args.size()));
        target_for_push = target;
        goto push_call_target;
      }
    }
    for (const ArgDesc& a : d.args) {
      DEAD_CHECK(R[a.reg]);
      args.push_back(R[a.reg]);
      if (a.move) R[a.reg].Kill();
    }
    {
      bool mut = IsMutatingMethod(d.name);
      chain.objs.clear();
      chain.inserted = false;
      if (mut) {
        recv = Resolve(t, R, fn->places[d.place], true, &chain);
        if (!recv) return Stop::kTrap;
        for (int hops = 0; recv->Is(Tag::kRef); ++hops) {
          if (hops > kMaxRefHops)
            return Trap(t, TrapCode::kType,
                        "reference cycle: a reference that leads back to itself");
          recv = RefTarget(t, static_cast<RefObj*>(recv->h()), true, &chain);
          if (!recv) return Stop::kTrap;
        }
      }
      Value out;
      int64_t delta = 0;
      CallStatus st = BuiltinMethod(cx, *recv, d.name, args, out, &delta);
      if (st == CallStatus::kUnknown)
        TRAP(TrapCode::kUnknown, absl::StrCat("unknown method '", d.name, "' on ", Kind(t, *recv)));
      if (st == CallStatus::kFail) FAIL_CX();
      if (mut && delta) AddEst(chain, delta);
      R[pc->a] = std::move(out);
    }
    ++pc;
    ENTER_SEGMENT(pc - code);
    DISPATCH();
  }
  CASE(CallBuiltin) {
    const CallDesc& d = fn->calls[pc->b];
    GATHER_ARGS(d, 0);
    Value out;
    SAVE();
    CallStatus st = BuiltinFn(cx, d.name, args, out);
    if (st != CallStatus::kOk) FAIL_CX();
    R[pc->a] = std::move(out);
    NEXT();
  }
  CASE(Effect) {
    const CallDesc& d = fn->calls[pc->b];
    GATHER_ARGS(d, 0);
    SAVE();
    effect_msg.clear();
    effect_code = TrapCode::kNone;
    std::optional<Value> out = t.host_
                                   ? t.host_->InvokeEffect(d.name, args, &effect_code, &effect_msg)
                                   : std::optional<Value>();
    if (!out) {
      // A blocking call that gave up at the wall-clock deadline.
      if (effect_code == TrapCode::kBudget) {
        Stop s = CheckDeadlines(t);
        if (s != Stop::kContinue) return s;
      }
      if (effect_code != TrapCode::kNone) TRAP(effect_code, effect_msg);
      TRAP(TrapCode::kUnknown, effect_msg.empty() ? absl::StrCat("unknown effect '", d.name,
                                                                 "' (no host module provides it)")
                                                  : effect_msg);
    }
    CHARGE_MEM(Estimate(*out));
    R[pc->a] = std::move(*out);
    NEXT();
  }
  CASE(Spawn) {
    const CallDesc& d = fn->calls[pc->b];
    GATHER_ARGS(d, 0);
    SAVE();
    effect_msg.clear();
    effect_code = TrapCode::kNone;
    std::optional<Value> h =
        t.host_ ? t.host_->Spawn(d.callee, d.name, args, &effect_code, &effect_msg) : std::nullopt;
    if (!h) TRAP(effect_code == TrapCode::kNone ? TrapCode::kUnknown : effect_code, effect_msg);
    R[pc->a] = std::move(*h);
    NEXT();
  }
  CASE(Send) {
    const CallDesc& d = fn->calls[pc->b];
    GATHER_ARGS(d, 1);  // args[0] is the target
    SAVE();
    effect_msg.clear();
    effect_code = TrapCode::kNone;
    Host::AskStatus st = t.host_
                             ? t.host_->Send(target_buf, d.name, args, &effect_code, &effect_msg)
                             : Host::AskStatus::kFail;
    if (st == Host::AskStatus::kFail)
      TRAP(effect_code == TrapCode::kNone ? TrapCode::kUnknown : effect_code, effect_msg);
    R[pc->a] = Value::Unit();
    if (st == Host::AskStatus::kWait) WAIT_FOR_HOST();  // a full mailbox under `block`
    NEXT();
  }
  CASE(Ask) {
    const CallDesc& d = fn->calls[pc->b];
    GATHER_ARGS(d, 1);  // args[0] is the target
    std::optional<int64_t> deadline;
    if (pc->c >= 0) {
      DEAD_CHECK(R[pc->c]);
      deadline = R[pc->c].i();
    }
    SAVE();
    effect_msg.clear();
    effect_code = TrapCode::kNone;
    Host::AskStatus st = t.host_ ? t.host_->Ask(target_buf, d.name, args, deadline, &R[pc->a],
                                                &effect_code, &effect_msg)
                                 : Host::AskStatus::kFail;
    if (st == Host::AskStatus::kFail)
      TRAP(effect_code == TrapCode::kNone ? TrapCode::kUnknown : effect_code, effect_msg);
    if (st == Host::AskStatus::kWait) WAIT_FOR_HOST();
    ++pc;
    ENTER_SEGMENT(pc - code);
    DISPATCH();
  }
  CASE(Unsupported) { TRAP(TrapCode::kUnknown, fn->messages[pc->a]); }
  CASE(SandboxEnter) {
    SAVE();
    if (Stop s = EnterScope(t, static_cast<uint32_t>(pc->a)); s != Stop::kContinue) return s;
    steps = t.steps_left_;
    mem_limit = t.mem_limit_;
    cx.mem_limit = mem_limit;
    ++pc;
    if constexpr (M == Mode::kFree) {
      if (t.metered_) {  // the scope set a step or memory limit: count from here
        SAVE();
        return Stop::kReMode;
      }
    }
    ENTER_SEGMENT(pc - code);
    DISPATCH();
  }
  CASE(SandboxExit) {
    if (t.scopes_.empty() || t.scopes_.back().frame != t.frames_.size())
      TRAP(TrapCode::kType, "sandbox_exit without a matching sandbox_enter in this function");
    SAVE();
    PopScope(t);
    steps = t.steps_left_;
    mem_limit = t.mem_limit_;
    cx.mem_limit = mem_limit;
    ++pc;
    if constexpr (M == Mode::kExact) {  // the budget may be roomy again
      t.exact_ = false;
      SAVE();
      return Stop::kReMode;
    }
    ENTER_SEGMENT(pc - code);
    DISPATCH();
  }
  CASE(Charge) {
    ENTER_SEGMENT(pc - code);
    NEXT();
  }
  CASE(Jmp) { JUMP(pc->a); }
  CASE(JmpIf) {
    const Value& c = R[pc->a];
    if (c.Is(Tag::kBool)) [[likely]] {
      JUMP(c.b() ? pc->b : pc->c);
    }
    DEAD_CHECK(c);
    TRAP(TrapCode::kType, absl::StrCat("if condition must be Bool, found ", Kind(t, c)));
  }
#define CMP_BRANCH(name, op)                                                                    \
  CASE(name) {                                                                                  \
    const Value& a_ = R[pc->a];                                                                 \
    const Value& b_ = R[pc->b];                                                                 \
    bool r_;                                                                                    \
    if (a_.Is(Tag::kInt) && b_.Is(Tag::kInt)) [[likely]] {                                      \
      r_ = a_.i() op b_.i();                                                                    \
    } else {                                                                                    \
      DEAD_CHECK(a_);                                                                           \
      DEAD_CHECK(b_);                                                                           \
      Value out_;                                                                               \
      SAVE();                                                                                   \
      if (!Arith(cx,                                                                            \
                 static_cast<Op>(static_cast<int>(Op::Eq) +                                     \
                                 (static_cast<int>(Op::name) - static_cast<int>(Op::CmpBrEq))), \
                 a_, b_, out_))                                                                 \
        FAIL_CX();                                                                              \
      r_ = out_.b();                                                                            \
    }                                                                                           \
    if (!r_) {                                                                                  \
      if constexpr (M == Mode::kMetered) steps += fn->refund[pc - code];                        \
      JUMP(pc->c);                                                                              \
    }                                                                                           \
    NEXT();                                                                                     \
  }
  CMP_BRANCH(CmpBrEq, ==)
  CMP_BRANCH(CmpBrNe, !=)
  CMP_BRANCH(CmpBrLt, <)
  CMP_BRANCH(CmpBrLe, <=)
  CMP_BRANCH(CmpBrGt, >)
  CMP_BRANCH(CmpBrGe, >=)
#undef CMP_BRANCH
  CASE(SwitchInt) {
    const Value& v = R[pc->a];
    int64_t key;
    if (v.Is(Tag::kInt) || v.Is(Tag::kChar) || v.Is(Tag::kBool)) {
      key = v.i();
    } else {
      DEAD_CHECK(v);
      TRAP(TrapCode::kType, absl::StrCat("switch_int on ", Kind(t, v)));
    }
    const CaseTable& ct = fn->cases[pc->b];
    int32_t target = ct.otherwise;
    for (const auto& [val, tgt] : ct.cases)
      if (val == key) {
        target = tgt;
        break;
      }
    JUMP(target);
  }
  CASE(SwitchVariant) {
    const Value& v = R[pc->a];
    if (!v.Is(Tag::kAdt)) {
      DEAD_CHECK(v);
      TRAP(TrapCode::kType, absl::StrCat("switch_variant on ", Kind(t, v)));
    }
    int64_t key = static_cast<AdtObj*>(v.h())->variant;
    const CaseTable& ct = fn->cases[pc->b];
    int32_t target = ct.otherwise;
    for (const auto& [val, tgt] : ct.cases)
      if (val == key) {
        target = tgt;
        break;
      }
    JUMP(target);
  }
  CASE(TryReturnErr) {
    const Value& v = R[pc->a];
    bool ok = false;
    if (v.Is(Tag::kAdt)) {
      auto* o = static_cast<AdtObj*>(v.h());
      ok = (o->adt == kAdtResult && o->variant == 1) || (o->adt == kAdtOption && o->variant == 1);
    }
    if (!ok) {
      DEAD_CHECK(v);
      TRAP(TrapCode::kType,
           absl::StrCat("try_return_err needs an Err or None value, found ", Debug(mod, v)));
    }
    Value copy = v;
    R[0] = std::move(copy);
    goto do_return;
  }
  CASE(Return) { goto do_return; }
  CASE(Panic) {
    const Value& v = R[pc->a];
    TRAP(TrapCode::kPanic, absl::StrCat("panic: ", Display(mod, v)));
  }
  CASE(Unreachable) { TRAP(TrapCode::kUnreachable, "entered unreachable code"); }
  CASE(Suspend) {
    pc = code + pc->a;
    SAVE();
    return Stop::kSuspended;
  }
#if !MTY_COMPUTED_GOTO
  default: break;
}
#endif
TRAP(TrapCode::kType, "invalid instruction");

slow_binop : {
  Value out;
  DEAD_CHECK(R[pc->b]);
  DEAD_CHECK(R[pc->c]);
  SAVE();
  // `s = s + t` on a uniquely owned string appends in place; it charges what
  // building the new string would (24 + total length).
  if (pc->op == Op::Add && pc->a == pc->b && pc->b != pc->c && R[pc->a].Is(Tag::kStr) &&
      R[pc->c].Is(Tag::kStr) && R[pc->a].h()->rc == 1) {
    auto* dst = static_cast<StrObj*>(R[pc->a].h());
    const std::string& add = static_cast<StrObj*>(R[pc->c].h())->s;
    CHARGE_MEM(24 + dst->s.size() + add.size());
    dst->s += add;
    dst->est = 24 + dst->s.size();
    NEXT();
  }
  if (!Arith(cx, pc->op, R[pc->b], R[pc->c], out)) FAIL_CX();
  R[pc->a] = std::move(out);
  NEXT();
}

push_call_target : {
  const uint32_t base = TopOfStack(t);
  const uint32_t ret_pc = static_cast<uint32_t>(pc - code) + 1;
  const int32_t ret_reg = static_cast<int32_t>(t.frames_.back().base) + pc->a;
  SAFEPOINT(ret_pc - 1);
  SAVE();
  if (!PushFrame(t, target_for_push, base, ret_pc, ret_reg))
    TRAP(TrapCode::kDepth, DepthMessage(t));
  Value* callee = t.stack_.data() + base;
  for (size_t i = 0; i < args.size(); ++i) callee[1 + i] = std::move(args[i]);
  args.clear();
  RELOAD();
  pc = code;
  ENTER_SEGMENT(0);
  DISPATCH();
}

do_return : {
  Value ret = std::move(R[0]);
  const Frame done = t.frames_.back();
  if (!t.scopes_.empty() && t.scopes_.back().frame == t.frames_.size()) [[unlikely]] {
    // Returning out of sandbox bodies (`return`, `?`) leaves them.
    SAVE();
    while (!t.scopes_.empty() && t.scopes_.back().frame == t.frames_.size()) PopScope(t);
    steps = t.steps_left_;
    mem_limit = t.mem_limit_;
    cx.mem_limit = mem_limit;
  }
  PopFrame(t);
  if (t.frames_.empty()) {
    t.result_ = std::move(ret);
    SAVE();
    return Stop::kDone;
  }
  t.stack_[done.ret_reg] = std::move(ret);
  RELOAD();
  pc = code + done.ret_pc;
  SAFEPOINT(done.ret_pc);
  ENTER_SEGMENT(done.ret_pc);
  DISPATCH();
}

#undef SAVE
#undef RELOAD
#undef TRAP
#undef FAIL_CX
#undef FAILED
#undef CHARGE_MEM
#undef GATHER_ARGS
#undef WAIT_FOR_HOST
#undef ENTER_SEGMENT
#undef SAFEPOINT
#undef JUMP
#undef EXACT_STEP
#undef DISPATCH
#undef CASE
#undef NEXT
#undef DEAD_CHECK
}

ExecOutcome Exec::Finish(Task& t, Stop s) {
  ExecOutcome o;
  o.mem_used = t.mem_used_;
  o.mem_limit = t.limits_.memory.value_or(0);
  o.steps_used = t.steps_used();
  auto backtrace = [&] {
    // Budget breaches report where they happened, like traps.
    SetTrap(t, TrapCode::kBudget, "");
    if (s == Stop::kStepBudget && !t.frames_.empty() && !t.trap_backtrace_.empty()) {
      const CompiledFunction& f = t.module_->functions[t.frames_.back().fn];
      auto it = f.step_locs.find(t.pc_);
      if (it != f.step_locs.end() && t.breach_index_ < it->second.size())
        t.trap_backtrace_[0].loc = it->second[t.breach_index_];
    }
    return t.trap_backtrace_;
  };
  switch (s) {
    case Stop::kDone:
      o.kind = ExecOutcome::Kind::kOk;
      o.value = std::move(t.result_);
      t.finished_ = true;
      break;
    case Stop::kTrap:
      o.kind = ExecOutcome::Kind::kTrap;
      o.code = t.trap_code_;
      o.message = t.trap_message_;
      o.backtrace = t.trap_backtrace_;
      t.finished_ = true;
      break;
    case Stop::kStepBudget: {
      if (t.owner_[kOwnSteps] == kQuantumOwner) {
        // The scheduler's quantum ran out, not a budget: the instruction at
        // pc has not run; give back the steps it did not use and yield.
        t.steps_left_ = static_cast<int64_t>(t.breach_index_);
        EndQuantum(t);
        t.relax_exact_ = true;
        o.kind = ExecOutcome::Kind::kPreempted;
        return o;
      }
      const ir::SandboxDecl* d = OwnerDecl(t, kOwnSteps);
      o.kind = ExecOutcome::Kind::kStepBudget;
      o.code = TrapCode::kBudget;
      o.message =
          absl::StrCat(Prefix(d), "step budget exceeded: ",
                       d ? *d->policy.limits.Get(ir::LimitId::kSteps) : *t.limits_.steps, " steps");
      o.sandbox = d ? d->name : "";
      o.backtrace = backtrace();
      t.finished_ = true;
      break;
    }
    case Stop::kMemBudget: {
      const ir::SandboxDecl* d = OwnerDecl(t, kOwnMem);
      uint64_t used = d ? t.mem_used_ - t.scopes_[t.owner_[kOwnMem]].mem_at_entry : t.mem_used_;
      o.kind = ExecOutcome::Kind::kMemBudget;
      o.code = TrapCode::kBudget;
      o.message =
          absl::StrCat(Prefix(d), "memory budget exceeded: used ", used, " B > limit ",
                       d ? *d->policy.limits.Get(ir::LimitId::kMemory) : *t.limits_.memory, " B");
      o.sandbox = d ? d->name : "";
      if (d) {
        o.mem_used = used;
        o.mem_limit = *d->policy.limits.Get(ir::LimitId::kMemory);
      }
      o.backtrace = backtrace();
      t.finished_ = true;
      break;
    }
    case Stop::kWallBudget:
    case Stop::kCpuBudget: {
      bool wall = s == Stop::kWallBudget;
      const ir::SandboxDecl* d = OwnerDecl(t, wall ? kOwnWall : kOwnCpu);
      int64_t limit = d ? static_cast<int64_t>(
                              *d->policy.limits.Get(wall ? ir::LimitId::kWall : ir::LimitId::kCpu))
                        : (wall ? t.limits_.wall_ns : t.limits_.cpu_ns).value_or(0);
      o.kind = wall ? ExecOutcome::Kind::kWallBudget : ExecOutcome::Kind::kCpuBudget;
      o.code = TrapCode::kBudget;
      o.message = absl::StrCat(Prefix(d), wall ? "wall-clock" : "cpu",
                               " budget exceeded: ", ir::FormatDuration(limit));
      o.sandbox = d ? d->name : "";
      o.backtrace = backtrace();
      t.finished_ = true;
      break;
    }
    case Stop::kSuspended: o.kind = ExecOutcome::Kind::kSuspended; break;
    case Stop::kInterrupted: o.kind = ExecOutcome::Kind::kInterrupted; break;
    case Stop::kToExact:
    case Stop::kReMode:
    case Stop::kContinue: break;  // handled by Run
  }
  if (t.finished_) {
    while (!t.scopes_.empty()) PopScope(t);
    while (!t.frames_.empty()) PopFrame(t);
  }
  return o;
}

bool Task::Start(int fn, std::vector<Value> args, std::string* error) {
  if (started_) {
    *error = "task already started";
    return false;
  }
  if (fn < 0 || static_cast<size_t>(fn) >= module_->functions.size()) {
    *error = "no such function";
    return false;
  }
  const CompiledFunction& f = module_->functions[fn];
  if (f.num_params != args.size()) {
    *error =
        absl::StrCat("fn ", f.name, " takes ", f.num_params, " argument(s), given ", args.size());
    return false;
  }
  stack_.resize(std::max<size_t>(64, f.frame_size));
  Exec::PushFrame(*this, static_cast<uint32_t>(fn), 0, 0, -1);
  for (size_t i = 0; i < args.size(); ++i) stack_[1 + i] = std::move(args[i]);
  pc_ = 0;
  started_ = true;
  start_ns_ = SteadyNow();
  if (limits_.wall_deadline_ns > 0) {
    wall_deadline_ = limits_.wall_deadline_ns;
  } else if (limits_.wall_ns) {
    wall_deadline_ = SatAdd(start_ns_, *limits_.wall_ns);
  }
  if (limits_.cpu_ns) cpu_deadline_ = *limits_.cpu_ns;
  return true;
}

ExecOutcome Task::Run() {
  if (!started_ || finished_) {
    ExecOutcome o;
    o.kind = ExecOutcome::Kind::kTrap;
    o.code = TrapCode::kType;
    o.message = started_ ? "task already finished" : "task not started";
    return o;
  }
  if (pending_trap_code_ != TrapCode::kNone) {
    // The ask this task waits on failed (runtime.md §5): trap at the ask.
    if (pc_ > 0) --pc_;
    Exec::SetTrap(*this, pending_trap_code_, std::move(pending_trap_message_));
    pending_trap_code_ = TrapCode::kNone;
    return Exec::Finish(*this, Stop::kTrap);
  }
  // CPU time is the thread's CPU clock while the task runs.
  running_ = true;
  thread_cpu_at_run_ = ThreadCpuNow();
  clockid_t clock = CLOCK_THREAD_CPUTIME_ID;
  pthread_getcpuclockid(pthread_self(), &clock);
  fences_.cpu_clock.store(static_cast<int>(clock), std::memory_order_relaxed);
  if (wall_deadline_ != Fences::kNone || cpu_deadline_ != Fences::kNone) Exec::PublishFences(*this);
  struct EndRun {
    Task& t;
    ~EndRun() {
      Exec::EndQuantum(t);
      t.cpu_base_ += ThreadCpuNow() - t.thread_cpu_at_run_;
      t.running_ = false;
      if (t.cpu_deadline_ != Fences::kNone) Exec::PublishFences(t);
    }
  } end_run{*this};
  try {
    Stop s = Stop::kReMode;
    if (Stop d = Exec::CheckDeadlines(*this); d != Stop::kContinue) s = d;
    while (s == Stop::kReMode) {
      // Entering (or re-entering after a suspend, an interrupt or a mode
      // change) charges the segment at pc, as a jump there would have.
      if (metered_ && !exact_) {
        const CompiledFunction& f = module_->functions[frames_.back().fn];
        int64_t cost = f.seg_cost[pc_];
        if (steps_left_ < cost) {
          exact_ = true;
        } else {
          steps_left_ -= cost;
        }
      }
      if (!metered_) {
        s = Exec::Loop<Mode::kFree>(*this);
      } else if (!exact_) {
        s = Exec::Loop<Mode::kMetered>(*this);
        if (s == Stop::kToExact) {
          exact_ = true;
          s = Exec::Loop<Mode::kExact>(*this);
        }
      } else {
        s = Exec::Loop<Mode::kExact>(*this);
      }
    }
    return Exec::Finish(*this, s);
  } catch (const std::bad_alloc&) {
    Exec::SetTrap(*this, TrapCode::kBudget, "out of memory: the host could not allocate");
    return Exec::Finish(*this, Stop::kTrap);
  } catch (const std::length_error&) {
    Exec::SetTrap(*this, TrapCode::kBudget, "out of memory: allocation too large");
    return Exec::Finish(*this, Stop::kTrap);
  }
}

uint64_t Task::executed_steps() const {
  if (!metered_) return 0;
  const uint64_t base = limits_.steps ? *limits_.steps : static_cast<uint64_t>(kUnlimitedSteps);
  uint64_t left = static_cast<uint64_t>(std::max<int64_t>(steps_left_, 0));
  for (const Scope& s : scopes_) left += static_cast<uint64_t>(s.withheld_steps);
  if (quantum_) left += static_cast<uint64_t>(quantum_withheld_);
  return base > left ? base - left : 0;
}

std::vector<SandboxRemaining> Task::SandboxChainRemaining() const {
  std::vector<SandboxRemaining> out;
  const uint64_t executed = executed_steps();
  for (const Scope& s : scopes_) {
    const ir::SandboxDecl& d = module_->sandboxes[s.decl];
    SandboxRemaining r;
    r.decl = s.decl;
    r.instance = s.instance;
    const ir::Limits& dl = d.policy.limits;
    if (auto st = dl.Get(ir::LimitId::kSteps))
      r.steps =
          static_cast<int64_t>(*st) -
          static_cast<int64_t>(executed > s.executed_at_entry ? executed - s.executed_at_entry : 0);
    if (auto me = dl.Get(ir::LimitId::kMemory))
      r.memory = static_cast<int64_t>(*me) -
                 static_cast<int64_t>(mem_used_ > s.mem_at_entry ? mem_used_ - s.mem_at_entry : 0);
    if (auto c = dl.Get(ir::LimitId::kCpu))
      r.cpu_ns = static_cast<int64_t>(*c) - (cpu_used_ns() - s.cpu_at_entry);
    if (auto w = dl.Get(ir::LimitId::kWall))
      r.wall_deadline = s.wall_at_entry + static_cast<int64_t>(*w);
    out.push_back(r);
  }
  return out;
}

bool Task::EnterSandboxBudget(const SandboxRemaining& r) {
  if (!started_ || finished_ || r.decl >= module_->sandboxes.size()) return false;
  return Exec::EnterScope(*this, r.decl, /*with_host=*/false, &r) == Stop::kContinue;
}

}  // namespace mty::interp
