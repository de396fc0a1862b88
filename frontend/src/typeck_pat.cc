// The type checker: patterns, and the exhaustiveness and usefulness of
// `match` arms and `let` patterns (Maranget's algorithm over constructors).
#include <algorithm>
#include <cctype>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "typeck.h"

namespace mty::frontend::tc {

const AdtInfo* Checker::VariantOf(const std::vector<PathSeg>& path, TypeId scrutinee,
                                  size_t* index) {
  size_t ignored = 0;
  if (!index) index = &ignored;
  if (path.empty()) return nullptr;
  const std::string& v = path.back().name;
  auto find_in = [&](const AdtInfo& a) -> bool {
    if (!a.is_enum) return false;
    for (size_t i = 0; i < a.variants.size(); ++i)
      if (a.variants[i].name == v) {
        *index = i;
        return true;
      }
    return false;
  };
  if (path.size() >= 2) {
    std::string owner = path[path.size() - 2].name;
    if (owner == "Self" && has_self_ && t_.Kind(self_ty_) == TK::kAdt) owner = t_.At(self_ty_).name;
    if (auto al = aliases_.find(owner); al != aliases_.end()) {
      TypeId t = FromType(al->second->type);
      if (t_.Kind(t) == TK::kAdt) owner = t_.At(t).name;
    }
    auto it = adts_.find(owner);
    if (it != adts_.end() && find_in(it->second)) return &it->second;
    return nullptr;
  }
  // A bare name: the scrutinee's enum first, then the one enum that has it.
  TypeId s = t_.Find(scrutinee);
  if (t_.Kind(s) == TK::kAdt) {
    auto it = adts_.find(t_.At(s).name);
    if (it != adts_.end() && find_in(it->second)) return &it->second;
  }
  // The one enum that has a variant of that name (an index, not a scan).
  auto owners = variant_owners_.find(v);
  if (owners == variant_owners_.end()) return nullptr;
  std::string owner = owners->second[0];
  if (owners->second.size() != 1) {  // two enums have it: `use E::*` picks one
    auto u = g_.variant_uses.find(v);
    if (u == g_.variant_uses.end()) return nullptr;
    owner = u->second;
  }
  const AdtInfo& a = adts_.at(owner);
  return find_in(a) ? &a : nullptr;
}

void Checker::Pattern_(const Pattern& p, TypeId t, bool is_let) {
  using PK = Pattern::Kind;
  const TypeId dyn = t_.Prim(TK::kDyn);
  auto expect = [&](TypeId found) {
    if (!t_.Unify(found, t)) Mismatch("MT2023", p.loc, {}, t, found, "the value matched");
  };
  switch (p.kind) {
    case PK::kWild: return;
    case PK::kBind: {
      // A bare name that is a unit variant in scope is a variant pattern.
      std::vector<PathSeg> path = {PathSeg{p.name, p.loc}};
      size_t vi = 0;
      if (p.subs.empty() && !p.is_mut)
        if (const AdtInfo* a = VariantOf(path, t, &vi); a && a->variants[vi].fields.empty()) {
          std::vector<TypeId> args;
          for (size_t i = 0; i < a->generics.size(); ++i) args.push_back(t_.Var(p.loc));
          expect(t_.Adt(a->name, std::move(args)));
          return;
        }
      Bind(p.name, t, p.is_mut || !is_let || true);
      if (!p.subs.empty() && p.subs[0]) Pattern_(*p.subs[0], t, is_let);
      return;
    }
    case PK::kLit:
    case PK::kRange: {
      const Expr* lit = p.lit ? p.lit.get() : p.hi.get();
      if (!lit) return;
      const Expr* x = lit;
      if (x->kind == Expr::Kind::kUnary && x->lhs) x = x->lhs.get();
      TypeId lt = dyn;
      switch (x->kind) {
        case Expr::Kind::kInt: lt = t_.IntVar(p.loc); break;
        case Expr::Kind::kFloat: lt = t_.FloatVar(p.loc); break;
        case Expr::Kind::kStr: lt = t_.Prim(TK::kStr); break;
        case Expr::Kind::kChar: lt = t_.Prim(TK::kChar); break;
        case Expr::Kind::kBool: lt = t_.Prim(TK::kBool); break;
        default: break;
      }
      expect(lt);
      return;
    }
    case PK::kTuple: {
      TypeId s = t_.Find(t);
      if (t_.Kind(s) == TK::kTuple && t_.At(s).args.size() == p.subs.size()) {
        std::vector<TypeId> args = t_.At(s).args;
        for (size_t i = 0; i < p.subs.size(); ++i) Pattern_(*p.subs[i], args[i], is_let);
        return;
      }
      std::vector<TypeId> els;
      for (size_t i = 0; i < p.subs.size(); ++i) els.push_back(t_.Var(p.loc));
      if (t_.IsLoose(s))
        els.assign(p.subs.size(), dyn);
      else
        expect(t_.Tuple(els));
      for (size_t i = 0; i < p.subs.size(); ++i) Pattern_(*p.subs[i], els[i], is_let);
      return;
    }
    case PK::kVariant:
    case PK::kStruct: {
      size_t vi = 0;
      const AdtInfo* a = nullptr;
      if (p.path.size() == 1)
        if (auto it = adts_.find(p.path[0].name); it != adts_.end() && !it->second.is_enum)
          a = &it->second;
      if (!a) a = VariantOf(p.path, t, &vi);
      if (!a || vi >= a->variants.size()) {
        for (const PatPtr& s : p.subs)
          if (s) Pattern_(*s, dyn, is_let);
        return;
      }
      std::vector<TypeId> args;
      TypeId s = t_.Find(t);
      if (t_.Kind(s) == TK::kAdt && t_.At(s).name == a->name &&
          t_.At(s).args.size() == a->generics.size()) {
        args = t_.At(s).args;
      } else {
        for (size_t i = 0; i < a->generics.size(); ++i) args.push_back(t_.Var(p.loc));
        expect(t_.Adt(a->name, args));
      }
      const VariantInfo& v = a->variants[vi];
      for (size_t i = 0; i < p.subs.size(); ++i) {
        if (!p.subs[i]) continue;
        TypeId ft = dyn;
        if (p.kind == PK::kStruct && i < p.field_names.size()) {
          for (size_t k = 0; k < v.field_names.size(); ++k)
            if (v.field_names[k] == p.field_names[i]) ft = t_.Subst(v.fields[k], a->generics, args);
        } else if (i < v.fields.size()) {
          ft = t_.Subst(v.fields[i], a->generics, args);
        }
        Pattern_(*p.subs[i], ft, is_let);
      }
      return;
    }
    case PK::kOr:
    case PK::kRef:
      for (const PatPtr& s : p.subs)
        if (s) Pattern_(*s, t, is_let);
      return;
    case PK::kSlice: {
      TypeId s = t_.Find(t);
      TypeId el = t_.Var(p.loc);
      if (t_.Kind(s) == TK::kArray)
        el = t_.At(s).args[0];
      else if (t_.IsLoose(s))
        el = dyn;
      else
        expect(t_.Array(el));
      for (size_t i = 0; i < p.subs.size(); ++i) {
        if (!p.subs[i]) continue;
        Pattern_(*p.subs[i], static_cast<int>(i) == p.rest_index ? t_.Array(el) : el, is_let);
      }
      return;
    }
  }
}

// ------------------------------------------------------ exhaustiveness ----

namespace {

// A pattern reduced to what exhaustiveness needs: a wildcard, or a
// constructor (a variant, `true`/`false`, a tuple or struct, a literal)
// with its fields.
struct DPat {
  bool wild = true;
  int ctor = 0;  // finite types: the constructor's index; infinite: the literal's id
  std::vector<DPat> subs;
  // Integers and chars: the values matched, lo..=hi (a literal is one value).
  bool interval = false;
  __int128 lo = 0, hi = 0;
  std::string adt;  // a variant's enum (for a value whose type is not known: `Any`)
};

// The values of an integer or char type, for range patterns; false for another type.
bool Domain(Types& t, TypeId ty, __int128* lo, __int128* hi) {
  const TNode& n = t.At(ty);
  if (n.kind == TK::kChar) {
    *lo = 0;
    *hi = 0x10FFFF;
    return true;
  }
  if (n.kind == TK::kIntVar) return IntTypeRange("I64", lo, hi);
  if (n.kind == TK::kInt) return IntTypeRange(n.name, lo, hi);
  return false;
}

// The value of a literal pattern's expression (`5`, `-3`, `'a'`).
bool LitValue(const Expr* x, __int128* v) {
  if (!x) return false;
  if (x->kind == Expr::Kind::kChar) {
    *v = x->int_value;
    return true;
  }
  // `I64::MIN`, `U8::MAX`, `i32::MAX`.
  if (x->kind == Expr::Kind::kPath && x->segs.size() == 2) {
    std::string n = x->segs[0].name;
    if (!n.empty()) n[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(n[0])));
    if (n == "Isize") n = "ISize";
    if (n == "Usize") n = "USize";
    __int128 lo = 0, hi = 0;
    if (!IntTypeRange(n, &lo, &hi)) return false;
    if (x->segs[1].name == "MIN")
      *v = lo;
    else if (x->segs[1].name == "MAX")
      *v = hi;
    else
      return false;
    return true;
  }
  return IntLiteralValue(*x, v);
}

// The constructors of a type, for the algorithm.
struct CtorSet {
  bool finite = false;
  std::vector<std::string> names;                // finite: each constructor's name
  std::vector<std::vector<TypeId>> fields;       // finite: its fields' types
  std::vector<std::vector<std::string>> fnames;  // struct-like fields, for printing
  bool tuple = false;                            // print as `(a, b)`
  bool is_struct = false;
};

}  // namespace

struct PatternMatrix {
  PatternMatrix(Checker& checker, Types& types) : c(checker), t(types) {}
  Checker& c;
  Types& t;
  std::map<std::string, int> literal_ids;  // literal text -> id (infinite types)
  bool approx = false;  // a pattern the algorithm cannot follow (ranges, slices, floats)
  int steps = 0;
  static constexpr int kMaxSteps = 200000;
  bool gave_up = false;

  CtorSet Ctors(TypeId ty) {
    CtorSet s;
    ty = t.Find(ty);
    const TNode n = t.At(ty);
    if (n.kind == TK::kBool) {
      s.finite = true;
      s.names = {"false", "true"};
      s.fields = {{}, {}};
    } else if (n.kind == TK::kUnit) {
      s.finite = true;
      s.names = {"()"};
      s.fields = {{}};
    } else if (n.kind == TK::kTuple) {
      s.finite = true;
      s.tuple = true;
      s.names = {""};
      s.fields = {n.args};
    } else if (n.kind == TK::kAdt && c.adts_.count(n.name)) {
      const AdtInfo& a = c.adts_.at(n.name);
      s.finite = true;
      s.is_struct = !a.is_enum;
      for (const VariantInfo& v : a.variants) {
        s.names.push_back(a.is_enum && n.name != "Option" && n.name != "Result"
                              ? n.name + "::" + v.name
                              : v.name);
        std::vector<TypeId> fs;
        for (TypeId f : v.fields) fs.push_back(t.Subst(f, a.generics, n.args));
        s.fields.push_back(std::move(fs));
        s.fnames.push_back(v.field_names);
      }
    }
    return s;
  }

  static DPat CtorPat(int ctor) {
    DPat d;
    d.wild = false;
    d.ctor = ctor;
    return d;
  }
  static DPat IntervalPat(__int128 lo, __int128 hi) {
    DPat d;
    d.wild = false;
    d.interval = true;
    d.lo = lo;
    d.hi = hi;
    return d;
  }
  // A pattern not followed: taken to match everything.
  void Unfollowed(std::vector<DPat>& out) {
    approx = true;
    out.push_back(DPat{});
  }

  // `p` against type `ty`, or-patterns expanded into `out` (each one a row's cell).
  void Lower(const Pattern& p, TypeId ty, std::vector<DPat>& out) {
    using PK = Pattern::Kind;
    if (out.size() > 64) return Unfollowed(out);
    switch (p.kind) {
      case PK::kWild: out.push_back(DPat{}); return;
      case PK::kBind: {
        std::vector<PathSeg> path = {PathSeg{p.name, p.loc}};
        size_t vi = 0;
        if (p.subs.empty() && !p.is_mut)
          if (const AdtInfo* a = c.VariantOf(path, ty, &vi); a && a->variants[vi].fields.empty()) {
            out.push_back(CtorPat(static_cast<int>(vi)));
            return;
          }
        if (!p.subs.empty() && p.subs[0]) return Lower(*p.subs[0], ty, out);
        out.push_back(DPat{});
        return;
      }
      case PK::kLit: return LowerLit(p.lit.get(), ty, out);
      case PK::kRange: {
        __int128 lo = 0, hi = 0;
        if (!Domain(t, ty, &lo, &hi)) return Opaque(out);
        if (p.lit && !LitValue(p.lit.get(), &lo)) return Opaque(out);
        if (p.hi) {
          if (!LitValue(p.hi.get(), &hi)) return Opaque(out);
          if (!p.inclusive) --hi;
        }
        out.push_back(IntervalPat(lo, hi));
        return;
      }
      case PK::kSlice: has_slice = true; return Opaque(out);
      case PK::kRef:
        if (!p.subs.empty() && p.subs[0]) return Lower(*p.subs[0], ty, out);
        out.push_back(DPat{});
        return;
      case PK::kOr:
        for (const PatPtr& s : p.subs)
          if (s) Lower(*s, ty, out);
        return;
      case PK::kTuple:
      case PK::kVariant:
      case PK::kStruct: return LowerCtor(p, ty, out);
    }
  }

  // A literal `x`: an interval of one value (integers, chars), `true` or
  // `false`, else a constructor of its own (its text).
  void LowerLit(const Expr* x, TypeId ty, std::vector<DPat>& out) {
    __int128 v = 0, dlo = 0, dhi = 0;
    if (Domain(t, ty, &dlo, &dhi) && LitValue(x, &v)) {
      out.push_back(IntervalPat(v, v));
      return;
    }
    if (x && x->kind == Expr::Kind::kBool) {
      out.push_back(CtorPat(x->int_value ? 1 : 0));
      return;
    }
    if (!x || x->kind == Expr::Kind::kFloat) approx = true;
    std::string key = x ? absl::StrCat(static_cast<int>(x->kind), ":", x->text, ":", x->int_value,
                                       ":", x->kind == Expr::Kind::kUnary ? "-" : "")
                        : "?";
    if (x && x->kind == Expr::Kind::kUnary && x->lhs)
      key = absl::StrCat("-", x->lhs->int_value, x->lhs->text);
    auto [it, fresh] = literal_ids.emplace(key, static_cast<int>(literal_ids.size()));
    (void)fresh;
    out.push_back(CtorPat(it->second));
  }

  // A tuple, variant or struct pattern: its constructor and the cartesian
  // product of its fields' alternatives.
  void LowerCtor(const Pattern& p, TypeId ty, std::vector<DPat>& out) {
    using PK = Pattern::Kind;
    if (p.kind != PK::kTuple && (t.IsLoose(ty) || t.IsVar(ty))) ty = Typed(p.path, ty);
    if (p.kind == PK::kTuple && (t.IsLoose(ty) || t.IsVar(ty)))
      ty = t.Tuple(std::vector<TypeId>(p.subs.size(), t.Prim(TK::kDyn)));
    CtorSet cs = Ctors(ty);
    int ctor = 0;
    if (p.kind != PK::kTuple) {
      size_t vi = 0;
      bool found = false;
      if (cs.is_struct) {
        found = true;
      } else if (const AdtInfo* va = c.VariantOf(p.path, ty, &vi); va && t.Kind(ty) == TK::kAdt &&
                                                                   va->name == t.At(ty).name &&
                                                                   vi < cs.fields.size()) {
        ctor = static_cast<int>(vi);
        found = true;
      }
      // A variant the checker does not know (the lowering reports it if
      // it is wrong): taken to match everything, and not followed.
      if (!found || !cs.finite) return Unfollowed(out);
    } else if (!cs.finite || !cs.tuple) {
      return Opaque(out);
    }
    const size_t arity = cs.fields[ctor].size();
    // A wide or irrefutable constructor: every field a binding or `_`
    // (the common `let Big(a, .., z) = b`) matches everything.
    bool trivial = true;
    for (const PatPtr& sp : p.subs)
      trivial = trivial && sp &&
                (sp->kind == PK::kWild ||
                 (sp->kind == PK::kBind && sp->subs.empty() &&
                  !c.VariantOf({PathSeg{sp->name, sp->loc}}, t.Prim(TK::kDyn), nullptr)));
    if (cs.fields.size() == 1 && trivial) {
      out.push_back(DPat{});
      return;
    }
    if (arity > 32) return Unfollowed(out);
    // Fields in declaration order (struct patterns name theirs).
    std::vector<const Pattern*> cells(arity, nullptr);
    if (p.kind == PK::kStruct) {
      for (size_t i = 0; i < p.subs.size() && i < p.field_names.size(); ++i)
        for (size_t k = 0; k < arity && k < cs.fnames[ctor].size(); ++k)
          if (cs.fnames[ctor][k] == p.field_names[i]) cells[k] = p.subs[i].get();
    } else {
      for (size_t i = 0; i < p.subs.size() && i < arity; ++i) cells[i] = p.subs[i].get();
    }
    // The cartesian product of the fields' alternatives.
    std::vector<DPat> acc(1, CtorPat(ctor));
    acc[0].adt = t.Kind(ty) == TK::kAdt ? t.At(ty).name : "";
    for (size_t k = 0; k < arity; ++k) {
      std::vector<DPat> alts;
      if (cells[k])
        Lower(*cells[k], cs.fields[ctor][k], alts);
      else
        alts.push_back(DPat{});
      std::vector<DPat> next;
      for (const DPat& a : acc)
        for (const DPat& b : alts) {
          if (next.size() > 64) {
            approx = true;
            break;
          }
          DPat x = a;
          x.subs.push_back(b);
          next.push_back(std::move(x));
        }
      acc = std::move(next);
    }
    for (DPat& d : acc) out.push_back(std::move(d));
  }

  // The type a variant pattern names (`Some(_)` on an `Any`): its enum with
  // `Any` arguments.
  TypeId Typed(const std::vector<PathSeg>& path, TypeId ty) {
    size_t vi = 0;
    const AdtInfo* a = c.VariantOf(path, ty, &vi);
    if (!a) {
      if (path.size() == 1)
        if (auto it = c.adts_.find(path[0].name); it != c.adts_.end()) a = &it->second;
      if (!a) return ty;
    }
    return t.Adt(a->name, std::vector<TypeId>(a->generics.size(), t.Prim(TK::kDyn)));
  }
  TypeId TypedByAdt(const std::string& adt) {
    auto it = c.adts_.find(adt);
    if (it == c.adts_.end()) return t.Prim(TK::kDyn);
    return t.Adt(adt, std::vector<TypeId>(it->second.generics.size(), t.Prim(TK::kDyn)));
  }

  using Row = std::vector<DPat>;
  bool has_slice = false;  // slice patterns: their lengths are not followed

  // A pattern the algorithm does not follow: a constructor of its own that
  // matches nothing else (it covers no value of the type for certain).
  void Opaque(std::vector<DPat>& out) {
    approx = true;
    DPat d;
    d.wild = false;
    d.ctor = -2 - opaque_++;
    out.push_back(d);
  }
  int opaque_ = 0;

  // A row specialised by constructor `ctor` of `arity` fields; false when it does not match.
  static bool Specialize(const Row& r, int ctor, size_t arity, Row* out) {
    const DPat& h = r[0];
    out->clear();
    if (h.wild) {
      out->assign(arity, DPat{});
    } else {
      if (h.ctor != ctor) return false;
      *out = h.subs;
      out->resize(arity);
    }
    out->insert(out->end(), r.begin() + 1, r.end());
    return true;
  }

  // A witness (a value no row matches) for `q` against `rows`, when there is one.
  std::optional<Row> Useful(const std::vector<Row>& rows, const Row& q,
                            const std::vector<TypeId>& tys) {
    if (++steps > kMaxSteps) {
      gave_up = true;
      return std::nullopt;
    }
    if (q.empty()) return rows.empty() ? std::optional<Row>(Row{}) : std::nullopt;
    TypeId col = tys[0];
    if (t.IsLoose(col) || t.IsVar(col)) {
      std::string adt = q[0].adt;
      for (const Row& r : rows)
        if (adt.empty()) adt = r[0].adt;
      if (!adt.empty()) col = TypedByAdt(adt);
    }
    std::vector<TypeId> tys_here = tys;
    tys_here[0] = col;
    return UsefulAt(rows, q, tys_here);
  }

  std::optional<Row> UsefulAt(const std::vector<Row>& rows, const Row& q,
                              const std::vector<TypeId>& tys) {
    CtorSet cs = Ctors(tys[0]);
    std::vector<TypeId> rest_tys(tys.begin() + 1, tys.end());
    auto spec_all = [&](int ctor, size_t arity, std::vector<Row>* out_rows, Row* out_q) {
      out_rows->clear();
      Row tmp;
      for (const Row& r : rows)
        if (Specialize(r, ctor, arity, &tmp)) out_rows->push_back(tmp);
      return Specialize(q, ctor, arity, out_q);
    };
    auto fields_tys = [&](int ctor) {
      std::vector<TypeId> ft = cs.finite ? cs.fields[ctor] : std::vector<TypeId>{};
      ft.insert(ft.end(), rest_tys.begin(), rest_tys.end());
      return ft;
    };
    auto rebuild = [&](int ctor, size_t arity, const Row& w) {
      DPat d;
      d.wild = false;
      d.ctor = ctor;
      d.adt = t.Kind(tys[0]) == TK::kAdt ? t.At(tys[0]).name : "";
      d.subs.assign(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(arity));
      Row out = {d};
      out.insert(out.end(), w.begin() + static_cast<std::ptrdiff_t>(arity), w.end());
      return out;
    };
    // Integers and chars: the values q's head stands for, split where a
    // row's range starts or ends; each piece is a constructor of its own.
    __int128 dlo = 0, dhi = 0;
    bool ranged = (q[0].wild || q[0].interval) && Domain(t, tys[0], &dlo, &dhi);
    for (const Row& r : rows) ranged = ranged && (r[0].wild || r[0].interval);
    if (ranged) {
      __int128 lo = q[0].wild ? dlo : q[0].lo, hi = q[0].wild ? dhi : q[0].hi;
      std::set<__int128> cuts = {lo, hi + 1};
      for (const Row& r : rows)
        if (r[0].interval) {
          if (r[0].lo > lo && r[0].lo <= hi) cuts.insert(r[0].lo);
          if (r[0].hi + 1 > lo && r[0].hi + 1 <= hi) cuts.insert(r[0].hi + 1);
        }
      const bool is_char = t.At(tys[0]).kind == TK::kChar;
      for (auto it = cuts.begin(); std::next(it) != cuts.end(); ++it) {
        const __int128 a = *it, b = *std::next(it) - 1;
        if (is_char && a >= 0xD800 && b <= 0xDFFF) continue;  // surrogates are no chars
        std::vector<Row> r2;
        for (const Row& r : rows)
          if (r[0].wild || (r[0].lo <= a && b <= r[0].hi)) r2.emplace_back(r.begin() + 1, r.end());
        auto w = Useful(r2, Row(q.begin() + 1, q.end()), rest_tys);
        if (gave_up) return std::nullopt;
        if (w) {
          DPat d;
          d.wild = false;
          d.interval = true;
          d.lo = a;
          d.hi = b;
          Row out = {d};
          out.insert(out.end(), w->begin(), w->end());
          return out;
        }
      }
      return std::nullopt;
    }
    if (!q[0].wild) {
      const size_t arity =
          cs.finite && q[0].ctor >= 0 && static_cast<size_t>(q[0].ctor) < cs.fields.size()
              ? cs.fields[q[0].ctor].size()
              : q[0].subs.size();
      std::vector<Row> r2;
      Row q2;
      spec_all(q[0].ctor, arity, &r2, &q2);
      std::vector<TypeId> ft = cs.finite ? fields_tys(q[0].ctor) : rest_tys;
      if (!cs.finite) ft.insert(ft.begin(), arity, t.Prim(TK::kDyn));
      auto w = Useful(r2, q2, ft);
      if (!w) return std::nullopt;
      return rebuild(q[0].ctor, arity, *w);
    }
    std::set<int> seen;
    for (const Row& r : rows)
      if (!r[0].wild && r[0].ctor >= 0) seen.insert(r[0].ctor);
    if (cs.finite && seen.size() == cs.names.size() && !cs.names.empty()) {
      for (size_t k = 0; k < cs.names.size(); ++k) {
        std::vector<Row> r2;
        Row q2;
        spec_all(static_cast<int>(k), cs.fields[k].size(), &r2, &q2);
        auto w = Useful(r2, q2, fields_tys(static_cast<int>(k)));
        if (w) return rebuild(static_cast<int>(k), cs.fields[k].size(), *w);
        if (gave_up) return std::nullopt;
      }
      return std::nullopt;
    }
    std::vector<Row> d;
    for (const Row& r : rows)
      if (r[0].wild) d.emplace_back(r.begin() + 1, r.end());
    Row q2(q.begin() + 1, q.end());
    auto w = Useful(d, q2, rest_tys);
    if (!w) return std::nullopt;
    DPat missing;  // `_`, or a constructor no row names
    if (cs.finite && !seen.empty())
      for (size_t k = 0; k < cs.names.size(); ++k)
        if (!seen.count(static_cast<int>(k))) {
          missing.wild = false;
          missing.ctor = static_cast<int>(k);
          missing.adt = t.Kind(tys[0]) == TK::kAdt ? t.At(tys[0]).name : "";
          missing.subs.assign(cs.fields[k].size(), DPat{});
          break;
        }
    Row out = {missing};
    out.insert(out.end(), w->begin(), w->end());
    return out;
  }

  std::string Show(const DPat& d, TypeId ty, int depth = 0) {
    if (d.wild || depth > 8) return "_";
    if ((t.IsLoose(ty) || t.IsVar(ty)) && !d.adt.empty()) ty = TypedByAdt(d.adt);
    if (d.interval) {
      const bool is_char = t.At(ty).kind == TK::kChar;
      __int128 dlo = 0, dhi = 0;
      Domain(t, ty, &dlo, &dhi);
      const std::string tn = t.Show(ty) == "{integer}" ? "I64" : t.Show(ty);
      auto one = [&](__int128 v) -> std::string {
        if (is_char)
          return v < 0x80 && v >= 0x20
                     ? absl::StrCat("'", std::string(1, static_cast<char>(v)), "'")
                     : absl::StrCat("'\\u{", absl::Hex(static_cast<uint64_t>(v)), "}'");
        if (v == dlo && v != 0) return tn + "::MIN";
        if (v == dhi) return tn + "::MAX";
        return v < 0 ? absl::StrCat("-", static_cast<uint64_t>(-v))
                     : absl::StrCat(static_cast<uint64_t>(v));
      };
      if (d.lo == d.hi) return one(d.lo);
      return one(d.lo) + "..=" + one(d.hi);
    }
    CtorSet cs = Ctors(ty);
    if (!cs.finite || d.ctor < 0 || static_cast<size_t>(d.ctor) >= cs.names.size()) return "_";
    const auto& fs = cs.fields[d.ctor];
    std::vector<std::string> parts;
    for (size_t i = 0; i < fs.size(); ++i)
      parts.push_back(i < d.subs.size() ? Show(d.subs[i], fs[i], depth + 1) : "_");
    if (cs.tuple) return "(" + absl::StrJoin(parts, ", ") + (parts.size() == 1 ? ",)" : ")");
    std::string name = cs.names[d.ctor];
    if (fs.empty()) return name;
    const auto& fn = cs.fnames[d.ctor];
    if (!fn.empty()) {
      std::vector<std::string> named;
      for (size_t i = 0; i < parts.size() && i < fn.size(); ++i)
        named.push_back(fn[i] + ": " + parts[i]);
      return name + " { " + absl::StrJoin(named, ", ") + " }";
    }
    return name + "(" + absl::StrJoin(parts, ", ") + ")";
  }
};

void Checker::CheckMatch(const Expr& e, TypeId scrutinee) {
  if (failed_) return;
  PatternMatrix pm{*this, t_};
  std::vector<PatternMatrix::Row> rows;
  const std::vector<TypeId> tys = {scrutinee};
  std::vector<bool> approx_arm;
  for (const MatchArm& arm : e.more->arms) {
    std::vector<DPat> cells;
    pm.approx = false;
    pm.Lower(*arm.pat, scrutinee, cells);
    const bool approx = pm.approx;
    // An arm no earlier arm leaves a value for is unreachable (a warning).
    if (!approx && !pm.gave_up) {
      bool useful = false;
      for (const DPat& c : cells)
        if (pm.Useful(rows, {c}, tys)) useful = true;
      if (!useful && !pm.gave_up)
        g_.Warn("MT8004", arm.pat->loc, "unreachable pattern",
                "an earlier arm matches every value this one does; remove it or move it up");
    }
    if (!arm.guard)
      for (DPat& c : cells) rows.push_back({std::move(c)});
  }
  if (pm.gave_up) return;
  // The values no arm matches: up to three, as rustc lists them.
  std::vector<std::string> missing;
  for (int i = 0; i < 3; ++i) {
    auto w = pm.Useful(rows, {DPat{}}, tys);
    if (!w || pm.gave_up) break;
    missing.push_back("`" + pm.Show((*w)[0], scrutinee) + "`");
    if ((*w)[0].wild) break;
    rows.push_back({(*w)[0]});
  }
  if (missing.empty() || pm.gave_up || pm.has_slice) return;
  failed_ = true;
  Diagnostic& d =
      diags_.Error("MT2031", e.lhs->begin.line ? e.lhs->begin : e.loc,
                   absl::StrCat("non-exhaustive patterns: ", absl::StrJoin(missing, ", "),
                                " not covered", missing.size() >= 3 ? " (and maybe more)" : ""),
                   absl::StrCat("add an arm for ", missing.size() == 1 ? "it" : "each",
                                ", or a wildcard arm `_ => ...`"));
  d.end = e.lhs->end;
  t_.Default(scrutinee);
  d.note = absl::StrCat("the matched value is of type `", t_.Show(scrutinee), "`");
}

void Checker::CheckIrrefutable(const Pattern& p, TypeId t, Loc at) {
  if (failed_) return;
  PatternMatrix pm{*this, t_};
  std::vector<DPat> cells;
  pm.Lower(p, t, cells);
  if (pm.approx) return;
  std::vector<PatternMatrix::Row> rows;
  for (DPat& c : cells) rows.push_back({std::move(c)});
  auto w = pm.Useful(rows, {DPat{}}, {t});
  if (!w || pm.gave_up) return;
  failed_ = true;
  diags_.Error("MT2031", at,
               absl::StrCat("refutable pattern in `let`: `", pm.Show((*w)[0], t), "` not covered"),
               "use `let ... else { ... }`, `if let` or `match` to handle the other case");
}

}  // namespace mty::frontend::tc
