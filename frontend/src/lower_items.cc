// The item pass: Globals::Collect (types, fields, variants, functions,
// methods, consts, agent state) and LowerAll/LowerFn (every function).
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lower_internal.h"

namespace mty::frontend {

FnDef Globals::MakeFnDef(const FnDecl& f, const std::string& ir_name,
                         const std::string& self_type) {
  FnDef d;
  d.ir_name = ir_name;
  d.decl = &f;
  d.self_type = self_type;
  for (const std::string& g : f.generics) d.generics[g] = Ty::Unknown();
  if (!self_type.empty()) d.generics["Self"] = SelfTy(self_type);
  for (const Param& p : f.params) {
    if (p.self_kind != Param::SelfKind::kNone) {
      d.self_kind = p.self_kind;
      continue;
    }
    d.params.push_back(Resolve(p.type, &d.generics));
  }
  d.ret = f.ret.kind == TypeExpr::Kind::kInfer ? Ty::Make(Ty::Kind::kUnit)
                                               : Resolve(f.ret, &d.generics);
  return d;
}

void Globals::CheckParamNames(const std::vector<std::pair<std::string, Loc>>& names,
                              const std::string& owner) {
  std::map<std::string, Loc> first;
  for (const auto& [n, loc] : names) {
    if (n.empty() || n == "_") continue;
    auto [it, fresh] = first.insert({n, loc});
    if (fresh) continue;
    Diagnostic& d = diags.Error(
        "MT1017", loc,
        absl::StrCat("identifier `", n, "` is bound more than once in the parameters of ", owner),
        "give each parameter its own name");
    d.end = NameEnd(loc, n);
    if (it->second.line)
      d.labels.push_back(
          Label{it->second, NameEnd(it->second, n), absl::StrCat("`", n, "` is first bound here")});
  }
}

void Globals::CheckParamNames(const std::vector<Param>& params, const std::string& owner) {
  std::vector<std::pair<std::string, Loc>> names;
  for (const Param& p : params) names.push_back({p.name, p.loc});
  CheckParamNames(names, owner);
}

void Globals::Collect(const Module& m) {
  std_types.insert(m.std_types.begin(), m.std_types.end());
  CollectTypeNames(m);
  for (const Item& it : m.items)
    if (it.kind == Item::Kind::kTypeAlias)
      aliases[it.alias_decl->name] = Resolve(it.alias_decl->type);
  for (const Item& it : m.items) {
    if (it.kind == Item::Kind::kStruct) CollectStructFields(*it.struct_decl);
    if (it.kind == Item::Kind::kEnum) CollectVariants(*it.enum_decl);
  }
  for (const Item& it : m.items) {
    if (it.kind == Item::Kind::kUse && it.use_decl->path.size() == 2 &&
        adts.count(it.use_decl->path[0]))
      CollectVariantUse(*it.use_decl);
  }
  CollectFns(m);
  for (const Item& it : m.items)
    if (it.kind == Item::Kind::kConst) {
      if (consts.count(it.const_decl->name) || fns.count(it.const_decl->name))
        diags.Error("MT1008", it.const_decl->loc,
                    absl::StrCat("the name `", it.const_decl->name, "` is defined multiple times"));
      consts[it.const_decl->name] = &*it.const_decl;
    }
  for (const Item& it : m.items)
    if (it.kind == Item::Kind::kAgent) CollectAgentState(*it.agent_decl);
  // Supervisors: on_fail must name a child.
  for (const auto& [name, s] : supervisors) {
    std::set<std::string> kids;
    for (const SupervisorChild& c : s->children) kids.insert(c.name);
    for (const OnFail& f : s->on_fail)
      if (!kids.count(f.child))
        diags.Error("MT1014", f.loc,
                    absl::StrCat("supervisor `", name, "` has no child named `", f.child, "`"));
  }
  AdtsIntoProgram(m);
}

namespace {

bool IsRustStdUse(const std::vector<std::string>& path) {
  if (path.size() < 2 || path[0] != "std") return false;
  const std::string prefix = absl::StrCat("std.", path[1], ".");
  for (const ir::EffectInfo& e : ir::kEffects)
    if (std::string_view(e.path).starts_with(prefix)) return false;  // std.fs, std.time, ...
  return true;
}

}  // namespace

void Globals::CollectTypeNames(const Module& m) {
  std::set<std::string> type_names = {"Option", "Result"};
  for (const Item& it : m.items) {
    switch (it.kind) {
      case Item::Kind::kStruct:
        DeclareAdt(it.struct_decl->name, it.struct_decl->loc, it.struct_decl->generics,
                   &*it.struct_decl, type_names);
        break;
      case Item::Kind::kEnum:
        DeclareAdt(it.enum_decl->name, it.enum_decl->loc, it.enum_decl->generics, nullptr,
                   type_names);
        break;
      case Item::Kind::kAgent: agents[it.agent_decl->name] = &*it.agent_decl; break;
      case Item::Kind::kSupervisor:
        supervisors[it.supervisor_decl->name] = &*it.supervisor_decl;
        break;
      case Item::Kind::kSandbox: sandboxes[it.sandbox_decl->name] = &*it.sandbox_decl; break;
      case Item::Kind::kProtocol:
        protocols[it.protocol_decl->name] = &*it.protocol_decl;
        for (const ProtocolMsg& msg : it.protocol_decl->msgs)
          CheckParamNames(msg.params, absl::StrCat("message `", msg.name, "`"));
        break;
      case Item::Kind::kTrait: traits.insert(it.trait_decl->name); break;
      case Item::Kind::kUse: {
        // Rust's `use std::collections::HashMap;`, `use std::fmt;`: names
        // of Rust's standard library that are built in here (or modules a
        // Rust program names only for paths that are), not an alias of a
        // std effect module.
        if (IsRustStdUse(it.use_decl->path)) {
          std::vector<PathSeg> segs;
          for (const std::string& s : it.use_decl->path)
            segs.push_back(PathSeg{s, it.use_decl->loc});
          const std::string alias =
              it.use_decl->alias.empty() ? segs.back().name : it.use_decl->alias;
          if (std::optional<double> c = FloatConst(segs)) float_consts[alias] = *c;
          if (segs.size() == 3 && segs[1].name == "cmp" &&
              (segs[2].name == "max" || segs[2].name == "min"))
            cmp_fns[alias] = segs[2].name;
          break;
        }
        if (it.use_decl->path.size() == 2 && type_names.count(it.use_decl->path[0]))
          break;  // `use Shape::*`: CollectVariantUse, once the variants are known
        if (it.use_decl->path.back() == "*") {
          diags.Error("MT1003", it.use_decl->loc,
                      "a glob `use` (`::*`) imports only an enum's variants",
                      "name the enum declared in this program: `use Shape::*;`");
          break;
        }
        std::string alias = it.use_decl->alias.empty() && !it.use_decl->path.empty()
                                ? it.use_decl->path.back()
                                : it.use_decl->alias;
        uses[alias] = it.use_decl->path;
        break;
      }
      default: break;
    }
  }
}

void Globals::CollectVariantUse(const UseDecl& u) {
  const AdtDef& a = adts.at(u.path[0]);
  const std::string& name = u.path[1];
  if (!a.is_enum) {
    diags.Error("MT1003", u.loc,
                absl::StrCat("`use ", u.path[0], "::", name, "`: `", u.path[0],
                             "` is a struct; only an enum's variants can be imported"));
    return;
  }
  // A `use` is program-wide here (one in a function is read as one at the
  // top level): two that import a variant name from two enums would give
  // it two meanings.
  auto import = [&](const std::string& v) {
    auto [it, fresh] = variant_uses.insert({v, a.name});
    if (!fresh && it->second != a.name)
      diags.Error("MT1008", u.loc,
                  absl::StrCat("`", v, "` is imported from both `", it->second, "` and `", a.name,
                               "`: a `use` of variants applies to the whole program"),
                  absl::StrCat("write `", a.name, "::", v, "` where it is meant"));
  };
  if (name == "*") {
    for (const VariantDef& v : a.variants) import(v.name);
    return;
  }
  uint32_t vi;
  if (!FindVariant(a.name, name, &vi)) {
    diags.Error("MT2003", u.loc,
                absl::StrCat("no variant named `", name, "` in enum `", a.name, "`"));
    return;
  }
  if (!u.alias.empty() && u.alias != name) {
    diags.Error("MT1003", u.loc,
                absl::StrCat("a variant cannot be renamed by `use`: `", name, " as ", u.alias, "`"),
                absl::StrCat("write `", a.name, "::", name, "`"));
    return;
  }
  import(name);
}

void Globals::DeclareAdt(const std::string& name, Loc loc, const std::vector<std::string>& generics,
                         const StructDecl* struct_decl, std::set<std::string>& type_names) {
  if (IsReservedTypeName(name)) {
    diags
        .Error("MT1008", loc,
               absl::StrCat("`", name, "` is a built-in type and cannot be declared again"),
               "choose another name; library names such as `Size` or `Duration` may be reused")
        .end = NameEnd(loc, name);
    return;
  }
  if (!type_names.insert(name).second) {
    diags.Error("MT1008", loc, absl::StrCat("the name `", name, "` is defined multiple times"));
    return;
  }
  AdtDef d;
  d.name = name;
  d.is_enum = !struct_decl;
  d.generics = generics;
  d.struct_decl = struct_decl;
  adts[d.name] = d;
}

void Globals::CollectStructFields(const StructDecl& s) {
  if (s.derives_default) derives_default.insert(s.name);
  std::map<std::string, TyP> gens;
  for (const std::string& g : s.generics) gens[g] = Ty::Adt(g);
  VariantDef v;
  v.name = s.name;
  std::set<std::string> seen;
  for (const auto& [fname, ftype] : s.fields) {
    if (!seen.insert(fname).second)
      diags.Error("MT1008", ftype.loc, absl::StrCat("field `", fname, "` is already declared"));
    // A tuple struct's fields are positional (no name), read as `.0`.
    v.fields.push_back({s.is_tuple ? "" : fname, Resolve(ftype, &gens)});
  }
  v.arity = v.fields.size();
  adts[v.name].variants = {v};
}

void Globals::CollectVariants(const EnumDecl& e) {
  std::map<std::string, TyP> gens;
  for (const std::string& g : e.generics) gens[g] = Ty::Adt(g);
  AdtDef& d = adts[e.name];
  std::set<std::string> seen;
  for (const EnumVariant& ev : e.variants) {
    if (!seen.insert(ev.name).second)
      diags.Error("MT1008", ev.loc, absl::StrCat("variant `", ev.name, "` is already declared"));
    VariantDef v;
    v.name = ev.name;
    v.loc = ev.loc;
    std::set<std::string> fseen;
    for (size_t i = 0; i < ev.fields.size(); ++i) {
      // A struct-like variant (`Circle { r: F64 }`) names its fields.
      std::string fname = i < ev.field_names.size() ? ev.field_names[i] : "";
      if (!fname.empty() && !fseen.insert(fname).second)
        diags.Error(
            "MT1008", ev.field_locs[i],
            absl::StrCat("field `", fname, "` is already declared in variant `", ev.name, "`"));
      v.fields.push_back({fname, Resolve(ev.fields[i], &gens)});
    }
    v.arity = v.fields.size();
    d.variants.push_back(v);
  }
}

void Globals::CollectFns(const Module& m) {
  AddedFns added;
  for (const Item& it : m.items)
    if (it.kind == Item::Kind::kFn) AddFn(it.fn, "", false, false, added);
  for (const Item& it : m.items)
    if (it.kind == Item::Kind::kImpl && it.impl_decl->trait_name.empty())
      AddInherentImpl(*it.impl_decl, added);
  for (const Item& it : m.items)
    if (it.kind == Item::Kind::kImpl && !it.impl_decl->trait_name.empty())
      AddTraitImpl(m, *it.impl_decl, added);
}

void Globals::AddInherentImpl(const ImplDecl& impl, AddedFns& added) {
  const std::string& tn = impl.self_type.name;
  if (!adts.count(tn)) {
    if (!BuiltinOwner(impl.self_type).empty()) {
      diags.Error("MT1003", impl.loc,
                  absl::StrCat("methods cannot be added to the built-in type `",
                               TypeText(impl.self_type), "` directly"),
                  "declare a trait and implement it: `impl Trait for " + TypeText(impl.self_type) +
                      " { .. }`");
      return;
    }
    diags.Error("MT1003", impl.loc, absl::StrCat("cannot find type `", tn, "` in this scope"),
                suggest.Help(tn, [&] { return TypeNames(); }));
    return;
  }
  for (const FnDecl& f : impl.fns) AddFn(f, tn, false, false, added);
}

void Globals::AddTraitImpl(const Module& m, const ImplDecl& impl, AddedFns& added) {
  // `impl Trait for I64`: the methods of a built-in kind are `I64::m`.
  const std::string owner = BuiltinOwner(impl.self_type);
  const std::string& tn = owner.empty() ? impl.self_type.name : owner;
  if (!adts.count(tn) && owner.empty()) {
    diags.Error("MT1003", impl.loc, absl::StrCat("cannot find type `", tn, "` in this scope"),
                suggest.Help(tn, [&] { return TypeNames(); }));
    return;
  }
  if (!traits.count(impl.trait_name) && !IsLibraryTrait(impl.trait_name)) {
    diags.Error("MT1009", impl.loc,
                absl::StrCat("cannot find trait `", impl.trait_name, "` in this scope"),
                suggest.Help(impl.trait_name, [&]() -> std::vector<std::string> {
                  return std::vector<std::string>(traits.begin(), traits.end());
                }));
    return;
  }
  std::set<std::string> given;
  for (const FnDecl& f : impl.fns) {
    AddFn(f, tn, true, false, added);
    given.insert(f.name);
  }
  // Default methods of the trait that the impl does not override.
  for (const Item& t : m.items)
    if (t.kind == Item::Kind::kTrait && t.trait_decl->name == impl.trait_name)
      for (const FnDecl& f : t.trait_decl->fns)
        if ((f.body || f.expr_body) && !given.count(f.name)) AddFn(f, tn, true, true, added);
}

void Globals::AddFn(const FnDecl& f, const std::string& self_type, bool is_trait_impl,
                    bool is_default, AddedFns& added) {
  std::string ir_name = self_type.empty() ? f.name : absl::StrCat(self_type, "::", f.name);
  if (!self_type.empty() && is_trait_impl && methods[self_type].count(f.name)) {
    // An inherent method of the same name wins (language.md §2), and so
    // does a method another trait impl defines over a default; two
    // impls that both define it are MT1016.
    if (is_default || !added.from_trait.count(ir_name)) return;
    DefinedAgain(f, self_type, ir_name, fns[ir_name].decl);
    return;
  }
  if (auto prev = fns.find(ir_name); prev != fns.end()) {
    DefinedAgain(f, self_type, ir_name, prev->second.decl);
    return;
  }
  FnDef d = MakeFnDef(f, ir_name, self_type);
  d.quiet = !added.decls.insert(&f).second;
  if (!d.quiet)
    CheckParamNames(f.params, self_type.empty()
                                  ? absl::StrCat("function `", f.name, "`")
                                  : absl::StrCat("method `", self_type, "::", f.name, "`"));
  fns[ir_name] = d;
  if (!self_type.empty()) methods[self_type][f.name] = ir_name;
  if (is_trait_impl && !is_default) added.from_trait.insert(ir_name);
}

void Globals::DefinedAgain(const FnDecl& f, const std::string& self_type,
                           const std::string& ir_name, const FnDecl* first) {
  Diagnostic& d =
      self_type.empty()
          ? diags.Error("MT1008", f.loc,
                        absl::StrCat("the name `", ir_name, "` is defined multiple times"))
          : diags.Error("MT1016", f.loc,
                        absl::StrCat("duplicate definitions of method `", f.name, "` for `",
                                     self_type, "`"),
                        "a type has one method of each name: remove one, or rename it");
  d.end = NameEnd(f.loc, f.name);
  if (first)
    d.labels.push_back(Label{first->loc, NameEnd(first->loc, first->name),
                             absl::StrCat("the first definition of `", ir_name, "` is here")});
}

// An agent's state struct `__agent_Name`: its constructor parameters, then
// its state fields.
void Globals::CollectAgentState(const AgentDecl& a) {
  AdtDef d;
  d.name = "__agent_" + a.name;
  VariantDef v;
  v.name = d.name;
  std::set<std::string> seen;
  auto field = [&](const std::string& name, Loc loc, const TypeExpr& type) {
    if (!seen.insert(name).second)
      diags.Error("MT1008", loc,
                  absl::StrCat("`", name, "` is declared twice in agent `", a.name, "`"));
    v.fields.push_back({name, Resolve(type)});
  };
  for (const Param& p : a.ctor_params) field(p.name, p.loc, p.type);
  for (const AgentState& s : a.state) field(s.name, s.loc, s.type);
  v.arity = v.fields.size();
  d.variants = {v};
  adts[d.name] = d;
  ir::Adt ia;
  ia.name = d.name;
  ir::Variant iv;
  iv.name = d.name;
  for (const FieldDef& f : v.fields) iv.fields.push_back({f.name, f.ty->ToIr()});
  ia.variants.push_back(iv);
  program.adts.push_back(ia);
}

// The program's ADTs in declaration order, after the prelude's and the
// agents' state structs.
void Globals::AdtsIntoProgram(const Module& m) {
  std::set<std::string> in_program;
  for (const ir::Adt& a : program.adts) in_program.insert(a.name);
  for (const Item& it : m.items) {
    if (it.kind != Item::Kind::kStruct && it.kind != Item::Kind::kEnum) continue;
    const std::string& n =
        it.kind == Item::Kind::kStruct ? it.struct_decl->name : it.enum_decl->name;
    const AdtDef& d = adts[n];
    ir::Adt a;
    a.name = n;
    a.is_enum = d.is_enum;
    for (const VariantDef& v : d.variants) {
      ir::Variant iv;
      iv.name = v.name;
      for (const FieldDef& f : v.fields)
        iv.fields.push_back(
            {f.name, f.ty ? ErasedIr(f.ty->ToIr(), d.generics) : ir::Type::Named("Any")});
      a.variants.push_back(iv);
    }
    if (in_program.insert(n).second) program.adts.push_back(a);
  }
}

ir::Type ErasedIr(ir::Type t, const std::vector<std::string>& generics, int depth) {
  if (depth > kMaxIrTypeDepth) return ir::Type::Named("Any");
  if (t.kind == ir::Type::Kind::kNamed && t.args.empty() &&
      std::find(generics.begin(), generics.end(), t.name) != generics.end())
    return ir::Type::Named("Any");
  for (ir::Type& a : t.args) a = ErasedIr(std::move(a), generics, depth + 1);
  return t;
}

void Globals::LowerFn(const FnDef& def, const FnDecl& decl,
                      std::shared_ptr<const NestedScope> nested) {
  const bool quiet = quiet_warnings;
  quiet_warnings = quiet || def.quiet;
  LowerFnBody(def, decl, std::move(nested));
  quiet_warnings = quiet;
}

void Globals::LowerFnBody(const FnDef& def, const FnDecl& decl,
                          std::shared_ptr<const NestedScope> nested) {
  FnLowerer fl(*this, def.ir_name, def.ret);
  fl.enclosing_ = std::move(nested);
  fl.SetLoc(decl.loc);
  fl.SetSelfType(def.self_type);
  fl.SetGenerics(def.generics);
  fl.spec_names_ = def.spec_names;
  fl.spec_with_ = def.spec_with;
  size_t pi = 0;
  for (const Param& p : decl.params) {
    if (p.self_kind != Param::SelfKind::kNone) {
      TyP st = SelfTy(def.self_type);
      if (p.self_kind == Param::SelfKind::kRefMut) {
        auto r = Ty::With(Ty::Kind::kRef, {st});
        r->is_mut = true;
        fl.AddParam("self", r, false, true, p.loc);
      } else {
        fl.AddParam("self", st, p.is_mut, false, p.loc);
      }
      continue;
    }
    TyP t = def.params[pi++];
    fl.AddParam(p.name, t, p.is_mut, t->Is(Ty::Kind::kRef) && t->is_mut, p.loc, true);
  }
  bool unit_ret = def.ret->Is(Ty::Kind::kUnit);
  if (!unit_ret && decl.ret.kind != TypeExpr::Kind::kInfer &&
      !(decl.ret.kind == TypeExpr::Kind::kPath && decl.ret.name == "Never"))
    fl.SetCheckedReturn(def.ret, decl.ret.loc, def.ir_name);
  ir::Function f;
  if (decl.body) {
    f = fl.FinishWithBlock(*decl.body, unit_ret);
  } else if (decl.expr_body) {
    f = fl.FinishWithExpr(*decl.expr_body, unit_ret);
  } else {
    return;
  }
  program.functions.push_back(std::move(f));
}

void Globals::LowerAll(const Module& m) {
  CheckConstCycles();
  // Agents: handler names must be messages of their protocols.
  for (const auto& [name, a] : agents) {
    std::set<std::string> msgs;
    bool has_proto = false;
    for (const std::string& pn : a->protocols) {
      auto p = protocols.find(pn);
      if (p == protocols.end()) {
        diags.Error("MT1011", a->loc, absl::StrCat("cannot find protocol `", pn, "` in this scope"),
                    suggest.Help(pn, [&] {
                      std::vector<std::string> near;
                      for (const auto& [n, pd] : protocols) near.push_back(n);
                      return near;
                    }));
        continue;
      }
      has_proto = true;
      for (const ProtocolMsg& m2 : p->second->msgs) msgs.insert(m2.name);
    }
    if (has_proto)
      for (const Handler& h : a->handlers)
        if (!msgs.count(h.msg))
          diags.Error("MT1012", h.loc,
                      absl::StrCat("handler `", h.msg, "` is not a message of agent `", name,
                                   "`'s protocol"),
                      suggest.Help(h.msg, [&]() -> std::vector<std::string> {
                        return std::vector<std::string>(msgs.begin(), msgs.end());
                      }));
  }

  for (const auto& [name, sb] : sandboxes) {
    FnLowerer check(*this, "__sandbox_check", Ty::Unknown());
    for (const SandboxEntry& en : sb->entries) check.CheckSandboxEntry(en);
    if (sb->body) {
      // The item's default body, run by `run Name`: a function of its own,
      // so it sees items only (a local of the caller is MT1001).
      FnLowerer fl(*this, SandboxBodyFn(name), Ty::Unknown());
      fl.SetLoc(sb->loc);
      program.functions.push_back(fl.FinishWithBlock(*sb->body));
    }
  }
  // Functions in declaration order: free functions first as declared, then
  // methods; closures are appended as they are lowered.
  std::vector<const FnDef*> order;
  for (const Item& it : m.items)
    if (it.kind == Item::Kind::kFn) {
      auto f = fns.find(it.fn.name);
      if (f != fns.end() && f->second.decl == &it.fn) order.push_back(&f->second);
    }
  for (const auto& [n, d] : fns)
    if (!d.self_type.empty()) order.push_back(&d);
  for (const FnDef* d : order)
    if (!(d->self_type.empty() && IsPerTypeFn(d->ir_name))) LowerFn(*d, *d->decl);
  LowerInstances();
  LowerConsts();
  // Agents: the state initialiser, each handler and each helper become
  // functions `A::__init`, `A::on_Msg`, `A::helper` (run by the agent runtime).
  for (const Item& it : m.items) {
    if (it.kind == Item::Kind::kAgent) {
      const AgentDecl& a = it.agent_decl;
      {
        FnLowerer fl(*this, a.name + "::__init", Ty::Adt("__agent_" + a.name));
        fl.SetLoc(a.loc);
        program.functions.push_back(fl.LowerAgentInit(a));
      }
      std::set<std::string> seen;
      for (const Handler& h : a.handlers) {
        if (!seen.insert(h.msg).second) {
          diags.Error("MT1008", h.loc,
                      absl::StrCat("agent `", a.name, "` handles `", h.msg, "` twice"));
          continue;
        }
        CheckParamNames(h.params, absl::StrCat("handler `", h.msg, "` of agent `", a.name, "`"));
        FnLowerer fl(*this, a.name + "::on_" + h.msg, Ty::Unknown());
        fl.SetLoc(h.loc);
        program.functions.push_back(fl.LowerHandler(a, h));
        program.functions.push_back(AgentTurn(a.name, h.msg, h.params.size(), h.loc));
      }
      for (const FnDecl& f : a.fns) {
        TyP ret = f.ret.kind == TypeExpr::Kind::kInfer ? Ty::Make(Ty::Kind::kUnit) : Resolve(f.ret);
        CheckParamNames(f.params, absl::StrCat("function `", a.name, "::", f.name, "`"));
        FnLowerer fl(*this, a.name + "::" + f.name, ret);
        fl.SetLoc(f.loc);
        program.functions.push_back(fl.LowerAgentHelper(a, f, ret));
      }
    } else if (it.kind == Item::Kind::kSupervisor) {
      const SupervisorDecl& s = it.supervisor_decl;
      FnLowerer fl(*this, s.name + "::__children", Ty::Unknown());
      fl.SetLoc(s.loc);
      program.functions.push_back(fl.LowerSupervisorChildren(s));
      FnLowerer pl(*this, s.name + "::__policy", Ty::Unknown());
      pl.SetLoc(s.loc);
      program.functions.push_back(pl.LowerSupervisorPolicy(s));
    }
  }
  LowerInstances();
  LowerPrelude();
}

}  // namespace mty::frontend
