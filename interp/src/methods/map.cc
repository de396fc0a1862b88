// The methods of Map: lookups and edits by key, and the keys, values and
// pairs in insertion order. A lookup charges hashing and comparing its key
// (cost::Lookup), an insert its share of rehashing too (cost::Insert).
#include "methods.h"

namespace mty::interp::methods {

namespace {

MapObj* Obj(MethodCall& c) { return static_cast<MapObj*>(c.recv.h()); }

}  // namespace

CallStatus MapLen(MethodCall& c) { return c.Int(static_cast<int64_t>(Obj(c)->size())); }

CallStatus MapIsEmpty(MethodCall& c) { return c.Bool(Obj(c)->empty()); }

CallStatus MapContainsKey(MethodCall& c) {
  if (!c.Work(cost::Lookup(c.args[0]))) return Fail();
  return c.Bool(Obj(c)->Find(c.args[0]) >= 0);
}

CallStatus MapGet(MethodCall& c) {
  if (!c.Work(cost::Lookup(c.args[0]))) return Fail();
  MapObj* m = Obj(c);
  const int j = m->Find(c.args[0]);
  return c.Opt(j >= 0 ? &m->entries[j].second : nullptr);
}

// get_or(k, default).
CallStatus MapGetOr(MethodCall& c) {
  if (!c.Work(cost::Lookup(c.args[0]))) return Fail();
  MapObj* m = Obj(c);
  const int j = m->Find(c.args[0]);
  return c.Return(j >= 0 ? m->entries[j].second : c.args[1]);
}

// insert(k, v): Some(the value it replaced), or None.
CallStatus MapInsert(MethodCall& c) {
  if (!c.Work(cost::Insert(c.args[0]))) return Fail();
  if (!IsMapKey(c.args[0]))
    return c.Trap(TrapCode::kType,
                  absl::StrCat("map keys must be Int, Str, Char, Bool or tuples, found ",
                               KindName(c.cx.m, c.args[0])));
  auto* m = static_cast<MapObj*>(MakeUnique(c.recv));
  const int j = m->Find(c.args[0]);
  if (j >= 0) {
    const int64_t d = static_cast<int64_t>(Estimate(c.args[1])) -
                      static_cast<int64_t>(Estimate(m->entries[j].second));
    Value old = std::move(m->entries[j].second);
    m->entries[j].second = std::move(c.args[1]);
    m->est += d;
    *c.delta = d;
    return c.Opt(&old);
  }
  const uint64_t e = Estimate(c.args[0]) + Estimate(c.args[1]);
  if (!c.Charge(e + cost::kMapEntry)) return Fail();
  m->Append(std::move(c.args[0]), std::move(c.args[1]));
  m->est += e;
  *c.delta = static_cast<int64_t>(e);
  return c.Opt(nullptr);
}

// remove(k): Some(the value it held), or None.
CallStatus MapRemove(MethodCall& c) {
  if (!c.Work(cost::Lookup(c.args[0]))) return Fail();
  const int j = Obj(c)->Find(c.args[0]);
  if (j < 0) return c.Opt(nullptr);
  auto* m = static_cast<MapObj*>(MakeUnique(c.recv));
  Value key, old;
  m->Erase(static_cast<uint32_t>(j), &key, &old);
  const uint64_t e = Estimate(key) + Estimate(old);
  m->est -= e;
  *c.delta = -static_cast<int64_t>(e);
  return c.Opt(&old);
}

// keys, values: in insertion order.
CallStatus MapKeysValues(MethodCall& c) {
  MapObj* m = Obj(c);
  const bool keys = c.id() == N::kKeys;
  return BuildArray(c, 2 * m->size(), [&](ArrayObj* a) {
    a->items.reserve(m->size());
    m->ForEach([&](const Value& k, const Value& x) {
      a->items.push_back(keys ? k : x);
      a->est += Estimate(a->items.back());
    });
  });
}

// iter: the (key, value) pairs in insertion order, what `for (k, v) in m`
// walks.
CallStatus MapIter(MethodCall& c) { return IterItems(c.cx, c.recv, c.out); }

}  // namespace mty::interp::methods
