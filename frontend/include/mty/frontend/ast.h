// The Mighty AST: what the parser produces and the lowering consumes.
// Plain data with source locations; no semantic information.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mty::frontend {

// A part of a node that only some nodes have, allocated at its first
// write (a non-const access); read where absent, it is an empty T.
template <typename T>
class Lazy {
 public:
  Lazy() = default;
  Lazy(Lazy&&) noexcept = default;
  Lazy& operator=(Lazy&&) noexcept = default;
  Lazy& operator=(T v) {
    p_ = std::make_unique<T>(std::move(v));
    return *this;
  }
  const T& operator*() const {
    static const T none;
    return p_ ? *p_ : none;
  }
  T& operator*() {
    if (!p_) p_ = std::make_unique<T>();
    return *p_;
  }
  const T* operator->() const { return &**this; }
  T* operator->() { return &**this; }
  operator const T&() const { return **this; }
  operator T&() { return **this; }
  bool has_value() const { return p_ != nullptr; }

 private:
  std::unique_ptr<T> p_;
};

struct Loc {
  uint32_t line = 0;  // 1-based; 0 = unknown
  uint32_t col = 0;
};

struct Expr;
struct Pattern;
struct Block;
using ExprPtr = std::unique_ptr<Expr>;
using PatPtr = std::unique_ptr<Pattern>;

// A type as written: `I64`, `Option[T]`, `(A, B)`, `[T]`, `[T; 4]`, `&mut T`,
// `fn(A) -> B`, `T!E` (sugar for Result[T, E]).
struct TypeExpr {
  enum class Kind : uint8_t { kPath, kTuple, kArray, kRef, kFn, kInfer };
  Kind kind = Kind::kInfer;
  std::string name;            // kPath: dotted/`::` path as written, e.g. "Option"
  std::vector<TypeExpr> args;  // generic args / tuple elems / [elem] / [pointee] / fn params + ret
  bool is_mut = false;         // kRef
  Loc loc;
};

// One segment of a path expression: `std.fs.read`, `Shape::Circle`, `Point.new`.
struct PathSeg {
  std::string name;
  Loc loc;
};

enum class BinaryOp : uint8_t {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kRem,
  kBitAnd,
  kBitOr,
  kBitXor,
  kShl,
  kShr,
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kAnd,
  kOr,
};

// The method of a program's type that an operator calls when the type
// implements the operator's trait (`a + b` is `a.add(b)`; `a == b` and
// `a != b` are `a.eq(&b)`), or null (docs/language.md §6).
inline const char* OperatorMethodName(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd: return "add";
    case BinaryOp::kSub: return "sub";
    case BinaryOp::kMul: return "mul";
    case BinaryOp::kDiv: return "div";
    case BinaryOp::kRem: return "rem";
    case BinaryOp::kEq:
    case BinaryOp::kNe: return "eq";
    default: return nullptr;
  }
}

enum class UnaryOp : uint8_t { kNeg, kNot };
// The operator as written (`+`, `<<`, `&&`), for dumps and messages (ast_dump.cc).
const char* BinaryOpText(BinaryOp op);

struct MatchArm {
  PatPtr pat;
  ExprPtr guard;  // may be null
  ExprPtr body;
  Loc loc;
};

struct FieldInit {
  std::string name;
  ExprPtr value;  // shorthand `Point { x }` has value = path expr `x`
  Loc loc;
};

struct ClosureParam {
  PatPtr pat;
  TypeExpr type;  // kInfer when absent
};

// A manifest entry of a sandbox: `fs.read = ["./in"]`, `steps = 1000`, `wall = 2s`.
struct SandboxEntry {
  std::string key;  // dotted: "fs.read", "steps", "mb_policy"
  ExprPtr value;
  Loc loc;
};

// The fields of an Expr that only some kinds have (Expr::more()).
struct ExprMore {
  ExprPtr cond;
  ExprPtr else_expr;
  PatPtr pat;
  std::vector<FieldInit> fields;
  std::vector<MatchArm> arms;
  std::vector<ClosureParam> params;
  ExprPtr closure_body;
  TypeExpr type;                      // kCast; kClosure: the declared result (kInfer when absent)
  bool is_move = false;               // kClosure: written `move |..|` (its captures are its own)
  std::vector<SandboxEntry> entries;  // kSandbox
  // kLoop / kWhile / kWhileLet / kFor: the loop's label (`'outer: for`,
  // without the quote; empty when unlabelled); kBreak / kContinue: the
  // label named (`break 'outer`), empty for the innermost loop.
  std::string label;
  Loc label_loc;
  // kMethodCall, kPath: the turbofish's types (`x.parse::[I64]()`,
  // `collect::<Vec<_>>()`, `id::<I64>(1)`); empty when none was written.
  std::vector<TypeExpr> type_args;
  bool has_type_args = false;
  // kPath: a turbofish on the type before the last segment
  // (`Vec::<I64>::new()`): the type's arguments.
  std::vector<TypeExpr> owner_type_args;
};

struct Expr {
  enum class Kind : uint8_t {
    kInt,         // int_value (+ suffix in text)
    kFloat,       // float_value
    kStr,         // text
    kChar,        // int_value = scalar
    kBool,        // int_value 0/1
    kDuration,    // int_value ns (unit suffix in text)
    kSize,        // int_value bytes (unit suffix in text)
    kUnit,        // ()
    kPath,        // segs: `x`, `std.fs.read`, `Shape::Circle`, `None`, `Point.new`
    kUnary,       // unary_op, lhs
    kBinary,      // binary_op, lhs, rhs (also && and ||)
    kAssign,      // lhs = rhs, or lhs op= rhs when has_op (binary_op)
    kCall,        // lhs(args)
    kMethodCall,  // lhs.text(args)
    kField,       // lhs.text
    kTupleField,  // lhs.int_value
    kIndex,       // lhs[rhs]
    kTuple,       // (args...)
    kArray,       // [args...]; `[x; n]` when rhs (the count) is set: args = {x}
    kMap,         // map literal: pairs in args as k0, v0, k1, v1, ...
    kStruct,      // segs { fields } [..rhs] (struct update base)
    kBlock,       // block
    kIf,          // cond, then_block, else_expr (an if or a block expr; may be null)
    kIfLet,       // pat = lhs (scrutinee), then_block, else_expr
    kMatch,       // lhs scrutinee, arms
    kWhile,       // cond, body block
    kWhileLet,    // pat = lhs, body block
    kLoop,        // body block
    kFor,         // pat in lhs, body block
    kBreak,       // lhs value (may be null)
    kContinue,
    kReturn,   // lhs (may be null)
    kTry,      // lhs?
    kClosure,  // params, closure_body
    kRange,    // lhs..rhs or lhs..=rhs (inclusive); either may be null
    kCast,     // lhs as type
    kRef,      // &lhs / &mut lhs (is_mut)
    kDeref,    // *lhs
    kMacro,    // text!(args): format!, assert!, assert_eq!, user macros
    kSpawn,    // spawn segs(args)
    kSend,     // lhs ! text(args)
    kAsk,      // lhs ? text(args) [@ rhs deadline]
    kSandbox,  // sandbox text [with { entries }] block
    kUnsafe,   // unsafe block
    kArena,    // arena text block
    kBudget,   // budget { entries } run block: the block under those limits
  };
  Kind kind = Kind::kUnit;
  Loc loc;  // where diagnostics about it point: its operator, method name, keyword
  // The whole expression's source span: its first token's start and its
  // last token's last column (inclusive), `(`..`)` and blocks included;
  // line 0 when unknown (made by macro expansion). Set by the parser.
  Loc begin;
  Loc end;
  int64_t int_value = 0;
  double float_value = 0;
  std::string text;
  std::vector<PathSeg> segs;
  UnaryOp unary_op = UnaryOp::kNeg;
  BinaryOp binary_op = BinaryOp::kAdd;
  bool has_op = false;     // compound assignment
  bool is_mut = false;     // &mut; on kInt: an unsuffixed literal above I64::MAX (U64 only)
  bool inclusive = false;  // ..=
  ExprPtr lhs;
  ExprPtr rhs;
  std::unique_ptr<Block>
      then_block;  // if / while / loop / for / block / unsafe / arena / sandbox body
  std::vector<ExprPtr> args;
  // What only some kinds have (conditions, patterns, arms, closures, casts,
  // sandboxes, labels), allocated by the first write: most expressions are
  // literals, paths, calls and operators, so an Expr stays small (compile
  // memory per source byte, runtime.md §2).
  Lazy<ExprMore> more;
};

struct Pattern {
  enum class Kind : uint8_t {
    kWild,     // _
    kBind,     // name [@ sub]  (is_mut for `mut x`)
    kLit,      // literal expr (int/float/str/char/bool, negative numbers)
    kRange,    // lo..hi / lo..=hi / lo.. / ..hi / ..=hi (literal exprs; lit or hi null when open)
    kTuple,    // (p, q)
    kVariant,  // path(p, q) or bare path (no parens): `Some(x)`, `Shape.Circle(r)`, `None`
    kStruct,   // path { name: pat, name, .. }
    kOr,       // p | q
    kRef,      // &p
    kSlice,    // [p, q, rest @ .., r]: subs; rest_index = where `..` stands
  };
  Kind kind = Kind::kWild;
  Loc loc;
  std::string name;                      // kBind
  bool is_mut = false;                   // kBind
  std::vector<PathSeg> path;             // kVariant / kStruct
  bool has_parens = false;               // kVariant: `V(...)` vs bare `V`
  std::vector<PatPtr> subs;              // tuple / variant / or elements; kBind: [sub] for `@`
  std::vector<std::string> field_names;  // kStruct, parallel to subs
  bool has_rest = false;                 // kStruct `..`
  ExprPtr lit;                           // kLit, kRange lo
  ExprPtr hi;                            // kRange hi
  bool inclusive = false;                // kRange
  // kSlice: the position of the `..` among subs (that sub is the rest
  // pattern: kWild for a bare `..`, kBind with subs empty for `name @ ..`),
  // or -1 when the pattern has no `..` (fixed length).
  int rest_index = -1;
};

struct FnDecl;

struct Stmt {
  // kFn: a nested `fn` item in a block (fn_item), visible in that block.
  enum class Kind : uint8_t { kLet, kExpr, kEmpty, kFn };
  Kind kind = Kind::kExpr;
  Loc loc;
  PatPtr pat;             // kLet
  TypeExpr type;          // kLet (kInfer when absent)
  ExprPtr expr;           // kLet initialiser (may be null) / kExpr
  bool has_semi = false;  // kExpr: `e;`
  // kLet: `let PAT = e else { .. }` (let-else): the block run when PAT does
  // not match; it must diverge. Null for a plain `let`.
  std::unique_ptr<Block> else_block;
  std::shared_ptr<const FnDecl> fn_item;  // kFn
};

struct Block {
  std::vector<Stmt> stmts;  // the last kExpr without `;` is the block's value
  Loc loc;
};

struct Param {
  std::string name;     // "self" for a receiver
  TypeExpr type;        // kInfer for bare names (agent handlers, ctor params) and `self`
  bool is_mut = false;  // `mut name: T` / `mut self`: the parameter is a mutable local
  enum class SelfKind : uint8_t { kNone, kValue, kRef, kRefMut } self_kind = SelfKind::kNone;
  Loc loc;
};

struct FnDecl {
  std::string name;
  std::vector<std::string> generics;
  std::vector<std::vector<std::string>> bounds;  // per generic: the trait names of `T: A + B`
  std::vector<Param> params;
  TypeExpr ret;                 // kInfer when absent (= Unit)
  std::unique_ptr<Block> body;  // null for a trait method signature
  ExprPtr expr_body;            // `fn f(x) -> T = expr`
  bool is_pub = false;
  Loc loc;
};

struct StructDecl {
  std::string name;
  std::vector<std::string> generics;
  std::vector<std::vector<std::string>> bounds;
  std::vector<std::pair<std::string, TypeExpr>> fields;  // tuple struct: "0", "1", ...
  bool is_tuple = false;         // `struct Pair(I64, Str)`: positional fields
  bool derives_default = false;  // `#[derive(Default)]`
  Loc loc;
};

struct EnumVariant {
  std::string name;
  std::vector<TypeExpr> fields;
  std::vector<std::string> field_names;  // struct-like `Circle { r: F64 }`: parallel to fields
  std::vector<Loc> field_locs;           // struct-like: where each field name is
  Loc loc;
};

struct EnumDecl {
  std::string name;
  std::vector<std::string> generics;
  std::vector<std::vector<std::string>> bounds;
  std::vector<EnumVariant> variants;
  Loc loc;
};

struct ImplDecl {
  std::string trait_name;             // empty for an inherent impl
  std::vector<std::string> generics;  // `impl[T] Stack[T]`
  std::vector<std::vector<std::string>> bounds;
  TypeExpr self_type;
  std::vector<FnDecl> fns;
  Loc loc;
};

struct TraitDecl {
  std::string name;
  std::vector<FnDecl> fns;  // signatures (body null) and default methods
  Loc loc;
};

struct ConstDecl {
  std::string name;
  TypeExpr type;
  ExprPtr value;
  Loc loc;
};

struct TypeAliasDecl {
  std::string name;
  TypeExpr type;
  Loc loc;
};

struct ProtocolMsg {
  std::string name;
  std::vector<Param> params;
  TypeExpr reply;  // kInfer when absent
  Loc loc;
};

struct ProtocolDecl {
  std::string name;
  std::vector<ProtocolMsg> msgs;
  Loc loc;
};

struct AgentState {
  std::string name;
  TypeExpr type;  // may be kInfer
  ExprPtr init;   // may be null
  Loc loc;
};

struct Handler {
  std::string msg;
  std::vector<Param> params;  // bare names (types from the protocol) or typed
  ExprPtr body;               // `-> expr` or a block expression
  Loc loc;
};

struct AgentDecl {
  std::string name;
  std::vector<Param> ctor_params;
  std::vector<std::string> protocols;
  std::vector<AgentState> state;
  std::vector<Handler> handlers;
  std::vector<FnDecl> fns;
  Loc loc;
};

struct SupervisorChild {
  std::string name;
  ExprPtr spawn;  // the `spawn Worker(1)` expression
  Loc loc;
};

struct OnFail {
  std::string child;
  bool restart = false;
  int64_t up_to = -1;  // -1 = no limit given
  ExprPtr within;      // duration expr, may be null
  ExprPtr backoff_lo, backoff_hi;
  bool escalate = false;
  Loc loc;
};

struct SupervisorDecl {
  std::string name;
  std::string strategy;  // one_for_one, one_for_all, rest_for_one, escalate
  std::vector<SupervisorChild> children;
  std::vector<OnFail> on_fail;
  Loc loc;
};

struct SandboxDecl {
  std::string name;
  std::vector<SandboxEntry> entries;
  // `sandbox Name with { .. } { body }`: the body `run Name` runs (items
  // only, lowered as a function of its own); null for a bare manifest.
  std::unique_ptr<Block> body;
  Loc loc;
};

struct UseDecl {
  std::vector<std::string> path;  // std, fs
  std::string alias;              // `as f`; empty = last segment
  Loc loc;
};

// `macro name(a, b) => { body }`: the body is kept as tokens' source text and
// re-parsed at each expansion with the arguments substituted (hygienic).
struct MacroDecl {
  std::string name;
  std::vector<std::string> params;
  std::string body_text;  // the source between the braces
  Loc body_loc;           // where body_text starts
  Loc loc;
};

struct Item {
  enum class Kind : uint8_t {
    kFn,
    kStruct,
    kEnum,
    kImpl,
    kTrait,
    kConst,
    kTypeAlias,
    kProtocol,
    kAgent,
    kSupervisor,
    kSandbox,
    kUse,
    kMacro,
  };
  Kind kind = Kind::kFn;
  // The declaration of its kind: a function inline, every other kind out of
  // line (an Item of every kind inline took 1424 bytes per item).
  FnDecl fn;
  Lazy<StructDecl> struct_decl;
  Lazy<EnumDecl> enum_decl;
  Lazy<ImplDecl> impl_decl;
  Lazy<TraitDecl> trait_decl;
  Lazy<ConstDecl> const_decl;
  Lazy<TypeAliasDecl> alias_decl;
  Lazy<ProtocolDecl> protocol_decl;
  Lazy<AgentDecl> agent_decl;
  Lazy<SupervisorDecl> supervisor_decl;
  Lazy<SandboxDecl> sandbox_decl;
  Lazy<UseDecl> use_decl;
  Lazy<MacroDecl> macro_decl;
};

struct Module {
  std::string file;
  std::vector<Item> items;
};

}  // namespace mty::frontend
