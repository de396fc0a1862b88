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
  kBreach,  // Task::breach_ is set
  kStepBudget,
  kMemBudget,
  kWallBudget,
  kCpuBudget,
  kSuspended,
  kInterrupted,     // the host cancelled the run
  kDeadlinePassed,  // the task's cancel deadline passed
  kToExact,
  kReMode,    // the loop mode must change (a scope added or dropped limits); pc_ is set
  kContinue,  // (internal) nothing to stop for
};
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

Task::Task(std::shared_ptr<const Module> m, Host* host, std::shared_ptr<Meter> meter)
    : module_(std::move(m)), host_(host), meter_(std::move(meter)) {
  consts_.resize(module_->functions.size());
}

Task::~Task() {
  // Release registers before the module's constants go away.
  stack_.clear();
}

void Task::ResumeTrap(TrapCode code, std::string message) {
  resume_reg_ = -1;
  pending_trap_code_ = code;
  pending_trap_message_ = std::move(message);
}

void Task::SetQuantum(uint64_t steps) {
  if (steps == 0 || finished_) return;
  quantum_ = true;
  quantum_left_ = static_cast<int64_t>(std::min<uint64_t>(steps, kUnlimitedSteps));
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
  // the caller afterwards at stack_[base + 1 + i]. False at the depth limit.
  static bool PushFrame(Task& t, uint32_t fi, uint32_t base, uint32_t ret_pc, int32_t ret_reg) {
    if (t.frames_.size() >= t.depth_limit_) return false;
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
    t.trap_code_ = code;
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
    SetTrap(t, code, std::move(message));
    return Stop::kTrap;
  }

  static Stop Breach(Task& t, ir::Breach b) {
    t.breach_ = std::move(b);
    return Stop::kBreach;
  }

  // ---- the budget chain and its cache ----
  static Meter& Scope(const Task& t) { return *t.current_meter(); }

  // Charges what the task used since the last flush to its chain. The loop's
  // counters must be saved (SAVE) first.
  static std::optional<ir::Breach> Flush(Task& t) {
    const int64_t used = t.steps_allowed_ - t.steps_left_;
    t.steps_allowed_ = t.steps_left_;
    if (t.quantum_) t.quantum_left_ -= used;
    const uint64_t mem = t.mem_used_ - t.mem_flushed_;
    t.mem_flushed_ = t.mem_used_;
    const int64_t cpu_now = t.cpu_used_ns();
    const int64_t cpu = cpu_now - t.cpu_flushed_;
    t.cpu_flushed_ = cpu_now;
    if (used == 0 && mem == 0 && cpu == 0) return std::nullopt;
    return Scope(t).Charge(static_cast<uint64_t>(std::max<int64_t>(used, 0)), mem, cpu);
  }

  // The depth limit of the innermost scope: the tightest of every tracker's
  // own limit on the path, counted from where this task entered it (from
  // its start for trackers it began inside).
  static void ComputeDepth(Task& t) {
    uint64_t limit = UINT32_MAX;
    t.depth_owner_ = -1;
    t.depth_meter_ = nullptr;
    for (const Meter* m = t.meter_.get(); m; m = m->parent())
      if (auto d = m->policy().limits.Get(ir::LimitId::kDepth); d && *d <= limit) {
        limit = *d;
        t.depth_meter_ = m;
      }
    for (size_t i = 0; i < t.scopes_.size(); ++i) {
      const Task::Scope& s = t.scopes_[i];
      if (auto d = s.meter->policy().limits.Get(ir::LimitId::kDepth); d && s.frame + *d <= limit) {
        limit = s.frame + *d;
        t.depth_owner_ = static_cast<int>(i);
        t.depth_meter_ = s.meter.get();
      }
    }
    t.depth_limit_ = static_cast<uint32_t>(std::min<uint64_t>(limit, UINT32_MAX));
  }

  static ir::Breach DepthBreach(const Task& t) {
    const Meter* m = t.depth_meter_;
    const uint64_t base = t.depth_owner_ >= 0 ? t.scopes_[t.depth_owner_].frame : 0;
    const uint64_t bound = m ? *m->policy().limits.Get(ir::LimitId::kDepth) : t.depth_limit_;
    return ir::Breach::Over(ir::LimitId::kDepth, t.frames_.size() + 1 - base, bound, "",
                            m ? m->name() : "");
  }

  // Reloads the cache from the chain: what the innermost scope has left.
  static void Refill(Task& t) {
    const Meter& m = Scope(t);
    const std::optional<uint64_t> rs = m.RemainingSteps();
    const std::optional<uint64_t> rm = m.RemainingMemory();
    const std::optional<int64_t> rc = m.RemainingCpu();
    const std::optional<int64_t> wall = m.WallDeadline();
    int64_t allow =
        rs ? static_cast<int64_t>(std::min<uint64_t>(*rs, kUnlimitedSteps)) : kUnlimitedSteps;
    t.quantum_binds_ = t.quantum_ && t.quantum_left_ < allow;
    if (t.quantum_binds_) allow = std::max<int64_t>(t.quantum_left_, 0);
    t.steps_left_ = t.steps_allowed_ = allow;
    if (rs || rm || t.quantum_) t.metered_ = true;
    if (rm) {
      uint64_t lim = t.mem_used_ + *rm;
      t.mem_limit_ = lim < t.mem_used_ ? std::numeric_limits<uint64_t>::max() : lim;
    } else {
      t.mem_limit_ = std::numeric_limits<uint64_t>::max();
    }
    t.cpu_deadline_ = rc ? SatAdd(t.cpu_used_ns(), std::max<int64_t>(*rc, 0)) : Fences::kNone;
    t.wall_deadline_ = std::min(wall.value_or(Fences::kNone), t.cancel_deadline_);
    PublishFences(t);
  }

  // Publishes the effective deadlines to the watchdog.
  static void PublishFences(Task& t) {
    t.fences_.wall_deadline.store(t.wall_deadline_, std::memory_order_relaxed);
    int64_t cpu = Fences::kNone;
    if (t.cpu_deadline_ != Fences::kNone && t.running_)
      cpu = SatAdd(t.thread_cpu_at_run_, t.cpu_deadline_ - t.cpu_base_);
    t.fences_.cpu_deadline.store(cpu, std::memory_order_relaxed);
    if (t.watcher_) t.watcher_->FencesChanged(t);
  }

  // Whether a deadline has passed.
  static Stop CheckDeadlines(Task& t) {
    if (t.wall_deadline_ != Fences::kNone) {
      const int64_t now = SteadyNow();
      if (now >= t.cancel_deadline_) return Stop::kDeadlinePassed;
      if (now >= t.wall_deadline_) return Stop::kWallBudget;
    }
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

  // Enters sandbox `di`: a child tracker of the innermost scope's, with the
  // declaration's limits and grants. The loop's counters are saved and the
  // step counter is exact here (a scope change ends a segment).
  static Stop EnterScope(Task& t, uint32_t di) {
    // Hostile MtyIR can enter sandboxes in a loop without leaving them.
    if (t.scopes_.size() >= kMaxScopes)
      return Trap(t, TrapCode::kDepth,
                  absl::StrCat("sandbox nesting exceeded: ", kMaxScopes, " scopes"));
    if (std::optional<ir::Breach> b = Flush(t)) return Breach(t, std::move(*b));
    std::shared_ptr<Meter> child = Scope(t).Enter(t.module_->sandboxes[di]);
    t.scopes_.push_back(Task::Scope{std::move(child), static_cast<uint32_t>(t.frames_.size())});
    ComputeDepth(t);
    Refill(t);
    return Stop::kContinue;
  }

  // Leaves the innermost scope; what it used stays charged to every
  // tracker that enclosed it.
  static std::optional<ir::Breach> PopScope(Task& t) {
    std::optional<ir::Breach> b = Flush(t);
    t.scopes_.pop_back();
    ComputeDepth(t);
    Refill(t);
    return b;
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
  Ctx cx{mod, t.host_, &mem, mem_limit, t.current_meter().get(), {}, {}, false, {}};
  // Handlers leave through computed gotos, which skip destructors: a handler
  // must not keep a local that owns memory alive at NEXT()/DISPATCH(). These
  // reusable buffers live for the whole loop instead.
  std::vector<Value> args;
  Chain chain;
  HostError herr;
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
#define FAIL_CX()                                           \
  do {                                                      \
    SAVE();                                                 \
    if (cx.mem_breach) return Stop::kMemBudget;             \
    if (cx.breach) return Breach(t, std::move(*cx.breach)); \
    return Trap(t, cx.code, cx.message);                    \
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
      return Breach(t, DepthBreach(t));
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
    herr.Clear();
    std::optional<Value> out =
        t.host_ ? t.host_->InvokeEffect(d.name, args, Scope(t), &herr) : std::optional<Value>();
    if (!out) {
      if (herr.breach) return Breach(t, std::move(*herr.breach));
      // A blocking call that gave up at the wall-clock deadline.
      if (herr.code == TrapCode::kBudget) {
        Stop s = CheckDeadlines(t);
        if (s != Stop::kContinue) return s;
      }
      if (herr.code != TrapCode::kNone) TRAP(herr.code, herr.message);
      TRAP(TrapCode::kUnknown, herr.message.empty() ? absl::StrCat("unknown effect '", d.name,
                                                                   "' (no host module provides it)")
                                                    : herr.message);
    }
    CHARGE_MEM(Estimate(*out));
    R[pc->a] = std::move(*out);
    NEXT();
  }
  // Agent instructions may run other tasks of the run (an initialiser, a
  // turn): the chain's use is flushed before and the cache refilled after.
#define HOST_FAILED()                                                                  \
  do {                                                                                 \
    if (herr.breach) return Breach(t, std::move(*herr.breach));                        \
    TRAP(herr.code == TrapCode::kNone ? TrapCode::kUnknown : herr.code, herr.message); \
  } while (0)
#define AROUND_HOST(call)                                                          \
  do {                                                                             \
    SAVE();                                                                        \
    if (std::optional<ir::Breach> b_ = Flush(t)) return Breach(t, std::move(*b_)); \
    call;                                                                          \
    Refill(t);                                                                     \
    steps = t.steps_left_;                                                         \
    mem_limit = t.mem_limit_;                                                      \
    cx.mem_limit = mem_limit;                                                      \
    cx.scope = t.current_meter().get();                                            \
  } while (0)
  CASE(Spawn) {
    const CallDesc& d = fn->calls[pc->b];
    GATHER_ARGS(d, 0);
    herr.Clear();
    std::optional<Value> h;
    AROUND_HOST(h = t.host_ ? t.host_->Spawn(d.callee, d.name, args, &herr) : std::nullopt);
    if (!h) HOST_FAILED();
    R[pc->a] = std::move(*h);
    NEXT();
  }
  CASE(Send) {
    const CallDesc& d = fn->calls[pc->b];
    GATHER_ARGS(d, 1);  // args[0] is the target
    herr.Clear();
    Host::AskStatus st = Host::AskStatus::kFail;
    AROUND_HOST(st = t.host_ ? t.host_->Send(target_buf, d.name, args, &herr)
                             : Host::AskStatus::kFail);
    if (st == Host::AskStatus::kFail) HOST_FAILED();
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
    herr.Clear();
    Host::AskStatus st = Host::AskStatus::kFail;
    AROUND_HOST(st = t.host_ ? t.host_->Ask(target_buf, d.name, args, deadline, &R[pc->a], &herr)
                             : Host::AskStatus::kFail);
    if (st == Host::AskStatus::kFail) HOST_FAILED();
    if (st == Host::AskStatus::kWait) WAIT_FOR_HOST();
    ++pc;
    ENTER_SEGMENT(pc - code);
    DISPATCH();
  }
#undef AROUND_HOST
  CASE(SandboxEnter) {
    SAVE();
    if (Stop s = EnterScope(t, static_cast<uint32_t>(pc->a)); s != Stop::kContinue) return s;
    steps = t.steps_left_;
    mem_limit = t.mem_limit_;
    cx.mem_limit = mem_limit;
    cx.scope = t.current_meter().get();
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
    if (std::optional<ir::Breach> b = PopScope(t)) return Breach(t, std::move(*b));
    steps = t.steps_left_;
    mem_limit = t.mem_limit_;
    cx.mem_limit = mem_limit;
    cx.scope = t.current_meter().get();
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
  if (!PushFrame(t, target_for_push, base, ret_pc, ret_reg)) return Breach(t, DepthBreach(t));
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
    while (!t.scopes_.empty() && t.scopes_.back().frame == t.frames_.size())
      if (std::optional<ir::Breach> b = PopScope(t)) return Breach(t, std::move(*b));
    steps = t.steps_left_;
    mem_limit = t.mem_limit_;
    cx.mem_limit = mem_limit;
    cx.scope = t.current_meter().get();
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
#undef CHARGE_MEM
#undef GATHER_ARGS
#undef WAIT_FOR_HOST
#undef HOST_FAILED
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
  if (s == Stop::kStepBudget && t.quantum_binds_) {
    // The scheduler's quantum ran out, not a budget: the instruction at pc
    // has not run, so the steps it would have used are not charged.
    t.steps_left_ = static_cast<int64_t>(t.breach_index_);
    std::optional<ir::Breach> b = Flush(t);
    t.quantum_ = false;
    t.relax_exact_ = true;
    if (!b) {
      o.kind = Outcome::kPreempted;
      return o;
    }
    t.breach_ = std::move(b);
    s = Stop::kBreach;
  }
  const Stop why = s;
  std::optional<ir::Breach> flushed = Flush(t);
  std::optional<ir::LimitId> limit;
  switch (s) {
    case Stop::kStepBudget: limit = ir::LimitId::kSteps; break;
    case Stop::kMemBudget: limit = ir::LimitId::kMemory; break;
    case Stop::kWallBudget: limit = ir::LimitId::kWall; break;
    case Stop::kCpuBudget: limit = ir::LimitId::kCpu; break;
    default: break;
  }
  if (limit) {
    // The chain says which tracker's limit it was.
    t.breach_ = flushed ? std::move(flushed) : Scope(t).Exhausted(*limit);
    if (!t.breach_) {
      // A deadline that the chain no longer has (a scope was left): go on.
      o.kind = Outcome::kSuspended;
      return o;
    }
    s = Stop::kBreach;
  } else if (flushed && (s == Stop::kDone || s == Stop::kSuspended || s == Stop::kDeadlinePassed)) {
    t.breach_ = std::move(flushed);  // e.g. CPU found over its limit at the flush
    s = Stop::kBreach;
  }
  switch (s) {
    case Stop::kDone:
      o.kind = Outcome::kOk;
      o.value = std::move(t.result_);
      t.finished_ = true;
      break;
    case Stop::kTrap:
      o.kind = Outcome::kTrap;
      o.code = t.trap_code_;
      o.message = t.trap_message_;
      o.backtrace = t.trap_backtrace_;
      t.finished_ = true;
      break;
    case Stop::kBreach: {
      o.kind = Outcome::kBreach;
      o.breach = t.breach_;
      o.code = t.breach_->Code();
      o.message = t.breach_->Message();
      // Breaches report where they happened, like traps; a step breach the
      // statement it landed on.
      SetTrap(t, o.code, "");
      if (why == Stop::kStepBudget && !t.frames_.empty() && !t.trap_backtrace_.empty()) {
        const CompiledFunction& f = t.module_->functions[t.frames_.back().fn];
        auto it = f.step_locs.find(t.pc_);
        if (it != f.step_locs.end() && t.breach_index_ < it->second.size())
          t.trap_backtrace_[0].loc = it->second[t.breach_index_];
      }
      o.backtrace = t.trap_backtrace_;
      t.finished_ = true;
      break;
    }
    case Stop::kSuspended: o.kind = Outcome::kSuspended; break;
    case Stop::kInterrupted: o.kind = Outcome::kCancelled; break;
    case Stop::kDeadlinePassed: o.kind = Outcome::kDeadlinePassed; break;
    case Stop::kStepBudget:
    case Stop::kMemBudget:
    case Stop::kWallBudget:
    case Stop::kCpuBudget:
    case Stop::kToExact:
    case Stop::kReMode:
    case Stop::kContinue: break;  // handled above and by Run
  }
  if (t.finished_) {
    while (!t.scopes_.empty()) t.scopes_.pop_back();
    while (!t.frames_.empty()) PopFrame(t);
  }
  return o;
}

bool Task::Start(int fn, std::vector<Value> args, std::string* error) {
  if (started_) {
    *error = "task already started";
    return false;
  }
  if (!meter_) {
    *error = "a task needs a budget chain (interp::Meter)";
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
  Exec::ComputeDepth(*this);
  if (depth_limit_ == 0) {
    *error = Exec::DepthBreach(*this).Message();
    return false;
  }
  stack_.resize(std::max<size_t>(64, f.frame_size));
  Exec::PushFrame(*this, static_cast<uint32_t>(fn), 0, 0, -1);
  for (size_t i = 0; i < args.size(); ++i) stack_[1 + i] = std::move(args[i]);
  pc_ = 0;
  started_ = true;
  return true;
}

ExecOutcome Task::Run() {
  if (!started_ || finished_) {
    ExecOutcome o;
    o.kind = Outcome::kTrap;
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
  // The cache starts from what the chain has left now (other tasks of the
  // run may have used some since this task last ran).
  Exec::Refill(*this);
  if (exact_) relax_exact_ = true;  // back to metered at the next jump if there is room
  struct EndRun {
    Task& t;
    ~EndRun() {
      t.cpu_base_ += ThreadCpuNow() - t.thread_cpu_at_run_;
      t.cpu_flushed_ = std::min(t.cpu_flushed_, t.cpu_base_);
      t.running_ = false;
      t.fences_.wall_deadline.store(Fences::kNone, std::memory_order_relaxed);
      t.fences_.cpu_deadline.store(Fences::kNone, std::memory_order_relaxed);
      if (t.watcher_) t.watcher_->FencesChanged(t);
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

}  // namespace mty::interp
