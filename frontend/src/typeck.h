// The type checker (docs/language.md §6): runs after the item tables are
// collected and before lowering, gives every expression a static type by
// local inference (unification within a function body), checks calls,
// methods, fields, operators, `?`, patterns and the exhaustiveness of
// `match`, generics against their bounds, impls against their traits and
// agent messages against their handlers. Its errors stop the compile
// before anything is lowered; the types it finds are kept for the lowering
// (TypeInfo).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "lower_internal.h"
#include "mty/frontend/ast.h"
#include "mty/frontend/diagnostics.h"
#include "typeck_types.h"

namespace mty::frontend::tc {

// What the lowering may read: the static type of each expression checked.
struct TypeInfo {
  Types types;
  std::unordered_map<const Expr*, TypeId> of;
  // The struct a field access reads, by the receiver's static type.
  std::unordered_map<const Expr*, std::string> field_owner;
  // A call of a generic top-level function: the types its generic
  // parameters took there (in terms of the caller's own parameters inside
  // a generic caller).
  std::unordered_map<const Expr*, std::vector<TypeId>> generic_args;
  // The generic functions whose bodies need their type parameters at run
  // time (`T::empty()`, `T::default()`, or a call of such a function at a
  // type of their own parameters): lowered once per instantiation.
  std::set<std::string> per_type;
  // `e?` whose error converts to the function's by a user `impl From[X]
  // for T` (Rust's `?`): the type T whose `from` the lowering calls.
  std::unordered_map<const Expr*, std::string> try_from;
  // An error after which the program must not be lowered (a type too large
  // to write out): the lowering's own findings are not added.
  bool fatal = false;
};

// A function's signature: generic parameters (kParam types inside), their
// bounds, parameter and result types.
struct FnSig {
  std::vector<std::string> generics;
  std::vector<std::vector<std::string>> bounds;
  std::vector<TypeId> params;  // without the receiver
  TypeId ret = 0;
  bool has_self = false;
  bool loose_params = false;  // a parameter without a type (checked at run time)
  const FnDecl* decl = nullptr;
  std::string owner;  // a method's type, a trait's name for its declared methods
};

struct VariantInfo {
  std::string name;
  std::vector<std::string> field_names;  // empty for positional payloads
  std::vector<TypeId> fields;
};

struct AdtInfo {
  std::string name;
  bool is_enum = false;
  std::vector<std::string> generics;
  std::vector<VariantInfo> variants;  // a struct: one, named like it
};

struct TraitInfo {
  const TraitDecl* decl = nullptr;
  std::map<std::string, FnSig> methods;  // `Self` is kParam "Self"
};

struct AgentInfo {
  const AgentDecl* decl = nullptr;
  std::vector<TypeId> ctor;
  std::map<std::string, TypeId> state;
  struct Msg {
    std::vector<TypeId> params;
    TypeId reply = 0;
    const Handler* handler = nullptr;
  };
  std::map<std::string, Msg> msgs;
};

// Checks `m`; errors into `diags`. `info` receives the types.
void Check(const Module& m, Globals& g, TypeInfo& info, Diagnostics& diags);

class Checker {
 public:
  Checker(const Module& m, Globals& g, TypeInfo& info, Diagnostics& diags)
      : m_(m), g_(g), info_(info), t_(info.types), diags_(diags) {}
  void Run();

 private:
  friend struct PatternMatrix;
  // ---- items (typeck.cc)
  void CollectItems();
  void CollectPreludeAdts();
  void CollectStruct(const StructDecl& s);
  void CollectEnum(const EnumDecl& e);
  void CollectTrait(const TraitDecl& d);
  void CollectImpl(const ImplDecl& d);
  void CollectAgent(AgentInfo& info);
  TypeId HandlerParam(const Param& p, const Param* declared);
  void CollectAdt(const std::string& name, const std::vector<std::string>& generics);
  FnSig MakeSig(const FnDecl& f, const std::string& owner,
                const std::vector<std::string>& outer_generics,
                const std::vector<std::vector<std::string>>& outer_bounds, TypeId self_ty);
  void CheckImplAgainstTrait(const ImplDecl& impl);
  void CheckProtocols();
  void CheckFnBody(const FnDecl& f, const FnSig& sig, TypeId self_ty);
  void CheckAgent(const AgentDecl& a);
  // A written type. `generics`: the generic parameters in scope.
  TypeId FromType(const TypeExpr& t, int depth = 0);
  // The type a bare name written in a path means (`I64` in `I64::empty()`).
  TypeId FromName(const std::string& name, Loc at) {
    TypeExpr written;
    written.kind = TypeExpr::Kind::kPath;
    written.name = name;
    written.loc = at;
    return FromType(written);
  }
  TypeId SelfTypeOf(const TypeExpr& self_type, const std::vector<std::string>& generics);
  bool ImplicitGeneric(const TypeExpr& a) const;
  // The generic parameters `names` (bounded by `bounds`) and the type of
  // `Self` (`self_ty`; 0: the enclosing one) of a signature or a body being
  // checked, in scope until the scope ends.
  class SigScope {
   public:
    SigScope(Checker& c, const std::vector<std::string>& names,
             const std::vector<std::vector<std::string>>& bounds, TypeId self_ty)
        : c_(c), generics_(c.generics_), self_ty_(c.self_ty_), has_self_(c.has_self_) {
      for (size_t i = 0; i < names.size(); ++i) c.generics_[names[i]] = bounds[i];
      if (self_ty) {
        c.self_ty_ = self_ty;
        c.has_self_ = true;
      }
    }
    ~SigScope() {
      c_.generics_ = std::move(generics_);
      c_.self_ty_ = self_ty_;
      c_.has_self_ = has_self_;
    }
    SigScope(const SigScope&) = delete;
    SigScope& operator=(const SigScope&) = delete;

   private:
    Checker& c_;
    std::map<std::string, std::vector<std::string>> generics_;
    TypeId self_ty_;
    bool has_self_;
  };
  // Runs `body` with the names `gs` in scope as generic parameters.
  template <typename F>
  void WithGenerics(const std::vector<std::string>& gs, F&& body) {
    auto saved = generics_;
    for (const std::string& g : gs) generics_[g];
    body();
    generics_ = std::move(saved);
  }
  std::string OwnerName(TypeId t);  // the methods table's key for a type ("" when none)

  // ---- scopes
  struct Local {
    TypeId ty;
    bool is_mut;
  };
  void Push() { scopes_.emplace_back(); }
  void Pop() { scopes_.pop_back(); }
  void Bind(const std::string& name, TypeId t, bool is_mut = false) {
    if (!name.empty() && name != "_") scopes_.back()[name] = Local{t, is_mut};
  }
  const Local* Lookup(const std::string& name) const;

  // ---- expressions (typeck_expr.cc)
  TypeId Expr_(const Expr& e, TypeId expect);
  TypeId ExprInner(const Expr& e, TypeId expect);
  TypeId Block_(const Block& b, TypeId expect);
  void Stmt_(const Stmt& s);
  // The kinds of expression ExprInner dispatches to (typeck_expr.cc).
  TypeId IntLit(const Expr& e);
  TypeId Unary(const Expr& e, TypeId expect);
  TypeId Assign(const Expr& e);
  TypeId TupleField(const Expr& e);
  TypeId Index(const Expr& e);
  bool IsIntLike(TypeId t);
  TypeId TupleLit(const Expr& e, TypeId expect);
  TypeId ArrayLit(const Expr& e, TypeId expect);
  TypeId MapLit(const Expr& e, TypeId expect);
  TypeId If(const Expr& e, TypeId expect);
  TypeId IfLet(const Expr& e, TypeId expect);
  TypeId Match(const Expr& e, TypeId expect);
  TypeId Loop(const Expr& e);
  TypeId Break(const Expr& e);
  TypeId Return(const Expr& e);
  TypeId Path(const Expr& e, TypeId expect);
  TypeId Call(const Expr& e, TypeId expect);
  TypeId MethodCall(const Expr& e, TypeId expect);
  TypeId Field(const Expr& e);
  TypeId Binary(const Expr& e, TypeId expect);
  // `a op b` on a program's type that implements the operator's trait
  // (`impl Add for Q`: `add`; `PartialEq`: `eq`): the method's result
  // (a `Bool` for `==`/`!=`), nullopt when `a`'s type has no such method.
  std::optional<TypeId> OperatorMethod(const Expr& e, TypeId a, TypeId b);
  TypeId Closure(const Expr& e, TypeId expect);
  TypeId Macro(const Expr& e);
  TypeId StructLit(const Expr& e);
  TypeId AgentOp(const Expr& e);
  TypeId Try(const Expr& e);
  bool TryFrom(const Expr& e, TypeId to, TypeId from);
  TypeId ForIter(TypeId iterable, Loc at);
  TypeId Construct(const AdtInfo& a, size_t vi, const std::vector<const Expr*>& args,
                   std::vector<TypeId> targs);
  // Calls a signature (instantiated) with `args`; returns its result.
  TypeId Apply(const FnSig& sig, const std::vector<const Expr*>& args, const Expr& at,
               TypeId self_ty, const std::vector<TypeId>* explicit_args = nullptr,
               std::vector<TypeId>* with_out = nullptr);
  // A call of the top-level function `name` (a generic one's instantiation
  // kept for the lowering).
  TypeId CallFn(const std::string& name, const FnSig& sig, const std::vector<const Expr*>& args,
                const Expr& at, const std::vector<TypeId>* explicit_args = nullptr);
  // Which generic functions are lowered once per instantiation (per_type).
  void FindPerType();
  // Arguments of a callee the checker cannot type: each checked on its own,
  // what it left to infer left to the run. Returns `Any`.
  TypeId LooseArgs(const std::vector<const Expr*>& args);
  TypeId BuiltinMethod(TypeId recv, const Expr& e, TypeId expect);
  // `std.fs.read(p)` (`path`: the module path before the name): its
  // arguments against the effect's row, its result from it.
  TypeId EffectCall(const std::vector<std::string>& path, const Expr& e);
  // `Owner::name(args)` / `Owner.name(args)`: an associated function.
  TypeId AssocCall(const std::string& owner, const std::string& name,
                   const std::vector<const Expr*>& args, const Expr& e, TypeId expect);
  const FnSig* FindMethod(TypeId recv, const std::string& name, TypeId* self_out);
  // `explicit_args`: the turbofish's types for the generic parameters.
  // `with_out`: the types the generic parameters took.
  TypeId Instantiate(const FnSig& sig, TypeId self_ty, std::vector<TypeId>* params, Loc at,
                     const std::vector<TypeId>* explicit_args = nullptr,
                     std::vector<TypeId>* with_out = nullptr);
  // Unifies `found` (the type of `at`) with `want`; reports a mismatch.
  bool Expect(TypeId found, TypeId want, const Expr& at, const char* code = "MT2023",
              const std::string& what = "");
  // Where a mismatch in `e` is shown: a block's tail expression.
  static const Expr& Tail(const Expr& e);
  void Mismatch(const char* code, Loc loc, Loc end, TypeId want, TypeId found,
                const std::string& what);
  // The receiver's type as methods see it: references and variables resolved.
  TypeId Strip(TypeId t) { return t_.Find(t); }

  // ---- type-directed library calls (typeck_directed.cc)
  // A call whose meaning is the type it gives, settled once that is known.
  struct DirectedCall {
    enum Kind { kCollect, kParse, kInto, kDefault } kind;
    TypeId target;  // what it gives (collect, into, default) or reads (parse)
    TypeId from;    // collect: the element; into: the value converted
    const Expr* at;
    std::string fn;  // the top-level function it is in ("" elsewhere)
  };
  std::vector<DirectedCall> directed_;
  // `collect`, `parse`, `into`, `sum`, `product` on a built-in receiver;
  // nullopt for other methods.
  std::optional<TypeId> DirectedMethod(TypeId r, const Expr& e, TypeId expect);
  // `Default::default()` / `T::default()` of type `target`.
  TypeId DefaultCall(const Expr& e, TypeId target);
  // The method's turbofish type `index` (of `want`), or a fresh variable.
  TypeId TurbofishOr(const Expr& e, size_t want, size_t index);
  // True when settled (or reported); `final`: nothing more will be learnt.
  bool SettleDirected(const DirectedCall& d, bool final);
  bool SettleCollect(TypeId target, TypeId elem, const Expr& e, bool final);
  void SettleAll();
  bool HasDefault(TypeId t, int depth = 0);
  bool IsNumber(TypeId t);

  // ---- patterns (typeck_pat.cc)
  void Pattern_(const Pattern& p, TypeId t, bool is_let);
  const AdtInfo* VariantOf(const std::vector<PathSeg>& path, TypeId scrutinee, size_t* index);
  void CheckMatch(const Expr& e, TypeId scrutinee);
  void CheckIrrefutable(const Pattern& p, TypeId t, Loc at);

  // ---- state
  const Module& m_;
  Globals& g_;
  TypeInfo& info_;
  Types& t_;
  Diagnostics& diags_;
  std::map<std::string, AdtInfo> adts_;
  // Variant name -> the enums that have a variant of that name.
  std::unordered_map<std::string, std::vector<std::string>> variant_owners_;
  std::map<std::string, FnSig> fns_;                             // top-level functions
  std::map<std::string, std::map<std::string, FnSig>> methods_;  // owner -> name -> sig
  std::map<std::string, TraitInfo> traits_;
  std::map<std::string, std::set<std::string>> impls_;  // trait -> owners
  std::map<std::string, AgentInfo> agents_;
  std::map<std::string, TypeId> consts_;
  std::map<std::string, const TypeAliasDecl*> aliases_;
  std::vector<std::map<std::string, Local>> scopes_;
  // The generic parameters in scope, with their bounds.
  std::map<std::string, std::vector<std::string>> generics_;
  TypeId self_ty_ = 0;  // 0: no `Self`
  bool has_self_ = false;
  struct FnCtx {
    TypeId ret;
    bool ret_loose;  // the result is not declared (closures: inferred)
    Loc ret_loc;
    // `break value` types with the loops' labels ("" when unlabelled),
    // innermost last.
    std::vector<std::pair<std::string, TypeId>> loops;
  };
  std::vector<FnCtx> fn_;
  // Bounds to prove once the function's types are known: (type, trait, where).
  struct Obligation {
    TypeId ty;
    std::string trait;
    Loc at;
  };
  std::vector<Obligation> obligations_;
  void Discharge();
  bool Implements(TypeId t, const std::string& trait);
  bool IsUnsigned(TypeId t);  // U8 ... U128, USize
  // Lets without a type once the function is checked: `let xs = []` never used.
  struct Pending {
    TypeId ty;
    Loc at;
    std::string name;
  };
  std::vector<Pending> pending_;
  // The top-level function being checked ("" in methods, agents, consts),
  // and the generic functions each one calls, at which types.
  std::string cur_fn_;
  std::map<std::string, std::vector<std::pair<std::string, std::vector<TypeId>>>> calls_;
  bool in_signature_ = false;  // FromType of a function's parameter or result
  int depth_ = 0;              // expression nesting
  bool failed_ = false;        // an error was reported
};

// The trait names every type is taken to implement (Rust's derivable and
// marker traits: a bound on them is not checked; docs/language.md §6).
bool IsMarkerTrait(const std::string& name);

// The library (typeck_lib.cc): a built-in method's signature from its SIG
// row, its receiver's type arguments `self_args` (an array's element, a
// map's key and value) filled in; false when the method has no row.
bool BuiltinSig(Types& t, ir::Recv recv, const std::string& name, TypeId self,
                const std::vector<TypeId>& self_args, Loc at, std::vector<TypeId>* params,
                TypeId* ret);
// An effect's signature from its EFFECT row: the parameters after the
// optional leading capability, and the result; false when it has none.
bool EffectSig(Types& t, const ir::EffectInfo& effect, Loc at, std::vector<TypeId>* params,
               TypeId* ret);
// The SIG rows naming no METHOD, PRELUDE or FORM row (`Array.len`): none.
std::vector<std::string> SignatureRowsWithoutMethod();
// The receiver kind of a type's built-in methods (a range's are an array's).
std::optional<ir::Recv> RecvOfType(Types& t, TypeId id);
// Between the checker's types and the lowering's (for the ResultShape rules).
TyP ToTy(Types& t, TypeId id, int depth = 0);
TypeId FromTy(Types& t, const TyP& ty, int depth = 0);

}  // namespace mty::frontend::tc
