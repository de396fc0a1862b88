// Lowers verified MtyIR to bytecode: register allocation (locals, then
// constants, then per-statement scratch), jump patching, and the step
// accounting tables (segment costs and statement starts).
#include <map>

#include "absl/strings/str_cat.h"
#include "mty/interp/bytecode.h"
#include "mty/ir/builtins.h"
#include "mty/ir/kinds.h"
#include "mty/ir/text.h"
#include "mty/ir/verify.h"
#include "mty/ir/visit.h"

namespace mty::interp {

const char* OpName(Op op) {
  static constexpr const char* kNames[] = {
#define OP(name, text, fmt, doc) text,
#include "mty/interp/opcodes.def"
#undef OP
  };
  return kNames[static_cast<int>(op)];
}

const char* OpFormat(Op op) {
  static constexpr const char* kFormats[] = {
#define OP(name, text, fmt, doc) fmt,
#include "mty/interp/opcodes.def"
#undef OP
  };
  return kFormats[static_cast<int>(op)];
}

int Module::FindFunction(std::string_view name) const {
  auto it = function_ids.find(absl::string_view(name.data(), name.size()));
  return it == function_ids.end() ? -1 : it->second;
}

namespace {

// (clang-format would pull each #include into the `case` macro before it.)
// clang-format off
// Each operator's instruction, by name (kinds.def: MTY_IR_BINOP(Add, "+")
// lowers to Op::Add): an operator without its instruction does not compile.
constexpr Op BinOpInstr(ir::BinOp op) {
  switch (op) {
#define MTY_IR_BINOP(name, text) case ir::BinOp::k##name: return Op::name;
#include "mty/ir/kinds.def"
  }
  return Op::kCount;
}

constexpr Op UnOpInstr(ir::UnOp op) {
  switch (op) {
#define MTY_IR_UNOP(name, text) case ir::UnOp::k##name: return Op::name;
#include "mty/ir/kinds.def"
  }
  return Op::kCount;
}

// A comparison's fused compare-and-branch (Op::CmpBrEq for kEq); kCount for
// the other operators.
constexpr Op CmpBranchOf(ir::BinOp op) {
  switch (op) {
#define MTY_IR_BINOP(name, text) case ir::BinOp::k##name: return Op::kCount;
#define MTY_IR_COMPARE(name, text) case ir::BinOp::k##name: return Op::CmpBr##name;
#include "mty/ir/kinds.def"
  }
  return Op::kCount;
}
// clang-format on

// A fused branch that does not take its int fast path computes its compare
// with the instruction vm.cc derives from it (CompareOfCmpBranch): the same
// one the unfused statement would have used.
constexpr bool CmpBranchesMatchCompares() {
  for (const ir::BinOpInfo& o : ir::kBinOps) {
    Op br = CmpBranchOf(o.op);
    if (o.is_compare != (br != Op::kCount)) return false;
    if (o.is_compare && CompareOfCmpBranch(br) != BinOpInstr(o.op)) return false;
  }
  return true;
}
static_assert(CmpBranchesMatchCompares(),
              "every comparison in kinds.def needs Op::Name and Op::CmpBrName in the same order");

// Whether operand i (0 = a, 1 = b, 2 = c) of op is a jump target (`t` in
// its opcodes.def format, "r t t"): block numbers until Run() patches them.
constexpr const char* kOpFormats[] = {
#define OP(name, text, fmt, doc) fmt,
#include "mty/interp/opcodes.def"
#undef OP
};
constexpr bool FormatsWellFormed() {
  for (const char* f : kOpFormats)
    if (std::string_view(f).size() != 5 || f[1] != ' ' || f[3] != ' ') return false;
  return true;
}
static_assert(FormatsWellFormed(), "opcodes.def formats are three letters: \"r t t\"");
constexpr bool IsJumpTarget(Op op, int i) { return kOpFormats[static_cast<int>(op)][2 * i] == 't'; }

std::optional<CastKind> CastKindOf(const ir::Type& t) {
  if (const ir::CastInfo* c = ir::FindCast(t.name)) return c->kind;
  return std::nullopt;
}

class FunctionCompiler {
 public:
  FunctionCompiler(const ir::Program& p, const ir::Function& f, const Module& m,
                   const std::map<std::string, int>& adt_ids, CompiledFunction& out)
      : p_(p), f_(f), m_(m), adt_ids_(adt_ids), out_(out) {}

  void Run() {
    out_.name = f_.name;
    out_.num_params = f_.num_params;
    out_.num_locals = static_cast<uint32_t>(f_.locals.size());
    // Constants get registers right after the locals, in text order.
    auto note_const = [&](const ir::Operand& o) { NoteConst(o); };
    for (const ir::Block& b : f_.blocks) {
      for (const ir::Statement& s : b.stmts) ir::ForEachOperand(s, note_const);
      ir::ForEachOperand(b.term, note_const);
    }
    CountUses();
    FindStableLocals();
    preds_.assign(f_.blocks.size(), 0);
    preds_[0] = 1;  // the function entry
    for (const ir::Block& b : f_.blocks)
      ir::ForEachTarget(b.term, [&](uint32_t t) { ++preds_[t]; });
    scratch_base_ = out_.num_locals + static_cast<uint32_t>(out_.constants.size());
    max_reg_ = scratch_base_;
    std::vector<int32_t> block_pc(f_.blocks.size());
    for (size_t bi = 0; bi < f_.blocks.size(); ++bi) {
      const ir::Block& b = f_.blocks[bi];
      block_pc[bi] = Pc();
      if (fall_merge_) {
        // The previous block falls into this one, its only predecessor: one
        // segment (no jump, no second charge).
        fall_merge_ = false;
      } else if (merge_pending_) {
        // This block is the fall-through of a fused branch: its first
        // segment is charged with the branch's (the false path refunds it).
        merge_pending_ = false;
        refund_open_ = true;
      } else {
        seg_start_ = Pc();
        seg_steps_ = 0;
      }
      cur_block_ = static_cast<uint32_t>(bi);
      const ir::Statement* fused = FusableCompare(b, static_cast<uint32_t>(bi));
      Statements(b, fused);
      if (fused) {
        FusedBranch(*fused, b.term);
        merge_pending_ = true;
        refund_pc_ = Pc() - 1;
        refund_base_ = seg_steps_;
      } else if (FallsThrough(b.term, static_cast<uint32_t>(bi))) {
        loc_ = b.term.loc;
        Step();  // the goto's step, counted on the next block's first instruction
        alias_.clear();
        fall_merge_ = true;
      } else if (const ir::Block* tail = SmallReturnBlock(b.term)) {
        // `goto` a short block that returns: its copy runs here instead of a
        // jump (the steps are the same: the goto's, then the block's).
        loc_ = b.term.loc;
        Step();
        alias_.clear();
        Statements(*tail, nullptr);
        Terminator(tail->term);
        CloseSegment();
      } else {
        Terminator(b.term);
        CloseSegment();
      }
      alias_.clear();
    }
    // Patch block numbers into pcs: every operand opcodes.def formats `t`.
    for (Instr& in : out_.code) {
      int32_t* operands[] = {&in.a, &in.b, &in.c};
      for (int i = 0; i < 3; ++i)
        if (IsJumpTarget(in.op, i)) *operands[i] = block_pc[*operands[i]];
    }
    for (size_t pc = 0; pc < out_.code.size(); ++pc)
      out_.code[pc].seg = static_cast<uint16_t>(out_.seg_cost[pc]);
    for (CaseTable& t : out_.cases) {
      t.otherwise = block_pc[t.otherwise];
      for (auto& c : t.cases) c.second = block_pc[c.second];
    }
    out_.frame_size = max_reg_;
  }

 private:
  int32_t Pc() const { return static_cast<int32_t>(out_.code.size()); }

  // Reads of each local anywhere in the function: every place but a plain
  // destination reads its base (a write through a projection reads it too),
  // and every index projection reads its local.
  void CountUses() {
    uses_.assign(f_.locals.size(), 0);
    auto place = [&](const ir::Place& p, ir::PlaceAccess access) {
      if (access != ir::PlaceAccess::kWrite || !p.proj.empty()) ++uses_[p.local];
      for (const ir::Projection& pr : p.proj)
        if (pr.kind == ir::Projection::Kind::kIndex) ++uses_[pr.index];
    };
    for (const ir::Block& b : f_.blocks) {
      for (const ir::Statement& s : b.stmts) ir::ForEachPlace(s, place);
      ir::ForEachPlace(b.term, place);
    }
  }

  // Locals that, once assigned, are never dead again: never moved out, dropped,
  // storage-marked, borrowed or a method's receiver (a call could move out
  // through it). Such a local, assigned in the entry block (or a parameter),
  // is live wherever a later statement reads it, so a copy of it can be read
  // from the local itself (Elidable): reading it cannot trap where the copy
  // would not have.
  void FindStableLocals() {
    const size_t n = f_.locals.size();
    stable_.assign(n, 1);
    first_assign_.assign(n, kNever);
    for (uint32_t i = 1; i <= f_.num_params && i < n; ++i) first_assign_[i] = -1;
    auto unstable_moves = [&](const ir::Operand& o) {
      if (o.kind == ir::Operand::Kind::kMove) stable_[o.place.local] = 0;
    };
    for (const ir::Block& b : f_.blocks) {
      for (const ir::Statement& s : b.stmts) {
        ir::ForEachOperand(s, unstable_moves);
        ir::ForEachPlace(s, [&](const ir::Place& p, ir::PlaceAccess a) {
          if (a == ir::PlaceAccess::kStorage) stable_[p.local] = 0;
        });
        if (s.kind == ir::Statement::Kind::kAssign && ir::Info(s.rvalue.kind).uses_place)
          stable_[s.rvalue.place.local] = 0;
      }
      ir::ForEachOperand(b.term, unstable_moves);
    }
    if (f_.blocks.empty()) return;
    const auto& entry = f_.blocks[0].stmts;
    for (size_t si = 0; si < entry.size(); ++si) {
      const ir::Statement& s = entry[si];
      if (s.kind == ir::Statement::Kind::kAssign && s.place.IsLocal() &&
          first_assign_[s.place.local] == kNever)
        first_assign_[s.place.local] = static_cast<int64_t>(si);
    }
  }

  // Whether `_t = copy _s` (statement si of the current block) can be left
  // out, its one reader taking _s instead: _t is read once, by the next
  // statement (or the terminator) as a plain copy, and _s is stable and
  // assigned before (see FindStableLocals). Returns _s's register, or -1.
  int32_t Elidable(const ir::Block& b, size_t si) {
    const ir::Statement& s = b.stmts[si];
    if (s.kind != ir::Statement::Kind::kAssign || !s.place.IsLocal() || s.place.local == 0 ||
        s.rvalue.kind != ir::Rvalue::Kind::kUse)
      return -1;
    const ir::Operand& o = s.rvalue.ops[0];
    if (o.kind != ir::Operand::Kind::kCopy || !o.place.IsLocal()) return -1;
    const uint32_t t = s.place.local;
    const int32_t src = LocalReg(o.place.local);
    if (uses_[t] != 1 || src == static_cast<int32_t>(t)) return -1;
    if (src < static_cast<int32_t>(f_.locals.size())) {  // not a constant's register
      if (!stable_[src]) return -1;
      const int64_t at = first_assign_[src];
      if (at == kNever || (cur_block_ == 0 && at >= static_cast<int64_t>(si))) return -1;
    }
    // The reader: the next statement, or the terminator after the last one.
    bool read = false;
    auto reads_t = [&](const ir::Operand& r) {
      read |= r.kind == ir::Operand::Kind::kCopy && r.place.IsLocal() && r.place.local == t;
    };
    if (si + 1 < b.stmts.size()) {
      const ir::Statement& next = b.stmts[si + 1];
      // A receiver or a projected destination on _s could change _s while
      // the reader still takes it: keep the copy.
      if (next.kind == ir::Statement::Kind::kAssign && ir::Info(next.rvalue.kind).uses_place &&
          static_cast<int32_t>(next.rvalue.place.local) == src)
        return -1;
      if (!next.place.IsLocal() && static_cast<int32_t>(next.place.local) == src) return -1;
      ir::ForEachOperand(next, reads_t);
    } else {
      ir::ForEachOperand(b.term, reads_t);
    }
    return read ? src : -1;
  }

  // Whether statement si computes a fresh value into a temporary that the
  // next statement only copies or moves into a local: `_t = a + b; _x =
  // copy _t` is computed straight into _x (the copy emits nothing; its step
  // is still counted), and so on along `_y = copy _x` while each is read
  // once. Returns how many copies follow (0: none), their last local in *to.
  size_t CopiesAfter(const ir::Block& b, size_t si, const ir::Statement* fused, int32_t* to) {
    const ir::Statement& s = b.stmts[si];
    if (s.kind != ir::Statement::Kind::kAssign || !s.place.IsLocal() || s.place.local == 0)
      return 0;
    using K = ir::Rvalue::Kind;
    const K k = s.rvalue.kind;
    if (k != K::kBinOp && k != K::kUnOp && k != K::kLen && k != K::kCast) return 0;
    uint32_t t = s.place.local;
    size_t n = 0;
    for (size_t ni = si + 1; ni < b.stmts.size() && &b.stmts[ni] != fused; ++ni) {
      const ir::Statement& next = b.stmts[ni];
      if (uses_[t] != 1 || next.kind != ir::Statement::Kind::kAssign || !next.place.IsLocal() ||
          next.place.local == t || next.rvalue.kind != K::kUse)
        break;
      const ir::Operand& o = next.rvalue.ops[0];
      if (o.kind == ir::Operand::Kind::kConst || !o.place.IsLocal() || o.place.local != t) break;
      t = next.place.local;
      ++n;
      if (t == 0) break;  // the result: read by the return
    }
    *to = static_cast<int32_t>(t);
    return n;
  }

  // Compiles a block's statements (fused: the compare its branch computes).
  void Statements(const ir::Block& b, const ir::Statement* fused) {
    for (size_t si = 0; si < b.stmts.size(); ++si) {
      const ir::Statement& s = b.stmts[si];
      if (&s == fused) {
        loc_ = s.loc;
        Step();  // counted here, executed by the fused branch
        continue;
      }
      if (int32_t src = Elidable(b, si); src >= 0) {
        loc_ = s.loc;
        Step();  // counted on the next instruction; its reader reads src
        alias_.assign(1, {static_cast<int32_t>(s.place.local), src});
        continue;
      }
      if (size_t copies = CopiesAfter(b, si, fused, &retarget_); copies > 0) {
        Statement(s);
        retarget_ = -1;
        alias_.clear();
        for (size_t i = 0; i < copies; ++i) {
          loc_ = b.stmts[++si].loc;
          Step();  // the copy's step: it emits nothing
        }
        continue;
      }
      retarget_ = -1;
      Statement(s);
      alias_.clear();
    }
  }

  // `goto` the next block when this is its only predecessor.
  bool FallsThrough(const ir::Terminator& t, uint32_t bi) const {
    return t.kind == ir::Terminator::Kind::kGoto && t.target == bi + 1 &&
           t.target < f_.blocks.size() && preds_[t.target] == 1;
  }

  // The target of a `goto` when it is a block of at most three plain
  // assignments that returns (the join of an if/else or a match arm's end).
  const ir::Block* SmallReturnBlock(const ir::Terminator& t) const {
    if (t.kind != ir::Terminator::Kind::kGoto || t.target >= f_.blocks.size()) return nullptr;
    const ir::Block& b = f_.blocks[t.target];
    if (b.term.kind != ir::Terminator::Kind::kReturn || b.stmts.size() > 3) return nullptr;
    for (const ir::Statement& s : b.stmts) {
      if (s.kind != ir::Statement::Kind::kAssign) return nullptr;
      const ir::Rvalue::Kind k = s.rvalue.kind;
      if (k != ir::Rvalue::Kind::kUse && k != ir::Rvalue::Kind::kBinOp) return nullptr;
    }
    return &b;
  }

  // A local's register in operand position: the source of an elided copy
  // that the current statement reads, else the local itself.
  int32_t LocalReg(uint32_t local) const {
    for (const auto& [t, src] : alias_)
      if (t == static_cast<int32_t>(local)) return src;
    return static_cast<int32_t>(local);
  }

  // `_t = a < b` as the last statement, `if copy _t then ...` as the
  // terminator, and _t read nowhere else: lowered as one CmpBr instruction.
  const ir::Statement* FusableCompare(const ir::Block& b, uint32_t bi) {
    if (b.stmts.empty() || b.term.kind != ir::Terminator::Kind::kIf) return nullptr;
    // The `then` block must follow in layout and have no other predecessor,
    // so that falling into it can share the branch's segment charge.
    if (b.term.target != bi + 1 || preds_[bi + 1] != 1 || b.term.target2 == bi + 1) return nullptr;
    const ir::Statement& s = b.stmts.back();
    const ir::Operand& c = b.term.op;
    if (s.kind != ir::Statement::Kind::kAssign || !s.place.IsLocal() ||
        s.rvalue.kind != ir::Rvalue::Kind::kBinOp || c.kind != ir::Operand::Kind::kCopy ||
        !c.place.IsLocal() || c.place.local != s.place.local || s.place.local == 0)
      return nullptr;
    if (CmpBranchOf(s.rvalue.bin) == Op::kCount) return nullptr;
    for (const ir::Operand& o : s.rvalue.ops)
      if (o.kind == ir::Operand::Kind::kMove) return nullptr;
    if (uses_[s.place.local] != 1) return nullptr;
    return &s;
  }

  void FusedBranch(const ir::Statement& cmp, const ir::Terminator& t) {
    loc_ = t.loc;
    scratch_next_ = scratch_base_;
    Step();
    int32_t a = OperandReg(cmp.rvalue.ops[0]);
    int32_t b = OperandReg(cmp.rvalue.ops[1]);
    Emit(CmpBranchOf(cmp.rvalue.bin), a, b, static_cast<int32_t>(t.target2));
    kills_.clear();
  }

  void NoteConst(const ir::Operand& o) {
    if (o.kind != ir::Operand::Kind::kConst) return;
    std::string key =
        absl::StrCat(static_cast<int>(o.constant.kind), ":", ir::PrintConstant(o.constant));
    if (const_regs_.count(key)) return;
    const_regs_[key] = out_.num_locals + static_cast<int32_t>(out_.constants.size());
    out_.constants.push_back(o.constant);
    if (o.constant.kind == ir::Constant::Kind::kStr) out_.consts_immediate = false;
  }

  int32_t ConstReg(const ir::Constant& c) {
    return const_regs_.at(absl::StrCat(static_cast<int>(c.kind), ":", ir::PrintConstant(c)));
  }

  int32_t Scratch() {
    int32_t r = static_cast<int32_t>(scratch_next_++);
    if (scratch_next_ > max_reg_) max_reg_ = scratch_next_;
    return r;
  }

  void Emit(Op op, int32_t a = 0, int32_t b = 0, int32_t c = 0) {
    out_.code.push_back(Instr{op, 0, a, b, c});
    out_.seg_cost.push_back(0);
    out_.refund.push_back(0);
    out_.steps_at.push_back(pending_steps_);
    out_.loc.push_back(loc_);
    if (pending_locs_.size() > 1) out_.step_locs[Pc() - 1] = pending_locs_;
    pending_locs_.clear();
    pending_steps_ = 0;
  }

  void Step() {
    if (seg_steps_ >= kMaxSegCost) {
      // A segment's cost must fit the 16-bit inline field: split it with a
      // Charge instruction that starts the next segment.
      CloseSegment();
      Emit(Op::Charge);
    }
    ++pending_steps_;
    ++seg_steps_;
    pending_locs_.push_back(loc_);
  }

  void CloseSegment() {
    if (refund_open_) {
      out_.refund[refund_pc_] = seg_steps_ - refund_base_;
      refund_open_ = false;
    }
    out_.rest.resize(out_.code.size(), 0);
    uint32_t rest = 0;
    for (int32_t p = Pc(); p-- > seg_start_;) {
      rest += out_.steps_at[p];
      out_.rest[p] = rest;
    }
    if (seg_start_ < Pc()) out_.seg_cost[seg_start_] += seg_steps_;
    seg_start_ = Pc();
    seg_steps_ = 0;
  }

  int32_t PlaceDescOf(const ir::Place& p) {
    PlaceDesc d;
    d.base = static_cast<int32_t>(p.local);
    d.proj = p.proj;
    if (d.proj.size() == 2 && d.proj[0].kind == ir::Projection::Kind::kDeref &&
        d.proj[1].kind == ir::Projection::Kind::kField) {
      d.shape = PlaceDesc::Shape::kDerefField;
      d.field = d.proj[1].index;
    }
    out_.places.push_back(std::move(d));
    return static_cast<int32_t>(out_.places.size() - 1);
  }

  // Returns the register holding the operand's value, emitting a load for
  // projected places. Whole-local moves are recorded in kills_.
  int32_t OperandReg(const ir::Operand& o) {
    if (o.kind == ir::Operand::Kind::kConst) return ConstReg(o.constant);
    if (o.place.IsLocal()) {
      if (o.kind == ir::Operand::Kind::kMove) kills_.push_back(static_cast<int32_t>(o.place.local));
      return LocalReg(o.place.local);
    }
    int32_t r = Scratch();
    Emit(Op::LoadPlace, r, PlaceDescOf(o.place));
    return r;
  }

  std::vector<ArgDesc> Args(const std::vector<ir::Operand>& ops, size_t from = 0) {
    std::vector<ArgDesc> args;
    for (size_t i = from; i < ops.size(); ++i) {
      const ir::Operand& o = ops[i];
      if (o.kind == ir::Operand::Kind::kMove && o.place.IsLocal()) {
        args.push_back({static_cast<int32_t>(o.place.local), true});
      } else {
        args.push_back({OperandReg(o), false});
      }
    }
    return args;
  }

  int32_t AddCall(CallDesc d) {
    out_.calls.push_back(std::move(d));
    return static_cast<int32_t>(out_.calls.size() - 1);
  }

  void FlushKills() {
    for (int32_t r : kills_) Emit(Op::Kill, r);
    kills_.clear();
  }

  void Statement(const ir::Statement& s) {
    loc_ = s.loc;
    scratch_next_ = scratch_base_;
    Step();
    switch (s.kind) {
      case ir::Statement::Kind::kAssign: Assign(s); break;
      case ir::Statement::Kind::kDrop:
      case ir::Statement::Kind::kStorageDead:
        if (s.place.IsLocal()) Emit(Op::Kill, static_cast<int32_t>(s.place.local));
        break;
      case ir::Statement::Kind::kStorageLive:
        Emit(Op::Live, static_cast<int32_t>(s.place.local));
        break;
      case ir::Statement::Kind::kEffectInvoke: {
        CallDesc d;
        d.name = s.path;
        if (const ir::EffectInfo* e = ir::FindEffect(s.path)) {
          d.id = static_cast<int32_t>(e->id);
        } else if (int h = ir::FindHostFn(&m_.host_fns, s.path); h >= 0) {
          d.id = static_cast<int32_t>(ir::kNumEffects) + h;  // an embedder's host function
        }
        d.args = Args(s.args);
        bool direct = s.has_dest && s.place.IsLocal();
        int32_t dst = direct ? static_cast<int32_t>(s.place.local) : Scratch();
        Emit(Op::Effect, dst, AddCall(std::move(d)));
        // A host call ends its segment: its result is charged (work) with
        // an exact counter.
        CloseSegment();
        if (s.has_dest && !direct) Emit(Op::StorePlace, PlaceDescOf(s.place), dst);
        break;
      }
      case ir::Statement::Kind::kSandboxEnter: {
        int32_t index = 0;
        for (size_t i = 0; i < p_.sandboxes.size(); ++i)
          if (p_.sandboxes[i].name == s.path) index = static_cast<int32_t>(i);
        // A scope change is a segment boundary, so the step counter is exact
        // when the scope's limits are applied.
        Emit(Op::SandboxEnter, index);
        CloseSegment();
        break;
      }
      case ir::Statement::Kind::kSandboxExit:
        Emit(Op::SandboxExit);
        CloseSegment();
        break;
      case ir::Statement::Kind::kArenaPush:
      case ir::Statement::Kind::kArenaPop:
      case ir::Statement::Kind::kNop: break;  // no instruction; the step is counted on the next one
    }
  }

  void Assign(const ir::Statement& s) {
    const ir::Rvalue& r = s.rvalue;
    bool direct = s.place.IsLocal();
    int32_t dst = direct ? static_cast<int32_t>(s.place.local) : -1;
    if (retarget_ >= 0) dst = retarget_;  // Retargetable: straight into the copy's local
    auto Dst = [&] {
      if (dst < 0) dst = Scratch();
      return dst;
    };
    bool breaks_segment = false;
    using K = ir::Rvalue::Kind;
    switch (r.kind) {
      case K::kUse: {
        const ir::Operand& o = r.ops[0];
        if (o.kind == ir::Operand::Kind::kMove && o.place.IsLocal()) {
          if (direct && o.place.local == s.place.local) break;  // _1 = move _1
          Emit(Op::MoveKill, Dst(), static_cast<int32_t>(o.place.local));
        } else if (!direct && o.kind != ir::Operand::Kind::kConst && o.place.IsLocal()) {
          dst = LocalReg(o.place.local);  // store straight from the local
        } else if (direct && o.kind != ir::Operand::Kind::kConst && !o.place.IsLocal()) {
          // `_x = copy (_1).f`: loaded straight into _x (the load copies
          // the value before it writes, so _x may be the place's base).
          Emit(Op::LoadPlace, dst, PlaceDescOf(o.place));
        } else {
          int32_t src = OperandReg(o);
          if (direct) {
            Emit(Op::Move, dst, src);
          } else {
            dst = src;
          }
        }
        break;
      }
      case K::kBinOp: {
        int32_t a = OperandReg(r.ops[0]);
        int32_t b = OperandReg(r.ops[1]);
        Emit(BinOpInstr(r.bin), Dst(), a, b);
        break;
      }
      case K::kUnOp: {
        int32_t a = OperandReg(r.ops[0]);
        Emit(UnOpInstr(r.un), Dst(), a);
        break;
      }
      case K::kRef: Emit(Op::MakeRef, Dst(), PlaceDescOf(r.place), r.is_mut ? 1 : 0); break;
      case K::kDeref: {
        int32_t a = OperandReg(r.ops[0]);
        Emit(Op::Deref, Dst(), a);
        break;
      }
      case K::kFieldRead:
      case K::kTupleRead: {
        int32_t a = OperandReg(r.ops[0]);
        Emit(r.kind == K::kFieldRead ? Op::GetField : Op::GetTuple, Dst(), a,
             static_cast<int32_t>(r.index));
        break;
      }
      case K::kIndexRead: {
        int32_t a = OperandReg(r.ops[0]);
        int32_t b = OperandReg(r.ops[1]);
        Emit(Op::GetIndex, Dst(), a, b);
        break;
      }
      case K::kLen: {
        int32_t a = OperandReg(r.ops[0]);
        Emit(Op::Len, Dst(), a);
        break;
      }
      case K::kCast: {
        int32_t a = OperandReg(r.ops[0]);
        Emit(Op::Cast, Dst(), a, static_cast<int32_t>(*CastKindOf(*r.type)));
        break;
      }
      case K::kAdtInit:
      case K::kTupleInit:
      case K::kArrayInit:
      case K::kMapInit:
      case K::kCall:
      case K::kCallIndirect:
      case K::kMethodCall:
      case K::kClosure:
      case K::kCapValue:
      case K::kAgentSpawn:
      case K::kSend:
      case K::kAsk: breaks_segment = EmitCallLike(r, Dst); break;
    }
    if (breaks_segment) CloseSegment();
    if (!direct && dst >= 0) Emit(Op::StorePlace, PlaceDescOf(s.place), dst);
    // `_1 = move _1 + x` moves _1 out and then assigns it: it stays live.
    if (direct) std::erase(kills_, dst);
    FlushKills();
  }

  // The rvalues whose operands gather into a CallDesc: constructors, calls,
  // closures, capability values, agents. The instruction writes dst() (the
  // destination asked for once the operands are placed); true when it
  // ends a segment (a call, or a wait).
  template <typename Dst>
  bool EmitCallLike(const ir::Rvalue& r, Dst& dst) {
    using K = ir::Rvalue::Kind;
    CallDesc d;
    Op op = Op::Call;
    int32_t extra = 0;
    bool ends = false;
    switch (r.kind) {
      case K::kAdtInit: {
        d.args = Args(r.ops);
        d.adt = adt_ids_.at(r.name);
        const AdtInfo& info = m_.adts[d.adt];
        if (info.is_enum)
          for (size_t v = 0; v < info.variant_names.size(); ++v)
            if (info.variant_names[v] == r.name2) d.variant = static_cast<uint32_t>(v);
        op = Op::NewAdt;
        break;
      }
      case K::kTupleInit:
      case K::kArrayInit:
      case K::kMapInit:
        d.args = Args(r.ops);
        op = r.kind == K::kTupleInit   ? Op::NewTuple
             : r.kind == K::kArrayInit ? Op::NewArray
                                       : Op::NewMap;
        break;
      case K::kCall:
        d.args = Args(r.ops);
        d.name = r.name;
        if (r.is_builtin) {
          d.id = static_cast<int32_t>(ir::FindBuiltinFn(r.name)->id);  // the verifier checked it
          op = Op::CallBuiltin;
        } else {
          d.callee = m_.FindFunction(r.name);
          op = m_.functions[d.callee].once_slot >= 0 ? Op::CallOnce : Op::Call;
          ends = true;
        }
        break;
      case K::kCallIndirect:
        d.callee = OperandReg(r.ops[0]);
        d.args = Args(r.ops, 1);
        op = Op::CallIndirect;
        ends = true;
        break;
      case K::kMethodCall:
        d.args = Args(r.ops);
        d.name = r.name;
        if (std::optional<ir::MethodName> n = ir::FindMethodName(r.name))
          d.id = static_cast<int32_t>(*n);
        if (auto it = m_.method_ids.find(r.name); it != m_.method_ids.end())
          d.user_method = it->second;
        d.place = PlaceDescOf(r.place);
        op = Op::CallMethod;
        ends = true;
        break;
      case K::kClosure:
        d.args = Args(r.ops);
        d.callee = m_.FindFunction(r.name);
        op = Op::MakeClosure;
        break;
      case K::kCapValue:
        d.name = r.name;
        out_.messages.push_back(r.name2);
        d.callee = static_cast<int32_t>(out_.messages.size() - 1);
        op = Op::MakeCap;
        break;
      case K::kAgentSpawn:
        d.name = r.name;
        d.args = Args(r.ops);
        d.callee = m_.FindFunction(r.name + "::__init");
        op = Op::Spawn;
        break;
      case K::kSend:
        d.name = r.name;
        d.args = Args(r.ops);
        op = Op::Send;
        break;
      case K::kAsk:
        d.name = r.name;
        d.args = Args(r.ops);
        extra = r.deadline ? OperandReg(*r.deadline) : -1;
        op = Op::Ask;
        ends = true;  // the task may wait here
        break;
      default: return false;  // not one of these (Assign sends only these)
    }
    Emit(op, dst(), AddCall(std::move(d)), extra);
    return ends;
  }

  int32_t AddCases(const ir::Terminator& t) {
    CaseTable ct;
    ct.otherwise = static_cast<int32_t>(t.target);
    for (const ir::SwitchCase& c : t.cases)
      ct.cases.push_back({c.value, static_cast<int32_t>(c.target)});
    out_.cases.push_back(std::move(ct));
    return static_cast<int32_t>(out_.cases.size() - 1);
  }

  void Terminator(const ir::Terminator& t) {
    loc_ = t.loc;
    scratch_next_ = scratch_base_;
    Step();
    using K = ir::Terminator::Kind;
    switch (t.kind) {
      case K::kGoto: Emit(Op::Jmp, static_cast<int32_t>(t.target)); break;
      case K::kIf: {
        int32_t c = OperandReg(t.op);
        Emit(Op::JmpIf, c, static_cast<int32_t>(t.target), static_cast<int32_t>(t.target2));
        break;
      }
      case K::kSwitchInt:
      case K::kSwitchVariant: {
        int32_t v = OperandReg(t.op);
        Emit(t.kind == K::kSwitchInt ? Op::SwitchInt : Op::SwitchVariant, v, AddCases(t));
        break;
      }
      case K::kReturn: Emit(f_.once ? Op::ReturnOnce : Op::Return); break;
      case K::kPanic: Emit(Op::Panic, OperandReg(t.op)); break;
      case K::kUnreachable: Emit(Op::Unreachable); break;
      case K::kTryReturnErr: Emit(Op::TryReturnErr, OperandReg(t.op)); break;
      case K::kSuspend: Emit(Op::Suspend, static_cast<int32_t>(t.target)); break;
    }
    kills_.clear();  // moves in terminators end the frame or the block anyway
  }

  const ir::Program& p_;
  const ir::Function& f_;
  const Module& m_;
  const std::map<std::string, int>& adt_ids_;
  CompiledFunction& out_;
  std::map<std::string, int32_t> const_regs_;
  uint32_t scratch_base_ = 0;
  uint32_t scratch_next_ = 0;
  uint32_t max_reg_ = 0;
  uint32_t pending_steps_ = 0;
  std::vector<ir::Loc> pending_locs_;  // locations of the steps in pending_steps_
  uint32_t seg_steps_ = 0;
  int32_t seg_start_ = 0;
  ir::Loc loc_;
  std::vector<int32_t> kills_;
  std::vector<uint32_t> uses_;
  std::vector<uint32_t> preds_;
  static constexpr int64_t kNever = INT64_MAX;
  std::vector<uint8_t> stable_;                     // FindStableLocals
  std::vector<int64_t> first_assign_;               // index in the entry block; -1: a parameter
  std::vector<std::pair<int32_t, int32_t>> alias_;  // elided copy: its local -> source register
  int32_t retarget_ = -1;  // the local the current statement's result goes to instead
  uint32_t cur_block_ = 0;
  bool fall_merge_ = false;
  bool merge_pending_ = false;
  bool refund_open_ = false;
  int32_t refund_pc_ = 0;
  uint32_t refund_base_ = 0;
};

}  // namespace

absl::StatusOr<std::shared_ptr<const Module>> Compile(const ir::Program& p,
                                                      std::string_view file_name,
                                                      const ir::HostFnTable* host_fns) {
  if (auto s = ir::Verify(p, file_name); !s.ok()) return s;
  auto m = std::make_shared<Module>();
  if (host_fns) m->host_fns = *host_fns;
  m->source = std::string(file_name.empty() ? std::string_view(p.source) : file_name);
  if (!p.source.empty()) m->source = p.source;
  std::map<std::string, int> adt_ids;
  auto add_adt = [&](const ir::Adt& a) {
    AdtInfo info;
    info.name = a.name;
    info.is_enum = a.is_enum;
    for (const ir::Variant& v : a.variants) {
      info.variant_names.push_back(v.name);
      std::vector<std::string> fields;
      for (const ir::Field& f : v.fields) fields.push_back(f.name);
      info.field_names.push_back(std::move(fields));
    }
    adt_ids[a.name] = static_cast<int>(m->adts.size());
    m->adts.push_back(std::move(info));
  };
  // Option and Result always hold ids 0 and 1 so the runtime can build them.
  for (const ir::Adt& a : ir::PreludeAdts()) {
    const ir::Adt* user = p.FindAdtIndex(a.name) >= 0 ? &p.adts[p.FindAdtIndex(a.name)] : nullptr;
    add_adt(user ? *user : a);
  }
  for (const ir::Adt& a : p.adts) {
    bool is_prelude = false;
    for (const ir::Adt& pa : ir::PreludeAdts()) is_prelude |= pa.name == a.name;
    if (!is_prelude) add_adt(a);
  }
  m->functions.resize(p.functions.size());
  for (size_t i = 0; i < p.functions.size(); ++i) {
    m->functions[i].name = p.functions[i].name;
    m->function_ids.try_emplace(p.functions[i].name, static_cast<int>(i));
    if (p.functions[i].once) m->functions[i].once_slot = static_cast<int32_t>(m->num_once++);
  }
  // User methods `Adt::name`: names interned before any call site is compiled.
  m->methods.resize(m->adts.size());
  for (size_t i = 0; i < m->functions.size(); ++i) {
    const std::string& n = m->functions[i].name;
    size_t sep = n.rfind("::");
    if (sep == std::string::npos) continue;
    auto it = adt_ids.find(n.substr(0, sep));
    std::optional<ir::Recv> recv;
    if (it == adt_ids.end()) recv = ir::RecvOfTypeName(n.substr(0, sep));
    if (it == adt_ids.end() && !recv) continue;
    auto [id, fresh] =
        m->method_ids.try_emplace(n.substr(sep + 2), static_cast<int32_t>(m->method_ids.size()));
    (void)fresh;
    if (recv)
      m->recv_methods[static_cast<size_t>(*recv)][id->second] = static_cast<int>(i);
    else
      m->methods[it->second][id->second] = static_cast<int>(i);
  }
  for (size_t i = 0; i < p.functions.size(); ++i) {
    FunctionCompiler fc(p, p.functions[i], *m, adt_ids, m->functions[i]);
    fc.Run();
    const ir::Function& f = p.functions[i];
    m->functions[i].first_param_is_mut_ref = f.num_params >= 1 &&
                                             f.locals[1].type.kind == ir::Type::Kind::kRef &&
                                             f.locals[1].type.is_mut;
  }
  m->main_index = m->FindFunction("main");
  m->sandboxes = p.sandboxes;
  return std::shared_ptr<const Module>(std::move(m));
}

}  // namespace mty::interp
