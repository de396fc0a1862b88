// The type checker and the library calls whose meaning is the type they
// give (docs/language.md §6 "Type-directed calls"): `collect()` builds what
// the context wants (Vec, Str, Map, Option of one, Result of one),
// `parse()` reads the type wanted, `into()` converts where Rust has a
// `From`, `Default::default()` is the default of the type wanted. The
// wanted type comes from a turbofish, the expected type, or a later use in
// the same function; the call is settled once it is known (at the latest
// when the function's body is checked), and the lowering reads the types
// the checker found.
#include "absl/strings/str_cat.h"
#include "typeck.h"

namespace mty::frontend::tc {

namespace {

constexpr size_t kMaxDirectedWork = size_t{1} << 20;

// Integer widths a value of `from` converts to without loss (Rust's
// `From` between integers).
bool IntWidens(const std::string& from, const std::string& to) {
  auto bits = [](const std::string& w) -> int {
    if (w == "I8" || w == "U8") return 8;
    if (w == "I16" || w == "U16") return 16;
    if (w == "I32" || w == "U32") return 32;
    if (w == "I64" || w == "U64") return 64;
    return 0;  // ISize/USize: no `From` but from themselves and the 8/16-bit ones
  };
  if (from == to) return true;
  const bool fs = from[0] == 'I', ts = to[0] == 'I';
  const int fb = bits(from), tb = bits(to);
  if (to == "ISize") return from == "I8" || from == "I16" || from == "U8";
  if (to == "USize") return from == "U8" || from == "U16";
  if (fb == 0 || tb == 0) return false;
  if (fs == ts) return tb > fb;
  return !fs && ts && tb > fb;  // unsigned into a wider signed
}

}  // namespace

TypeId Checker::TurbofishOr(const Expr& e, size_t want, size_t index) {
  const ExprMore& m = *e.more;
  if (!m.has_type_args) return t_.Var(e.loc);
  if (m.type_args.size() != want) {
    if (!failed_) {
      failed_ = true;
      diags_
          .Error("MT2025", e.loc,
                 absl::StrCat("method `", e.text, "` takes ", want, " generic argument(s) but ",
                              m.type_args.size(), (m.type_args.size() == 1 ? " was" : " were"),
                              " supplied"))
          .end = NameEnd(e.loc, e.text);
    }
    return t_.Prim(TK::kErr);
  }
  return FromType(m.type_args[index]);
}

std::optional<TypeId> Checker::DirectedMethod(TypeId r, const Expr& e, TypeId expect) {
  if (!IsDirectedMethod(e.text)) return std::nullopt;
  const TNode rn = t_.At(r);
  // The element a method that walks the receiver sees.
  TypeId elem = 0;
  if (rn.kind == TK::kArray || (rn.kind == TK::kAdt && rn.name == "Range" && !rn.args.empty()))
    elem = rn.args[0];
  else if (rn.kind == TK::kMap)
    elem = t_.Tuple({rn.args[0], rn.args[1]});
  const bool want_args = e.args.empty();
  auto no_args = [&]() {
    if (want_args) return true;
    if (!failed_) {
      failed_ = true;
      diags_
          .Error("MT2001", e.loc,
                 absl::StrCat("method `", e.text, "` takes 0 argument(s), given ", e.args.size()))
          .end = NameEnd(e.loc, e.text);
    }
    LooseArgs([&] {
      std::vector<const Expr*> a;
      for (const ExprPtr& x : e.args) a.push_back(x.get());
      return a;
    }());
    return false;
  };
  if ((e.text == "collect" || e.text == "sum" || e.text == "product") && elem) {
    if (!no_args()) return t_.Prim(TK::kErr);
    if (e.text != "collect") {
      // `sum()`/`product()` give the element's type (Rust's `Sum<T> for T`).
      TypeId want = TurbofishOr(e, 1, 0);
      Expect(elem, want, e, "MT2023", "the element type `sum`/`product` adds up");
      if (!t_.IsVar(elem) && !t_.IsLoose(elem) && !IsNumber(elem) && !failed_) {
        failed_ = true;
        diags_
            .Error("MT2029", e.loc,
                   absl::StrCat("`", e.text, "` needs numbers, the elements are `", t_.Show(elem),
                                "`"))
            .end = NameEnd(e.loc, e.text);
      }
      return elem;
    }
    TypeId target = TurbofishOr(e, 1, 0);
    if (!t_.IsVar(expect) && !t_.IsLoose(expect) && t_.IsVar(target)) t_.Unify(target, expect);
    directed_.push_back(DirectedCall{DirectedCall::kCollect, target, elem, &e, cur_fn_});
    if (SettleDirected(directed_.back(), false)) directed_.pop_back();
    return target;
  }
  if (e.text == "parse" && rn.kind == TK::kStr) {
    if (!no_args()) return t_.Prim(TK::kErr);
    TypeId target = TurbofishOr(e, 1, 0);
    directed_.push_back(DirectedCall{DirectedCall::kParse, target, 0, &e, cur_fn_});
    return t_.Result(target, t_.Prim(TK::kStr));
  }
  if (e.text == "into") {
    if (!no_args()) return t_.Prim(TK::kErr);
    TypeId target = TurbofishOr(e, 1, 0);
    if (!t_.IsVar(expect) && !t_.IsLoose(expect) && t_.IsVar(target)) t_.Unify(target, expect);
    directed_.push_back(DirectedCall{DirectedCall::kInto, target, r, &e, cur_fn_});
    return target;
  }
  return std::nullopt;
}

bool Checker::IsNumber(TypeId t) {
  TK k = t_.Kind(t);
  return k == TK::kInt || k == TK::kIntVar || k == TK::kFloat || k == TK::kFloatVar;
}

TypeId Checker::DefaultCall(const Expr& e, TypeId target) {
  directed_.push_back(DirectedCall{DirectedCall::kDefault, target, 0, &e, cur_fn_});
  return target;
}

bool Checker::SettleDirected(const DirectedCall& d, bool final) {
  const Expr& e = *d.at;
  auto annotate = [&](const std::string& what, const std::string& help) {
    if (failed_) return true;
    failed_ = true;
    diags_.Error("MT2024", e.loc, absl::StrCat("type annotations needed: ", what), help).end =
        NameEnd(e.loc, e.text.empty() ? std::string("default") : e.text);
    return true;
  };
  auto refuse = [&](const std::string& what, const std::string& help) {
    if (failed_) return true;
    failed_ = true;
    diags_.Error("MT2023", e.loc, what, help).end =
        NameEnd(e.loc, e.text.empty() ? std::string("default") : e.text);
    return true;
  };
  const TypeId target = t_.Find(d.target);
  const TNode tn = t_.At(target);
  if (tn.kind == TK::kVar) {
    if (!final) return false;
    if (d.kind == DirectedCall::kCollect)
      return annotate(
          "`collect` builds a `Vec`, `Str`, `Map`, `Option` or `Result`, and nothing here says "
          "which",
          "annotate the binding (`let v: Vec[I64] = ...`) or write a turbofish "
          "(`collect::[Vec[I64]]()`)");
    if (d.kind == DirectedCall::kParse)
      return annotate("`parse` needs the type to read",
                      "write it as a turbofish (`s.parse::[I64]()`) or annotate the binding");
    if (d.kind == DirectedCall::kInto)
      return annotate("`into` converts to the type wanted, and nothing here says which",
                      "annotate the binding (`let x: I64 = y.into()`)");
    return annotate("`Default::default()` needs the type whose default it is",
                    "annotate the binding (`let c: Config = Default::default()`)");
  }
  if (t_.IsLoose(target) || tn.kind == TK::kNever) return true;
  switch (d.kind) {
    case DirectedCall::kCollect: return SettleCollect(target, d.from, e, final);
    case DirectedCall::kParse: {
      if (tn.kind == TK::kIntVar) {
        if (!final) return false;
        t_.Unify(target, t_.Int("I64"));
        return true;
      }
      if (tn.kind == TK::kInt || tn.kind == TK::kFloat || tn.kind == TK::kFloatVar ||
          tn.kind == TK::kBool || tn.kind == TK::kChar || tn.kind == TK::kStr)
        return true;
      return refuse(absl::StrCat("`", t_.Show(target), "` cannot be parsed from a string"),
                    "`parse` reads integers, floats, `Bool`, `Char` and `Str`");
    }
    case DirectedCall::kInto: {
      TypeId from = t_.Find(d.from);
      const TNode fn = t_.At(from);
      if (fn.kind == TK::kVar) {
        if (!final) return false;
        t_.Unify(from, target);
        return true;
      }
      if (t_.IsLoose(from)) return true;
      if (tn.kind == TK::kAdt && tn.name != "Option" && tn.name != "Result") {
        // A user `impl From[X] for T`: its `from` takes the value.
        if (auto m = methods_.find(tn.name); m != methods_.end())
          if (auto f = m->second.find("from");
              f != m->second.end() && !f->second.has_self && f->second.params.size() == 1) {
            std::vector<TypeId> ps;
            Instantiate(f->second, target, &ps, e.loc);
            if (t_.Unify(from, ps[0])) return true;
            return refuse(absl::StrCat("the trait bound `", t_.Show(target), ": From[",
                                       t_.Show(from), "]` is not satisfied"),
                          absl::StrCat("`", tn.name, "::from` takes `", t_.Show(ps[0]), "`"));
          }
      }
      if (tn.kind == TK::kAdt && tn.name == "Option" && !tn.args.empty() &&
          t_.Fits(from, tn.args[0])) {
        t_.Unify(from, tn.args[0]);
        return true;
      }
      const TK fk = fn.kind;
      if (fk == TK::kIntVar && (tn.kind == TK::kInt || tn.kind == TK::kFloat)) {
        t_.Unify(from, tn.kind == TK::kInt ? target : t_.Int("I32"));
        return true;
      }
      if (fk == TK::kInt && tn.kind == TK::kInt && IntWidens(fn.name, tn.name)) return true;
      if (fk == TK::kInt && tn.kind == TK::kFloat &&
          (fn.name == "I8" || fn.name == "I16" || fn.name == "I32" || fn.name == "U8" ||
           fn.name == "U16" || fn.name == "U32"))
        return true;
      if ((fk == TK::kFloat || fk == TK::kFloatVar) && tn.kind == TK::kFloat) return true;
      if ((fk == TK::kStr || fk == TK::kChar) && tn.kind == TK::kStr) return true;
      if (fk == TK::kChar && tn.kind == TK::kInt && (tn.name == "U32" || tn.name == "U64"))
        return true;
      if (fk == TK::kBool && tn.kind == TK::kInt) return true;
      if (t_.Fits(from, target) && fk == tn.kind && fk != TK::kInt) {
        t_.Unify(from, target);
        return true;
      }
      return refuse(absl::StrCat("the trait bound `", t_.Show(target), ": From[", t_.Show(from),
                                 "]` is not satisfied"),
                    fk == TK::kInt && tn.kind == TK::kFloat
                        ? "an integer this wide may lose precision as a float: write `as F64`"
                        : "convert it explicitly (`as`, `to_str()`), or `impl From[..] for` the "
                          "type");
    }
    case DirectedCall::kDefault: {
      if (tn.kind == TK::kIntVar || tn.kind == TK::kFloatVar) {
        if (!final) return false;
        return true;
      }
      if (HasDefault(target)) {
        // The default of a generic parameter's type is known per instantiation.
        if (!d.fn.empty() && t_.HasParam(target)) info_.per_type.insert(d.fn);
        return true;
      }
      return refuse(
          absl::StrCat("the trait bound `", t_.Show(target), ": Default` is not satisfied"),
          tn.kind == TK::kAdt ? absl::StrCat("add `#[derive(Default)]` to `", tn.name,
                                             "` or `impl Default for ", tn.name, "`")
                              : "this type has no default value");
    }
  }
  return true;
}

bool Checker::SettleCollect(TypeId target, TypeId elem, const Expr& e, bool final) {
  target = t_.Find(target);
  const TNode tn = t_.At(target);
  auto refuse = [&] {
    if (failed_) return true;
    failed_ = true;
    diags_
        .Error("MT2023", e.loc,
               absl::StrCat("a value of type `", t_.Show(target),
                            "` cannot be built from an iterator over elements of type `",
                            t_.Show(elem), "`"),
               "`collect` builds a `Vec` of the elements, a `Str` of chars or strings, a `Map` "
               "of pairs, and an `Option`/`Result` of one of those from Options/Results")
        .end = NameEnd(e.loc, e.text);
    return true;
  };
  switch (tn.kind) {
    case TK::kVar:
      return final ? SettleDirected(DirectedCall{DirectedCall::kCollect, target, elem, &e, cur_fn_},
                                    true)
                   : false;
    case TK::kDyn:
    case TK::kErr: return true;
    case TK::kArray:
      if (!t_.Unify(tn.args[0], elem)) return refuse();
      return true;
    case TK::kStr: {
      const TK ek = t_.Kind(elem);
      if (ek == TK::kVar) t_.Unify(elem, t_.Prim(TK::kChar));
      if (ek == TK::kVar || ek == TK::kChar || ek == TK::kStr || t_.IsLoose(elem)) return true;
      return refuse();
    }
    case TK::kMap:
      if (!t_.Unify(elem, t_.Tuple({tn.args[0], tn.args[1]}))) return refuse();
      return true;
    case TK::kAdt:
      if ((tn.name == "Option" && tn.args.size() == 1) ||
          (tn.name == "Result" && tn.args.size() == 2)) {
        std::vector<TypeId> inner_args{t_.Var(e.loc)};
        if (tn.name == "Result") inner_args.push_back(tn.args[1]);
        TypeId wrapped = t_.Adt(tn.name, inner_args);
        if (!t_.Unify(elem, wrapped)) return refuse();
        TypeId inner = t_.Find(tn.args[0]);
        if (t_.Kind(inner) == TK::kVar && !final) return false;
        return SettleCollect(inner, inner_args[0], e, final);
      }
      // A std collection (lower_std.cc) of its elements, a BTreeMap of pairs.
      if (g_.std_types.count(tn.name) && (tn.args.size() == 1 || tn.args.size() == 2)) {
        TypeId want = tn.args.size() == 1 ? tn.args[0] : t_.Tuple({tn.args[0], tn.args[1]});
        return t_.Unify(elem, want) ? true : refuse();
      }
      return refuse();
    default: return refuse();
  }
}

bool Checker::HasDefault(TypeId t, int depth) {
  if (depth > 32) return false;
  t = t_.Find(t);
  const TNode n = t_.At(t);
  if (IsScalar(n.kind)) return true;
  switch (n.kind) {
    case TK::kStr:
    case TK::kDuration:
    case TK::kSize:
    case TK::kArray:
    case TK::kMap:
    case TK::kDyn:
    case TK::kErr: return true;
    case TK::kTuple:
      for (TypeId a : n.args)
        if (!HasDefault(a, depth + 1)) return false;
      return true;
    case TK::kParam: {
      auto g = generics_.find(n.name);
      if (g == generics_.end()) return false;
      for (const std::string& b : g->second)
        if (b == "Default") return true;
      return false;
    }
    case TK::kAdt:
      if (n.name == "Option") return true;
      if (auto m = methods_.find(n.name); m != methods_.end())
        if (auto f = m->second.find("default"); f != m->second.end() && !f->second.has_self)
          return true;
      return g_.derives_default.count(n.name) > 0;
    default: return false;
  }
}

void Checker::SettleAll() {
  // Settling one call may tell another's type (`parse().unwrap().into()`):
  // passes until nothing changes, then what is left is reported.
  // Each pass may settle one call only (a chain whose types flow
  // backwards): the passes are bounded by their total work, after which
  // what is left is reported as not fixed.
  size_t work = 0;
  for (bool progress = true; progress && !directed_.empty() && work < kMaxDirectedWork;) {
    work += directed_.size();
    progress = false;
    std::vector<DirectedCall> left;
    for (const DirectedCall& d : directed_)
      if (SettleDirected(d, false))
        progress = true;
      else
        left.push_back(d);
    directed_.swap(left);
  }
  for (const DirectedCall& d : directed_) SettleDirected(d, true);
  directed_.clear();
}

}  // namespace mty::frontend::tc
