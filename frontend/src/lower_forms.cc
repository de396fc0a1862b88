// Methods the front end rewrites into other operations (the FORM rows of
// ir/builtins.def): `unwrap_or_default` (the default of the static type),
// `get_or_insert_with` and the map entry API (`m.entry(k).or_insert(v)`),
// which write their receiver in place and give a `&mut` to the value; and
// ranges as receivers: `(0..n).map(f)` builds the range's array, while
// `for x in (0..n).rev().step_by(k)` walks it without building anything.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lower_internal.h"

namespace mty::frontend {

using K = Expr::Kind;

namespace {

// The methods of the value `m.entry(k)` gives.
bool IsEntryMethod(const std::string& n) {
  return n == "or_insert" || n == "or_insert_with" || n == "or_default" || n == "and_modify";
}

// `m.entry(k)` at the bottom of `m.entry(k).and_modify(f).or_insert(v)`.
const Expr* EntryCall(const Expr& e) {
  const Expr* x = &e;
  while (x->kind == K::kMethodCall && IsEntryMethod(x->text)) x = x->lhs.get();
  return x->kind == K::kMethodCall && x->text == "entry" ? x : nullptr;
}

// A chain of rev() and step_by(k) over a range with both bounds, or null.
const Expr* RangeWalk(const Expr& e, std::vector<const Expr*>* steps) {
  const Expr* x = &e;
  while (x->kind == K::kMethodCall &&
         ((x->text == "rev" && x->args.empty()) || (x->text == "step_by" && x->args.size() == 1))) {
    steps->insert(steps->begin(), x);
    x = x->lhs.get();
  }
  if (steps->empty() || x->kind != K::kRange || !x->lhs || !x->rhs) return nullptr;
  return x;
}

}  // namespace

std::optional<Operand> FnLowerer::DefaultOf(const TyP& t) {
  using TK = Ty::Kind;
  switch (t->kind) {
    case TK::kInt: return ConstOp(ir::Constant::Int(0));
    case TK::kFloat: return ConstOp(ir::Constant::Float(0.0));
    case TK::kBool: return ConstOp(ir::Constant::Bool(false));
    case TK::kChar: return ConstOp(ir::Constant::Char(0));
    case TK::kStr: return ConstOp(ir::Constant::Str(""));
    case TK::kUnit: return UnitOp();
    case TK::kDuration: return ConstOp(ir::Constant::Duration(0));
    case TK::kSize: return ConstOp(ir::Constant::Size(0));
    case TK::kArray: {
      Rvalue r;
      r.kind = Rvalue::Kind::kArrayInit;
      return Emit(std::move(r), t).op;
    }
    case TK::kMap: {
      Rvalue r;
      r.kind = Rvalue::Kind::kMapInit;
      return Emit(std::move(r), t).op;
    }
    case TK::kTuple: {
      Rvalue r;
      r.kind = Rvalue::Kind::kTupleInit;
      for (const TyP& a : t->args) {
        std::optional<Operand> d = DefaultOf(a ? a : Ty::Unknown());
        if (!d) return std::nullopt;
        r.ops.push_back(*d);
      }
      return Emit(std::move(r), t).op;
    }
    case TK::kAdt: {
      if (t->name == "Option") return Emit(AdtInit("Option", "None", {}), t).op;
      // The type's own `Default::default`, else its derived one: each
      // field's default.
      if (auto m = g_.methods.find(t->name); m != g_.methods.end())
        if (auto f = m->second.find("default"); f != m->second.end())
          return CallUser(g_.fns.at(f->second), {}, loc_).op;
      auto a = g_.adts.find(t->name);
      if (!g_.derives_default.count(t->name) || a == g_.adts.end() || a->second.is_enum ||
          a->second.variants.empty() || ++default_depth_ > 64)
        return std::nullopt;
      std::vector<Operand> ops;
      for (const FieldDef& f : a->second.variants[0].fields) {
        std::optional<Operand> d = DefaultOf(f.ty ? f.ty : Ty::Unknown());
        if (!d) {
          --default_depth_;
          return std::nullopt;
        }
        ops.push_back(*d);
      }
      --default_depth_;
      return Emit(AdtInit(t->name, "", std::move(ops)), t).op;
    }
    default: return std::nullopt;
  }
}

FnLowerer::Val FnLowerer::MethodOn(const Place& recv, const char* name, std::vector<Operand> ops,
                                   TyP ty) {
  Rvalue r;
  r.kind = Rvalue::Kind::kMethodCall;
  r.place = recv;
  r.name = name;
  r.ops = std::move(ops);
  return Emit(std::move(r), std::move(ty));
}

std::optional<FnLowerer::Val> FnLowerer::LowerForm(const Expr& e, const Place& place,
                                                   const TyP& rty, const TyP& base) {
  const std::string& name = e.text;
  const bool opt = base->Is(Ty::Kind::kAdt) && base->name == "Option";
  const bool res = base->Is(Ty::Kind::kAdt) && base->name == "Result";
  // The receiver's own place, through `&`/`&mut`.
  Place dst = place;
  for (TyP t = rty; t->Is(Ty::Kind::kRef); t = t->Arg(0))
    dst.proj.push_back({ir::Projection::Kind::kDeref, 0, 0});
  // FORM rows: the value itself (a map's `into_iter()` is its pairs, a METHOD row).
  if (e.args.empty() && (name == "cloned" || name == "copied" || name == "to_vec" ||
                         (name == "as_str" && !base->Is(Ty::Kind::kArray)) || name == "as_slice" ||
                         name == "peekable" || (name == "collect" && base->Is(Ty::Kind::kStr)) ||
                         (name == "into_iter" && !base->Is(Ty::Kind::kMap))))
    return Emit(UseR(Operand::Copy(dst)), base);
  if (name == "clone" && e.args.empty()) {
    // Values are copied on assignment (copy on write): a clone is the value.
    // A receiver of unknown type keeps a user `clone` reachable.
    bool user_clone = false;
    if (base->Is(Ty::Kind::kUnknown))
      for (const auto& [type, ms] : g_.methods) user_clone |= ms.count("clone") > 0;
    if (!user_clone) return Emit(UseR(Operand::Copy(dst)), base);
  }
  // `b.as_ref()`, `b.borrow()`: a reference is the value here (a `Box`, an
  // `Rc`, an Option's `as_ref` alike), unless the type defines its own.
  if ((name == "as_ref" || name == "borrow" || name == "as_deref") && e.args.empty()) {
    bool user = false;
    if (base->Is(Ty::Kind::kUnknown))
      for (const auto& [type, ms] : g_.methods) user |= ms.count(name) > 0;
    if (!user) return Emit(UseR(Operand::Copy(dst)), base);
  }
  if (name == "unwrap_or_default" && (opt || res || base->Is(Ty::Kind::kUnknown))) {
    if (!e.args.empty()) {
      Error("MT2001", e.loc,
            absl::StrCat("method `unwrap_or_default` takes 0 argument(s), given ", e.args.size()));
      return Unit();
    }
    TyP elem = base->Arg(0);
    if (elem->Is(Ty::Kind::kUnknown)) elem = CheckedType(e);
    std::optional<Operand> d =
        DefaultFor(elem, e.loc, "`unwrap_or_default` needs the value's type",
                   "annotate the type (`let x: Option[I64] = ...`), or use `unwrap_or(value)`",
                   "use `unwrap_or(value)`");
    if (!d) return Unit();
    return MethodOn(dst, "unwrap_or", {*d}, elem);
  }
  if (name == "get_or_insert_with" && (opt || base->Is(Ty::Kind::kUnknown))) {
    if (e.args.size() != 1) {
      Error("MT2001", e.loc,
            absl::StrCat("method `get_or_insert_with` takes 1 argument(s), given ", e.args.size()));
      return Unit();
    }
    // if self is None { self = Some(f()) }; &mut the payload.
    Operand f = ToLocalOp(LowerExpr(*e.args[0]));
    Rvalue is_none;
    is_none.kind = Rvalue::Kind::kMethodCall;
    is_none.place = dst;
    is_none.name = "is_none";
    Val c = Emit(std::move(is_none), Ty::Make(Ty::Kind::kBool));
    uint32_t fill = NewBlock(), join = NewBlock();
    Branch(c.op, fill, join);
    SetBlock(fill);
    Rvalue call;
    call.kind = Rvalue::Kind::kCallIndirect;
    call.ops = {f};
    Val v = Emit(std::move(call), base->Arg(0));
    Assign(dst, AdtInit("Option", "Some", {v.op}), e.loc);
    Goto(join);
    SetBlock(join);
    Place payload = dst;
    payload.proj.push_back({ir::Projection::Kind::kVariantField, 0, 0});
    return MutRef(payload, base->Arg(0));
  }
  if (std::optional<Val> r = LowerRefForm(e, dst, base)) return *r;
  if (name == "as_str" && e.args.empty() && base->Is(Ty::Kind::kArray)) {
    // The chars Rust's Chars has left (`cs.next(); cs.as_str()`).
    return MethodOn(dst, "join", {ConstOp(ir::Constant::Str(""))}, Ty::Make(Ty::Kind::kStr));
  }
  if (name == "next" && e.args.empty() && base->Is(Ty::Kind::kArray)) {
    const Expr& recv = *e.lhs;
    if (recv.kind == K::kMethodCall && recv.text == "chars" && recv.args.empty())
      return std::nullopt;  // LowerCharsNext took it (not reached)
    // The array is what the iterator has left (adapters are eager): `next()`
    // takes its first element off, `None` once it is empty.
    const TyP opt = Ty::Adt("Option", {base->Arg(0)});
    uint32_t out = Temp(opt);
    Val empty = MethodOn(dst, "is_empty", {}, Ty::Make(Ty::Kind::kBool));
    uint32_t none = NewBlock(), some = NewBlock(), join = NewBlock();
    Branch(empty.op, none, some);
    SetBlock(none);
    Assign(Place{out, {}}, AdtInit("Option", "None", {}), e.loc);
    Goto(join);
    SetBlock(some);
    Val first = MethodOn(dst, "remove", {ConstOp(ir::Constant::Int(0))}, base->Arg(0));
    Assign(Place{out, {}}, AdtInit("Option", "Some", {ToLocalOp(first)}), e.loc);
    Goto(join);
    SetBlock(join);
    return Val{Operand::Copy(Place{out, {}}), opt};
  }
  if (name == "entry" && (base->Is(Ty::Kind::kMap) || base->Is(Ty::Kind::kUnknown))) {
    Error("MT2004", e.loc,
          "`entry(k)` is used as `m.entry(k).or_insert(v)`: follow it by `or_insert(v)`, "
          "`or_insert_with(f)`, `or_default()` or `and_modify(f)`")
        .end = NameEnd(e.loc, name);
    return Unit();
  }
  return std::nullopt;
}

// The forms that give references into the receiver at `dst` (the FORM
// rows iter_mut, values_mut, get_mut, first_mut, last_mut, as_mut): each
// `&mut dst[i]` is a reference to that element of the receiver's place, so
// a write through it (`*x += 1`) writes the receiver, as in Rust.
std::optional<FnLowerer::Val> FnLowerer::LowerRefForm(const Expr& e, const Place& dst,
                                                      const TyP& base) {
  const std::string& name = e.text;
  const bool arr = base->Is(Ty::Kind::kArray), map = base->Is(Ty::Kind::kMap);
  const bool unknown = base->Is(Ty::Kind::kUnknown);
  const bool opt = base->Is(Ty::Kind::kAdt) && base->name == "Option";
  const bool all =
      (name == "iter_mut" && (arr || unknown)) || (name == "values_mut" && (map || unknown));
  const bool one = (name == "get_mut" && (arr || map || unknown)) ||
                   ((name == "first_mut" || name == "last_mut") && (arr || unknown));
  const bool payload = name == "as_mut" && (opt || unknown);
  if (!all && !one && !payload) return std::nullopt;
  const size_t want = name == "get_mut" ? 1 : 0;
  if (e.args.size() != want) {
    Error("MT2001", e.loc,
          absl::StrCat("method `", name, "` takes ", want, " argument(s), given ", e.args.size()));
    return Unit();
  }
  const TyP elem = map ? base->Arg(1) : base->Arg(0);
  TyP ref = Ty::With(Ty::Kind::kRef, {elem});
  ref->is_mut = true;
  const TyP int_ty = Ty::Make(Ty::Kind::kInt);
  auto method = [&](const char* m, std::vector<Operand> ops, TyP ty) {
    return MethodOn(dst, m, std::move(ops), std::move(ty));
  };
  auto at = [&](uint32_t key) {
    Place p = dst;
    p.proj.push_back({ir::Projection::Kind::kIndex, key, 0});
    return p;
  };
  const TyP opt_ref = Ty::Adt("Option", {ref});
  uint32_t out = Temp(all ? Ty::With(Ty::Kind::kArray, {ref}) : opt_ref);
  if (payload) {
    // if let Some(_) = self { Some(&mut self.0) } else { None }
    Val some = method("is_some", {}, Ty::Make(Ty::Kind::kBool));
    uint32_t yes = NewBlock(), no = NewBlock(), join = NewBlock();
    Branch(some.op, yes, no);
    SetBlock(yes);
    Place p = dst;
    p.proj.push_back({ir::Projection::Kind::kVariantField, 0, 0});
    Assign(Place{out, {}}, AdtInit("Option", "Some", {MutRef(p, elem).op}), e.loc);
    Goto(join);
    SetBlock(no);
    Assign(Place{out, {}}, AdtInit("Option", "None", {}), e.loc);
    Goto(join);
    SetBlock(join);
    return Val{Operand::Copy(Place{out, {}}), opt_ref};
  }
  if (one) {
    // The key (an index, a map key), then Some(&mut dst[key]) when present.
    uint32_t key = Temp(map ? base->Arg(0) : int_ty);
    uint32_t yes = NewBlock(), no = NewBlock(), join = NewBlock();
    if (name == "get_mut") Assign(Place{key, {}}, UseR(LowerExpr(*e.args[0]).op), e.loc);
    if (map) {
      Branch(method("contains_key", {Operand::Copy(Place{key, {}})}, Ty::Make(Ty::Kind::kBool)).op,
             yes, no);
    } else {
      Rvalue len;
      len.kind = Rvalue::Kind::kLen;
      len.ops = {Operand::Copy(dst)};
      uint32_t n = ToLocal(Emit(std::move(len), int_ty));
      if (name == "first_mut") Assign(Place{key, {}}, UseR(ConstOp(ir::Constant::Int(0))), e.loc);
      if (name == "last_mut")
        Assign(Place{key, {}},
               BinR(ir::BinOp::kSub, Operand::Copy(Place{n, {}}), ConstOp(ir::Constant::Int(1))),
               e.loc);
      uint32_t below = NewBlock();
      Branch(
          Compare(ir::BinOp::kGe, Operand::Copy(Place{key, {}}), ConstOp(ir::Constant::Int(0))).op,
          below, no);
      SetBlock(below);
      Branch(Compare(ir::BinOp::kLt, Operand::Copy(Place{key, {}}), Operand::Copy(Place{n, {}})).op,
             yes, no);
    }
    SetBlock(yes);
    Assign(Place{out, {}}, AdtInit("Option", "Some", {MutRef(at(key), elem).op}), e.loc);
    Goto(join);
    SetBlock(no);
    Assign(Place{out, {}}, AdtInit("Option", "None", {}), e.loc);
    Goto(join);
    SetBlock(join);
    return Val{Operand::Copy(Place{out, {}}), opt_ref};
  }
  // The array of references: for i in 0..len { out.push(&mut dst[i]) }, a
  // map's by its keys.
  Rvalue init;
  init.kind = Rvalue::Kind::kArrayInit;
  Assign(Place{out, {}}, std::move(init), e.loc);
  uint32_t keys = 0;
  if (map) keys = ToLocal(method("keys", {}, Ty::With(Ty::Kind::kArray, {base->Arg(0)})));
  Rvalue len;
  len.kind = Rvalue::Kind::kLen;
  len.ops = {map ? Operand::Copy(Place{keys, {}}) : Operand::Copy(dst)};
  uint32_t n = ToLocal(Emit(std::move(len), int_ty));
  uint32_t i = Temp(int_ty);
  Assign(Place{i, {}}, UseR(ConstOp(ir::Constant::Int(0))), e.loc);
  uint32_t head = NewBlock(), body = NewBlock(), exit = NewBlock();
  CountedLoopHead(head, body, exit, i, n, false);
  uint32_t key = i;
  if (map) {
    key = Temp(base->Arg(0));
    Place k{keys, {{ir::Projection::Kind::kIndex, i, 0}}};
    Assign(Place{key, {}}, UseR(Operand::Copy(k)), e.loc);
  }
  Rvalue push;
  push.kind = Rvalue::Kind::kMethodCall;
  push.place = Place{out, {}};
  push.name = "push";
  push.ops = {MutRef(at(key), elem).op};
  Emit(std::move(push), Ty::Make(Ty::Kind::kUnit));
  Increment(i, e.loc);
  scopes_.pop_back();
  Goto(head);
  SetBlock(exit);
  return Val{Operand::Copy(Place{out, {}}), Ty::With(Ty::Kind::kArray, {ref})};
}

std::optional<FnLowerer::Val> FnLowerer::LowerEntry(const Expr& e) {
  const Expr* entry = EntryCall(e);
  if (!entry || e.kind != K::kMethodCall || !IsEntryMethod(e.text)) return std::nullopt;
  const Expr& recv = *entry->lhs;
  // A user type's own `entry` method is its business.
  if (recv.kind == K::kPath && recv.segs.size() == 1)
    if (const LocalInfo* li = FindLocal(recv.segs[0].name)) {
      TyP t = li->ty;
      while (t->Is(Ty::Kind::kRef)) t = t->Arg(0);
      if (t->Is(Ty::Kind::kAdt)) return std::nullopt;
    }
  // The chain from `entry` outwards; only its last link may be an `or_*`.
  std::vector<const Expr*> links;
  for (const Expr* x = &e; x != entry; x = x->lhs.get()) links.insert(links.begin(), x);
  for (size_t i = 0; i < links.size(); ++i) {
    const Expr& l = *links[i];
    const bool last = i + 1 == links.size();
    if (l.text != "and_modify" && !last) {
      Error("MT2004", l.loc,
            absl::StrCat("`", l.text, "` gives `&mut` the map's value, not an entry"))
          .end = NameEnd(l.loc, l.text);
      return Unit();
    }
    const size_t want = l.text == "or_default" ? 0 : 1;
    if (l.args.size() != want) {
      Error("MT2001", l.loc,
            absl::StrCat("method `", l.text, "` takes ", want, " argument(s), given ",
                         l.args.size()));
      return Unit();
    }
  }
  if (entry->args.size() != 1) {
    Error("MT2001", entry->loc,
          absl::StrCat("method `entry` takes 1 argument(s), given ", entry->args.size()));
    return Unit();
  }
  Place place;
  TyP rty;
  Receiver(recv, &place, &rty, /*mutating=*/true, entry->loc);
  TyP base = rty;
  while (base->Is(Ty::Kind::kRef)) {
    place.proj.push_back({ir::Projection::Kind::kDeref, 0, 0});
    base = base->Arg(0);
  }
  if (!base->Is(Ty::Kind::kMap) && !base->Is(Ty::Kind::kUnknown)) {
    Error("MT2004", entry->loc,
          absl::StrCat("no method named `entry` found for `", base->Name(), "`"))
        .end = NameEnd(entry->loc, "entry");
    return Unit();
  }
  const TyP vty = base->Arg(1);
  // Evaluated in source order, as Rust: the key, each and_modify closure,
  // the or_* argument (or_insert's value even when the key is present).
  Operand key = ToLocalOp(LowerExpr(*entry->args[0]));
  std::vector<Operand> modify;
  const Expr& tail = *links.back();
  for (const Expr* l : links)
    if (l->text == "and_modify") modify.push_back(ToLocalOp(LowerExpr(*l->args[0])));
  std::optional<Operand> arg;
  if (tail.text == "or_insert" || tail.text == "or_insert_with")
    arg = ToLocalOp(LowerExpr(*tail.args[0]));
  Rvalue has;
  has.kind = Rvalue::Kind::kMethodCall;
  has.place = place;
  has.name = "contains_key";
  has.ops = {key};
  Val c = Emit(std::move(has), Ty::Make(Ty::Kind::kBool));
  uint32_t present = NewBlock(), absent = NewBlock(), join = NewBlock();
  Branch(c.op, present, absent);
  Place slot = place;
  slot.proj.push_back({ir::Projection::Kind::kIndex, key.place.local, 0});
  auto slot_ref = [&] { return MutRef(slot, vty); };
  // Present: each and_modify closure gets `&mut` the value.
  SetBlock(present);
  for (const Operand& f : modify) {
    Val ref = slot_ref();
    Rvalue call;
    call.kind = Rvalue::Kind::kCallIndirect;
    call.ops = {f, ref.op};
    Emit(std::move(call), Ty::Unknown());
  }
  Goto(join);
  // Absent: insert the or_* value (and_modify alone inserts nothing).
  SetBlock(absent);
  if (tail.text != "and_modify") {
    Operand v;
    if (tail.text == "or_insert") {
      v = *arg;
    } else if (tail.text == "or_insert_with") {
      Rvalue call;
      call.kind = Rvalue::Kind::kCallIndirect;
      call.ops = {*arg};
      v = Emit(std::move(call), vty).op;
    } else {
      std::optional<Operand> d = DefaultFor(
          vty, tail.loc, "`or_default` needs the map's value type",
          "annotate the map (`let mut m: Map[Str, I64] = Map.new()`), or use `or_insert(v)`",
          "use `or_insert(v)`");
      if (!d) return Unit();
      v = *d;
    }
    Rvalue ins;
    ins.kind = Rvalue::Kind::kMethodCall;
    ins.place = place;
    ins.name = "insert";
    ins.ops = {key, v};
    Emit(std::move(ins), Ty::Unknown());
  }
  Goto(join);
  SetBlock(join);
  if (tail.text == "and_modify") return Unit();
  return slot_ref();
}

FnLowerer::Val FnLowerer::RangeArray(const Expr& range) {
  if (!range.lhs || !range.rhs) {
    Error("MT2010", range.loc, "a range used as a value needs both bounds");
    return Unit();
  }
  Val lo = LowerExpr(*range.lhs);
  Val hi = LowerExpr(*range.rhs);
  return Emit(
      CallBuiltin("range_array", {lo.op, hi.op, ConstOp(ir::Constant::Bool(range.inclusive))}),
      Ty::With(Ty::Kind::kArray, {Ty::Make(Ty::Kind::kInt)}));
}

std::optional<FnLowerer::Val> FnLowerer::LowerRangeWalk(const Expr& e) {
  std::vector<const Expr*> steps;
  const Expr* range = RangeWalk(*e.lhs, &steps);
  if (!range) return std::nullopt;
  uint32_t result = Temp(Ty::Make(Ty::Kind::kUnit));
  Assign(Place{result, {}}, UseR(UnitOp()), e.loc);
  // plan = (first, count, stride, exact): x walks first, first + stride,
  // ..., advanced only when another element follows (so the add stays in
  // range); a stride too wide for I64 (two elements at most) is added
  // wrapped, with wrapping_add, which lands exactly on the element.
  std::vector<Operand> args{LowerExpr(*range->lhs).op, LowerExpr(*range->rhs).op,
                            ConstOp(ir::Constant::Bool(range->inclusive))};
  for (const Expr* s : steps)
    args.push_back(s->text == "rev" ? UnitOp() : LowerExpr(*s->args[0]).op);
  const TyP int_ty = Ty::Make(Ty::Kind::kInt);
  uint32_t plan = ToLocal(
      Emit(CallBuiltin("range_plan", std::move(args)),
           Ty::With(Ty::Kind::kTuple, {int_ty, int_ty, int_ty, Ty::Make(Ty::Kind::kBool)})));
  auto part = [&](uint32_t i) {
    return Operand::Copy(Place{plan, {{ir::Projection::Kind::kTupleIndex, i, 0}}});
  };
  uint32_t x = Temp(int_ty), n = Temp(int_ty), stride = Temp(int_ty), i = Temp(int_ty);
  uint32_t exact = Temp(Ty::Make(Ty::Kind::kBool));
  Assign(Place{exact, {}}, UseR(part(3)), e.loc);
  Assign(Place{x, {}}, UseR(part(0)), e.loc);
  Assign(Place{n, {}}, UseR(part(1)), e.loc);
  Assign(Place{stride, {}}, UseR(part(2)), e.loc);
  Assign(Place{i, {}}, UseR(ConstOp(ir::Constant::Int(0))), e.loc);
  uint32_t head = NewBlock(), body = NewBlock(), step = NewBlock(), exit = NewBlock();
  CountedLoopHead(head, body, exit, i, n, false);
  uint32_t item = Temp(int_ty);
  Assign(Place{item, {}}, UseR(Operand::Copy(Place{x, {}})), e.loc);
  LowerForBody(e, Place{item, {}}, int_ty, exit, step, result);
  Increment(i, e.loc);
  Val mv = Compare(ir::BinOp::kLt, Operand::Copy(Place{i, {}}), Operand::Copy(Place{n, {}}));
  uint32_t advance = NewBlock(), add = NewBlock(), wrap = NewBlock();
  Branch(mv.op, advance, exit);
  SetBlock(advance);
  Branch(Operand::Copy(Place{exact, {}}), add, wrap);
  SetBlock(add);
  Assign(Place{x, {}},
         BinR(ir::BinOp::kAdd, Operand::Copy(Place{x, {}}), Operand::Copy(Place{stride, {}})),
         e.loc);
  Goto(head);
  SetBlock(wrap);
  Rvalue wide;
  wide.kind = Rvalue::Kind::kMethodCall;
  wide.place = Place{x, {}};
  wide.name = "wrapping_add";
  wide.ops = {Operand::Copy(Place{stride, {}})};
  Assign(Place{x, {}}, std::move(wide), e.loc);
  Goto(head);
  SetBlock(exit);
  return Val{Operand::Copy(Place{result, {}}), Ty::Make(Ty::Kind::kUnit)};
}

std::optional<Operand> FnLowerer::DefaultFor(const TyP& t, Loc loc, const char* needs,
                                             const char* annotate, const char* instead) {
  std::optional<Operand> d = DefaultOf(t);
  if (d) return d;
  if (t->Is(Ty::Kind::kUnknown))
    Error("MT2030", loc, absl::StrCat(needs, ", which is not known here"), annotate);
  else
    Error("MT2030", loc, absl::StrCat("`", t->Name(), "` has no default value"), instead);
  return std::nullopt;
}

}  // namespace mty::frontend
