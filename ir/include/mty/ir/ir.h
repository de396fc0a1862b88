// MtyIR data model: programs, ADTs, functions, locals, blocks, statements,
// rvalues, terminators, places and constants. Plain values, no behaviour.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "mty/vocab/policy.h"

namespace mty::ir {

// A position in some source text (1-based). line == 0 means "unknown".
struct Loc {
  uint32_t line = 0;
  uint32_t col = 0;
  bool operator==(const Loc&) const = default;
};

// Types are annotations: the interpreter is dynamically typed and checks
// every operation at run time (MT5016). They are kept for tools, printing
// and the verifier's arity checks.
// A value that only some nodes have, held out of line (8 bytes where it is
// absent): copied deeply, compared by value, read like a std::optional. It
// keeps the common nodes small (compile memory per source byte, runtime.md
// §2).
template <typename T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(const Boxed& o) : p_(o.p_ ? std::make_unique<T>(*o.p_) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& o) {
    if (this != &o) p_ = o.p_ ? std::make_unique<T>(*o.p_) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  Boxed& operator=(T v) {
    p_ = std::make_unique<T>(std::move(v));
    return *this;
  }
  void reset() { p_.reset(); }
  explicit operator bool() const { return p_ != nullptr; }
  const T& operator*() const { return *p_; }
  T& operator*() { return *p_; }
  const T* operator->() const { return p_.get(); }
  T* operator->() { return p_.get(); }
  bool operator==(const Boxed& o) const { return p_ && o.p_ ? *p_ == *o.p_ : !p_ && !o.p_; }

 private:
  std::unique_ptr<T> p_;
};

struct Type {
  enum class Kind : uint8_t {
    kNamed,  // Bool, I64, Str, Point, Option[I64] (name + args)
    kTuple,  // (A, B)
    kArray,  // [T]
    kRef,    // &T or &mut T
    kFn,     // fn(A, B) -> R
  };
  Kind kind = Kind::kNamed;
  std::string name;        // kNamed
  bool is_mut = false;     // kRef
  std::vector<Type> args;  // generic args / elements / params (+ result last for kFn)
  bool operator==(const Type&) const = default;

  static Type Named(std::string n) {
    Type t;
    t.name = std::move(n);
    return t;
  }
};

struct Constant {
  enum class Kind : uint8_t {
    kUnit,
    kBool,
    kInt,
    kFloat,
    kChar,
    kStr,
    kDuration,  // nanoseconds in i
    kSize,      // bytes in i
    kFn,        // a reference to the function named s
    kUInt,      // a U64/USize: the 64 bits unsigned in i (text: `u64 N`)
  };
  Kind kind = Kind::kUnit;
  int64_t i = 0;  // kBool (0/1), kInt, kChar (scalar), kDuration, kSize
  double f = 0;   // kFloat
  std::string s;  // kStr, kFn
  bool operator==(const Constant& o) const {
    return kind == o.kind && i == o.i && s == o.s &&
           (kind != Kind::kFloat || f == o.f || (f != f && o.f != o.f));
  }

  static Constant Unit() { return {}; }
  static Constant Bool(bool b) { return Of(Kind::kBool, b); }
  static Constant Int(int64_t v) { return Of(Kind::kInt, v); }
  static Constant UInt(uint64_t v) { return Of(Kind::kUInt, static_cast<int64_t>(v)); }
  static Constant Float(double v) {
    Constant c;
    c.kind = Kind::kFloat;
    c.f = v;
    return c;
  }
  static Constant Char(uint32_t v) { return Of(Kind::kChar, v); }
  static Constant Str(std::string v) { return Of(Kind::kStr, 0, std::move(v)); }
  static Constant Duration(int64_t ns) { return Of(Kind::kDuration, ns); }
  static Constant Size(int64_t bytes) { return Of(Kind::kSize, bytes); }
  static Constant Fn(std::string name) { return Of(Kind::kFn, 0, std::move(name)); }

 private:
  static Constant Of(Kind kind, int64_t i, std::string s = {}) {
    Constant c;
    c.kind = kind;
    c.i = i;
    c.s = std::move(s);
    return c;
  }
};

struct Projection {
  enum class Kind : uint8_t {
    kField,         // .fN    field N of a struct (variant 0)
    kTupleIndex,    // .N     element N of a tuple
    kVariantField,  // .vV.fN field N of variant V (traps MT5016 on another variant)
    kIndex,         // [_k]   element at the integer/key held in local k
    kDeref,         // *      follow a reference
  };
  Kind kind = Kind::kField;
  uint32_t index = 0;    // field / tuple index / local for kIndex
  uint32_t variant = 0;  // kVariantField
  bool operator==(const Projection&) const = default;
};

// A local plus projections applied left to right. A leading `*` in the text
// form is a kDeref as the first projection.
struct Place {
  uint32_t local = 0;
  std::vector<Projection> proj;
  bool operator==(const Place&) const = default;
  bool IsLocal() const { return proj.empty(); }
};

struct Operand {
  enum class Kind : uint8_t { kCopy, kMove, kConst };
  Kind kind = Kind::kConst;
  Place place;
  Constant constant;
  bool operator==(const Operand&) const = default;

  static Operand Copy(Place p) {
    Operand o;
    o.kind = Kind::kCopy;
    o.place = std::move(p);
    return o;
  }
  static Operand Move(Place p) {
    Operand o;
    o.kind = Kind::kMove;
    o.place = std::move(p);
    return o;
  }
  static Operand Const(Constant c) {
    Operand o;
    o.constant = std::move(c);
    return o;
  }
};

// The operators, their spellings and their instructions: kinds.def.
enum class BinOp : uint8_t {
#define MTY_IR_BINOP(name, text) k##name,
#include "mty/ir/kinds.def"
};
enum class UnOp : uint8_t {
#define MTY_IR_UNOP(name, text) k##name,
#include "mty/ir/kinds.def"
};

const char* BinOpText(BinOp op);
const char* UnOpText(UnOp op);

struct Rvalue {
  // The kinds, their keywords and text forms: kinds.def.
  enum class Kind : uint8_t {
#define MTY_IR_RVALUE(name, keyword, min_ops, uses_place, sample) k##name,
#include "mty/ir/kinds.def"
  };
  Kind kind = Kind::kUse;
  BinOp bin = BinOp::kAdd;
  UnOp un = UnOp::kNeg;
  bool is_mut = false;       // kRef
  bool is_builtin = false;   // kCall: name is a builtin (@log)
  Place place;               // kRef, kMethodCall receiver
  std::vector<Operand> ops;  // operands / args / captures / map k,v pairs
  std::string name;          // adt, callee, method, agent, message, cap family
  std::string name2;         // variant name, cap constraint
  uint32_t index = 0;        // field/tuple index
  Boxed<Type> type;          // kCast: the target
  Boxed<Operand> deadline;   // kAsk: `within d`, when given
  bool operator==(const Rvalue&) const = default;
};

struct Statement {
  // The kinds, their keywords and text forms: kinds.def.
  enum class Kind : uint8_t {
#define MTY_IR_STATEMENT(name, keyword, storage, sample) k##name,
#include "mty/ir/kinds.def"
  };
  Kind kind = Kind::kNop;
  Place place;
  bool has_dest = false;      // kEffectInvoke
  Rvalue rvalue;              // kAssign
  std::string path;           // kEffectInvoke: dotted effect path
  std::vector<Operand> args;  // kEffectInvoke
  uint32_t arena = 0;
  Loc loc;                    // where it came from (source or .mtyir line)
  bool loc_explicit = false;  // printed as `@line:col` when true
  bool operator==(const Statement&) const = default;
};

struct SwitchCase {
  int64_t value = 0;
  uint32_t target = 0;
  bool operator==(const SwitchCase&) const = default;
};

struct Terminator {
  // The kinds, their keywords and text forms: kinds.def.
  enum class Kind : uint8_t {
#define MTY_IR_TERMINATOR(name, keyword, sample) k##name,
#include "mty/ir/kinds.def"
  };
  Kind kind = Kind::kUnreachable;
  Operand op;
  uint32_t target = 0;   // goto / if-then / suspend resume / switch default
  uint32_t target2 = 0;  // if-else
  std::vector<SwitchCase> cases;
  Loc loc;
  bool loc_explicit = false;
  bool operator==(const Terminator&) const = default;
};

struct Block {
  std::vector<Statement> stmts;
  Terminator term;
  bool operator==(const Block&) const = default;
};

struct Local {
  Type type = Type::Named("Unit");
  bool is_mut = false;
  std::string name;  // optional debug name
  bool operator==(const Local&) const = default;
};

struct Function {
  std::string name;
  uint32_t num_params = 0;    // locals 1..num_params are the parameters
  std::vector<Local> locals;  // [0] is the return slot
  std::vector<Block> blocks;
  Loc loc;
  // `once fn`: a function of no parameters (a Mighty constant) whose body
  // runs at its first call in a task; later calls give the same value.
  bool once = false;
  bool operator==(const Function&) const = default;
};

struct Field {
  std::string name;  // empty for positional fields
  Type type;
  bool operator==(const Field&) const = default;
};

struct Variant {
  std::string name;
  std::vector<Field> fields;
  bool operator==(const Variant&) const = default;
};

struct Adt {
  bool is_enum = false;  // a struct has exactly one variant named like it
  std::string name;
  std::vector<Variant> variants;
  Loc loc;
  bool operator==(const Adt&) const = default;
};

// A sandbox manifest (runtime.md §4), declared once per program and entered
// with `sandbox_enter "Name"`. Unset entries inherit the enclosing scope's
// limits and allow-lists; set ones can only tighten them. The keys, units
// and rules are the policy table's (policy.h).
//   sandbox "Tool" { steps = 1000, memory = 64MiB, wall = 2s, fs.read = ["./in"] }
struct SandboxDecl {
  std::string name;
  Policy policy;
  Loc loc;
  bool operator==(const SandboxDecl&) const = default;
};

struct Program {
  std::string source;  // file name used in backtraces (`source "x.mty"`)
  std::vector<Adt> adts;
  std::vector<SandboxDecl> sandboxes;
  std::vector<Function> functions;
  bool operator==(const Program&) const = default;

  const Function* FindFunction(std::string_view name) const;
  int FindFunctionIndex(std::string_view name) const;
  const Adt* FindAdt(std::string_view name) const;
  const SandboxDecl* FindSandbox(std::string_view name) const;
  int FindAdtIndex(std::string_view name) const;
};

// A program's functions and ADTs by name, for code that looks many names up
// (the Find* members scan; a program may have 100 000 functions). It points
// into `p`, which must outlive it and not change.
class ProgramIndex {
 public:
  explicit ProgramIndex(const Program& p);
  int Function(std::string_view name) const;  // index in p.functions, or -1
  // As Program::FindAdt: the program's, else the prelude's, else nullptr.
  const struct Adt* Adt(std::string_view name) const;

 private:
  absl::flat_hash_map<std::string_view, int> functions_;
  absl::flat_hash_map<std::string_view, const struct Adt*> adts_;
};

// The ADTs every program may use without declaring them: Option and Result,
// the standard library's Metadata and Response structs, AskError (why an
// ask with a deadline got no reply) and Ordering (what `cmp` gives: Rust's
// std::cmp::Ordering). They are implicit: not stored in
// Program::adts, found by Program::FindAdt unless the program declares an ADT
// of the same name. PreludeAdts() lists them at these indices, with their
// variants at these numbers; a compiled module gives them the same ids, so
// hosts build them by these names (one table: PreludeAdts() is made from it).
namespace prelude {
inline constexpr uint32_t kOption = 0, kResult = 1, kMetadata = 2, kResponse = 3, kAskError = 4,
                          kOrdering = 5;
inline constexpr uint32_t kCount = 6;
inline constexpr uint32_t kSome = 0, kNone = 1;  // Option
inline constexpr uint32_t kOk = 0, kErr = 1;     // Result
// AskError: DeadlineExceeded, AgentFailed(Str), DeadAgent, MailboxFull.
inline constexpr uint32_t kDeadlineExceeded = 0, kAgentFailed = 1, kDeadAgent = 2, kMailboxFull = 3,
                          kAskErrorVariants = 4;
// Ordering: Less, Equal, Greater (in this order, so comparing them is
// comparing their variants, as Rust's derive).
inline constexpr uint32_t kLess = 0, kEqual = 1, kGreater = 2, kOrderingVariants = 3;
}  // namespace prelude
const std::vector<Adt>& PreludeAdts();

}  // namespace mty::ir
