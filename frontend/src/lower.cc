// Lowering: Mighty AST -> MtyIR. This file: the light static type tracker
// (enough to resolve field names and methods and to check arity, fields,
// variants and known methods), type, field and variant lookups in the global
// tables, and the entry points. The item pass is in lower_items.cc, the
// per-function lowerer (FnLowerer, lower_internal.h) in lower_fn.cc,
// lower_expr.cc, lower_call.cc, lower_pattern.cc and lower_agent.cc.
#include "mty/frontend/lower.h"

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "lower_internal.h"
#include "mty/frontend/parser.h"
#include "mty/ir/verify.h"
#include "typeck.h"

namespace mty::frontend {

// ---------------------------------------------------------------- types ----

TyP Ty::Make(Kind k) {
  auto t = std::make_shared<Ty>();
  t->kind = k;
  return t;
}
TyP Ty::Int(std::string width) {
  auto t = Make(Kind::kInt);
  if (width != "I64" && width != "Int") t->name = std::move(width);
  return t;
}
bool Ty::Unsigned() const { return kind == Kind::kInt && IsUnsignedTypeName(name); }
TyP Ty::Adt(std::string n, std::vector<TyP> a) {
  auto t = Make(Kind::kAdt);
  t->name = std::move(n);
  t->args = std::move(a);
  return t;
}
TyP Ty::With(Kind k, std::vector<TyP> a) {
  auto t = Make(k);
  t->args = std::move(a);
  return t;
}
TyP Ty::Unknown() {
  static TyP u = Make(Kind::kUnknown);
  return u;
}

std::string Ty::Name() const {
  auto arg = [&](size_t i) { return i < args.size() && args[i] ? args[i]->Name() : "?"; };
  switch (kind) {
    case Kind::kUnknown: return "?";
    case Kind::kInt: return name.empty() ? "I64" : name;
    case Kind::kFloat: return "F64";
    case Kind::kBool: return "Bool";
    case Kind::kChar: return "Char";
    case Kind::kStr: return "Str";
    case Kind::kUnit: return "Unit";
    case Kind::kDuration: return "Duration";
    case Kind::kSize: return "Size";
    case Kind::kAdt: {
      if (args.empty()) return name;
      std::string s = name + "[";
      for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + arg(i);
      return s + "]";
    }
    case Kind::kTuple: {
      std::string s = "(";
      for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + arg(i);
      return s + (args.size() == 1 ? ",)" : ")");
    }
    case Kind::kArray: return absl::StrCat("[", arg(0), "]");
    case Kind::kMap: return "Map[" + arg(0) + ", " + arg(1) + "]";
    case Kind::kRef: return std::string(is_mut ? "&mut " : "&") + arg(0);
    case Kind::kFn: return "fn";
    case Kind::kAgent: return "agent " + name;
    case Kind::kCap: return name;
  }
  return "?";
}

ir::Type Ty::ToIr(int depth) const {
  // Static types are hints: one nested deeper than the IR text allows
  // (a 200-deep `[[..]]`) is written `Any` below this depth.
  if (depth > kMaxIrTypeDepth) return ir::Type::Named("Any");
  switch (kind) {
    case Kind::kUnknown: return ir::Type::Named("Any");
    case Kind::kTuple: {
      ir::Type t;
      t.kind = ir::Type::Kind::kTuple;
      for (const TyP& a : args) t.args.push_back(a ? a->ToIr(depth + 1) : ir::Type::Named("Any"));
      return t;
    }
    case Kind::kArray: {
      ir::Type t;
      t.kind = ir::Type::Kind::kArray;
      t.args.push_back(args.empty() || !args[0] ? ir::Type::Named("Any")
                                                : args[0]->ToIr(depth + 1));
      return t;
    }
    case Kind::kRef: {
      ir::Type t;
      t.kind = ir::Type::Kind::kRef;
      t.is_mut = is_mut;
      t.args.push_back(args.empty() || !args[0] ? ir::Type::Named("Any")
                                                : args[0]->ToIr(depth + 1));
      return t;
    }
    case Kind::kAdt:
    case Kind::kMap: {
      ir::Type t = ir::Type::Named(kind == Kind::kMap ? "Map" : name);
      for (const TyP& a : args) t.args.push_back(a ? a->ToIr(depth + 1) : ir::Type::Named("Any"));
      return t;
    }
    case Kind::kFn: return ir::Type::Named("Fn");
    case Kind::kAgent: return ir::Type::Named("Agent");
    case Kind::kInt: return ir::Type::Named(Unsigned() ? "U64" : "I64");  // 64 bits at run time
    default: return ir::Type::Named(Name());
  }
}

bool TyFits(const Ty& have, const Ty& want) {
  if (have.Is(Ty::Kind::kUnknown) || want.Is(Ty::Kind::kUnknown)) return true;
  if (have.kind != want.kind) return false;
  if (have.Is(Ty::Kind::kAdt) && have.name != want.name) return false;
  for (size_t i = 0; i < have.args.size() && i < want.args.size(); ++i)
    if (have.args[i] && want.args[i] && !TyFits(*have.args[i], *want.args[i])) return false;
  return true;
}

std::string TypeText(const TypeExpr& t) {
  auto list = [&](size_t from, size_t to) {
    std::string s;
    for (size_t i = from; i < to && i < t.args.size(); ++i)
      s += (i > from ? ", " : "") + TypeText(t.args[i]);
    return s;
  };
  switch (t.kind) {
    case TypeExpr::Kind::kInfer: return "_";
    case TypeExpr::Kind::kTuple:
      return "(" + list(0, t.args.size()) + (t.args.size() == 1 ? ",)" : ")");
    case TypeExpr::Kind::kArray: return "[" + list(0, 1) + "]";
    case TypeExpr::Kind::kRef: return std::string(t.is_mut ? "&mut " : "&") + list(0, 1);
    case TypeExpr::Kind::kFn: {
      std::string s = "fn(" + (t.args.empty() ? "" : list(0, t.args.size() - 1)) + ")";
      if (!t.args.empty() &&
          !(t.args.back().kind == TypeExpr::Kind::kTuple && t.args.back().args.empty()))
        s += " -> " + TypeText(t.args.back());
      return s;
    }
    case TypeExpr::Kind::kPath:
      return t.args.empty() ? t.name : t.name + "[" + list(0, t.args.size()) + "]";
  }
  return "_";
}

std::string Signature(const FnDecl& f) {
  std::string s = "fn " + f.name + "(";
  for (size_t i = 0; i < f.params.size(); ++i) {
    const Param& p = f.params[i];
    s += i ? ", " : "";
    switch (p.self_kind) {
      case Param::SelfKind::kValue: s += p.is_mut ? "mut self" : "self"; continue;
      case Param::SelfKind::kRef: s += "&self"; continue;
      case Param::SelfKind::kRefMut: s += "&mut self"; continue;
      case Param::SelfKind::kNone: break;
    }
    s += (p.is_mut ? "mut " : "") + p.name;
    if (p.type.kind != TypeExpr::Kind::kInfer) s += ": " + TypeText(p.type);
  }
  s += ")";
  if (f.ret.kind != TypeExpr::Kind::kInfer) s += " -> " + TypeText(f.ret);
  return s;
}

Label DefinedHere(const FnDecl& f) {
  return Label{f.loc, NameEnd(f.loc, f.name), "defined here: `" + Signature(f) + "`"};
}

// ------------------------------------------------------------ globals ----

bool IsIntName(const std::string& n) {
  static const std::set<std::string> k = {"I8",  "I16", "I32",  "I64",   "I128",  "U8", "U16",
                                          "U32", "U64", "U128", "ISize", "USize", "Int"};
  return k.count(n) > 0;
}

bool IsReservedTypeName(const std::string& n) {
  return IsIntName(n) || n == "F32" || n == "F64" || n == "Float" || n == "Bool" || n == "Char" ||
         n == "Str" || n == "Unit" || n == "Never" || n == "Self" || n == "Any";
}

Globals::Globals(Diagnostics& d) : diags(d) {
  // The prelude ADTs.
  for (const ir::Adt& a : ir::PreludeAdts()) {
    AdtDef def;
    def.name = a.name;
    def.is_enum = a.is_enum;
    if (a.is_enum) def.generics = {"T", "E"};
    for (const ir::Variant& v : a.variants) {
      VariantDef vd;
      vd.name = v.name;
      vd.arity = v.fields.size();
      for (const ir::Field& f : v.fields) {
        std::string n = f.type.name;
        TyP t = n == "I64"    ? Ty::Make(Ty::Kind::kInt)
                : n == "Bool" ? Ty::Make(Ty::Kind::kBool)
                : n == "Str"  ? Ty::Make(Ty::Kind::kStr)
                : n == "Map"
                    ? Ty::With(Ty::Kind::kMap, {Ty::Make(Ty::Kind::kStr), Ty::Make(Ty::Kind::kStr)})
                    : Ty::Adt(n);
        vd.fields.push_back({f.name, t});
      }
      def.variants.push_back(vd);
    }
    adts[a.name] = def;
  }
}

TyP Globals::Resolve(const TypeExpr& t, const std::map<std::string, TyP>* generics) {
  switch (t.kind) {
    case TypeExpr::Kind::kInfer: return Ty::Unknown();
    case TypeExpr::Kind::kTuple: {
      if (t.args.empty()) return Ty::Make(Ty::Kind::kUnit);
      std::vector<TyP> a;
      for (const TypeExpr& x : t.args) a.push_back(Resolve(x, generics));
      return Ty::With(Ty::Kind::kTuple, std::move(a));
    }
    case TypeExpr::Kind::kArray:
      return Ty::With(Ty::Kind::kArray,
                      {t.args.empty() ? Ty::Unknown() : Resolve(t.args[0], generics)});
    case TypeExpr::Kind::kRef: {
      TyP to = t.args.empty() ? Ty::Unknown() : Resolve(t.args[0], generics);
      // A shared reference is its value (`&x` is `x`, docs/language.md
      // §11): only `&mut T` is a reference at run time.
      if (!t.is_mut) return to;
      auto r = Ty::With(Ty::Kind::kRef, {std::move(to)});
      r->is_mut = true;
      return r;
    }
    case TypeExpr::Kind::kFn: return Ty::Make(Ty::Kind::kFn);
    case TypeExpr::Kind::kPath: break;
  }
  const std::string& n = t.name;
  if (generics) {
    auto it = generics->find(n);
    if (it != generics->end()) return it->second;
  }
  auto alias = aliases.find(n);
  if (alias != aliases.end()) return alias->second;
  if (adts.count(n)) {
    // A declared type shadows a library type's name (`struct Size`,
    // `struct Duration`); the primitive names cannot be declared.
    std::vector<TyP> args;
    for (const TypeExpr& x : t.args) args.push_back(Resolve(x, generics));
    return Ty::Adt(n, std::move(args));
  }
  if (IsIntName(n)) return Ty::Int(n);
  if (n == "F32" || n == "F64" || n == "Float") return Ty::Make(Ty::Kind::kFloat);
  if (n == "Bool") return Ty::Make(Ty::Kind::kBool);
  if (n == "Char") return Ty::Make(Ty::Kind::kChar);
  if (IsStrTypeName(n)) return Ty::Make(Ty::Kind::kStr);
  if (n == "Unit" || n == "Never") return Ty::Make(Ty::Kind::kUnit);
  if (n == "Duration") return Ty::Make(Ty::Kind::kDuration);
  if (n == "Size") return Ty::Make(Ty::Kind::kSize);
  if (ir::FindCapType(n)) {
    auto c = Ty::Make(Ty::Kind::kCap);
    c->name = n;
    return c;
  }
  std::vector<TyP> args;
  for (const TypeExpr& x : t.args) args.push_back(Resolve(x, generics));
  if (n == "Vec" || n == "Array" || n == "Slice")
    return Ty::With(Ty::Kind::kArray, {args.empty() ? Ty::Unknown() : args[0]});
  if (n == "Map" || n == "HashMap")
    return Ty::With(Ty::Kind::kMap, {args.size() > 0 ? args[0] : Ty::Unknown(),
                                     args.size() > 1 ? args[1] : Ty::Unknown()});
  if (adts.count(n)) return Ty::Adt(n, std::move(args));
  // `dyn Trait` (written `Trait` or `dyn Trait`): dispatched on the value's
  // own type at run time; `Box[T]` is a `T` (values, docs/language.md §6).
  if (traits.count(n)) return Ty::Unknown();
  if (IsBoxName(n)) return args.empty() ? Ty::Unknown() : args[0];
  if (agents.count(n)) {
    auto a = Ty::Make(Ty::Kind::kAgent);
    a->name = n;
    return a;
  }
  if (n.size() <= 2 || n == "Self" || n == "Any") return Ty::Unknown();  // generic params
  if (resolve_quiet) return Ty::Unknown();
  diags
      .Error("MT1003", t.loc, absl::StrCat("cannot find type `", n, "` in this scope"),
             suggest.Help(n, [&] { return TypeNames(); }))
      .end = NameEnd(t.loc, n);
  return Ty::Unknown();
}

TypeExpr ToTypeExpr(const ir::Type& t) {
  TypeExpr e;
  switch (t.kind) {
    case ir::Type::Kind::kNamed:
      if (t.name == "_") return e;  // kInfer: any value
      e.kind = TypeExpr::Kind::kPath;
      e.name = t.name;
      break;
    case ir::Type::Kind::kTuple: e.kind = TypeExpr::Kind::kTuple; break;
    case ir::Type::Kind::kArray: e.kind = TypeExpr::Kind::kArray; break;
    default: return e;
  }
  for (const ir::Type& a : t.args) e.args.push_back(ToTypeExpr(a));
  return e;
}

TyP Globals::ResolveIr(const ir::Type& t) {
  const bool quiet = resolve_quiet;
  resolve_quiet = true;
  TyP out = Resolve(ToTypeExpr(t));
  resolve_quiet = quiet;
  return out;
}

const FieldDef* Globals::FindField(const std::string& adt, const std::string& field,
                                   uint32_t* index) const {
  auto it = adts.find(adt);
  if (it == adts.end() || it->second.is_enum) return nullptr;
  const auto& fs = it->second.variants[0].fields;
  for (size_t i = 0; i < fs.size(); ++i)
    if (fs[i].name == field) {
      *index = static_cast<uint32_t>(i);
      return &fs[i];
    }
  return nullptr;
}

const VariantDef* Globals::FindVariant(const std::string& adt, const std::string& v,
                                       uint32_t* index) const {
  uint32_t ignored;
  if (!index) index = &ignored;
  auto it = adts.find(adt);
  if (it == adts.end() || !it->second.is_enum) return nullptr;
  for (size_t i = 0; i < it->second.variants.size(); ++i)
    if (it->second.variants[i].name == v) {
      *index = static_cast<uint32_t>(i);
      return &it->second.variants[i];
    }
  return nullptr;
}

// A bare variant name (`Some`, `None`, `Empty`) resolves when exactly one
// enum in scope has a variant of that name.
const AdtDef* Globals::BareVariantOwner(const std::string& v) const {
  // An index by variant name (null: in two enums), rebuilt when a type is
  // added: a lookup per bare name, not a walk over every enum (a 1 MB
  // program has thousands).
  if (variant_index_size_ != adts.size()) {
    variant_index_.clear();
    for (const auto& [n, a] : adts) {
      if (!a.is_enum) continue;
      for (const VariantDef& vd : a.variants) {
        auto [it, fresh] = variant_index_.insert({vd.name, &a});
        if (!fresh && it->second != &a) it->second = nullptr;
      }
    }
    variant_index_size_ = adts.size();
  }
  auto it = variant_index_.find(v);
  if (it != variant_index_.end() && !it->second)  // two enums have it: `use E::*` picks one
    if (auto u = variant_uses.find(v); u != variant_uses.end()) return &adts.at(u->second);
  return it == variant_index_.end() ? nullptr : it->second;
}

Diagnostic& Globals::Warn(std::string code, Loc loc, std::string message, std::string help) {
  if (quiet_warnings || pending_warnings.size() >= kMaxWarnings) {
    if (!quiet_warnings) ++warnings_dropped;
    dropped_warning = Diagnostic{};
    return dropped_warning;
  }
  Diagnostic d;
  d.severity = Severity::kWarning;
  d.code = std::move(code);
  d.loc = loc;
  d.message = std::move(message);
  d.help = std::move(help);
  pending_warnings.push_back(std::move(d));
  return pending_warnings.back();
}

void Globals::FlushWarnings() {
  if (diags.HasErrors()) return;
  std::stable_sort(pending_warnings.begin(), pending_warnings.end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return std::tie(a.loc.line, a.loc.col) < std::tie(b.loc.line, b.loc.col);
                   });
  for (Diagnostic& w : pending_warnings) {
    Diagnostic& d = diags.Warning(w.code, w.loc, w.message, w.help);
    d.end = w.end;
    d.labels = std::move(w.labels);
  }
  if (warnings_dropped > 0)
    diags.Warning("MT8000", Loc{},
                  absl::StrCat(warnings_dropped, " more warning(s) not shown (at most ",
                               kMaxWarnings, " are reported)"));
  pending_warnings.clear();
}

std::vector<std::string> Globals::TypeNames() const {
  std::vector<std::string> out = {"I8",  "I16",    "I32",   "I64",      "U8",   "U16",  "U32",
                                  "U64", "ISize",  "USize", "F32",      "F64",  "Bool", "Char",
                                  "Str", "String", "Unit",  "Duration", "Size", "Vec",  "Map"};
  for (const ir::CapInfo& c : ir::kCaps)
    if (std::find(out.begin(), out.end(), c.type) == out.end()) out.push_back(c.type);
  for (const auto& [n, a] : adts)
    if (n.rfind("__", 0) != 0) out.push_back(n);
  for (const auto& [n, a] : aliases) out.push_back(n);
  for (const auto& [n, a] : agents) out.push_back(n);
  return out;
}

std::vector<std::string> Globals::VariantNames() const {
  std::vector<std::string> out;
  for (const auto& [n, a] : adts)
    if (a.is_enum)
      for (const VariantDef& v : a.variants) out.push_back(v.name);
  return out;
}

// --------------------------------------------------------- entry point ----

ir::Program Lower(const Module& m, Diagnostics& diags, const ir::HostFnTable* host_fns) {
  Globals g(diags);
  g.host_fns = host_fns;
  g.Collect(m);
  if (diags.HasErrors()) return {};
  // The type checker, then the lowering, which reports what it finds too
  // (names, arity, fields, mutability). A line the lowering reports an
  // error on keeps the lowering's (its messages are the more specific);
  // the checker's errors on other lines are added. A program with an
  // error of either is not run.
  tc::TypeInfo types;
  Diagnostics checked;
  tc::Check(m, g, types, checked);
  if (types.fatal) {
    for (const Diagnostic& d : checked.list()) diags.Add(d);
    return {};
  }
  // After a checker error the types still guide the lowering (what a
  // type-directed call becomes), whose output is then not run.
  g.types = &types;
  g.types_failed = checked.HasErrors();
  g.LowerAll(m);
  g.types = nullptr;
  std::set<uint32_t> lines;
  for (const Diagnostic& d : diags.list())
    if (d.severity == Severity::kError) lines.insert(d.loc.line);
  for (const Diagnostic& d : checked.list())
    if (d.severity == Severity::kError && !lines.count(d.loc.line)) diags.Add(d);
  g.FlushWarnings();
  if (diags.HasErrors()) return {};
  ir::Program p = std::move(g.program);
  p.source = m.file;
  if (absl::Status s = ir::Verify(p, m.file); !s.ok()) {
    diags.Error("MT9999", Loc{}, absl::StrCat("internal compiler error: ", s.message()));
    return {};
  }
  return p;
}

ir::Program CompileSource(const SourceFile& file, Diagnostics& diags,
                          const ir::HostFnTable* host_fns) {
  Module m = Parse(file, diags);
  if (diags.HasErrors()) return {};
  m.file = file.name;
  return Lower(m, diags, host_fns);
}

}  // namespace mty::frontend
