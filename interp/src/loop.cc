// The dispatch loop. One body per instruction, instantiated three times:
// kFree (no step or memory limit: steps are not counted, memory is counted
// with one add and never compared), kMetered (steps charged per
// segment on entry, memory with one add and one compare) and kExact (per
// statement counting, entered only when the remaining step budget is smaller
// than the next segment, so the breach lands on exactly the N+1-th step).
//
// The rules every handler keeps:
//  1. Before anything that can trap, breach, call the host or stop the loop,
//     SAVE() writes pc, the step counter and the memory counter back to the
//     task (TRAP, FAIL and the host-call macros do it).
//  2. After anything that can move the value stack (a call, a host call that
//     runs other tasks, a resize), RELOAD() re-reads fn, code and R; no
//     pointer into the stack is kept across it.
//  3. After a scope change or an agent host call, the loop re-reads
//     `steps`, `mem_limit` and `cx` from the task: the cache was flushed to
//     the budget chain and refilled.
//  4. Handlers leave through computed gotos, which skip destructors: no
//     local that owns memory is alive at NEXT()/DISPATCH() (the reusable
//     buffers at the top of the loop are).
//  5. A segment's steps are charged when control enters it (ENTER_SEGMENT);
//     calls, host calls and scope changes end a segment, so no other task
//     or tracker ever sees steps that have not run.
#include "exec.h"

#if (defined(__GNUC__) || defined(__clang__)) && !defined(MTY_FORCE_SWITCH_DISPATCH)
#define MTY_COMPUTED_GOTO 1
#else
#define MTY_COMPUTED_GOTO 0
#endif

namespace mty::interp {

namespace {

// The target a switch takes for key: its case, or otherwise.
inline int32_t CaseTarget(const CaseTable& ct, int64_t key) {
  for (const auto& [val, tgt] : ct.cases)
    if (val == key) return tgt;
  return ct.otherwise;
}

}  // namespace

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
  Ctx cx{mod, t.host_, &mem, mem_limit, t.current_meter().get(), &t, {}};
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
// After PushFrame returned kGrew: the stacks' growth was charged to
// t.mem_used_; over the limit, the frame is taken back and the call
// breaches (t.pc_ is the call's: SAVE() came first).
#define STACK_GREW()                          \
  do {                                        \
    mem = t.mem_used_;                        \
    if constexpr (M != Mode::kFree) {         \
      if (mem > mem_limit) [[unlikely]] {     \
        PopFrame(t);                          \
        return Over(t, ir::LimitId::kMemory); \
      }                                       \
    }                                         \
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
// A builtin, method or host call failed (cx.fail, herr): the task stops
// with its Failure (a work charge not paid is the step breach here).
#define FAIL(f)                                        \
  do {                                                 \
    if ((f).over == ir::LimitId::kSteps) WORK_SHORT(); \
    SAVE();                                            \
    return Fail(t, f);                                 \
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
    t.waited_ = true;                                                    \
    ++pc;                                                                \
    SAVE();                                                              \
    return Stop::kSuspended;                                             \
  } while (0)
#define CHARGE_MEM(n)                         \
  do {                                        \
    mem += (n);                               \
    if constexpr (M != Mode::kFree) {         \
      if (mem > mem_limit) [[unlikely]] {     \
        SAVE();                               \
        return Over(t, ir::LimitId::kMemory); \
      }                                       \
    }                                         \
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
          return Over(t, ir::LimitId::kSteps);                           \
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
// A work charge (runtime.md §2) that the budget cannot pay: ChargeWork
// already looked at the budget's true remainder, so it is a step breach
// here, before the work.
#define WORK_SHORT()                     \
  do {                                   \
    cx.fail.over.reset();                \
    t.work_short_ = false;               \
    SAVE();                              \
    WorkBreach(t);                       \
    return Over(t, ir::LimitId::kSteps); \
  } while (0)
// After a place operation (Resolve, Step, RefTarget, MakeRef), which may
// charge work (a copy on write, hashing a map key) to the saved counter.
// A place resolved (SAVE() came first): the steps and memory it charged
// (copies on write, widened bytes) are reloaded; a failure is a step or
// memory breach or a trap.
#define PLACE_OK(ok)                                                        \
  do {                                                                      \
    if (!(ok)) {                                                            \
      if (t.work_short_) WORK_SHORT();                                      \
      if (t.mem_used_ > t.mem_limit_) return Over(t, ir::LimitId::kMemory); \
      return Stop::kTrap;                                                   \
    }                                                                       \
    steps = t.steps_left_;                                                  \
    mem = t.mem_used_;                                                      \
  } while (0)
// The next instruction, after one that charged work: when the charge used
// steps its segment had charged in advance for the instructions after it
// (ChargeWork took them back), those are counted one by one from here.
#define NEXT_OR_EXACT()                  \
  do {                                   \
    if constexpr (M == Mode::kMetered) { \
      if (t.go_exact_) [[unlikely]] {    \
        t.go_exact_ = false;             \
        ++pc;                            \
        SAVE();                          \
        return Stop::kToExact;           \
      }                                  \
    }                                    \
    NEXT();                              \
  } while (0)
// A copy of the value at a resolved place into register a (the copy
// before the store: the place may be register a itself).
#define COPY_OUT(place)         \
  do {                          \
    Value copy = (place);       \
    R[pc->a] = std::move(copy); \
    NEXT_OR_EXACT();            \
  } while (0)
// A literal's arguments: each live, its estimate added to sum, moved or
// copied into the new object's items.
#define TAKE_ARGS(d, items, sum)                \
  do {                                          \
    for (const ArgDesc& a : (d).args) {         \
      DEAD_CHECK(R[a.reg]);                     \
      (sum) += Estimate(R[a.reg]);              \
      if (a.move) {                             \
        (items).push_back(std::move(R[a.reg])); \
        R[a.reg].Kill();                        \
      } else {                                  \
        (items).push_back(R[a.reg]);            \
      }                                         \
    }                                           \
  } while (0)
// A long literal is work: one step per 64 elements.
#define LONG_LITERAL_WORK(d)                             \
  do {                                                   \
    if ((d).args.size() >= 64) {                         \
      SAVE();                                            \
      if (!ChargeWork(t, (d).args.size())) WORK_SHORT(); \
      steps = t.steps_left_;                             \
    }                                                    \
    MTY_WORK((d).args.size());                           \
  } while (0)
// Field c of the value register b refers to (GetField, GetTuple through
// a reference): the place's step, then the copy.
#define FIELD_THROUGH_REF(tuple)                                                                \
  do {                                                                                          \
    if (IsRef(R[pc->b])) {                                                                      \
      SAVE();                                                                                   \
      Value* v = Step(t, &R[pc->b], RefStep::Kind::kField, static_cast<uint32_t>(pc->c), tuple, \
                      nullptr, false, nullptr);                                                 \
      PLACE_OK(v);                                                                              \
      COPY_OUT(*v);                                                                             \
    }                                                                                           \
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
    PLACE_OK(v);
    DEAD_CHECK(*v);
    COPY_OUT(*v);
  }
  CASE(StorePlace) {
    SAVE();
    DEAD_CHECK(R[pc->b]);
    Value v = R[pc->b];
    chain.objs.clear();
    chain.inserted = false;
    Value* dst = Resolve(t, R, fn->places[pc->a], true, &chain);
    PLACE_OK(dst);
    int64_t delta = static_cast<int64_t>(Estimate(v)) - static_cast<int64_t>(Estimate(*dst));
    *dst = std::move(v);
    AddEst(chain, delta);
    if (chain.inserted) CHARGE_MEM(chain.key_est + Estimate(*dst) + cost::kMapEntry);
    NEXT_OR_EXACT();
  }

#define INT_BINOP(name, expr_ok)                           \
  CASE(name) {                                             \
    const Value& a_ = R[pc->b];                            \
    const Value& b_ = R[pc->c];                            \
    if (a_.IsSignedInt() && b_.IsSignedInt()) [[likely]] { \
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
    if (a_.IsSignedInt() && b_.IsSignedInt()) [[likely]] { \
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
    if (!Unary(cx, Op::Neg, R[pc->b], out)) FAIL(cx.fail);
    R[pc->a] = std::move(out);
    NEXT();
  }
  CASE(Not) {
    Value out;
    if (!Unary(cx, Op::Not, R[pc->b], out)) FAIL(cx.fail);
    R[pc->a] = std::move(out);
    NEXT();
  }
  CASE(MakeRef) {
    const PlaceDesc& d = fn->places[pc->b];
    if (d.proj.empty()) {
      // `&_x` / `&mut _x`: a reference to a whole local of this frame
      // (place.cc MakeRef, without the call).
      const uint32_t depth = static_cast<uint32_t>(t.frames_.size() - 1);
      const uint64_t id = t.frames_.back().id;
      if (Value::LocalRefFits(depth, static_cast<uint32_t>(d.base), id)) [[likely]] {
        R[pc->a] = Value::LocalRef(depth, static_cast<uint32_t>(d.base), id, pc->c != 0);
        NEXT();
      }
    }
    SAVE();
    Value out;
    PLACE_OK(MakeRef(t, R, fn->places[pc->b], pc->c != 0, out));
    R[pc->a] = std::move(out);
    NEXT_OR_EXACT();
  }
  CASE(Deref) {
    const Value& r = R[pc->b];
    if (!IsRef(r)) {
      // A shared reference is its value: `*v` of a value is the value
      // (as a place read, Exec::ResolveWalk).
      DEAD_CHECK(r);
      COPY_OUT(r);
    }
    SAVE();
    Value* target = RefTarget(t, r, false, nullptr);
    PLACE_OK(target);
    DEAD_CHECK(*target);
    COPY_OUT(*target);
  }
  CASE(NewAdt) {
    const CallDesc& d = fn->calls[pc->b];
    auto* o = new AdtObj();
    Value v = Value::Heap(o);
    o->adt = static_cast<uint32_t>(d.adt);
    o->variant = d.variant;
    o->fields.reserve(d.args.size());
    uint64_t est = cost::kHeader;
    TAKE_ARGS(d, o->fields, est);
    o->est = est;
    CHARGE_MEM(est);
    R[pc->a] = std::move(v);
    NEXT();
  }
  CASE(NewTuple) {
    const CallDesc& d = fn->calls[pc->b];
    LONG_LITERAL_WORK(d);
    auto* o = new ArrayObj(Tag::kTuple);
    Value v = Value::Heap(o);
    o->items.reserve(d.args.size());
    uint64_t sum = 0;
    TAKE_ARGS(d, o->items, sum);
    o->est = cost::kHeader + sum;  // the estimate; the charge is the original design's
    CHARGE_MEM(cost::kTupleCharge + sum);
    R[pc->a] = std::move(v);
    NEXT_OR_EXACT();
  }
  CASE(NewArray) {
    const CallDesc& d = fn->calls[pc->b];
    LONG_LITERAL_WORK(d);
    auto* o = new ArrayObj(Tag::kArray);
    Value v = Value::Heap(o);
    o->items.reserve(d.args.size());
    uint64_t est = cost::kHeader;
    TAKE_ARGS(d, o->items, est);
    o->est = est;
    CHARGE_MEM(est);
    R[pc->a] = std::move(v);
    NEXT_OR_EXACT();
  }
  CASE(NewMap) {
    const CallDesc& d = fn->calls[pc->b];
    {
      // Each entry: its key hashed and compared (the key's size), the map
      // growing.
      uint64_t units = 0;
      for (size_t i = 0; i + 1 < d.args.size(); i += 2) units += cost::Insert(R[d.args[i].reg]);
      SAVE();
      if (!ChargeWork(t, units)) WORK_SHORT();
      steps = t.steps_left_;
    }
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
        o->Append(k, x);
        o->est += Estimate(k) + Estimate(x);
      }
    }
    for (const ArgDesc& a : d.args)
      if (a.move) R[a.reg].Kill();
    o->est += cost::kHeader;
    CHARGE_MEM(o->est);
    R[pc->a] = std::move(v);
    NEXT_OR_EXACT();
  }
  CASE(GetField) {
    FIELD_THROUGH_REF(0);
    const Value& s = R[pc->b];
    if (!s.Is(Tag::kAdt)) {
      DEAD_CHECK(s);
      TRAP(TrapCode::kType, absl::StrCat("field access on ", Kind(t, s)));
    }
    auto* o = static_cast<AdtObj*>(s.h());
    if (static_cast<uint32_t>(pc->c) >= o->fields.size())
      TRAP(TrapCode::kType, absl::StrCat(mod.adts[o->adt].name, " has no field ", pc->c));
    COPY_OUT(o->fields[pc->c]);
  }
  CASE(GetTuple) {
    FIELD_THROUGH_REF(1);
    const Value& s = R[pc->b];
    if (!s.Is(Tag::kTuple)) {
      DEAD_CHECK(s);
      TRAP(TrapCode::kType, absl::StrCat("tuple access on ", Kind(t, s)));
    }
    auto* o = static_cast<ArrayObj*>(s.h());
    if (static_cast<uint32_t>(pc->c) >= o->items.size())
      TRAP(TrapCode::kIndex,
           absl::StrCat("tuple index ", pc->c, " out of range for a tuple of ", o->items.size()));
    COPY_OUT(o->items[pc->c]);
  }
  CASE(GetIndex) {
    if (R[pc->b].Is(Tag::kArray) && R[pc->c].Is(Tag::kInt)) {
      // An element of an array in a register: what Step does for it.
      const auto* o = static_cast<const ArrayObj*>(R[pc->b].h());
      const uint64_t i = static_cast<uint64_t>(R[pc->c].i());
      if (i < o->items.size()) {
        Value copy = o->items[i];
        R[pc->a] = std::move(copy);
        NEXT();
      }
    }
    SAVE();
    Value* v = Step(t, &R[pc->b], RefStep::Kind::kIndex, 0, 0, &R[pc->c], false, nullptr);
    PLACE_OK(v);
    COPY_OUT(*v);
  }
  CASE(Len) {
    const Value* sp = &R[pc->b];
    for (int hops = 0; IsRef(*sp); ++hops) {
      SAVE();
      if (hops > kMaxRefHops)
        return Trap(t, TrapCode::kType, "reference cycle: a reference that leads back to itself");
      sp = RefTarget(t, *sp, false, nullptr);
      PLACE_OK(sp);
    }
    const Value& s = *sp;
    int64_t n;
    switch (s.tag()) {
      case Tag::kStr: n = static_cast<int64_t>(static_cast<StrObj*>(s.h())->s.size()); break;
      case Tag::kBytes: n = static_cast<int64_t>(static_cast<BytesObj*>(s.h())->b.size()); break;
      case Tag::kArray:
      case Tag::kTuple:
        n = static_cast<int64_t>(static_cast<ArrayObj*>(s.h())->items.size());
        break;
      case Tag::kMap: n = static_cast<int64_t>(static_cast<MapObj*>(s.h())->size()); break;
      default: DEAD_CHECK(s); TRAP(TrapCode::kType, absl::StrCat("len of ", Kind(t, s)));
    }
    R[pc->a].SetInt(n);
    NEXT_OR_EXACT();
  }
  CASE(Cast) {
    Value out;
    DEAD_CHECK(R[pc->b]);
    if (!DoCast(cx, R[pc->b], static_cast<CastKind>(pc->c), out)) FAIL(cx.fail);
    R[pc->a] = std::move(out);
    NEXT_OR_EXACT();
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
    CHARGE_MEM(cost::ClosureCharge(d.args.size()));
    R[pc->a] = std::move(v);
    NEXT();
  }
  CASE(MakeCap) {
    const CallDesc& d = fn->calls[pc->b];
    auto* o = new CapObj();
    Value v = Value::Heap(o);
    o->family = d.name;
    o->constraint = fn->messages[d.callee];
    if (!o->constraint.empty()) ResolveFsCap(*t.current_meter(), nullptr, o->constraint, o);
    CHARGE_MEM(cost::kSmall);
    R[pc->a] = std::move(v);
    NEXT();
  }
  CASE(CallOnce) {
    // A constant: its value once this task has evaluated it (ReturnOnce),
    // else a plain call that evaluates it.
    const int32_t slot = mod.functions[fn->calls[pc->b].callee].once_slot;
    if (static_cast<size_t>(slot) < t.once_.size() && !t.once_[slot].Is(Tag::kDead)) {
      R[pc->a] = t.once_[slot];
      ++pc;
      ENTER_SEGMENT(pc - code);
      DISPATCH();
    }
    goto do_call;
  }
  CASE(Call) {
  do_call:
    const CallDesc& d = fn->calls[pc->b];
    const uint32_t base = TopOfStack(t);
    const uint32_t ret_pc = static_cast<uint32_t>(pc - code) + 1;
    const int32_t ret_reg = static_cast<int32_t>(t.frames_.back().base) + pc->a;
    for (const ArgDesc& a : d.args) DEAD_CHECK(R[a.reg]);
    SAFEPOINT(ret_pc - 1);
    SAVE();
    if (Push p = PushFrame(t, static_cast<uint32_t>(d.callee), base, ret_pc, ret_reg);
        p != Push::kOk) [[unlikely]] {
      if (p == Push::kDepth) return Breach(t, DepthBreach(t));
      STACK_GREW();
    }
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
    size_t captured = 0;  // a closure's captured values, passed first
    args.clear();
    if (c.Is(Tag::kFn)) {
      target = static_cast<uint32_t>(c.i());
    } else if (c.Is(Tag::kClosure)) {
      auto* cl = static_cast<ClosureObj*>(c.h());
      target = cl->fn;
      for (const Value& v : cl->captures) args.push_back(v);
      captured = cl->captures.size();
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
    if (callee_fn.num_params != args.size()) {
      // A closure is named by the function that made it, and counted
      // without what it captured (`make_adder::__closure0` is not a name
      // the program wrote).
      std::string who = absl::StrCat("fn ", callee_fn.name);
      if (size_t at = callee_fn.name.find("::__closure"); at != std::string::npos)
        who = absl::StrCat("the closure made in `", callee_fn.name.substr(0, at), "`");
      TRAP(TrapCode::kType, absl::StrCat(who, " takes ", callee_fn.num_params - captured,
                                         " argument(s), given ", args.size() - captured));
    }
    target_for_push = target;
    goto push_call_target;
  }
  CASE(CallMethod) {
    const CallDesc& d = fn->calls[pc->b];
    if (d.id == static_cast<int32_t>(ir::MethodName::kPush) && d.args.size() == 1) {
      // `v.push(x)` on a local array held once: what the general path
      // below does for it (the same PushOnto), without finding the method.
      const PlaceDesc& pd = fn->places[d.place];
      const ArgDesc& a = d.args[0];
      Value& recv = R[pd.base];
      if (pd.proj.empty() && a.reg != pd.base && recv.Is(Tag::kArray) && recv.h()->rc == 1) {
        DEAD_CHECK(R[a.reg]);
        Value v = R[a.reg];
        if (a.move) R[a.reg].Kill();
        int64_t delta = 0;
        SAVE();
        if (!PushOnto(cx, static_cast<ArrayObj*>(recv.h()), std::move(v), &delta)) FAIL(cx.fail);
        R[pc->a] = Value::Unit();
        ++pc;
        ENTER_SEGMENT(pc - code);
        DISPATCH();
      }
    }
    SAVE();
    // Find the receiver (following references) without changing it yet.
    Value* recv = Resolve(t, R, fn->places[d.place], false, nullptr);
    PLACE_OK(recv);
    for (int hops = 0; IsRef(*recv); ++hops) {
      if (hops > kMaxRefHops)
        return Trap(t, TrapCode::kType, "reference cycle: a reference that leads back to itself");
      recv = RefTarget(t, *recv, false, nullptr);
      PLACE_OK(recv);
    }
    DEAD_CHECK(*recv);
    args.clear();
    // A user method: of the receiver's ADT, or of its built-in kind (a
    // trait implemented for I64, Str, ...) when the kind has no built-in
    // method of that name (built-in methods keep priority).
    const absl::flat_hash_map<int32_t, int>* user_table = nullptr;
    if (d.user_method >= 0) {
      if (recv->Is(Tag::kAdt)) {
        user_table = &mod.methods[static_cast<AdtObj*>(recv->h())->adt];
      } else if (std::optional<ir::Recv> rk = RecvOf(*recv);
                 rk && !(d.id >= 0 && MethodFor(*recv, static_cast<ir::MethodName>(d.id)))) {
        user_table = &mod.recv_methods[static_cast<size_t>(*rk)];
      }
    }
    if (user_table) {
      const auto& table = *user_table;
      auto it = table.find(d.user_method);
      if (it != table.end()) {
        uint32_t target = static_cast<uint32_t>(it->second);
        const CompiledFunction& callee_fn = mod.functions[target];
        if (callee_fn.first_param_is_mut_ref) {
          Value ref;
          PLACE_OK(MakeRef(t, R, fn->places[d.place], true, ref));
          // Follow references held in the place so the method sees the value.
          for (int hops = 0; hops <= kMaxRefHops; ++hops) {
            Value* cur = RefTarget(t, ref, false, nullptr);
            if (t.work_short_) WORK_SHORT();
            if (!cur || !IsRef(*cur)) break;
            ref = *cur;
          }
          steps = t.steps_left_;
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
      // The builtin table's row for this receiver's kind (resolved names:
      // no string is compared here).
      const ir::MethodInfo* row =
          d.id >= 0 ? MethodFor(*recv, static_cast<ir::MethodName>(d.id)) : nullptr;
      if (!row)
        TRAP(TrapCode::kUnknown, absl::StrCat("unknown method '", d.name, "' on ", Kind(t, *recv)));
      const bool mut = row->mutates;
      chain.objs.clear();
      chain.inserted = false;
      if (mut) {
        recv = Resolve(t, R, fn->places[d.place], true, &chain);
        PLACE_OK(recv);
        for (int hops = 0; IsRef(*recv); ++hops) {
          if (hops > kMaxRefHops)
            return Trap(t, TrapCode::kType,
                        "reference cycle: a reference that leads back to itself");
          recv = RefTarget(t, *recv, true, &chain);
          PLACE_OK(recv);
        }
        // The method writes the receiver in place: a shared one is copied
        // first (copy on write is work).
        if (recv->IsHeap() && recv->h()->rc > 1) {
          if (!ChargeWork(t, cost::Copy(*recv->h()))) WORK_SHORT();
          steps = t.steps_left_;
        }
      }
      Value out;
      int64_t delta = 0;
      CallStatus st = BuiltinMethod(cx, *recv, *row, args, out, &delta);
      if (st == CallStatus::kFail) {
        FAIL(cx.fail);
      }
      steps = t.steps_left_;
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
    CallStatus st = BuiltinFn(cx, static_cast<ir::BuiltinFnId>(d.id), args, out);
    if (st != CallStatus::kOk) {
      FAIL(cx.fail);
    }
    steps = t.steps_left_;
    R[pc->a] = std::move(out);
    NEXT_OR_EXACT();
  }
  CASE(Effect) {
    const CallDesc& d = fn->calls[pc->b];
    {
      // Encoding the arguments for the host is work (a path, a URL, a body):
      // charged before anything is moved, so the instruction can run again.
      uint64_t units = 0;
      for (const ArgDesc& a : d.args) units += Estimate(R[a.reg]);
      SAVE();
      if (!ChargeWork(t, units)) WORK_SHORT();
      MTY_WORK(units);
      steps = t.steps_left_;
    }
    GATHER_ARGS(d, 0);
    SAVE();
    herr.Clear();
    if constexpr (M != Mode::kFree) herr.memory_left = mem_limit > mem ? mem_limit - mem : 0;
    std::optional<Value> out;
    if (d.id >= 0 && t.host_) {
      const size_t at = static_cast<size_t>(pc - code);
      herr.loc = at < fn->loc.size() ? fn->loc[at] : ir::Loc{};
      if (static_cast<size_t>(d.id) < ir::kNumEffects)
        out = t.host_->InvokeEffect(static_cast<ir::EffectId>(d.id), args, Scope(t), &herr);
      else
        out = t.host_->InvokeHostFn(static_cast<uint32_t>(d.id - ir::kNumEffects), args, Scope(t),
                                    &herr);
    }
    if (!out) {
      if (herr.memory_needed) CHARGE_MEM(herr.memory_needed);  // breaches: more than is left
      if (herr.wait) WAIT_FOR_HOST();  // a sleep, a late host function: the host resumes the task
      // A blocking call that gave up at the wall-clock deadline.
      if (!herr.breach && herr.code == TrapCode::kBudget) {
        Stop s = CheckDeadlines(t);
        if (s != Stop::kContinue) return s;
      }
      if (!herr.breach && herr.code == TrapCode::kNone && herr.message.empty())
        herr.message = absl::StrCat("unknown effect '", d.name, "' (no host module provides it)");
      FAIL(herr);
    }
    // A host call is a safepoint: an interrupt, or a deadline that passed
    // while it ran, ends the task here (reported at the call).
    SAFEPOINT(pc - code);
    CHARGE_MEM(Estimate(*out));
    // Decoding the result (the bytes read, the response) is work too. The
    // call ends its segment, so the counter is exact here.
    if (!ChargeWork(t, Estimate(*out))) {
      t.work_short_ = false;
      WorkBreach(t);
      return Over(t, ir::LimitId::kSteps);
    }
    MTY_WORK(Estimate(*out));
    steps = t.steps_left_;
    R[pc->a] = std::move(*out);
    ++pc;
    ENTER_SEGMENT(pc - code);
    DISPATCH();
  }
  // Agent instructions may run other tasks of the run (an initialiser, a
  // turn): the chain's use is flushed before and the cache refilled after.
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
    if (!h) FAIL(herr);
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
    if (st == Host::AskStatus::kFail) FAIL(herr);
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
    if (st == Host::AskStatus::kFail) FAIL(herr);
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
    if (a_.IsSignedInt() && b_.IsSignedInt()) [[likely]] {                                      \
      r_ = a_.i() op b_.i();                                                                    \
    } else {                                                                                    \
      DEAD_CHECK(a_);                                                                           \
      DEAD_CHECK(b_);                                                                           \
      Value out_;                                                                               \
      SAVE();                                                                                   \
      if (!Arith(cx,                                                                            \
                 static_cast<Op>(static_cast<int>(Op::Eq) +                                     \
                                 (static_cast<int>(Op::name) - static_cast<int>(Op::CmpBrEq))), \
                 a_, b_, out_)) {                                                               \
        FAIL(cx.fail);                                                                          \
      }                                                                                         \
      steps = t.steps_left_;                                                                    \
      r_ = out_.b();                                                                            \
      if constexpr (M == Mode::kMetered) {                                                      \
        if (t.go_exact_) { /* the segment's advance charge was taken back */                    \
          t.go_exact_ = false;                                                                  \
          pc = r_ ? pc + 1 : code + pc->c;                                                      \
          SAVE();                                                                               \
          return Stop::kToExact;                                                                \
        }                                                                                       \
      }                                                                                         \
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
    JUMP(CaseTarget(fn->cases[pc->b], key));
  }
  CASE(SwitchVariant) {
    const Value& v = R[pc->a];
    if (!v.Is(Tag::kAdt)) {
      DEAD_CHECK(v);
      TRAP(TrapCode::kType, absl::StrCat("switch_variant on ", Kind(t, v)));
    }
    int64_t key = static_cast<AdtObj*>(v.h())->variant;
    JUMP(CaseTarget(fn->cases[pc->b], key));
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
  CASE(ReturnOnce) {
    const size_t slot = static_cast<size_t>(fn->once_slot);
    if (t.once_.size() <= slot) t.once_.resize(mod.num_once, Value::Dead());
    t.once_[slot] = R[0];
    goto do_return;
  }
  CASE(Panic) {
    const Value& v = R[pc->a];
    TRAP(TrapCode::kPanic, PanicMessage(mod, v));
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
    // The work is the appended bytes (amortised).
    if (!ChargeWork(t, add.size())) WORK_SHORT();
    MTY_WORK(add.size());
    steps = t.steps_left_;
    CHARGE_MEM(cost::StrBytes(dst->s.size() + add.size()));
    dst->s += add;
    dst->ascii = -1;
    dst->est = cost::StrBytes(dst->s.size());
    NEXT_OR_EXACT();
  }
  if (!Arith(cx, pc->op, R[pc->b], R[pc->c], out)) {
    FAIL(cx.fail);
  }
  steps = t.steps_left_;
  R[pc->a] = std::move(out);
  NEXT_OR_EXACT();
}

push_call_target : {
  const uint32_t base = TopOfStack(t);
  const uint32_t ret_pc = static_cast<uint32_t>(pc - code) + 1;
  const int32_t ret_reg = static_cast<int32_t>(t.frames_.back().base) + pc->a;
  SAFEPOINT(ret_pc - 1);
  SAVE();
  if (Push p = PushFrame(t, target_for_push, base, ret_pc, ret_reg); p != Push::kOk) [[unlikely]] {
    if (p == Push::kDepth) return Breach(t, DepthBreach(t));
    STACK_GREW();
  }
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
#undef FAIL
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
#undef WORK_SHORT
#undef PLACE_OK
#undef NEXT_OR_EXACT
#undef COPY_OUT
#undef FIELD_THROUGH_REF
#undef TAKE_ARGS
#undef LONG_LITERAL_WORK
}

template Stop Exec::Loop<Mode::kFree>(Task& t);
template Stop Exec::Loop<Mode::kMetered>(Task& t);
template Stop Exec::Loop<Mode::kExact>(Task& t);

}  // namespace mty::interp
