// Internal declarations shared by the lowering files: the static type
// tracker, the global tables, and the per-function lowerer (FnLowerer).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "builtin_macros.h"
#include "mty/frontend/ast.h"
#include "mty/frontend/diagnostics.h"
#include "mty/ir/builtins.h"
#include "mty/ir/host_fns.h"
#include "mty/ir/ir.h"
#include "mty/vocab/suggest.h"
#include "prim_kinds.h"

namespace mty::frontend {

// The library's traits a program may implement without declaring them:
// `impl Default for T` (`Default::default()`), `impl From[X] for T`
// (`T::from(x)`, `x.into()`), `impl Display for T` and `Debug` (`{}`,
// `{:?}`, `to_string()`), the operator traits (`a + b` calls `add`) and
// `PartialEq`/`PartialOrd` (`==`, `<` call `eq`, `partial_cmp`);
// docs/language.md §6.
inline bool IsLibraryTrait(const std::string& name) {
  static const std::set<std::string> kTraits = {
      "Default",   "From",      "Display",    "Debug",     "Add",       "Sub",       "Mul",
      "Div",       "Rem",       "Neg",        "AddAssign", "SubAssign", "MulAssign", "DivAssign",
      "RemAssign", "PartialEq", "PartialOrd", "Eq",        "Ord"};
  return kTraits.count(name) > 0;
}

// The methods whose meaning is the type they give (docs/language.md §6
// "Type-directed calls"): typeck_directed.cc types them, lower_directed.cc
// lowers them.
inline bool IsDirectedMethod(const std::string& n) {
  return n == "collect" || n == "parse" || n == "into" || n == "sum" || n == "product";
}

// The library's boxes: `Box[T]`, `Rc[T]`, `Arc[T]` are a `T` (values are
// not boxed) and `Box::new(x)` is `x` (docs/language.md §6).
inline bool IsBoxName(const std::string& n) { return n == "Box" || n == "Rc" || n == "Arc"; }

namespace tc {
struct TypeInfo;
// The struct whose field `e` (a field access) reads, as the type checker
// found it from the receiver's static type; "" when it did not
// (typeck.cc).
std::string FieldOwner(const TypeInfo& info, const Expr& e);
}  // namespace tc

// The lowering files use these IR names unqualified.
using ir::Operand;
using ir::Place;
using ir::Rvalue;

// What the lowering knows statically about a value's type. kUnknown is
// common (closure params, generic code): operations then stay dynamic and
// the interpreter checks them at run time.
struct Ty;
using TyP = std::shared_ptr<Ty>;
namespace tc {
// The static type the checker gave `e`, as the lowering writes types
// (Unknown when it gave none, or `Any`; typeck.cc).
TyP StaticType(TypeInfo& info, const Expr& e);
// The type whose user `from` converts the error of `e?` (empty: none).
std::string TryFromType(const TypeInfo& info, const Expr& e);
}  // namespace tc
struct Ty {
  enum class Kind : uint8_t {
    kUnknown,
    kInt,
// clang-format off
#define MTY_PRIM_KIND(name) k##name,
    MTY_PRIM_KINDS(MTY_PRIM_KIND)
#undef MTY_PRIM_KIND
    // clang-format on
    kAdt,    // name + args (Option[T], Result[T, E], user structs and enums)
    kTuple,  // args
    kArray,  // args[0]
    kMap,    // args[0], args[1]
    kRef,    // args[0], is_mut
    kFn,
    kAgent,  // name
    kCap,    // name (Fs, Net, ...)
  };
  Kind kind = Kind::kUnknown;
  // kAdt, kAgent, kCap: the type's name. kInt: the declared width (`I32`,
  // `U8`, `U64`, `USize`, ...; empty for `I64` or a plain integer), which
  // makes a `U64`/`USize` boundary convert (FnLowerer::Coerce).
  std::string name;
  std::vector<TyP> args;
  bool is_mut = false;

  static TyP Make(Kind k);
  // An integer type of declared width `width` ("" for I64).
  static TyP Int(std::string width = "");
  static TyP UInt() { return Int("U64"); }
  // An integer that is unsigned at run time: U64, USize, U128 (language.md §4).
  bool Unsigned() const;
  static TyP Adt(std::string n, std::vector<TyP> a = {});
  static TyP With(Kind k, std::vector<TyP> a);
  static TyP Unknown();
  std::string Name() const;
  ir::Type ToIr(int depth = 0) const;
  bool Is(Kind k) const { return kind == k; }
  TyP Arg(size_t i) const { return i < args.size() && args[i] ? args[i] : Unknown(); }
};

// How deep a static type is written into the IR (its parser takes 200).
inline constexpr int kMaxIrTypeDepth = 64;

// `t` with the generic parameters `generics` written `Any` (types are
// erased at run time; a field of type `T` holds any value), lower_items.cc.
ir::Type ErasedIr(ir::Type t, const std::vector<std::string>& generics, int depth = 0);

struct FieldDef {
  std::string name;  // empty for positional
  TyP ty;
};

struct VariantDef {
  std::string name;
  size_t arity = 0;
  std::vector<FieldDef> fields;
  Loc loc;  // where a user enum declares it (line 0: Option, Result)
};
// The label at a variant's declaration for a wrong payload count (MT2008).
inline void AddVariantLabel(Diagnostic& d, const std::string& adt, const VariantDef& v) {
  if (v.loc.line)
    d.labels.push_back(Label{v.loc,
                             Loc{v.loc.line, v.loc.col + static_cast<uint32_t>(v.name.size()) - 1},
                             "`" + adt + "::" + v.name + "` is declared here with " +
                                 std::to_string(v.arity) + " field(s)"});
}

struct AdtDef {
  std::string name;
  bool is_enum = false;
  std::vector<std::string> generics;
  std::vector<VariantDef> variants;         // a struct has one, named like it
  const StructDecl* struct_decl = nullptr;  // a user struct: where its fields are declared
};

struct FnDef {
  std::string ir_name;  // "f", "Point::norm"
  const FnDecl* decl = nullptr;
  std::string self_type;  // for methods
  Param::SelfKind self_kind = Param::SelfKind::kNone;
  std::vector<TyP> params;  // excluding self
  TyP ret;
  std::map<std::string, TyP> generics;  // generic params map to Unknown
  // A trait's default method is lowered once per implementing type; only
  // the first copy reports warnings.
  bool quiet = false;
  // A generic function lowered at one instantiation (docs/language.md §6,
  // "Generic functions that need their types"): its generic parameters'
  // names and the checker's types (tc::TypeId) they stand for.
  std::vector<std::string> spec_names;
  std::vector<uint32_t> spec_with;
};

// `help: did you mean `total`?` when one of `candidates` is near `word`
// (ir::Nearest's rule), else "".
inline std::string DidYouMean(const std::string& word, const std::vector<std::string>& candidates) {
  std::string near = ir::Nearest(word, candidates);
  return near.empty() ? "" : "did you mean `" + near + "`?";
}
// What one compile spends on suggestions: a lookup compares the word with
// every candidate, so a program of 20 000 misspelt calls of 20 000
// functions must not make 400 million comparisons. The first
// kMaxSuggestions lookups are made (over at most kMaxCandidates names each,
// nearest scopes first), for words up to kMaxSuggestWord bytes; later
// errors come without a "did you mean".
inline constexpr int kMaxSuggestions = 32;
inline constexpr size_t kMaxCandidates = 5000;
inline constexpr size_t kMaxSuggestWord = 64;
struct SuggestBudget {
  int left = kMaxSuggestions;
  // DidYouMean over `candidates()` (built only when the budget allows).
  template <class F>
  std::string Help(const std::string& word, F&& candidates) {
    if (word.size() > kMaxSuggestWord || left <= 0) return "";
    --left;
    std::vector<std::string> c = candidates();
    if (c.size() > kMaxCandidates) c.resize(kMaxCandidates);
    return DidYouMean(word, c);
  }
  template <class F>
  std::string HelpOr(const std::string& word, F&& candidates, std::string otherwise) {
    std::string h = Help(word, std::forward<F>(candidates));
    return h.empty() ? otherwise : h;
  }
};
// A program reports at most this many warnings, then one MT8000 line with
// the count of the rest (1.4 million unused `let`s fit in 16 MiB of source).
inline constexpr size_t kMaxWarnings = 200;

// What a nested `fn` item (or a closure) sees of the function around it:
// the nested items visible at its definition (name -> IR names, innermost
// last), the names of that function's locals (a use of one in a `fn` item
// is MT1032, as Rust's E0434: a `fn` item cannot capture), and what that
// function itself sees. Shared, so a block of many items is not copied per
// item.
struct NestedScope {
  std::map<std::string, std::vector<std::string>> fns;
  std::set<std::string> outer_locals;
  std::shared_ptr<const NestedScope> parent;
};

struct Globals {
  explicit Globals(Diagnostics& d);

  Diagnostics& diags;
  std::map<std::string, AdtDef> adts;
  std::map<std::string, FnDef> fns;                                   // by ir name
  std::map<std::string, std::map<std::string, std::string>> methods;  // type -> name -> ir name
  std::map<std::string, const ConstDecl*> consts;
  // Each constant is lowered once, to a `once fn` of its own name that
  // evaluates its expression at the first use in a task (language.md: const);
  // a use is a call. Constants that name each other in a cycle are MT1007
  // (CheckConstCycles) and are not lowered.
  void CheckConstCycles();
  void LowerConsts();
  std::set<std::string> const_cycle;
  std::map<std::string, TyP> aliases;
  std::map<std::string, std::vector<std::string>> uses;  // local alias -> module path
  // `use Shape::*` / `use Shape::{Circle, Square}`: a variant name -> the
  // enum it was imported from; a bare name two enums share means that one.
  std::map<std::string, std::string> variant_uses;
  void CollectVariantUse(const UseDecl& u);
  // `use std::f64::consts::PI;`: the constants a `use` names, by alias.
  std::map<std::string, double> float_consts;
  // `use std::cmp::max;`: the alias of std::cmp's max or min, by name.
  std::map<std::string, std::string> cmp_fns;
  std::map<std::string, const AgentDecl*> agents;
  std::map<std::string, const SandboxDecl*> sandboxes;
  std::map<std::string, const SupervisorDecl*> supervisors;
  std::map<std::string, const ProtocolDecl*> protocols;
  std::set<std::string> traits;
  ir::Program program;
  int closure_counter = 0;
  // The captures each closure writes (captured by reference), once found.
  std::map<const Expr*, std::set<std::string>> closure_writes;
  // Declares the IR sandbox for a manifest (a named item or an inline
  // `sandbox Name with {..}`) and returns its IR name: the source name, or
  // `Name@line:col` when a different manifest already uses that name
  // (lower_agent.cc, next to FnLowerer::CheckSandboxEntry).
  std::string DeclareSandbox(const std::string& name, const std::vector<SandboxEntry>& entries,
                             Loc loc);
  std::set<std::string> prelude_needed;   // __mty_* functions the program calls
  std::set<std::string> derives_default;  // structs with `#[derive(Default)]`

  // Warnings (MT8xxx) wait here and are reported, in source order, only
  // when the program has no errors (an error's early exit leaves names
  // unread that are not unused). The prelude never warns.
  Diagnostic& Warn(std::string code, Loc loc, std::string message, std::string help = "");
  void FlushWarnings();
  std::vector<Diagnostic> pending_warnings;  // at most kMaxWarnings
  size_t warnings_dropped = 0;               // beyond them (one MT8000 line)
  Diagnostic dropped_warning;                // what Warn returns for one not kept
  SuggestBudget suggest;
  bool quiet_warnings = false;  // lowering the prelude or a repeated copy of a trait default method

  // MT1017 for a name given twice in one parameter list (a function's, a
  // method's, a closure's or lambda's, an agent handler's or helper's, a
  // protocol message's): at the second, with a label at the first. `owner`
  // names the list for the message ("function `f`", "this closure").
  void CheckParamNames(const std::vector<std::pair<std::string, Loc>>& names,
                       const std::string& owner);
  void CheckParamNames(const std::vector<Param>& params, const std::string& owner);
  // The item pass (lower_items.cc): the tables, then every function.
  void Collect(const Module& m);
  // Its parts: the names of types (and agents, protocols, traits, `use`
  // aliases), then the structs' fields and the enums' variants, then the
  // functions and methods (CollectFns), the agents' state structs, and the
  // ADTs into the program.
  void CollectTypeNames(const Module& m);
  void DeclareAdt(const std::string& name, Loc loc, const std::vector<std::string>& generics,
                  const StructDecl* struct_decl, std::set<std::string>& type_names);
  void CollectStructFields(const StructDecl& s);
  void CollectVariants(const EnumDecl& e);
  struct AddedFns {
    std::set<const FnDecl*> decls;
    std::set<std::string> from_trait;  // methods (ir names) a trait impl defines
  };
  void CollectFns(const Module& m);
  void AddInherentImpl(const ImplDecl& impl, AddedFns& added);
  void AddTraitImpl(const Module& m, const ImplDecl& impl, AddedFns& added);
  // `is_default`: a trait's default method the impl does not override.
  void AddFn(const FnDecl& f, const std::string& self_type, bool is_trait_impl, bool is_default,
             AddedFns& added);
  // MT1008 (a function) / MT1016 (a method): `f` defines `ir_name` again.
  void DefinedAgain(const FnDecl& f, const std::string& self_type, const std::string& ir_name,
                    const FnDecl* first);
  void CollectAgentState(const AgentDecl& a);
  void AdtsIntoProgram(const Module& m);
  void LowerAll(const Module& m);
  // Types, fields and variants (lower.cc).
  TyP Resolve(const TypeExpr& t, const std::map<std::string, TyP>* generics = nullptr);
  // A type of a host function's signature (ir/host_fns.h): as Resolve, with
  // names the program does not declare left unknown (no error).
  TyP ResolveIr(const ir::Type& t);
  bool resolve_quiet = false;  // Resolve reports no unknown names
  // The type checker's findings (null: not checked, e.g. the prelude).
  tc::TypeInfo* types = nullptr;
  // The checker reported an error: what it could not type is its to say
  // (the lowering adds no second error for it).
  bool types_failed = false;
  // The embedder's host functions calls may name (null: none).
  const ir::HostFnTable* host_fns = nullptr;
  const FieldDef* FindField(const std::string& adt, const std::string& field,
                            uint32_t* index) const;
  const VariantDef* FindVariant(const std::string& adt, const std::string& v,
                                uint32_t* index) const;
  const AdtDef* BareVariantOwner(const std::string& v) const;
  mutable std::unordered_map<std::string, const AdtDef*> variant_index_;
  mutable size_t variant_index_size_ = ~size_t{0};
  // The type names a program may write (built-in and declared), and the
  // variant names of all enums, for suggestions.
  std::vector<std::string> TypeNames() const;
  std::vector<std::string> VariantNames() const;
  // The owner name of methods on a built-in kind (`I64`, `Str`, `Array`,
  // ... ir::RecvTypeName) when `t` is a built-in type a trait may be
  // implemented for and not a declared type, else "" (lower_forms.cc).
  std::string BuiltinOwner(const TypeExpr& t);
  std::string BuiltinOwner(const Ty& t) const;
  // The static type `Self` means in methods of `owner` (an ADT or a
  // built-in owner name).
  TyP SelfTy(const std::string& owner) const;
  // Emits the function for one declaration (lower_items.cc).
  void LowerFn(const FnDef& def, const FnDecl& decl,
               std::shared_ptr<const NestedScope> nested = nullptr);
  void LowerFnBody(const FnDef& def, const FnDecl& decl, std::shared_ptr<const NestedScope> nested);
  // The definition of a function: its parameter and result types resolved.
  FnDef MakeFnDef(const FnDecl& f, const std::string& ir_name, const std::string& self_type);
  // The IR function holding a sandbox item's default body (`run Name`).
  static std::string SandboxBodyFn(const std::string& sandbox) {
    return "__sandbox_body_" + sandbox;
  }
  // Generic functions lowered once per instantiation (tc::TypeInfo::
  // per_type), by "name[types]"; the queue holds those not lowered yet
  // (lower_spec.cc).
  std::map<std::string, FnDef> instances;
  std::vector<const FnDef*> instance_queue;
  std::set<std::string> instance_names;
  std::map<std::string, int> instance_counts;  // per generic function
  size_t instance_statements = 0;              // IR statements the instances have
  bool instances_failed = false;               // a limit was reached: no more instances
  // Whether the top-level function `name` is lowered per instantiation.
  bool IsPerTypeFn(const std::string& name) const;
  // Lowers the queued instances (and those their bodies ask for).
  void LowerInstances();
  int nested_counter = 0;  // nested `fn` items of the same IR name
  void AddFn(ir::Function f) { program.functions.push_back(std::move(f)); }
  std::set<std::string> std_types;  // Module::std_types
  // Compiles the prelude functions in prelude_needed (lower_prelude.cc).
  void LowerPrelude();
};

// The known library surface (lower_known.cc).
// One manifest entry of a `sandbox` item or block applied to `p` through
// the policy table (ir/policy.h), or the diagnostic it earns (an unknown key
// MT1013, a value of the wrong kind MT2013).
struct EntryError {
  const char* code;
  std::string message, note;
};
std::optional<EntryError> ApplySandboxEntry(const SandboxEntry& en, ir::Policy& p);

// The builtin table as the lowering sees it (lower_known.cc). Known effect
// calls and their argument counts (a leading capability included).
bool IsKnownEffect(const std::string& path, int* min_args, int* max_args);
// Whether the receiver's static type has a method of this name (native or
// prelude), for the static check (MT2004).
bool IsKnownMethod(const Ty& receiver, const std::string& name);
// Whether the call runs the prelude's Mighty version (`__mty_<name>`): the
// name is a prelude method and the receiver has no native one.
bool IsPreludeCall(const Ty& receiver, const std::string& name);
// The choice of IsPreludeCall revised by the arguments when a name has both
// a native and a prelude row: the argument count only one of them takes
// (`count()` native, `count(f)` prelude), or a closure argument (`s.find(f)`
// runs the prelude, `s.find("x")` the native row).
bool PreludeByArgs(const Ty& receiver, const std::string& name, const std::vector<TyP>& args,
                   bool prelude);
// Whether the method writes its receiver: the row of the receiver's kind
// when it has one, else whether every row of that name does.
bool MethodMutates(const std::string& name, const Ty* receiver = nullptr);
// The argument counts of a builtin or prelude method (the table's): the row
// of the receiver's kind, or for a receiver of unknown kind the prelude row
// a prelude call runs (every kind's agree). False when nothing is known.
bool MethodArity(const Ty& receiver, const std::string& name, bool prelude, int* lo, int* hi);
// The static result type of a builtin method call.
TyP MethodResult(const TyP& receiver, const std::string& name, const std::vector<TyP>& args);
// Whether `as NAME` is a supported cast target.
bool IsCastTargetName(const std::string& name);

// ------------------------------------------------------ shared helpers ----

inline ir::Loc IrLoc(Loc l) { return ir::Loc{l.line, l.col}; }

// DidYouMean, or `otherwise` when nothing is near.
inline std::string DidYouMeanOr(const std::string& word, const std::vector<std::string>& candidates,
                                std::string otherwise) {
  std::string h = DidYouMean(word, candidates);
  return h.empty() ? otherwise : h;
}
// The last column of a name that starts at `l` (a span's inclusive end).
inline Loc NameEnd(Loc l, const std::string& name) {
  return name.empty() || l.line == 0 ? Loc{}
                                     : Loc{l.line, l.col + static_cast<uint32_t>(name.size()) - 1};
}
// An IR type as the type a program writes (`_` is kInfer), lower.cc.
TypeExpr ToTypeExpr(const ir::Type& t);

// Adds to m the items of Rust's std collections its text names and does not
// declare (lower_std.cc); returns the names added.
std::vector<std::string> AddStdTypes(Module& m, std::string_view text, Diagnostics& diags);
// The static type of `a op b` (lower_expr.cc).
TyP BinaryTy(const TyP& a, const TyP& b, BinaryOp op);
// Whether `t` mentions one of `names` (a struct's generic parameters).
bool MentionsAny(const Ty& t, const std::vector<std::string>& names);
// Whether a value of type `have` can be passed where `want` is declared:
// unknown on either side admits anything (the run checks it again).
bool TyFits(const Ty& have, const Ty& want);
// `fn name(a: I64, b: Str) -> T` as declared, for labels.
std::string Signature(const FnDecl& f);
// The label at a function's definition for a wrong call (MT2001).
Label DefinedHere(const FnDecl& f);
// A type as written, for messages (`Option[I64]`, `&mut Str`, `(I64, Str)`).
std::string TypeText(const TypeExpr& t);
// The names a program's code may call a built-in method of this receiver
// kind by (lower_known.cc), for suggestions.
std::vector<std::string> KnownMethodNames(const Ty& receiver);
// A method name a user may mean by a common other name (`length` -> `len`), or "".
std::string MethodAlias(const std::string& name);
// Every `std.*` effect path (lower_known.cc).
std::vector<std::string> KnownEffectPaths();
// Whether dropping the Result of this effect hides something (MT8003):
// every effect but `std.time.sleep`, which always gives Ok(()).
bool EffectResultMatters(const std::string& path);

// The receiver kind a static type picks builtin-method rows by (lower_known.cc).
std::optional<ir::Recv> RecvOf(const Ty& t);
// The receiver kind of a type of kind `kind` (ADTs: by their `name`), in
// either representation of types (Ty::Kind here, tc::TK in the checker).
template <typename Kind>
std::optional<ir::Recv> RecvOfKind(Kind kind, const std::string& name) {
  switch (kind) {
    case Kind::kStr: return ir::Recv::kStr;
    case Kind::kArray: return ir::Recv::kArray;
    case Kind::kMap: return ir::Recv::kMap;
    case Kind::kTuple: return ir::Recv::kTuple;
    case Kind::kAdt:
      if (name == "Option") return ir::Recv::kOption;
      if (name == "Result") return ir::Recv::kResult;
      if (name == "Ordering") return ir::Recv::kOrdering;
      return std::nullopt;
    case Kind::kInt: return ir::Recv::kInt;
    case Kind::kFloat: return ir::Recv::kFloat;
    case Kind::kDuration: return ir::Recv::kDuration;
    case Kind::kSize: return ir::Recv::kSize;
    case Kind::kBool: return ir::Recv::kBool;
    case Kind::kChar: return ir::Recv::kChar;
    case Kind::kCap: return ir::Recv::kCap;
    default: return std::nullopt;
  }
}
// `struct Pair(I64, Str)`: a struct whose fields are positional (lower_forms.cc).
bool IsTupleStruct(const AdtDef& a);
// `Circle { r: F64 }`: a variant whose fields have names.
bool IsStructLike(const VariantDef& v);

// The primitive type names (`I64`, `F64`, `Bool`, `Char`, `Str`, `Unit`,
// ...), which a program may not declare as its own types (lower.cc); the
// library names (`Size`, `Duration`, `String`, `Vec`, `Map`) it may shadow.
bool IsReservedTypeName(const std::string& n);
// F64's associated constants (`F64::EPSILON`) and std::f64::consts
// (`std::f64::consts::PI`) by their path (lower_expr.cc).
std::optional<double> FloatConst(const std::vector<PathSeg>& segs);
// `std::cmp::max`, `cmp::min`, or a name `use std::cmp::max` gave: "max" or
// "min", else "".
std::string CmpFn(const std::vector<PathSeg>& segs,
                  const std::map<std::string, std::string>& aliases);
// The integer type names (`I8` … `U128`, `ISize`, `USize`, `Int`), lower.cc.
bool IsIntName(const std::string& n);

inline bool IsUpper(const std::string& s) { return !s.empty() && s[0] >= 'A' && s[0] <= 'Z'; }

inline Operand ConstOp(ir::Constant c) { return Operand::Const(std::move(c)); }
inline Operand UnitOp() { return ConstOp(ir::Constant::Unit()); }

inline Rvalue UseR(Operand o) {
  Rvalue r;
  r.ops.push_back(std::move(o));
  return r;
}
// A call (kCall: `name` a function's IR name) or another rvalue that
// names what it makes (kAdtInit: the ADT).
inline Rvalue NamedR(Rvalue::Kind kind, std::string name, std::vector<Operand> ops = {}) {
  Rvalue r;
  r.kind = kind;
  r.name = std::move(name);
  r.ops = std::move(ops);
  return r;
}
inline Rvalue BinR(ir::BinOp op, Operand a, Operand b) {
  Rvalue r;
  r.kind = Rvalue::Kind::kBinOp;
  r.bin = op;
  r.ops = {std::move(a), std::move(b)};
  return r;
}

// Flattens `a.b.c` (kPath / kField chains of plain names) into segments.
bool IsUnsignedTypeName(const std::string& t);  // U64, USize, U128
// The names of the string type: `Str`, Rust's `String` and `str`, and
// Rust's `ParseIntError`/`ParseFloatError`, which are the Err message of
// `parse()` here (docs/language.md §11).
bool IsStrTypeName(const std::string& t);
// `std::mem::swap`, `replace` or `take` called as `callee` (its name), else
// null.
const char* MemFnName(const Expr& callee);
// The values of an integer type name (`U8`: 0 … 255; `U64`: 0 … 2^64-1),
// false for another name (lower_expr.cc).
using ir::IntTypeRange;
// The value of an integer literal, negated or not (`-5`), as written (lower_fn.cc).
bool IntLiteralValue(const Expr& e, __int128* v);
bool FlattenPath(const Expr& e, std::vector<std::string>* out);

// `A::__turn_Msg(state, params) -> (state, reply)` (lower_agent.cc).
ir::Function AgentTurn(const std::string& agent, const std::string& msg, size_t nparams, Loc loc);

// ------------------------------------------------------- the lowerer ----

// Lowers one function body to an ir::Function. The definitions are split by
// job: lower_fn.cc (finishing, blocks and `let`, places and fields),
// lower_expr.cc (expressions, operators, control flow), lower_call.cc (calls,
// methods, effects, closures, macros, format!), lower_pattern.cc (patterns
// and `match`), lower_agent.cc (agents, supervisors, spawn/send/ask,
// sandboxes).
class FnLowerer {
 public:
  struct Val {
    Operand op;
    TyP ty;
    // A `Result` the program should not drop (MT8003): the `std.*` effect
    // path, or the user function whose declared result is a Result.
    std::string must_use = {};
  };

  FnLowerer(Globals& g, std::string name, TyP ret) : g_(g), ret_(ret ? ret : Ty::Unknown()) {
    fn_.name = std::move(name);
    fn_.locals.push_back(ir::Local{ret_->ToIr(), true, ""});
    scopes_.emplace_back();
    cur_ = NewBlock();
  }

  // `loc` is where the parameter is declared (MT3014's label); `warn`:
  // report it when it is never read (MT8001).
  // A parameter declared `U64`/`USize` is converted on entry (Coerce), so
  // every caller (direct, through a `fn` value, an agent message) passes the
  // same check; `convert` false: a closure's capture, already of its kind.
  uint32_t AddParam(const std::string& name, TyP ty, bool is_mut, bool is_mut_ref, Loc loc = {},
                    bool warn = false, bool convert = true) {
    uint32_t l = static_cast<uint32_t>(fn_.locals.size());
    fn_.locals.push_back(ir::Local{ty->ToIr(), false, name});
    fn_.num_params = l;
    if (!name.empty()) {
      LocalInfo li{l, ty, is_mut || is_mut_ref};
      li.binding = NewBinding(name, loc, warn, /*is_param=*/true);
      scopes_.back()[name] = li;
    }
    if (convert && ty->Unsigned()) {
      const Place p{l, {}};
      Coerce(Val{Operand::Copy(p), Ty::Unknown()}, ty, &p);
    }
    return l;
  }

  void SetLoc(Loc l) {
    fn_.loc = IrLoc(l);
    loc_ = l;
  }
  void SetSelfType(const std::string& t) {
    self_type_ = t;
    if (!t.empty()) generics_["Self"] = g_.SelfTy(t);
  }
  void SetGenerics(const std::map<std::string, TyP>& g) {
    for (const auto& [k, v] : g) generics_[k] = v;
  }
  // What a type name in a path means here: `Self` inside impls, a generic
  // parameter inside an instance of its function (`T::empty()`).
  std::string SelfName(const std::string& n) const;

  // Lowers a function body and returns the finished function.
  // Lowers a body; a function declared without a result (or `-> Unit`)
  // returns () whatever its last expression is.
  ir::Function FinishWithBlock(const Block& body, bool unit_ret = false) {
    Val v = LowerBlock(body, unit_ret ? BlockUse::kDiscarded : BlockUse::kFnBody);
    if (unit_ret) v = Unit();
    return Finish(v);
  }
  ir::Function FinishWithExpr(const Expr& body, bool unit_ret = false) {
    if (!unit_ret) CheckReturn(body);
    Val v = unit_ret ? LowerExpr(body) : LowerAs(body, ret_);
    if (unit_ret) v = Unit();
    return Finish(v);
  }

  // An expression's value (lower_expr.cc): LowerExpr dispatches on its kind.
  Val LowerExpr(const Expr& e);
  Val LowerIntLiteral(const Expr& e, bool want_unsigned);
  Val LowerUnary(const Expr& e);
  Val LowerField(const Expr& e);
  Val LowerProjection(const Expr& e);
  Val LowerRangeIndex(const Expr& e);
  // A field, tuple field or index (e) of a temporary value, or a deref.
  Val LowerTempProjection(const Expr& e);
  // The projection of `e` (a field, tuple field or index) applied to
  // `base` of type `bt` (through references): its type, nullopt after an
  // error.
  std::optional<TyP> Project(const Expr& e, Place& base, TyP bt);
  Val LowerAggregate(const Expr& e);
  Val LowerArena(const Expr& e);
  Val LowerJump(const Expr& e);
  Val LowerReturn(const Expr& e);
  Val LowerTry(const Expr& e);
  bool TryFromReturn(const Expr& e, uint32_t t);
  Val LowerCast(const Expr& e);
  Val LowerRef(const Expr& e);
  Val MutRef(const Place& place, const TyP& ty);
  // ---- typed boundaries (lower_fn.cc; language.md §4) ----
  // A value reaching a place declared `want` (a parameter at the function's
  // entry, a result, a field or variant payload, an annotated `let`, an
  // assignment, an element pushed or inserted into a container of declared
  // element type). Where `want` is `U64`/`USize`, a value not known to be
  // unsigned becomes one: a non-negative literal at compile time, anything
  // else through `@into_u64` (a negative value traps MT5004, a non-integer
  // MT5016). Where `want` is a signed integer type, a value known to be a U64
  // goes through `@into_i64` (above I64::MAX traps MT5004). Other values are
  // returned as they are.
  // `into`: the place a conversion writes (a parameter converted in place on
  // entry, so that no temporary is numbered among the parameters); else a
  // new temporary.
  Val Coerce(Val v, const TyP& want, const Place* into = nullptr);
  // `e` lowered for a place declared `want`: an integer literal for a U64
  // may be as large as 2^64-1, an array literal for `[U64]` converts each
  // element, and the value is Coerce'd.
  Val LowerAs(const Expr& e, const TyP& want);
  // The declared type of a field or payload a value is converted to: none
  // for one that mentions the type's generic parameters.
  static TyP FieldWant(const AdtDef& adt, const FieldDef& f) {
    return f.ty && !MentionsAny(*f.ty, adt.generics) ? f.ty : nullptr;
  }

  // The declared result that `return e` and a body's tail are checked
  // against (MT2019), with the location of the `-> T` that declares it;
  // unset (closures, handlers, `-> Never`): nothing is checked.
  void SetCheckedReturn(TyP ret, Loc loc, std::string fn_name) {
    check_ret_ = std::move(ret);
    ret_loc_ = loc;
    ret_fn_ = std::move(fn_name);
  }

  // ---- agents, supervisors, sandboxes (lower_agent.cc) ----
  // The state of agent A is a struct `__agent_A` holding its constructor
  // parameters (read-only) and then its state fields. Inside handlers and
  // helpers, parameter 1 is `&mut` that state and every field name is an
  // alias of `_1.*.fN`.
  static std::string StateName(const AgentDecl& a) { return "__agent_" + a.name; }
  void BindAgentState(const AgentDecl& a);
  // `A::__init(ctor params) -> __agent_A`: evaluates the state initialisers
  // in order (each may use the constructor parameters and earlier fields).
  ir::Function LowerAgentInit(const AgentDecl& a);
  ir::Function LowerHandler(const AgentDecl& a, const Handler& h);
  ir::Function LowerAgentHelper(const AgentDecl& a, const FnDecl& f, TyP ret);
  // `S::__children() -> [agent]`: the supervisor's child spawns, in order.
  // `S::__policy() -> (strategy, [(child, restart, up_to, within, backoff_lo,
  // backoff_hi, escalate)])`, in child order, for the agent runtime.
  ir::Function LowerSupervisorPolicy(const SupervisorDecl& s);
  ir::Function LowerSupervisorChildren(const SupervisorDecl& s);
  // Checks one manifest entry (runtime.md §4): a known key and a value of
  // the right kind. Values are data, not expressions (`mb_policy = fail`).
  void CheckSandboxEntry(const SandboxEntry& en);

 private:
  struct LocalInfo {
    uint32_t index;
    TyP ty;
    bool is_mut;
    // A name can also alias a place below a local: agent state fields are
    // `_1.*.fN` inside handlers.
    std::vector<ir::Projection> proj = {};
    int binding = -1;  // its entry in bindings_ (-1: none, e.g. agent state)
    Place At() const { return Place{index, proj}; }
  };
  // A name the function binds (a `let`, a parameter, a pattern binding):
  // where, and whether the code ever reads it (MT8001 when not).
  struct Binding {
    std::string name;
    Loc loc;
    bool warn = false;  // report when unread (not `_x`, `self`, macro-internal or synthetic)
    bool is_param = false;
    bool is_let = false;  // `let x = ..` (else a pattern's binding or a parameter)
    bool used = false;
    bool assigned = false;
    // A closure's copy of a variable of the enclosing function (captured by
    // value): writing it is recorded or MT3015 (CapturedWriteError).
    bool captured = false;
  };
  int NewBinding(const std::string& name, Loc loc, bool warn, bool is_param) {
    Binding b;
    b.name = name;
    b.loc = loc;
    b.warn = warn && !g_.quiet_warnings && WarnableName(name);
    b.is_param = is_param;
    bindings_.push_back(b);
    return static_cast<int>(bindings_.size() - 1);
  }
  static bool WarnableName(const std::string& n) {
    return !n.empty() && n[0] != '_' && n != "self" && n.find('#') == std::string::npos;
  }
  void MarkRead(const LocalInfo* li) {
    if (li && li->binding >= 0) bindings_[li->binding].used = true;
  }
  // FindLocal for a read of the name (at `at`, for MT3016's location).
  const LocalInfo* ReadLocal(const std::string& n, Loc at = {}) {
    const LocalInfo* li = FindLocal(n);
    MarkRead(li);
    if (li && li->proj.empty() && deferred_.count(li->index))
      deferred_reads_.push_back({li->index, cur_, fn_.blocks[cur_].block.stmts.size(), at});
    return li;
  }
  // ---- definite assignment (lower_fn.cc) ----
  // A `let mut x: T` without a value: where it is declared and the IR
  // statement that declares it (which un-assigns it each time it runs).
  struct Deferred {
    std::string name;
    Loc loc;
    uint32_t block;
    size_t stmt;
  };
  struct DeferredRead {
    uint32_t local;
    uint32_t block;
    size_t stmt;  // the statement count of the block when the read was lowered
    Loc loc;
  };
  std::map<uint32_t, Deferred> deferred_;
  std::vector<DeferredRead> deferred_reads_;
  // `x = e` of an immutable deferred local: the statement that writes it.
  struct DeferredWrite {
    uint32_t local;
    uint32_t block;
    size_t stmt;
    Loc loc;
  };
  std::vector<DeferredWrite> deferred_writes_;
  // MT3016 for a read of a deferred local that is not assigned on every
  // path reaching it (a forward "definitely assigned" analysis over the
  // function's blocks: branches meet by intersection, so a loop body's
  // assignment does not count after the loop). Once per local. MT3014 for
  // a DeferredWrite where the local may already be assigned (a union of
  // the paths: twice in a row, or in a loop's body).
  void CheckDefiniteAssignment(const ir::Function& f);
  // The unread bindings as MT8001 warnings (at Finish).
  void WarnUnused();
  // MT3014 for a write through the immutable local `root`: `what` is the
  // message, the label points at the binding.
  void ImmutableError(Loc loc, const std::string& root, std::string what);
  // A write of `root`, a closure's copy of a captured variable: recorded
  // (written_captures_: the closure is lowered again capturing it by
  // reference), or in a `move` closure MT3015 ("cannot VERB `root`", at
  // `loc`, a label at the captured binding and the alternatives). True when
  // it did either. A write through a captured reference (`*r = x`, or a
  // variable captured by reference) is not one.
  bool CapturedWriteError(Loc loc, const std::string& root, const char* verb);
  struct LoopCtx {
    uint32_t brk;
    uint32_t cont;
    uint32_t result;         // local for `break value`
    int sandbox_depth = 0;   // sandboxes entered outside the loop
    std::string label = {};  // `'outer: loop`: "outer"; empty when unlabelled
  };
  // The loop a `break`/`continue` leaves: the innermost, or the one its
  // label names (MT1030 with a suggestion when no enclosing loop has it).
  const LoopCtx* TargetLoop(const Expr& e);
  struct PendingBlock {
    ir::Block block;
    bool term_set = false;
  };
  struct PendingFn {
    std::string name;
    uint32_t num_params = 0;
    std::vector<ir::Local> locals;
    std::vector<PendingBlock> blocks;
    ir::Loc loc;
  };

  // ---- finishing the function (lower_fn.cc) ----
  ir::Function Finish(const Val& v);
  bool Targeted(uint32_t b) const;

  // ---- the IR builder: blocks, locals, statements, terminators ----
  uint32_t NewBlock() {
    fn_.blocks.emplace_back();
    return static_cast<uint32_t>(fn_.blocks.size() - 1);
  }
  void SetBlock(uint32_t b) {
    cur_ = b;
    terminated_ = fn_.blocks[b].term_set;
  }
  uint32_t Temp(const TyP& ty) {
    fn_.locals.push_back(ir::Local{(ty ? ty : Ty::Unknown())->ToIr(), true, ""});
    return static_cast<uint32_t>(fn_.locals.size() - 1);
  }
  uint32_t NamedLocal(const std::string& name, const TyP& ty, bool is_mut, Loc loc = {},
                      bool warn = false) {
    fn_.locals.push_back(ir::Local{(ty ? ty : Ty::Unknown())->ToIr(), is_mut, name});
    uint32_t l = static_cast<uint32_t>(fn_.locals.size() - 1);
    LocalInfo li{l, ty ? ty : Ty::Unknown(), is_mut};
    li.binding = NewBinding(name, loc, warn, /*is_param=*/false);
    scopes_.back()[name] = li;
    return l;
  }

  void Push(ir::Statement s) {
    if (terminated_) return;  // dead code after return/break: not emitted
    fn_.blocks[cur_].block.stmts.push_back(std::move(s));
  }
  void Assign(Place p, Rvalue r, Loc loc) {
    ir::Statement s;
    s.kind = ir::Statement::Kind::kAssign;
    s.place = std::move(p);
    s.rvalue = std::move(r);
    s.loc = IrLoc(loc_);  // statement granularity: where the source statement starts
    s.loc_explicit = true;
    (void)loc;
    Push(std::move(s));
  }
  // Ends the current block with `t`, located at the statement being
  // lowered (nothing when the block already ended).
  void SetTerm(ir::Terminator t) {
    if (terminated_) return;
    t.loc = IrLoc(loc_);
    t.loc_explicit = true;
    fn_.blocks[cur_].block.term = std::move(t);
    fn_.blocks[cur_].term_set = true;
  }
  // Sets the current block's terminator and opens a fresh (dead) block.
  void TermWith(ir::Terminator t) {
    SetTerm(std::move(t));
    SetBlock(NewBlock());
    terminated_ = false;
  }
  void Term(ir::Terminator::Kind k) {
    ir::Terminator t;
    t.kind = k;
    TermWith(t);
  }
  void Goto(uint32_t b) {
    ir::Terminator t;
    t.kind = ir::Terminator::Kind::kGoto;
    t.target = b;
    SetTerm(std::move(t));
    terminated_ = true;
  }
  void Branch(Operand c, uint32_t yes, uint32_t no) {
    ir::Terminator t;
    t.kind = ir::Terminator::Kind::kIf;
    t.op = std::move(c);
    t.target = yes;
    t.target2 = no;
    SetTerm(std::move(t));
    terminated_ = true;
  }

  // `a op b` as a Bool (a comparison).
  Val Compare(ir::BinOp op, Operand a, Operand b) {
    return Emit(BinR(op, std::move(a), std::move(b)), Ty::Make(Ty::Kind::kBool));
  }
  // Continues in a new block when `c` holds, else at `fail`.
  void Require(Operand c, uint32_t fail) {
    uint32_t ok = NewBlock();
    Branch(std::move(c), ok, fail);
    SetBlock(ok);
  }

  Operand ToLocalOp(const Val& v) {
    if (v.op.kind != Operand::Kind::kConst && v.op.place.IsLocal()) return v.op;
    uint32_t t = Temp(v.ty);
    Assign(Place{t, {}}, UseR(v.op), loc_);
    return Operand::Copy(Place{t, {}});
  }
  uint32_t ToLocal(const Val& v) {
    Operand o = ToLocalOp(v);
    return o.place.local;
  }
  Val Emit(Rvalue r, TyP ty) {
    uint32_t t = Temp(ty);
    Assign(Place{t, {}}, std::move(r), loc_);
    return Val{Operand::Copy(Place{t, {}}), ty ? ty : Ty::Unknown()};
  }
  Val Unit() { return Val{UnitOp(), Ty::Make(Ty::Kind::kUnit)}; }

  Diagnostic& Error(const char* code, Loc loc, std::string msg, std::string help = "") {
    place_error_ = true;
    return g_.diags.Error(code, loc, std::move(msg), std::move(help));
  }

  const LocalInfo* FindLocal(const std::string& n) const {
    for (size_t i = scopes_.size(); i-- > 0;) {
      auto it = scopes_[i].find(n);
      if (it != scopes_[i].end()) return &it->second;
    }
    return nullptr;
  }

  Rvalue CallBuiltin(const char* name, std::vector<Operand> args) {
    Rvalue r = NamedR(Rvalue::Kind::kCall, name, std::move(args));
    r.is_builtin = true;
    return r;
  }

  Rvalue AdtInit(const std::string& adt, const std::string& variant, std::vector<Operand> ops) {
    Rvalue r = NamedR(Rvalue::Kind::kAdtInit, adt, std::move(ops));
    r.name2 = variant;
    return r;
  }

  // ---- blocks and statements (lower_fn.cc) ----
  // What becomes of a block's value: used (an expression's), dropped (a
  // loop body, a function without a result: an effect's Result as its tail
  // is MT8003), or the function's result (its tail is checked, MT2019).
  enum class BlockUse : uint8_t { kValue, kDiscarded, kFnBody };
  Val LowerBlock(const Block& b, BlockUse use = BlockUse::kValue);
  void LowerLet(const Stmt& s);
  void LowerLetElse(const Stmt& s, uint32_t src, TyP ty);
  // Whether a statement surely ends its block's straight-line flow
  // (`return`, `break`, `continue`, `panic(..)`, `unreachable!()`).
  bool Diverges(const Stmt& s) const;
  bool DivergesExpr(const Expr& e) const;

  // ---- the static type checks (lower_fn.cc) ----
  // The type `e` surely has, before it is lowered, or null when it is not
  // evident: literals, struct literals and variants, `format!`, comparisons,
  // and calls of user functions whose declared result is concrete.
  // `what` describes it for a message ("a string", "`f(..)`, which returns `I64`").
  TyP KnownTy(const Expr& e, std::string* what);
  // Whether `have` can be where `want` is declared: unknown on either side
  // (or a reference `have`) admits anything; a `&T` want looks at T.
  static bool Fits(const Ty& have, const Ty& want);
  // Checks `e` against `want`; on a sure mismatch reports `code` with
  // message `lead` + "expected `W`, found WHAT" and a label at `decl`.
  // Returns false after an error.
  bool CheckValue(const Expr& e, const TyP& want, const char* code, const std::string& lead,
                  Loc decl, const std::string& decl_msg);
  // A `return` value or a body's tail against the declared result.
  void CheckReturn(const Expr& e);
  // The arguments of a call of `def` (`skip`: leading arguments that are
  // not declared parameters, i.e. `self` in `T::m(x, ..)`).
  void CheckArgs(const FnDef& def, const std::vector<ExprPtr>& args, size_t skip,
                 const std::string& shown);

  // ---- places and fields (lower_fn.cc) ----
  // Looks through references (Rust's auto-deref): appends a `.*` per `&`
  // level of `ty` and leaves `ty` at the referent. A `&mut` on the way makes
  // the place writable.
  // `s[i]` on a value known to be a string: a compile error (strings are
  // not indexed by position; the interpreter would trap MT5016).
  void RejectStrIndex(const TyP& ty, const Expr& e) {
    if (ty && ty->Is(Ty::Kind::kStr))
      Error("MT2022", e.loc, "cannot index a `Str` by position",
            "use `s.char_at(i)` for the i-th char (an `Option[Char]`) or `s.slice(a, b)` for a "
            "part");
  }
  // Whether ty is one of the std collections the program uses (lower_std.cc).
  bool IsStdType(const TyP& ty) const {
    return ty->Is(Ty::Kind::kAdt) && g_.std_types.count(ty->name);
  }
  static void AutoDeref(Place& place, TyP& ty, bool* root_mut) {
    while (ty->Is(Ty::Kind::kRef)) {
      if (root_mut && ty->is_mut) *root_mut = true;
      place.proj.push_back({ir::Projection::Kind::kDeref, 0, 0});
      ty = ty->Arg(0);
    }
  }
  // A place for an lvalue expression (local, field, tuple field, index,
  // deref) or nullopt. `root_mut` reports whether the base may be written.
  std::optional<Place> PlaceOf(const Expr& e, TyP* ty, bool* root_mut, std::string* root_name);
  // Resolves `.name` on a value of static type `bt`.
  bool ResolveField(TyP bt, const std::string& name, Loc loc, uint32_t* fi, TyP* fty);
  // The receiver type of a field access `e`: `bt`, or when the lowering does
  // not know it, the struct the type checker found (never a guess by the
  // field's name).
  TyP StaticOwner(const Expr& e, TyP bt) const {
    if (!bt->Is(Ty::Kind::kUnknown) || !g_.types) return bt;
    std::string owner = tc::FieldOwner(*g_.types, e);
    return owner.empty() ? bt : Ty::Adt(owner);
  }
  // Substitutes the generic parameter names of `adt` in `t` by the args of
  // `actual` (Option[T] with actual Option[I64] gives I64 for T).
  TyP Subst(TyP t, const std::string& adt, TyP actual);

  // ---- patterns (lower_pattern.cc) ----
  // Emits tests of `p` against the value at `place`; on failure control
  // goes to `fail`, on success it continues in the current block with the
  // pattern's names bound (new locals in the current scope).
  void MatchPattern(const Pattern& p, const Place& place, TyP ty, uint32_t fail,
                    std::map<std::string, uint32_t>& binds);
  void MatchSlice(const Pattern& p, const Place& place, TyP ty, uint32_t fail,
                  std::map<std::string, uint32_t>& binds);
  void MatchVariant(const Pattern& p, const Place& place, TyP ty, uint32_t fail,
                    std::map<std::string, uint32_t>& binds);
  void MatchStruct(const Pattern& p, const Place& place, TyP ty, uint32_t fail,
                   std::map<std::string, uint32_t>& binds);
  void BindNamesOnly(const Pattern& p, const Place& place, std::map<std::string, uint32_t>& binds);
  void Bind(const std::string& name, bool is_mut, const Place& place, TyP ty,
            std::map<std::string, uint32_t>& binds, Loc loc = {});
  // Resolves a variant path in a pattern or expression: `Some`, `Shape.Circle`,
  // `Shape::Circle`, `Circle` (bare, unique). Reports MT2003 for a known enum
  // without the variant; returns null (no error) for an unknown bare name.
  const VariantDef* ResolveVariantPath(const std::vector<PathSeg>& path, TyP expected,
                                       std::string* adt, uint32_t* vi, Loc loc);
  Val LowerMatch(const Expr& e);

  // ---- expressions (lower_expr.cc) ----
  Val LowerPath(const Expr& e);
  // `F64::max`, `I64::abs`, `Str::len` as a value: the closure
  // `|x, a, ..| x.max(a, ..)` (lower_expr.cc).
  std::optional<Val> LowerRefForm(const Expr& e, const Place& dst, const TyP& base);
  Val ConstValue(const std::string& name, Loc loc);
  Val MakeVariant(const std::string& adt, uint32_t vi, const VariantDef& vd,
                  const std::vector<ExprPtr>* args, TyP expected, Loc loc);
  Val LowerAssign(const Expr& e);
  Val LowerBinary(const Expr& e);
  Val LowerIf(const Expr& e);
  Val LowerLoop(const Expr& e);
  Val LowerFor(const Expr& e);
  // A loop's block as loop `e.label` (break to `exit`, continue to
  // `next`), then the loop scope closed and on to `next`.
  void LowerLoopBody(const Expr& e, uint32_t exit, uint32_t next, uint32_t result);
  // At `head`: on to `body` (in a new scope) while local `i` is below local
  // `n` (at most `n` when `inclusive`), else to `exit`.
  void CountedLoopHead(uint32_t head, uint32_t body, uint32_t exit, uint32_t i, uint32_t n,
                       bool inclusive);
  void Increment(uint32_t i, Loc loc);  // `i += 1`
  // A `for` body: binds the pattern to the element at `elem` (a miss is
  // unreachable), runs the block as loop `e.label` (break to `exit`,
  // continue to `step`), then closes the element's scope and continues at
  // `step`. The one lowering of a for body (plain and range-plan loops).
  void LowerForBody(const Expr& e, const Place& elem, TyP ty, uint32_t exit, uint32_t step,
                    uint32_t result);
  // The variant test of a variant pattern: continue in a new block when the
  // value at `place` is variant `vi`, else at `fail`.
  void SwitchToVariant(const Place& place, uint32_t vi, uint32_t fail);
  Val LowerStruct(const Expr& e);

  // ---- data-type forms (lower_forms.cc) ----
  // `Pair(1, "a")` when `written` names a struct (else nullopt: a variant
  // or function); `Marker` for a unit struct.
  std::optional<Val> LowerStructCall(const std::string& written, const Expr& e);
  std::optional<Val> LowerUnitStruct(const std::string& written, Loc loc);
  // `.N` on a value of struct type `bt`: true when `bt` is a struct (an
  // error was reported when it has no field N), with the field and its type.
  bool TupleStructIndex(const TyP& bt, int64_t index, Loc loc, uint32_t* fi, TyP* fty);
  // The operands of a struct literal's fields in declaration order, with
  // `..base` (e.rhs) filling the fields not named; false after an error.
  bool LowerFieldInits(const Expr& e, const std::string& shown, const AdtDef& adt,
                       const VariantDef& v, std::vector<Operand>* out);
  // `Shape.Circle { r: 1.0 }` / `Circle { r }`: nullopt when the path names a struct.
  std::optional<Val> LowerVariantStruct(const Expr& e);
  // The patterns `Pair(a, b)` / `Marker` and `Shape.Rect { w, .. }`: false
  // when the pattern's path is not one of them (the caller goes on).
  bool MatchTupleStruct(const Pattern& p, const Place& place, TyP ty, uint32_t fail,
                        std::map<std::string, uint32_t>& binds);
  bool MatchVariantStruct(const Pattern& p, const Place& place, TyP ty, uint32_t fail,
                          std::map<std::string, uint32_t>& binds);
  Val LowerArrayRepeat(const Expr& e);
  // The user method `I64::name` (a trait implemented for the receiver's
  // built-in kind) when the kind has no built-in method `name` (built-in
  // methods keep priority), else "".
  std::string BuiltinKindMethod(const Ty& base, const std::string& name, bool* is_mut);

  // ---- calls, methods, closures, macros (lower_call.cc) ----
  Val LowerCall(const Expr& e);
  // MT2001 when `e` gives other than `want` arguments to `kind` `name`
  // ("function", "f"), labelled with its declaration `decl`; `end` ends
  // the underline (none: the token). True when reported.
  bool ArityMismatch(const Expr& e, size_t want, const char* kind, const std::string& name,
                     const FnDecl* decl, Loc end);
  // A call of the function value `f` (a closure) with `args`.
  Val CallIndirect(Operand f, const std::vector<ExprPtr>& args);
  Val LowerNamedCall(const Expr& e);
  // `recv.name(args)`: LowerMethodCall tries the entry chain, then a call on
  // a path that names no value (LowerPathCall: `std.fs.read(p)`, `fs.read(p)`
  // after `use std.fs`, `T::f(..)`; nullopt: a method on a value), then a
  // method of the receiver's value (LowerValueMethod).
  Val LowerMethodCall(const Expr& e);
  std::optional<Val> LowerPathCall(const Expr& e);
  // `tn::f(..)` (also `tn.f(..)`): an associated function of a struct or
  // enum or of `impl Trait for I64` (LowerAssocCall; `adt` null for a
  // built-in kind), a variant, a library constructor (`Vec::new()`,
  // `char::from_u32(i)`: LowerLibraryCtor), else an error.
  Val LowerTypeCall(const Expr& e, const std::string& tn);
  Val LowerAssocCall(const Expr& e, const std::string& tn, const AdtDef* adt);
  std::optional<Val> LowerLibraryCtor(const Expr& e, const std::string& tn);
  // The user method `name` of ADT type `base`: its IR name and whether it
  // takes `&mut self`.
  bool UserMethod(const Ty& base, const std::string& name, std::string* fn, bool* is_mut) const;
  Val LowerValueMethod(const Expr& e);
  // A user method `def` on the receiver at `place` (passed by `&mut` when
  // `by_mut_ref`).
  Val CallUserMethod(const Expr& e, const FnDef& def, bool by_mut_ref, const Place& place,
                     const TyP& rty);
  // A built-in or prelude method on the receiver `rv` at `place` (`base`:
  // its type through references).
  Val LowerBuiltinMethod(const Expr& e, const Val& rv, const Place& place, const TyP& rty,
                         const TyP& base, bool is_prelude);
  void UnknownMethod(const Expr& e, const TyP& base);  // MT2004 with a did-you-mean
  // The built-in method `name` of the value at `recv` (a receiver already
  // lowered to a place), giving a `ty`.
  Val MethodOn(const Place& recv, const char* name, std::vector<Operand> ops, TyP ty);
  // `as`: the prelude method called (default: the one `e` names).
  Val CallPreludeMethod(const Expr& e, const Val& rv, const Place& place, const TyP& rty,
                        const TyP& base, std::vector<Operand> ops, const TyP& result,
                        const std::string& as = "");
  // The FORM methods (lower_forms.cc): `unwrap_or_default`,
  // `get_or_insert_with` and a lone `entry(k)` on the lowered receiver
  // (nullopt: not one of them for this receiver type); the entry chain
  // `m.entry(k)[.and_modify(f)].or_insert(v)` from its outermost call
  // (nullopt: not such a chain); the default value of a type (nullopt: it
  // has none or is unknown).
  std::optional<Val> LowerForm(const Expr& e, const Place& place, const TyP& rty, const TyP& base);
  // ---- type-directed calls (lower_directed.cc) ----
  // The checker's static type of `e` (Unknown when none).
  TyP CheckedType(const Expr& e) const;
  // A call of a generic function lowered per instantiation: the instance
  // for the types the checker found at `call` (this function's own
  // instantiation substituted); null after an error (lower_spec.cc).
  const FnDef* InstanceFor(const FnDef& def, const Expr& call);
  // Whether `name` is such a function (it cannot be a value).
  bool IsPerType(const std::string& name) const;
  // `collect`, `parse`, `into`, `sum`, `product` by the type the checker
  // gave the call; nullopt when it gave none (the method as it is).
  std::optional<Val> LowerDirected(const Expr& e, const Place& place, const TyP& rty);
  // `Default::default()`, `T::default()` without a user `default`.
  std::optional<Val> LowerDefaultCall(const Expr& e);
  Val LowerMemFn(const Expr& e, const std::string& f);
  std::optional<Val> LowerEntry(const Expr& e);
  std::optional<Operand> DefaultOf(const TyP& t);
  // DefaultOf, else MT2030: the type is not known (`needs`: what needs it,
  // `annotate`: the help), or has no default (`instead`: the help).
  std::optional<Operand> DefaultFor(const TyP& t, Loc loc, const char* needs, const char* annotate,
                                    const char* instead);
  // A range receiver of an adapter as its array (range_array), and `for`
  // over `(lo..hi)` followed by rev()/step_by(k) walked without building it.
  Val RangeArray(const Expr& range);
  std::optional<Val> LowerRangeWalk(const Expr& e);
  Val Receiver(const Expr& recv, Place* place, TyP* ty, bool mutating, Loc loc);
  Val CallUser(const FnDef& def, std::vector<Operand> args, Loc loc);
  Val Effect(const std::string& path, const std::vector<ExprPtr>& args, Loc loc);
  // `host.kv.get(k)`: a call of the embedder's host function (lower_call.cc).
  Val HostCall(const std::string& path, const std::vector<ExprPtr>& args, Loc loc);
  Val CallPrelude(const std::string& name, std::vector<Operand> ops, TyP ty);
  std::vector<Operand> LowerArgs(const std::vector<ExprPtr>& args) {
    std::vector<Operand> ops;
    for (const ExprPtr& a : args) ops.push_back(LowerExpr(*a).op);
    return ops;
  }
  // The arguments of a call of `def` (`skip`: leading ones that are not
  // declared parameters, `self` in `T::m(x, ..)`): a value known to be a U64
  // passed for a parameter declared a signed integer type converts here
  // (Coerce), a literal for a `U64` parameter is made one here (up to
  // 2^64-1); anything else for a `U64` parameter converts at the callee's
  // entry (AddParam).
  std::vector<Operand> LowerArgsFor(const FnDef& def, const std::vector<ExprPtr>& args,
                                    size_t skip = 0);
  Val LowerClosure(const Expr& e);
  // Lowers the function of closure `e` with `caps` (those in `by_ref` by
  // reference) and returns its IR name; `written`: the captured copies the
  // body writes are recorded there instead of reported (MT3015).
  std::string LowerClosureFn(const Expr& e,
                             const std::vector<std::pair<std::string, LocalInfo>>& caps,
                             const std::set<std::string>& by_ref, std::set<std::string>* written);
  Val MakeClosure(const std::string& name,
                  const std::vector<std::pair<std::string, LocalInfo>>& caps,
                  const std::set<std::string>& by_ref, Loc loc);
  Val LowerMacro(const Expr& e);
  // The text of `v` by its type's own `Display` impl (`Debug` when `debug`),
  // nullopt when its static type has none (the built-in form is used).
  std::optional<Val> UserFmt(const Val& v, bool debug);
  Val LowerWrite(const Expr& e, const BuiltinMacro& bm);
  void PanicWith(Operand msg, Loc loc);
  Val LowerFormat(const Expr& e, size_t first_arg);

  // ---- agents and sandboxes in expressions (lower_agent.cc) ----
  std::optional<Val> LowerChildHandle(const Expr& e);
  Val LowerSpawn(const Expr& e);
  Val LowerMessage(const Expr& e);
  // `break`/`continue` out of sandbox bodies leave them first.
  void ExitSandboxesTo(int depth);
  Val LowerSandbox(const Expr& e);

  // ---- nested `fn` items (lower_fn.cc) ----
  // Declares and lowers the `fn` items among a block's statements (visible
  // in the whole block); returns the names to pop at the block's end.
  std::vector<std::string> DeclareNestedFns(const Block& b);
  // The definition a call or use of `name` means when it is a nested item.
  const FnDef* NestedFn(const std::string& name) const;
  // MT1032 when `name` is a local of the function a nested item is in.
  bool ReportCapture(const std::string& name, Loc loc);
  // MT1001, MT1002: no `what` ("value", "function") named `n` at `loc`
  // (MT1032 when it is a local of the function around: ReportCapture),
  // with a did-you-mean over `names()`.
  template <class F>
  Val NotFound(const char* code, const char* what, const std::string& n, Loc loc, F&& names) {
    if (ReportCapture(n, loc)) return Unit();
    Error(code, loc, std::string("cannot find ") + what + " `" + n + "` in this scope",
          g_.suggest.Help(n, std::forward<F>(names)))
        .end = NameEnd(loc, n);
    return Unit();
  }
  // `Name` (a unit struct or variant; `args` null) or `Name(args)` (a
  // tuple struct or variant) named by the path `path` in `e`.
  Val LowerTypeNamed(const Expr& path, const std::vector<ExprPtr>* args, const Expr& e);
  Val LowerBudget(const Expr& e);
  // Enters the IR sandbox `name`, lowers `body` (or calls the sandbox
  // item's body function when null), and leaves it.
  Val RunInSandbox(const std::string& name, const Block* body, const std::string& body_fn);

  // ---- names for "did you mean" (lower_call.cc) ----
  // Locals in scope, constants and functions (values a path may name).
  std::vector<std::string> ValueNames() const;
  // What a call `f(..)` may name: locals, functions, built-ins, agent helpers.
  std::vector<std::string> CallableNames() const;

  Globals& g_;
  TyP ret_;
  PendingFn fn_;
  uint32_t cur_ = 0;
  bool terminated_ = false;
  Loc loc_;
  int default_depth_ = 0;  // DefaultOf through derived structs (a recursive one ends)
  std::vector<std::map<std::string, LocalInfo>> scopes_;
  std::vector<LoopCtx> loops_;
  int sandbox_depth_ = 0;  // sandbox bodies entered in this function
  int arena_depth_ = 0;
  std::string self_type_;                // inside impl methods: what `Self` names
  const AgentDecl* agent_ = nullptr;     // inside agent handlers and helpers
  std::map<std::string, TyP> generics_;  // generic params (Unknown) and Self
  // In an instance of a generic function: its parameters and their types.
  std::vector<std::string> spec_names_;
  std::vector<uint32_t> spec_with_;
  bool place_error_ = false;  // an error was reported (suppresses cascades)
  std::vector<Binding> bindings_;
  // Nested `fn` items declared by this function's blocks in scope, and what
  // the enclosing function sees (null at the top level); Snapshot() caches
  // both for closures and items defined here.
  std::map<std::string, std::vector<std::string>> nested_fns_;
  std::shared_ptr<const NestedScope> enclosing_;
  std::shared_ptr<const NestedScope> snapshot_;
  std::shared_ptr<const NestedScope> Snapshot();
  TyP check_ret_;  // see SetCheckedReturn
  // In a closure's function: where its writes of captured copies are
  // recorded (null: they are MT3015), and whether it is a `move` closure.
  std::set<std::string>* written_captures_ = nullptr;
  bool move_closure_ = false;
  Loc ret_loc_;
  std::string ret_fn_;
  friend struct Globals;
};

}  // namespace mty::frontend
