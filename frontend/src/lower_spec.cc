// Generic functions that need their types at run time (docs/language.md
// §6, "Generic functions lowered per type"): values carry no static types,
// so a generic function whose body asks its type parameter for something
// (`T::empty()`, `T::default()`, or calls such a function at its own
// parameter) is lowered once per instantiation the program calls, each
// copy with the parameters bound to the checker's types at that call.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "lower_internal.h"
#include "typeck.h"

namespace mty::frontend {

namespace {
// How many instances one program may have, and how long one's written
// types may be: a generic function calling itself at a growing type
// (`f[T]` calling `f[Vec[T]]`) ends here with a located error.
constexpr size_t kMaxInstances = 4096;
constexpr size_t kMaxInstanceTypeNodes = 256;
// How many IR statements the instances together may have: generic
// functions that each call the next at two new types multiply; past this
// the compile ends with a located error instead of taking the memory.
constexpr size_t kMaxInstanceStatements = size_t{1} << 22;

// The exact text of a type (Types::Show outlines deep ones), at most
// `budget` nodes; false past that.
bool TypeKey(tc::Types& t, tc::TypeId id, std::string& out, size_t& budget) {
  if (budget == 0) return false;
  --budget;
  const tc::TNode n = t.At(id);
  if (n.args.empty()) {
    out += n.name.empty() ? t.Show(id) : n.name;
    return true;
  }
  out += n.kind == tc::TK::kTuple ? "(" : n.kind == tc::TK::kFn ? "fn(" : n.name + "[";
  if (n.kind == tc::TK::kArray) out += "Vec[";
  if (n.kind == tc::TK::kMap) out += "Map[";
  for (size_t i = 0; i < n.args.size(); ++i) {
    if (i) out += ", ";
    if (!TypeKey(t, n.args[i], out, budget)) return false;
  }
  out += n.kind == tc::TK::kTuple || n.kind == tc::TK::kFn ? ")" : "]";
  return true;
}

// An IR name's part from a type's text: `Vec[I64]` -> `Vec_I64`.
std::string IrNamePart(const std::string& shown) {
  std::string out;
  for (char c : shown) {
    if (absl::ascii_isalnum(static_cast<unsigned char>(c))) {
      out += c;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}
}  // namespace

std::string FnLowerer::SelfName(const std::string& n) const {
  if (n == "Self" && !self_type_.empty()) return self_type_;
  if (spec_names_.empty() ||
      std::find(spec_names_.begin(), spec_names_.end(), n) == spec_names_.end())
    return n;
  auto g = generics_.find(n);
  if (g == generics_.end() || !g->second) return n;
  if (g->second->Is(Ty::Kind::kAdt)) return g->second->name;
  std::string owner = g_.BuiltinOwner(*g->second);
  return owner.empty() ? n : owner;
}

TyP FnLowerer::CheckedType(const Expr& e) const {
  if (!g_.types) return Ty::Unknown();
  if (spec_names_.empty()) return tc::StaticType(*g_.types, e);
  auto it = g_.types->of.find(&e);
  if (it == g_.types->of.end()) return Ty::Unknown();
  tc::Types& t = g_.types->types;
  return tc::ToTy(t, t.Subst(it->second, spec_names_, spec_with_));
}

bool Globals::IsPerTypeFn(const std::string& name) const {
  return types && types->per_type.count(name) > 0;
}

bool FnLowerer::IsPerType(const std::string& name) const {
  return g_.IsPerTypeFn(name) && !NestedFn(name);
}

const FnDef* FnLowerer::InstanceFor(const FnDef& def, const Expr& call) {
  // After the checker's errors the types may be wrong: it has said why.
  if (g_.types_failed || g_.instances_failed) return nullptr;
  tc::TypeInfo& info = *g_.types;
  tc::Types& t = info.types;
  const std::vector<std::string>& names = def.decl->generics;
  auto found = info.generic_args.find(&call);
  if (found == info.generic_args.end() || found->second.size() != names.size()) {
    Error("MT2030", call.loc,
          absl::StrCat("the types of `", def.ir_name, "`'s generic parameters are not known here"),
          absl::StrCat("write them in a turbofish: `", def.ir_name, "::[..](..)`"));
    return nullptr;
  }
  std::vector<uint32_t> with;
  std::vector<std::string> shown;
  for (size_t i = 0; i < names.size(); ++i) {
    tc::TypeId w = found->second[i];
    if (!spec_names_.empty()) w = t.Subst(w, spec_names_, spec_with_);
    t.Default(w);  // an integer literal's type is I64 when nothing else says
    if (t.HasVar(w) || t.HasParam(w) || t.IsLoose(w)) {
      Error(
          "MT2030", call.loc,
          absl::StrCat("the type of `", names[i], "` in this call of `", def.ir_name,
                       "` is not known here, and `", def.ir_name,
                       "` needs it at run time (it calls `", names[i], "::..`)"),
          absl::StrCat("annotate the value, or write a turbofish: `", def.ir_name, "::[..](..)`"));
      return nullptr;
    }
    with.push_back(t.Find(w));
    std::string text;
    size_t budget = kMaxInstanceTypeNodes;
    const bool fits = TypeKey(t, w, text, budget);
    shown.push_back(std::move(text));
    if (!fits) {
      g_.instances_failed = true;
      Error("MT2035", call.loc,
            absl::StrCat("`", def.ir_name, "` is instantiated at a type of more than ",
                         kMaxInstanceTypeNodes, " parts (`", t.Show(w), "`)"),
            "a generic function that calls itself at a growing type has no end: give the "
            "recursion a fixed type");
      return nullptr;
    }
  }
  std::string key = absl::StrCat(def.ir_name, "[", absl::StrJoin(shown, ", "), "]");
  if (auto it = g_.instances.find(key); it != g_.instances.end()) return &it->second;
  if (g_.instances.size() >= kMaxInstances) {
    g_.instances_failed = true;
    Error("MT2035", call.loc,
          absl::StrCat("the program's generic functions are instantiated at more than ",
                       kMaxInstances, " types (this one: `", key.substr(0, 120),
                       key.size() > 120 ? "...`" : "`", ")"),
          "a generic function that calls itself at a growing type has no end: give the "
          "recursion a fixed type");
    return nullptr;
  }
  FnDef d = def;
  d.spec_names = names;
  d.spec_with = with;
  for (size_t i = 0; i < names.size(); ++i) d.generics[names[i]] = tc::ToTy(t, with[i]);
  const bool quiet = g_.resolve_quiet;
  g_.resolve_quiet = true;
  d.params.clear();
  for (const Param& p : def.decl->params)
    if (p.self_kind == Param::SelfKind::kNone) d.params.push_back(g_.Resolve(p.type, &d.generics));
  if (def.decl->ret.kind != TypeExpr::Kind::kInfer) d.ret = g_.Resolve(def.decl->ret, &d.generics);
  g_.resolve_quiet = quiet;
  std::string name = absl::StrCat(def.ir_name, "::at_", IrNamePart(absl::StrJoin(shown, "_")));
  for (int n = 2; !g_.instance_names.insert(name).second; ++n)
    name = absl::StrCat(def.ir_name, "::at_", IrNamePart(absl::StrJoin(shown, "_")), "_", n);
  d.ir_name = name;
  d.quiet = def.quiet || g_.instance_counts[def.ir_name]++ > 0;
  auto [it, fresh] = g_.instances.emplace(key, std::move(d));
  g_.instance_queue.push_back(&it->second);
  return &it->second;
}

void Globals::LowerInstances() {
  while (!instance_queue.empty()) {
    std::vector<const FnDef*> queue;
    queue.swap(instance_queue);
    for (const FnDef* d : queue) {
      const size_t before = diags.list().size();
      const size_t first_fn = program.functions.size();
      LowerFn(*d, *d->decl);
      if (d->quiet) diags.DropRepeats(before);
      for (size_t i = first_fn; i < program.functions.size(); ++i)
        for (const ir::Block& b : program.functions[i].blocks)
          instance_statements += b.stmts.size() + 1;
      if (instance_statements > kMaxInstanceStatements) {
        diags.Error("MT2035", d->decl->loc,
                    absl::StrCat("the instances of generic functions lowered once per type ",
                                 "need more than ", kMaxInstanceStatements,
                                 " statements (the last: `", d->ir_name.substr(0, 120), "`)"),
                    "generic functions that call each other at ever new types multiply; give "
                    "them fixed types");
        instance_queue.clear();
        instances_failed = true;
        return;
      }
    }
  }
}

}  // namespace mty::frontend
