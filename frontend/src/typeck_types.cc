// The type arena: inference variables, unification, printing.
#include "typeck_types.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace mty::frontend::tc {

Types::Types() {
  nodes_.reserve(1024);
  prims_.assign(static_cast<size_t>(TK::kDynTrait) + 1, 0);
  for (TK k : {TK::kDyn, TK::kErr, TK::kNever, TK::kFloat, TK::kBool, TK::kChar, TK::kStr,
               TK::kUnit, TK::kDuration, TK::kSize}) {
    prims_[static_cast<size_t>(k)] = static_cast<TypeId>(nodes_.size());
    TNode n;
    n.kind = k;
    nodes_.push_back(std::move(n));
  }
}

TypeId Types::Make(TK k, std::string name, std::vector<TypeId> args) {
  if (nodes_.size() >= kMaxTypeNodes) {
    exhausted = true;
    return Prim(TK::kErr);
  }
  TypeId id = static_cast<TypeId>(nodes_.size());
  TNode n;
  n.kind = k;
  n.link = id;
  n.name = std::move(name);
  n.args = std::move(args);
  nodes_.push_back(std::move(n));
  return id;
}

TypeId Types::Var(Loc origin) {
  TypeId v = Make(TK::kVar, "", {});
  if (!exhausted) nodes_[v].origin = origin;
  return v;
}
TypeId Types::IntVar(Loc origin) {
  TypeId v = Make(TK::kIntVar, "", {});
  if (!exhausted) nodes_[v].origin = origin;
  return v;
}
TypeId Types::FloatVar(Loc origin) {
  TypeId v = Make(TK::kFloatVar, "", {});
  if (!exhausted) nodes_[v].origin = origin;
  return v;
}
TypeId Types::Prim(TK k) { return prims_[static_cast<size_t>(k)]; }
TypeId Types::Int(const std::string& width) {
  return Make(TK::kInt, width.empty() || width == "Int" ? "I64" : width, {});
}
TypeId Types::Fn(std::vector<TypeId> params, TypeId ret) {
  params.push_back(ret);
  return Make(TK::kFn, "", std::move(params));
}

TypeId Types::Find(TypeId t) {
  // Path halving keeps chains short without recursion.
  while (true) {
    TNode& n = nodes_[t];
    if ((n.kind != TK::kVar && n.kind != TK::kIntVar && n.kind != TK::kFloatVar) || n.link == t)
      return t;
    TypeId up = n.link;
    TNode& u = nodes_[up];
    if ((u.kind == TK::kVar || u.kind == TK::kIntVar || u.kind == TK::kFloatVar) && u.link != up)
      n.link = u.link;
    t = up;
  }
}

bool Types::Occurs(TypeId var, TypeId t, int depth) {
  if (depth > kMaxTypeDepth || !Step()) return true;
  t = Find(t);
  if (t == var) return true;
  if (nodes_[t].args.empty() || !seen_.insert(t).second) return false;
  for (TypeId a : nodes_[t].args)
    if (Occurs(var, a, depth + 1)) return true;
  return false;
}

bool Types::Unify(TypeId a, TypeId b) {
  walk_ = 0;
  seen_.clear();
  return UnifyAt(a, b, 0);
}

bool Types::UnifyAt(TypeId a, TypeId b, int depth) {
  if (depth > kMaxTypeDepth) {
    too_deep = true;
    return false;
  }
  a = Find(a);
  b = Find(b);
  if (a == b) return true;
  TNode* na = &nodes_[a];
  TNode* nb = &nodes_[b];
  // A variable unified with `Any` (or after an error) becomes it: the
  // value is checked at run time, and nothing is left to infer.
  if ((na->kind == TK::kVar || na->kind == TK::kIntVar || na->kind == TK::kFloatVar) &&
      (nb->kind == TK::kDyn || nb->kind == TK::kErr)) {
    na->link = b;
    return true;
  }
  if ((nb->kind == TK::kVar || nb->kind == TK::kIntVar || nb->kind == TK::kFloatVar) &&
      (na->kind == TK::kDyn || na->kind == TK::kErr)) {
    nb->link = a;
    return true;
  }
  // A value that flows into `Any` leaves nothing to infer in its type.
  if (na->kind == TK::kDyn || na->kind == TK::kErr) {
    Absorb(b, a, depth);
    return true;
  }
  if (nb->kind == TK::kDyn || nb->kind == TK::kErr) {
    Absorb(a, b, depth);
    return true;
  }
  auto loose = [](TK k) { return k == TK::kDyn || k == TK::kErr || k == TK::kNever; };
  if (loose(na->kind) || loose(nb->kind)) return true;
  if (na->kind == TK::kVar || nb->kind == TK::kVar) {
    if (na->kind != TK::kVar) std::swap(a, b);
    // The occurs check has its own seen set (the pairs' is for unifying).
    std::unordered_set<uint64_t> pairs;
    pairs.swap(seen_);
    const bool occurs = Occurs(a, b, 0);
    seen_.swap(pairs);
    if (occurs) return false;
    nodes_[a].link = b;
    return true;
  }
  // A literal's variable binds to a type of its family.
  if (na->kind == TK::kIntVar || na->kind == TK::kFloatVar || nb->kind == TK::kIntVar ||
      nb->kind == TK::kFloatVar) {
    if (!(na->kind == TK::kIntVar || na->kind == TK::kFloatVar)) {
      std::swap(a, b);
      std::swap(na, nb);
    }
    if (na->kind == nb->kind) {
      na->link = b;
      return true;
    }
    TK want = na->kind == TK::kIntVar ? TK::kInt : TK::kFloat;
    if (nb->kind != want) return false;
    na->link = b;
    return true;
  }
  if (na->kind != nb->kind) return false;
  if (!Step()) return false;
  // A pair of shared nodes already being unified in this walk.
  if (!na->args.empty() && !seen_.insert((uint64_t{a} << 32) | b).second) return true;
  switch (na->kind) {
    case TK::kInt:
    case TK::kAgent:
    case TK::kCap:
    case TK::kParam:
    case TK::kDynTrait:
      if (na->name != nb->name) return false;
      break;
    case TK::kAdt:
      if (na->name != nb->name) return false;
      break;
    default: break;
  }
  if (na->args.size() != nb->args.size()) return false;
  bool ok = true;
  // Copies: unification below may grow nodes_.
  std::vector<TypeId> xa = na->args, xb = nb->args;
  for (size_t i = 0; i < xa.size(); ++i) ok = UnifyAt(xa[i], xb[i], depth + 1) && ok;
  return ok;
}

void Types::Absorb(TypeId t, TypeId dyn, int depth) {
  if (depth > kMaxTypeDepth || !Step()) return;
  t = Find(t);
  if (!nodes_[t].args.empty() && !seen_.insert(t).second) return;
  TNode& n = nodes_[t];
  if (n.kind == TK::kVar) {
    n.link = dyn;
    return;
  }
  std::vector<TypeId> args = n.args;
  for (TypeId a : args) Absorb(a, dyn, depth + 1);
}

bool Types::Fits(TypeId a, TypeId b) {
  struct Walk {
    Types& t;
    bool Go(TypeId a, TypeId b, int depth) {
      if (depth > kMaxTypeDepth || !t.Step()) return false;
      a = t.Find(a);
      b = t.Find(b);
      if (a == b) return true;
      const TNode& na = t.nodes_[a];
      const TNode& nb = t.nodes_[b];
      auto open = [](TK k) {
        return k == TK::kVar || k == TK::kDyn || k == TK::kErr || k == TK::kNever;
      };
      if (open(na.kind) || open(nb.kind)) return true;
      if (na.kind == TK::kIntVar) return nb.kind == TK::kInt || nb.kind == TK::kIntVar;
      if (nb.kind == TK::kIntVar) return na.kind == TK::kInt;
      if (na.kind == TK::kFloatVar) return nb.kind == TK::kFloat || nb.kind == TK::kFloatVar;
      if (nb.kind == TK::kFloatVar) return na.kind == TK::kFloat;
      if (na.kind != nb.kind || na.name != nb.name || na.args.size() != nb.args.size())
        return false;
      for (size_t i = 0; i < na.args.size(); ++i)
        if (!Go(na.args[i], nb.args[i], depth + 1)) return false;
      return true;
    }
  };
  walk_ = 0;
  return Walk{*this}.Go(a, b, 0);
}

std::string Types::Show(TypeId t) {
  std::string out;
  ShowAt(t, out, 0);
  return out;
}

void Types::ShowAt(TypeId t, std::string& out, int depth) {
  if (depth > 16 || out.size() > 160) {  // a message shows the type's outline
    out += "..";
    return;
  }
  t = Find(t);
  const TNode n = nodes_[t];  // a copy: nodes_ does not grow here, but keep it simple
  auto list = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
      if (i > from) out += ", ";
      ShowAt(n.args[i], out, depth + 1);
    }
  };
  // The kinds spelled the same whatever their name and parts.
  static constexpr std::pair<TK, const char*> kSpelled[] = {
      {TK::kVar, "_"},     {TK::kIntVar, "{integer}"}, {TK::kFloatVar, "{float}"},
      {TK::kDyn, "Any"},   {TK::kErr, "{error}"},      {TK::kNever, "Never"},
      {TK::kFloat, "F64"}, {TK::kBool, "Bool"},        {TK::kChar, "Char"},
      {TK::kStr, "Str"},   {TK::kUnit, "()"},          {TK::kDuration, "Duration"},
      {TK::kSize, "Size"}};
  for (const auto& [kind, text] : kSpelled)
    if (kind == n.kind) {
      out += text;
      return;
    }
  switch (n.kind) {
    case TK::kInt:
    case TK::kAgent:
    case TK::kCap:
    case TK::kParam: out += n.name; return;
    case TK::kDynTrait: out += "dyn " + n.name; return;
    case TK::kAdt:
      out += n.name;
      if (!n.args.empty()) {
        out += "[";
        list(0, n.args.size());
        out += "]";
      }
      return;
    case TK::kTuple:
      out += "(";
      list(0, n.args.size());
      out += n.args.size() == 1 ? ",)" : ")";
      return;
    case TK::kArray:
      out += "Vec[";
      list(0, 1);
      out += "]";
      return;
    case TK::kMap:
      out += "Map[";
      list(0, 2);
      out += "]";
      return;
    case TK::kFn:
      out += "fn(";
      list(0, n.args.size() - 1);
      out += ") -> ";
      ShowAt(n.args.back(), out, depth + 1);
      return;
    default: return;  // spelled above
  }
}

bool Types::Contains(TypeId t, TK kind, int depth) {
  if (depth == 0) {
    walk_ = 0;
    seen_.clear();
  }
  if (depth > kMaxTypeDepth || !Step()) return false;
  t = Find(t);
  if (nodes_[t].kind == kind) return true;
  if (nodes_[t].args.empty() || !seen_.insert(t).second) return false;
  std::vector<TypeId> args = nodes_[t].args;
  for (TypeId a : args)
    if (Contains(a, kind, depth + 1)) return true;
  return false;
}

void Types::Default(TypeId t, int depth) {
  if (depth == 0) {
    walk_ = 0;
    seen_.clear();
  }
  if (depth > kMaxTypeDepth || !Step()) return;
  t = Find(t);
  if (!nodes_[t].args.empty() && !seen_.insert(t).second) return;
  if (nodes_[t].kind == TK::kIntVar) {
    TypeId i = Int("I64");
    nodes_[Find(t)].link = i;
    return;
  }
  if (nodes_[t].kind == TK::kFloatVar) {
    nodes_[t].link = Prim(TK::kFloat);
    return;
  }
  std::vector<TypeId> args = nodes_[t].args;
  for (TypeId a : args) Default(a, depth + 1);
}

size_t Types::TreeSize(TypeId t, size_t cap) {
  std::unordered_map<TypeId, size_t> memo;
  struct Walk {
    Types& ty;
    std::unordered_map<TypeId, size_t>& memo;
    size_t cap;
    size_t Go(TypeId x, int depth) {
      x = ty.Find(x);
      if (depth > kMaxTypeDepth) return cap;
      if (auto it = memo.find(x); it != memo.end()) return it->second;
      size_t n = 1;
      std::vector<TypeId> args = ty.nodes_[x].args;
      for (TypeId a : args) {
        n += Go(a, depth + 1);
        if (n >= cap) break;
      }
      n = std::min(n, cap);
      memo[x] = n;
      return n;
    }
  };
  return Walk{*this, memo, cap}.Go(t, 0);
}

TypeId Types::Subst(TypeId t, const std::vector<std::string>& names,
                    const std::vector<TypeId>& with, int depth) {
  if (depth > kMaxTypeDepth || names.empty()) return t;
  t = Find(t);
  const TNode& n = nodes_[t];
  if (n.kind == TK::kParam) {
    for (size_t i = 0; i < names.size() && i < with.size(); ++i)
      if (names[i] == n.name) return with[i];
    return t;
  }
  if (n.args.empty()) return t;
  std::vector<TypeId> args = n.args;
  bool changed = false;
  for (TypeId& a : args) {
    TypeId s = Subst(a, names, with, depth + 1);
    changed = changed || s != Find(a);
    a = s;
  }
  if (!changed) return t;
  const TNode& m = nodes_[t];
  return Make(m.kind, m.name, std::move(args));
}

}  // namespace mty::frontend::tc
