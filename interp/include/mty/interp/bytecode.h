// The bytecode: MtyIR lowered once to flat arrays of fixed-width
// instructions with pre-resolved operands, plus the side tables and the
// step-accounting tables (segment costs, statement starts).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "mty/interp/value.h"
#include "mty/ir/builtins.h"
#include "mty/ir/host_fns.h"
#include "mty/ir/ir.h"

namespace mty::interp {

enum class Op : uint16_t {
#define OP(name, text, fmt, doc) name,
#include "mty/interp/opcodes.def"
#undef OP
  kCount
};

const char* OpName(Op op);
const char* OpFormat(Op op);

// The compare instruction a fused compare-and-branch stands for: the loop
// (vm.cc, CMP_BRANCH) computes it as Op::Eq + (op - Op::CmpBrEq) when its
// operands are not both ints. So the comparisons of kinds.def must appear in
// opcodes.def twice, as Eq..Ge and as CmpBrEq..CmpBrGe, contiguous and in
// the same order; checked here for every MTY_IR_COMPARE row.
constexpr int OpIndex(Op op) { return static_cast<int>(op); }
constexpr Op CompareOfCmpBranch(Op br) {
  return static_cast<Op>(OpIndex(Op::Eq) + (OpIndex(br) - OpIndex(Op::CmpBrEq)));
}
inline constexpr int kCompareCount = 0
#define MTY_IR_COMPARE(name, text) +1
#include "mty/ir/kinds.def"
    ;
#define MTY_IR_COMPARE(name, text)                                                       \
  static_assert(CompareOfCmpBranch(Op::CmpBr##name) == Op::name,                         \
                "Op::CmpBr" #name " and Op::" #name                                      \
                " must be as far from Op::CmpBrEq as from Op::Eq (vm.cc's CMP_BRANCH)"); \
  static_assert(OpIndex(Op::name) - OpIndex(Op::Eq) >= 0 &&                              \
                    OpIndex(Op::name) - OpIndex(Op::Eq) < kCompareCount,                 \
                "the comparisons Op::Eq.. and Op::CmpBrEq.. must be contiguous");
#include "mty/ir/kinds.def"

struct Instr {
  Op op;
  // The step cost of the segment starting here (see seg_cost), inline so a
  // jump charges its target with one load from the line it fetches next.
  // Segments never exceed kMaxSegCost: the compiler splits longer ones.
  uint16_t seg = 0;
  int32_t a = 0;
  int32_t b = 0;
  int32_t c = 0;
};
static_assert(sizeof(Instr) == 16, "instructions are 16 bytes");
inline constexpr uint32_t kMaxSegCost = 0xFFFF;

using ir::CastKind;  // the builtin table's (ir/builtins.h)

// A resolved place: base register plus projections. kIndex steps name the
// register holding the index.
struct PlaceDesc {
  int32_t base = 0;
  std::vector<ir::Projection> proj;  // kIndex: index field is a register
  // The shape the loop resolves without the general walk (Exec::Resolve):
  // `(*_r).f`, a field of what a reference in a register refers to.
  enum class Shape : uint8_t { kGeneral, kDerefField } shape = Shape::kGeneral;
  uint32_t field = 0;  // kDerefField: f
};

// Operands of variable-length instructions.
struct ArgDesc {
  int32_t reg = 0;
  bool move = false;  // steal the value (the source becomes dead)
};

struct CallDesc {
  int32_t callee = -1;  // Call: function index; CallIndirect: callee register
  std::vector<ArgDesc> args;
  std::string name;  // builtin / method / effect / message name (for messages only)
  // The names resolved once, by the compiler (the loop never compares or
  // hashes a name): CallBuiltin: ir::BuiltinFnId; Effect: ir::EffectId, or
  // ir::kNumEffects + a host function's index (-1: no such effect, MT5008); CallMethod:
  // ir::MethodName of a built-in method (-1: none) and the interned name of user methods
  // `Adt::name` (Module::method_ids; -1: no ADT has one).
  int32_t id = -1;
  int32_t user_method = -1;
  int32_t place = -1;    // CallMethod: receiver place desc
  int32_t adt = -1;      // NewAdt
  uint32_t variant = 0;  // NewAdt
};

struct CaseTable {
  std::vector<std::pair<int64_t, int32_t>> cases;  // value -> pc
  int32_t otherwise = 0;
};

struct CompiledFunction {
  std::string name;
  uint32_t num_params = 0;
  uint32_t num_locals = 0;              // including _0 and params
  uint32_t frame_size = 0;              // locals + constants + scratch
  bool first_param_is_mut_ref = false;  // methods taking `&mut self`
  bool consts_immediate = true;         // no constant is a heap value (frames copy them plainly)
  int32_t once_slot = -1;  // a once fn (a constant): its value's slot in Task's once cache
  std::vector<ir::Constant> constants;  // materialised per run into registers
  std::vector<Instr> code;
  // Steps charged when control enters the segment starting at pc (block
  // start, or the continuation after a call); 0 elsewhere.
  std::vector<uint32_t> seg_cost;
  // For a fused compare-and-branch: the steps of the fall-through segment it
  // charged in advance, given back when it jumps instead.
  std::vector<uint32_t> refund;
  // Steps that begin at pc (exact counting near the end of a step budget).
  std::vector<uint32_t> steps_at;
  // The steps of the segment holding pc from pc to its end, pc included:
  // what its entry charged for instructions that have not run yet. A work
  // charge that does not fit in a metered run gives them back and runs the
  // instruction again with exact counting.
  std::vector<uint32_t> rest;
  // Where several steps begin at one pc (statements that emit no
  // instruction, such as nop, share the next one), their locations in order,
  // so a breach reports the statement it landed on.
  absl::flat_hash_map<uint32_t, std::vector<ir::Loc>> step_locs;
  std::vector<ir::Loc> loc;  // source location per pc (backtraces)
  std::vector<PlaceDesc> places;
  std::vector<CallDesc> calls;
  std::vector<CaseTable> cases;
  std::vector<std::string> messages;  // Unsupported / MakeCap texts
};

struct AdtInfo {
  std::string name;
  bool is_enum = false;
  std::vector<std::string> variant_names;
  std::vector<std::vector<std::string>> field_names;  // per variant
};

// An immutable compiled program; shareable across concurrent runs.
struct Module {
  std::string source;  // file name for backtraces
  std::vector<CompiledFunction> functions;
  std::vector<AdtInfo> adts;  // prelude Option (0), Result (1), then the program's
  int main_index = -1;
  uint32_t num_once = 0;                   // once fns (constants): slots of each task's once cache
  std::vector<ir::SandboxDecl> sandboxes;  // sandbox_enter operands index this
  // The host functions effect calls resolve to: a call's id is
  // ir::kNumEffects + the index here.
  ir::HostFnTable host_fns;
  // User methods, from functions named `Adt::method`: their names interned
  // (at compile time), and per ADT id: interned name -> function index (the
  // dynamic dispatch of `method` calls on ADT receivers).
  absl::flat_hash_map<std::string, int32_t> method_ids;
  std::vector<absl::flat_hash_map<int32_t, int>> methods;
  // The same for functions named `I64::method`, `Str::method`, ... (a
  // trait implemented for a built-in kind), per ir::Recv: they run when the
  // kind has no built-in method of that name.
  std::vector<absl::flat_hash_map<int32_t, int>> recv_methods =
      std::vector<absl::flat_hash_map<int32_t, int>>(ir::kNumRecv);
  absl::flat_hash_map<std::string, int> function_ids;  // by name (the first of equal names)
  int FindFunction(std::string_view name) const;
};

// The prelude's ADT ids in every compiled module (ir::prelude).
inline constexpr uint32_t kAdtOption = ir::prelude::kOption;
inline constexpr uint32_t kAdtResult = ir::prelude::kResult;
inline constexpr uint32_t kAdtMetadata = ir::prelude::kMetadata;  // std.fs.metadata
inline constexpr uint32_t kAdtResponse = ir::prelude::kResponse;  // std.net.get / post
inline constexpr uint32_t kAdtAskError = ir::prelude::kAskError;  // asks with a deadline

// Verifies and lowers a program. Errors are located (`file:line:col`).
// `host_fns`: the embedder's host functions (ir/host_fns.h) that effect
// calls may name; an effect no table names traps MT5008 when it runs.
absl::StatusOr<std::shared_ptr<const Module>> Compile(const ir::Program& p,
                                                      std::string_view file_name,
                                                      const ir::HostFnTable* host_fns = nullptr);

// A readable listing of every function's bytecode.
std::string Disassemble(const Module& m);

}  // namespace mty::interp
