// Internal declarations shared by the lowering files: the static type
// tracker, the global tables, and the per-function lowerer.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "mty/frontend/ast.h"
#include "mty/frontend/diagnostics.h"
#include "mty/ir/ir.h"

namespace mty::frontend {

// What the lowering knows statically about a value's type. kUnknown is
// common (closure params, generic code): operations then stay dynamic and
// the interpreter checks them at run time.
struct Ty;
using TyP = std::shared_ptr<Ty>;
struct Ty {
  enum class Kind : uint8_t {
    kUnknown,
    kInt,
    kFloat,
    kBool,
    kChar,
    kStr,
    kUnit,
    kDuration,
    kSize,
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
  std::string name;
  std::vector<TyP> args;
  bool is_mut = false;

  static TyP Make(Kind k);
  static TyP Adt(std::string n, std::vector<TyP> a = {});
  static TyP With(Kind k, std::vector<TyP> a);
  static TyP Unknown();
  std::string Name() const;
  ir::Type ToIr() const;
  bool Is(Kind k) const { return kind == k; }
  TyP Arg(size_t i) const { return i < args.size() && args[i] ? args[i] : Unknown(); }
};

struct FieldDef {
  std::string name;  // empty for positional
  TyP ty;
};

struct VariantDef {
  std::string name;
  size_t arity = 0;
  std::vector<FieldDef> fields;
};

struct AdtDef {
  std::string name;
  bool is_enum = false;
  std::vector<std::string> generics;
  std::vector<VariantDef> variants;  // a struct has one, named like it
};

struct FnDef {
  std::string ir_name;  // "f", "Point::norm"
  const FnDecl* decl = nullptr;
  std::string self_type;  // for methods
  Param::SelfKind self_kind = Param::SelfKind::kNone;
  std::vector<TyP> params;  // excluding self
  TyP ret;
  std::map<std::string, TyP> generics;  // generic params map to Unknown
};

struct Globals {
  explicit Globals(Diagnostics& d);

  Diagnostics& diags;
  std::string file;
  std::map<std::string, AdtDef> adts;
  std::map<std::string, FnDef> fns;                                   // by ir name
  std::map<std::string, std::map<std::string, std::string>> methods;  // type -> name -> ir name
  std::map<std::string, const ConstDecl*> consts;
  std::map<std::string, TyP> aliases;
  std::map<std::string, std::vector<std::string>> uses;  // local alias -> module path
  std::map<std::string, const AgentDecl*> agents;
  std::map<std::string, const SandboxDecl*> sandboxes;
  std::map<std::string, const SupervisorDecl*> supervisors;
  std::map<std::string, const ProtocolDecl*> protocols;
  std::set<std::string> traits;
  ir::Program program;
  int closure_counter = 0;
  // Declares the IR sandbox for a manifest (a named item or an inline
  // `sandbox Name with {..}`) and returns its IR name: the source name, or
  // `Name@line:col` when a different manifest already uses that name.
  std::string DeclareSandbox(const std::string& name, const std::vector<SandboxEntry>& entries,
                             Loc loc);
  std::set<std::string> prelude_needed;  // __mty_* functions the program calls

  void Collect(const Module& m);
  void LowerAll(const Module& m);
  TyP Resolve(const TypeExpr& t, const std::map<std::string, TyP>* generics = nullptr);
  const FieldDef* FindField(const std::string& adt, const std::string& field,
                            uint32_t* index) const;
  const VariantDef* FindVariant(const std::string& adt, const std::string& v,
                                uint32_t* index) const;
  const AdtDef* BareVariantOwner(const std::string& v) const;
  // Emits the function for one declaration.
  void LowerFn(const FnDef& def, const FnDecl& decl);
  void AddFn(ir::Function f) { program.functions.push_back(std::move(f)); }
  // Compiles the prelude functions in prelude_needed (prelude.cc).
  void LowerPrelude();
};

// One manifest entry of a `sandbox` item or block applied to `p` through
// the policy table (ir/policy.h), or the diagnostic it earns (an unknown key
// MT1013, a value of the wrong kind MT2013).
struct EntryError {
  const char* code;
  std::string message, note;
};
std::optional<EntryError> ApplySandboxEntry(const SandboxEntry& en, ir::Policy& p);

// Known effect calls (language.md §6) and their argument counts (-1: 1 or 2
// when a leading capability is allowed).
bool IsKnownEffect(const std::string& path, int* min_args, int* max_args);

// Known builtin methods per receiver kind, for the static check (MT2004).
bool IsKnownMethod(Ty::Kind k, const std::string& adt, const std::string& name);

// Whether `as NAME` is a supported cast target.
bool IsCastTargetName(const std::string& name);

}  // namespace mty::frontend
