// The lowering of the type-directed library calls (docs/language.md §6
// "Type-directed calls"): what `collect()`, `parse()`, `into()`,
// `sum()`/`product()` and `Default::default()` become is read from the
// type the checker gave the call (frontend/src/typeck_directed.cc).
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lower_internal.h"

namespace mty::frontend {

namespace {

// What `collect` builds inside an Option/Result (the prelude's `into`).
int64_t CollectKind(const TyP& t) {
  if (t->Is(Ty::Kind::kStr)) return 1;
  if (t->Is(Ty::Kind::kMap)) return 2;
  return 0;
}

bool IsAdt(const TyP& t, const char* name) { return t->Is(Ty::Kind::kAdt) && t->name == name; }

}  // namespace

std::optional<FnLowerer::Val> FnLowerer::LowerDirected(const Expr& e, const Place& place,
                                                       const TyP& rty) {
  const std::string& name = e.text;
  if (!IsDirectedMethod(name)) return std::nullopt;
  const TyP want = CheckedType(e);
  if (want->Is(Ty::Kind::kUnknown)) return std::nullopt;
  Place dst = place;
  TyP base = rty;
  AutoDeref(dst, base, nullptr);
  auto method = [&](const char* m, std::vector<Operand> ops, TyP ty) {
    return MethodOn(dst, m, std::move(ops), std::move(ty));
  };
  auto value = [&] { return Emit(UseR(Operand::Copy(dst)), base); };
  if (name == "collect") {
    if (want->Is(Ty::Kind::kStr) && base->Is(Ty::Kind::kStr)) return value();  // FORM(Str, Collect)
    if (want->Is(Ty::Kind::kStr)) return method("join", {ConstOp(ir::Constant::Str(""))}, want);
    if (want->Is(Ty::Kind::kMap)) return CallPrelude("collect_map", {value().op}, want);
    if ((IsAdt(want, "Option") || IsAdt(want, "Result")) && !want->args.empty())
      return CallPrelude(IsAdt(want, "Option") ? "collect_option" : "collect_result",
                         {value().op, ConstOp(ir::Constant::Int(CollectKind(want->Arg(0))))}, want);
    // A std collection (lower_std.cc): its `from` of the elements.
    if (want->Is(Ty::Kind::kAdt) && g_.std_types.count(want->name))
      if (auto from = g_.fns.find(want->name + "::from"); from != g_.fns.end())
        return CallUser(from->second, {value().op}, e.loc);
    return std::nullopt;  // a Vec: the array itself
  }
  if (name == "sum" || name == "product") {
    const bool sum = name == "sum";
    std::vector<Operand> start;
    // A float sum starts at -0.0, as Rust's (an empty one is -0).
    if (want->Is(Ty::Kind::kFloat)) start.push_back(ConstOp(ir::Constant::Float(sum ? -0.0 : 1.0)));
    if (want->Is(Ty::Kind::kInt)) {
      Val one = Val{ConstOp(ir::Constant::Int(sum ? 0 : 1)), Ty::Int()};
      start.push_back(ToLocalOp(Coerce(one, want)));
    }
    return method(sum ? "sum" : "product", std::move(start), want);
  }
  if (name == "parse") {
    const TyP target = want->Arg(0);
    const TyP err = Ty::Make(Ty::Kind::kStr);
    // An integer is read in its type's range (a U64 as unsigned), as Rust's.
    if (target->Is(Ty::Kind::kInt)) {
      __int128 lo, hi;
      const std::string type = IntTypeRange(target->name, &lo, &hi) ? target->name : "I64";
      return method("parse_int", {ConstOp(ir::Constant::Str(type))},
                    Ty::Adt("Result", {Ty::Int(type), err}));
    }
    if (target->Is(Ty::Kind::kFloat)) return method("parse_float", {}, want);
    if (target->Is(Ty::Kind::kBool)) return CallPrelude("parse_bool", {value().op}, want);
    if (target->Is(Ty::Kind::kChar)) return CallPrelude("parse_char", {value().op}, want);
    if (target->Is(Ty::Kind::kStr)) return Emit(AdtInit("Result", "Ok", {value().op}), want);
    // A type no string reads as: the checker said so (the program is not
    // run); a type it left to the run cannot be read either.
    if (target->Is(Ty::Kind::kUnknown) && !g_.types_failed)
      Error("MT2030", e.loc, "`parse` needs the type to read, which is not known here",
            "write it as a turbofish: `s.parse::[I64]()`")
          .end = NameEnd(e.loc, name);
    return Val{UnitOp(), Ty::Unknown()};
  }
  // into: by the value's type and the type wanted.
  if (want->Is(Ty::Kind::kAdt) && !IsAdt(want, "Option") && !IsAdt(want, "Result")) {
    auto m = g_.methods.find(want->name);
    if (m != g_.methods.end())
      if (auto f = m->second.find("from"); f != m->second.end()) {
        const FnDef& def = g_.fns.at(f->second);
        return CallUser(def, {value().op}, e.loc);
      }
  }
  const TyP from = CheckedType(*e.lhs);
  if (IsAdt(want, "Option") && !from->Is(Ty::Kind::kAdt))
    return Emit(AdtInit("Option", "Some", {value().op}), want);
  if (want->Is(Ty::Kind::kStr) && from->Is(Ty::Kind::kChar)) return method("to_str", {}, want);
  if ((want->Is(Ty::Kind::kFloat) || want->Is(Ty::Kind::kInt)) &&
      (from->Is(Ty::Kind::kInt) || from->Is(Ty::Kind::kBool) || from->Is(Ty::Kind::kChar))) {
    if (want->Is(Ty::Kind::kInt) && from->Is(Ty::Kind::kInt)) return Coerce(value(), want);
    Rvalue r;
    r.kind = Rvalue::Kind::kCast;
    r.ops = {ToLocalOp(value())};
    r.type = ir::Type::Named(want->Is(Ty::Kind::kFloat) ? "F64" : want->name);
    return Emit(std::move(r), want);
  }
  return value();  // the same type: the value itself
}

std::optional<FnLowerer::Val> FnLowerer::LowerDefaultCall(const Expr& e) {
  const Expr& callee = *e.lhs;
  if (callee.kind != Expr::Kind::kPath || callee.segs.size() != 2 ||
      callee.segs[1].name != "default" || !e.args.empty())
    return std::nullopt;
  const std::string owner = SelfName(callee.segs[0].name);
  if (auto m = g_.methods.find(owner); m != g_.methods.end() && m->second.count("default"))
    return std::nullopt;  // the type's own `default`
  TyP want = CheckedType(e);
  if (want->Is(Ty::Kind::kUnknown) && owner != "Default") {
    TypeExpr written;
    written.kind = TypeExpr::Kind::kPath;
    written.name = owner;
    want = g_.Resolve(written, &generics_);
  }
  if (std::optional<Operand> d = DefaultOf(want)) return Val{*d, want};
  // `T::default()` / `Default::default()` at a generic parameter's type:
  // types are erased at run time, so there is no `T` to ask.
  if (want->Is(Ty::Kind::kUnknown) && !g_.types_failed &&
      (generics_.count(owner) || owner == "Default") && !generics_.empty()) {
    Error("MT2030", e.loc,
          "the default of a generic parameter's type is not supported yet (types are erased "
          "at run time)",
          "take the default as a parameter (`fn f[T](zero: T)`), or a closure that makes it");
    return Val{UnitOp(), Ty::Unknown()};
  }
  // A known type without a default: the checker said so (MT2023), unless
  // its derived default contains itself (a struct holding itself).
  if (!g_.types_failed)
    Error(
        "MT2030", e.loc,
        want->Is(Ty::Kind::kUnknown)
            ? std::string("`default()` needs the type whose default it is, which is not known here")
            : absl::StrCat("`", want->Name(), "` has no default value (a derived default ",
                           "that contains itself, or a generic parameter's)"),
        want->Is(Ty::Kind::kUnknown) ? "annotate the binding (`let c: Config = Default::default()`)"
                                     : "write `impl Default for` the type, or build the value");
  return Val{UnitOp(), Ty::Unknown()};
}

}  // namespace mty::frontend
