// Internal to the interpreter: how Task::Run and the dispatch loop stop
// (Stop, Mode), the clocks, and Exec, the friend of Task whose static members
// are split by job: the task lifecycle and outcomes (task.cc), the budget
// cache, sandbox scopes and fences (scope.cc), places and references
// (place.cc), and the loop (loop.cc). Frame pushes and pops stay inline here
// for the loop.
#pragma once

#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "builtins.h"
#include "cost.h"
#include "mty/interp/bytecode.h"
#include "mty/interp/vm.h"
#include "mty/interp/work.h"

namespace mty::interp {

enum class Mode { kFree, kMetered, kExact };
enum class Stop {
  kDone,
  kTrap,
  kBreach,  // Task::failure_.breach is set
  kLimit,   // a limit of the budget cache went over: Task::failure_.over (Exec::Over)
  kSuspended,
  kInterrupted,     // the host cancelled the run
  kDeadlinePassed,  // the task's cancel deadline passed
  kToExact,
  kReMode,    // the loop mode must change (a scope added or dropped limits); pc_ is set
  kContinue,  // (internal) nothing to stop for
};
inline int64_t SteadyNow() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}
inline int64_t ThreadCpuNow() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}
inline int64_t SatAdd(int64_t a, int64_t b) {
  int64_t r;
  return __builtin_add_overflow(a, b, &r) ? std::numeric_limits<int64_t>::max() : r;
}
inline constexpr int64_t kUnlimitedSteps = std::numeric_limits<int64_t>::max();
// References to references are followed this many times at most; more means
// a cycle (a reference stored into the place it refers to).
inline constexpr int kMaxRefHops = 64;
// Open sandbox scopes per task.
inline constexpr size_t kMaxScopes = 10000;

struct Exec {
  // A limit of the task's budget cache (steps, memory, wall, cpu) gone
  // over: the loop stops, and Finish asks the chain which tracker's it was.
  static Stop Over(Task& t, ir::LimitId id) {
    t.failure_.over = id;
    return Stop::kLimit;
  }
  // How the task stops for failure f of a builtin, method or host call (the
  // loop's counters saved): the breach, the limit of the budget cache, or
  // the trap (MT5008 for kNone).
  static Stop Fail(Task& t, Failure& f) {
    if (f.over) return Over(t, *f.over);
    if (f.breach) return Breach(t, std::move(*f.breach));
    return Trap(t, f.code == TrapCode::kNone ? TrapCode::kUnknown : f.code, std::move(f.message));
  }
  // ---- frames ----
  // Function fi's constants as values of this task (materialised at its
  // first call).
  [[gnu::always_inline]] static const std::vector<Value>& Consts(Task& t, uint32_t fi) {
    std::vector<Value>& c = t.consts_[fi];
    if (c.size() != t.module_->functions[fi].constants.size()) [[unlikely]]
      MaterialiseConsts(t, fi);
    return c;
  }
  [[gnu::noinline]] static void MaterialiseConsts(Task& t, uint32_t fi) {
    std::vector<Value>& c = t.consts_[fi];
    const CompiledFunction& f = t.module_->functions[fi];
    {
      c.clear();
      for (const ir::Constant& k : f.constants) {
        switch (k.kind) {
          case ir::Constant::Kind::kUnit: c.push_back(Value::Unit()); break;
          case ir::Constant::Kind::kBool: c.push_back(Value::Bool(k.i)); break;
          case ir::Constant::Kind::kInt: c.push_back(Value::Int(k.i)); break;
          case ir::Constant::Kind::kUInt:
            c.push_back(Value::UInt(static_cast<uint64_t>(k.i)));
            break;
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
  }

  // Pushes a frame for fn `fi` at the top of the stack; its locals are
  // initialised to (), its constants materialised. Arguments are written by
  // the caller afterwards at stack_[base + 1 + i]. False at the depth limit.
  // The call stack's memory (runtime.md §2): its high-water mark, charged
  // as the stacks grow (they double): 16 B per register slot and 64 B per
  // frame slot past what is paid already (Task::StackPaid: the first 64
  // registers and 16 frames are free; an agent's turns carry its marks).
  enum class Push : uint8_t { kOk, kGrew, kDepth };
  // kGrew: the stacks grew and t.mem_used_ has been charged for it (the
  // caller reloads its counter and checks the limit).
  static Push PushFrame(Task& t, uint32_t fi, uint32_t base, uint32_t ret_pc, int32_t ret_reg) {
    if (t.frames_.size() >= t.depth_limit_) return Push::kDepth;
    const CompiledFunction& f = t.module_->functions[fi];
    size_t need = static_cast<size_t>(base) + f.frame_size;
    Push result = Push::kOk;
    if (t.stack_.size() < need) [[unlikely]] {
      const size_t old = t.stack_.size();
      t.stack_.resize(std::max(need, old * 2));
      if (t.stack_.size() > t.paid_.registers) {
        t.mem_used_ += cost::kRegister * (t.stack_.size() - t.paid_.registers);
        t.paid_.registers = t.stack_.size();
        result = Push::kGrew;
      }
    }
    // Registers above the top frame hold no heap values (PopFrame releases
    // them), so they are initialised without release checks.
    // Bounds and pointers in locals: the stores below could alias them.
    Value* r = t.stack_.data() + base;
    const uint32_t num_locals = f.num_locals;
    for (uint32_t i = 0; i < num_locals; ++i) r[i].RawSetUnit();
    const std::vector<Value>& cv = Consts(t, fi);
    const Value* c = cv.data();
    const size_t nc = cv.size();
    Value* k = r + num_locals;
    if (f.consts_immediate) {
      for (size_t i = 0; i < nc; ++i) k[i].RawCopyImmediate(c[i]);
    } else {
      for (size_t i = 0; i < nc; ++i) {
        if (c[i].IsHeap()) {
          k[i].RawSetUnit();
          k[i] = c[i];
        } else {
          k[i].RawCopyImmediate(c[i]);
        }
      }
    }
    if (t.next_frame_id_ == t.frame_id_end_) [[unlikely]]
      t.ReserveFrameIds();
    t.frames_.push_back(Frame{fi, f.frame_size, base, ret_pc, ret_reg, t.next_frame_id_++});
    if (t.frames_.size() > t.frames_cap_) [[unlikely]] {
      t.frames_cap_ = std::max<size_t>(1, 2 * t.frames_cap_);
      if (t.frames_cap_ > t.paid_.frames) {
        t.mem_used_ += cost::kFrame * (t.frames_cap_ - t.paid_.frames);
        t.paid_.frames = t.frames_cap_;
        result = Push::kGrew;
      }
    }
    return result;
  }

  static void PopFrame(Task& t) {
    const Frame& fr = t.frames_.back();
    Value* r = t.stack_.data() + fr.base;
    const uint32_t n = fr.size;  // a local: releasing a value could alias fr
    for (uint32_t i = 0; i < n; ++i)
      if (r[i].IsHeap()) r[i].SetImm(Tag::kUnit, 0);
    t.frames_.pop_back();
  }

  static uint32_t TopOfStack(const Task& t) {
    const Frame& fr = t.frames_.back();
    return fr.base + fr.size;
  }

  // ---- traps ----
  static void SetTrap(Task& t, TrapCode code, std::string message);
  static Stop Trap(Task& t, TrapCode code, std::string message);
  static Stop Breach(Task& t, ir::Breach b);
  // Where the task is (the current instruction's source location).
  static ir::Loc Here(const Task& t);
  // ---- work charges (runtime.md §2, "Steps measure work") ----
  // Charges `units` bytes or elements an operation touches, one step per 64,
  // to the saved counter (t.steps_left_; the loop SAVEs before and reloads
  // after). False, charging nothing, when the budget cannot pay it.
  static bool ChargeWork(Task& t, uint64_t units);
  // Sets the counters for a step breach at pc_ caused by a work charge.
  static void WorkBreach(Task& t);
  // The most units ChargeWork could pay now.
  static uint64_t Affordable(const Task& t);
  // ---- the budget chain and its cache ----
  static Meter& Scope(const Task& t) { return *t.current_meter(); }

  // Charges what the task used since the last flush to its chain and checks
  // the chain's wall deadlines (so every scope change, host call and stop
  // sees a deadline that passed during one long instruction). The loop's
  // counters must be saved (SAVE) first.
  static std::optional<ir::Breach> Flush(Task& t);
  // The depth limit of the innermost scope: the tightest of every tracker's
  // own limit on the path, counted from where this task entered it (from
  // its start for trackers it began inside).
  static void ComputeDepth(Task& t);
  static ir::Breach DepthBreach(const Task& t);
  // Reloads the cache from the chain: what the innermost scope has left.
  static void Refill(Task& t);
  // Publishes the effective deadlines to the watchdog.
  static void PublishFences(Task& t);
  // Whether a deadline has passed.
  static Stop CheckDeadlines(Task& t);
  // The interrupt flag was set: by the host (cancel) or by a watchdog.
  static Stop Poked(Task& t);
  // Enters sandbox `di`: a child tracker of the innermost scope's, with the
  // declaration's limits and grants. The loop's counters are saved and the
  // step counter is exact here (a scope change ends a segment).
  static Stop EnterScope(Task& t, uint32_t di);
  // Leaves the innermost scope; what it used stays charged to every
  // tracker that enclosed it.
  static std::optional<ir::Breach> PopScope(Task& t);
  static std::string Kind(Task& t, const Value& v) { return KindName(*t.module_, v); }

  // ---- places and references ----
  struct Chain {
    std::vector<HeapObj*> objs;  // heap objects along a written path
    bool inserted = false;       // a map key was inserted by the path
    uint64_t key_est = 0;
  };

  // Applies one projection step to cur. key is the index/key for kIndex.
  static Value* Step(Task& t, Value* cur, RefStep::Kind kind, uint32_t index, uint32_t variant,
                     const Value* key, bool write, Chain* chain);
  static Value* RefTarget(Task& t, const Value& ref, bool write, Chain* chain);
  // The place d names in the frame at R; write: for a write (copy on write
  // along the path, each object on it added to chain).
  [[gnu::always_inline]] static Value* Resolve(Task& t, Value* R, const PlaceDesc& d, bool write,
                                               Chain* chain) {
    if (d.shape == PlaceDesc::Shape::kDerefField) {
      // `(*_r).f` through a reference to a whole local whose value is a
      // struct held once (or read): what the general walk does, without it.
      const Value& r = R[d.base];
      if (r.Is(Tag::kLocalRef) && (!write || r.ref_mut())) {
        const uint32_t depth = r.ref_depth();
        if (depth < t.frames_.size() && t.frames_[depth].id == r.ref_frame_id()) {
          Value& target = t.stack_[t.frames_[depth].base + r.ref_local()];
          if (target.Is(Tag::kAdt) && (!write || target.h()->rc == 1)) {
            auto* a = static_cast<AdtObj*>(target.h());
            if (d.field < a->fields.size()) {
              if (write) chain->objs.push_back(a);
              return &a->fields[d.field];
            }
          }
        }
      }
    }
    return ResolveWalk(t, R, d, write, chain);
  }
  static Value* ResolveWalk(Task& t, Value* R, const PlaceDesc& d, bool write, Chain* chain);
  static bool MakeRef(Task& t, Value* R, const PlaceDesc& d, bool is_mut, Value& out);
  static void AddEst(Chain& chain, int64_t delta) {
    for (HeapObj* h : chain.objs)
      h->est = static_cast<uint64_t>(static_cast<int64_t>(h->est) + delta);
  }

  // ---- the loop ----
  template <Mode M>
  static Stop Loop(Task& t);
  static ExecOutcome Finish(Task& t, Stop s);
};

}  // namespace mty::interp
