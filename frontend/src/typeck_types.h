// The type checker's types (docs/language.md §6): an arena of type nodes
// with inference variables joined by union-find, unification, and the
// printed form of a type for diagnostics.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "mty/frontend/ast.h"
#include "prim_kinds.h"

namespace mty::frontend::tc {

using TypeId = uint32_t;

enum class TK : uint8_t {
  kVar,       // an inference variable (bound through `link`)
  kIntVar,    // an integer literal's type: any integer type, I64 by default
  kFloatVar,  // a float literal's type: F64
  kDyn,       // checked at run time (`Any`, and what the checker does not model yet)
  kErr,       // after an error: agrees with everything, reports nothing more
  kNever,     // `return`, `break`, `panic(..)`: fits every type
  kInt,       // name: the width (`I64`, `U8`, `USize`, ...)
              // clang-format off
#define MTY_PRIM_KIND(name) k##name,
    MTY_PRIM_KINDS(MTY_PRIM_KIND)
#undef MTY_PRIM_KIND
              // clang-format on
  kAdt,       // name + args: Option, Result, Range and user structs and enums
  kTuple,     // args
  kArray,     // args[0]
  kMap,       // args[0] key, args[1] value
  kFn,        // args: parameters, then the result
  kAgent,     // name: the agent's declaration
  kCap,       // name: Fs, Net, Env, Clock
  kParam,     // name: a generic parameter inside its function
  kDynTrait,  // name: `dyn Trait`
};

// A number (a literal's variable too), Bool, Char or Unit: a value with no
// parts, never iterable.
inline bool IsScalar(TK k) {
  return k == TK::kInt || k == TK::kIntVar || k == TK::kFloat || k == TK::kFloatVar ||
         k == TK::kBool || k == TK::kChar || k == TK::kUnit;
}

struct TNode {
  TK kind = TK::kVar;
  TypeId link = 0;  // kVar / kIntVar / kFloatVar: itself while unbound
  std::string name;
  std::vector<TypeId> args;
  Loc origin;  // inference variables: where the value they type was made
};

// How far unification and printing go into a type: a deeper one is a
// located error, never a stack overflow (docs/language.md §6).
inline constexpr int kMaxTypeDepth = 1024;
// How many steps one walk over types (a unification, an occurs check) may
// take: types shared in a DAG (`let b = (a, a)` sixty times) are walked
// once per node, and a walk past this ends as a located error.
inline constexpr size_t kMaxTypeWalk = size_t{1} << 20;
// How large a value's type may be written out (`let b = (a, a)` doubles
// it): past this it is MT2035, and the program is not lowered (the IR
// writes each local's type out).
inline constexpr size_t kMaxTypeTree = size_t{1} << 16;
// How many type nodes one program may make (inference blow-ups end here).
inline constexpr size_t kMaxTypeNodes = size_t{1} << 22;

class Types {
 public:
  Types();
  TypeId Var(Loc origin = {});
  TypeId IntVar(Loc origin = {});
  TypeId FloatVar(Loc origin = {});
  TypeId Prim(TK k);  // kDyn, kErr, kNever, kFloat, kBool, kChar, kStr, kUnit, kDuration, kSize
  TypeId Int(const std::string& width = "I64");
  TypeId Make(TK k, std::string name, std::vector<TypeId> args);
  TypeId Adt(std::string name, std::vector<TypeId> args = {}) {
    return Make(TK::kAdt, std::move(name), std::move(args));
  }
  TypeId Option(TypeId t) { return Adt("Option", {t}); }
  TypeId Result(TypeId t, TypeId e) { return Adt("Result", {t, e}); }
  TypeId Array(TypeId t) { return Make(TK::kArray, "", {t}); }
  TypeId Map(TypeId k, TypeId v) { return Make(TK::kMap, "", {k, v}); }
  TypeId Tuple(std::vector<TypeId> a) {
    return a.empty() ? Prim(TK::kUnit) : Make(TK::kTuple, "", std::move(a));
  }
  TypeId Fn(std::vector<TypeId> params, TypeId ret);

  // The representative of `t` (a bound variable's binding).
  TypeId Find(TypeId t);
  const TNode& At(TypeId t) { return nodes_[Find(t)]; }
  TK Kind(TypeId t) { return At(t).kind; }
  bool IsVar(TypeId t) {
    TK k = Kind(t);
    return k == TK::kVar || k == TK::kIntVar || k == TK::kFloatVar;
  }
  // Whether the type is one of the "agrees with everything" kinds.
  bool IsLoose(TypeId t) {
    TK k = Kind(t);
    return k == TK::kDyn || k == TK::kErr;
  }

  // Makes `a` and `b` the same type; false when they cannot be (the
  // bindings made before the clash stay). `too_deep` is set when the types
  // nest past kMaxTypeDepth.
  bool Unify(TypeId a, TypeId b);
  bool too_deep = false;
  // Whether unifying would succeed, without binding anything.
  bool Fits(TypeId a, TypeId b);

  // The type as a program writes it (`Vec[I64]`, `Option[_]`, `fn(I64) -> Str`).
  std::string Show(TypeId t);
  // Whether `t` still has an unbound variable (not an integer literal's) in it.
  bool HasVar(TypeId t) { return Contains(t, TK::kVar, 0); }
  // Whether a node of `kind` is anywhere in `t`.
  bool Contains(TypeId t, TK kind, int depth = 0);
  // Whether `t` names a generic parameter (kParam) anywhere.
  bool HasParam(TypeId t) { return Contains(t, TK::kParam, 0); }
  // Binds every integer literal variable in `t` to I64 and float to F64.
  void Default(TypeId t, int depth = 0);
  // `t` with each kParam named in `names` replaced by the type at the same
  // index of `with` (a generic signature at one use).
  TypeId Subst(TypeId t, const std::vector<std::string>& names, const std::vector<TypeId>& with,
               int depth = 0);
  size_t size() const { return nodes_.size(); }
  // How many nodes `t` has written out as a tree (shared parts counted each
  // time they appear), at most `cap`; linear in the DAG's size.
  size_t TreeSize(TypeId t, size_t cap);
  bool exhausted = false;  // kMaxTypeNodes reached: every new type is kErr

 private:
  bool UnifyAt(TypeId a, TypeId b, int depth);
  bool Occurs(TypeId var, TypeId t, int depth);
  // One walk's step count and the nodes (pairs) it has seen.
  bool Step() { return ++walk_ <= kMaxTypeWalk || (too_deep = true, false); }
  size_t walk_ = 0;
  std::unordered_set<uint64_t> seen_;
  // Binds each unbound variable in `t` to `dyn` (a value that flows into `Any`).
  void Absorb(TypeId t, TypeId dyn, int depth);
  void ShowAt(TypeId t, std::string& out, int depth);
  std::vector<TNode> nodes_;
  std::vector<TypeId> prims_;
};

}  // namespace mty::frontend::tc
