// Heap object lifetime (iterative release), copy-on-write cloning, equality,
// ordering and hashing of values.
#include "mty/interp/value.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "absl/hash/hash.h"
#include "cost.h"
#include "mty/interp/work.h"
#include "mty/ir/ir.h"

namespace mty::interp {

namespace internal {
thread_local uint64_t g_work_units = 0;
}  // namespace internal

const char* TagName(Tag t) {
  switch (t) {
    case Tag::kUnit: return "Unit";
    case Tag::kBool: return "Bool";
    case Tag::kInt: return "Int";
    case Tag::kFloat: return "Float";
    case Tag::kChar: return "Char";
    case Tag::kDuration: return "Duration";
    case Tag::kSize: return "Size";
    case Tag::kFn: return "Fn";
    case Tag::kAgent: return "Agent";
    case Tag::kDead: return "dead value";
    case Tag::kLocalRef: return "Ref";
    case Tag::kStr: return "Str";
    case Tag::kBytes: return "Array";
    case Tag::kArray: return "Array";
    case Tag::kTuple: return "Tuple";
    case Tag::kMap: return "Map";
    case Tag::kAdt: return "ADT";
    case Tag::kClosure: return "Closure";
    case Tag::kRef: return "Ref";
    case Tag::kCap: return "Capability";
  }
  return "?";
}

namespace {

// Moves one heap child out of `h` (a container being freed) into *out;
// false when it has none left. It takes from the back: nothing is
// allocated, so freeing never fails (it runs in destructors, also when the
// host has no memory left).
bool PopChild(HeapObj* h, Value* out) {
  auto pop = [out](std::vector<Value>& v) {
    while (!v.empty()) {
      Value x = std::move(v.back());
      v.pop_back();
      if (x.IsHeap()) {
        *out = std::move(x);
        return true;
      }
    }
    return false;
  };
  switch (h->kind) {
    case Tag::kArray:
    case Tag::kTuple: return pop(static_cast<ArrayObj*>(h)->items);
    case Tag::kAdt: return pop(static_cast<AdtObj*>(h)->fields);
    case Tag::kClosure: return pop(static_cast<ClosureObj*>(h)->captures);
    case Tag::kMap: {
      auto* m = static_cast<MapObj*>(h);
      m->index.Clear();
      for (; !m->entries.empty(); m->entries.pop_back()) {
        MapObj::Entry& e = m->entries.back();
        for (Value* x : {&e.first, &e.second})
          if (x->IsHeap()) {
            *out = std::move(*x);
            return true;
          }
      }
      return false;
    }
    case Tag::kRef: {
      auto& steps = static_cast<RefObj*>(h)->steps;
      for (; !steps.empty(); steps.pop_back())
        if (steps.back().key.IsHeap()) {
          *out = std::move(steps.back().key);
          return true;
        }
      return false;
    }
    default: return false;
  }
}

void DeleteObj(HeapObj* h) {
  switch (h->kind) {
    case Tag::kStr: delete static_cast<StrObj*>(h); break;
    case Tag::kBytes: delete static_cast<BytesObj*>(h); break;
    case Tag::kArray:
    case Tag::kTuple: delete static_cast<ArrayObj*>(h); break;
    case Tag::kAdt: delete static_cast<AdtObj*>(h); break;
    case Tag::kMap: delete static_cast<MapObj*>(h); break;
    case Tag::kClosure: delete static_cast<ClosureObj*>(h); break;
    case Tag::kRef: delete static_cast<RefObj*>(h); break;
    case Tag::kCap: delete static_cast<CapObj*>(h); break;
    default: break;
  }
}

}  // namespace

void ReleaseObj(HeapObj* h) {
  if (h->kind == Tag::kStr || h->kind == Tag::kBytes || h->kind == Tag::kCap) {
    DeleteObj(h);
    return;
  }
  // Freeing a deeply nested value never recurses on the C++ stack: the
  // containers being freed on this thread form a stack linked through their
  // `est` fields (no longer needed once nothing refers to them), freed depth
  // first, a child at a time. A child that is a leaf or shared is dropped in
  // place; a sole-owned container is pushed by the ReleaseObj its drop calls.
  static thread_local HeapObj* freeing = nullptr;
  static thread_local bool draining = false;
  h->est = reinterpret_cast<uintptr_t>(freeing);
  freeing = h;
  if (draining) return;  // an outer ReleaseObj frees it
  draining = true;
  while (HeapObj* top = freeing) {
    Value child;
    if (PopChild(top, &child)) continue;  // dropped here
    freeing = reinterpret_cast<HeapObj*>(top->est);
    DeleteObj(top);
  }
  draining = false;
}

HeapObj* MakeUnique(Value& v) {
  HeapObj* h = v.h();
  if (h->rc == 1) return h;
  // The elements copied (a map's keys are counted again as its index is
  // copied, which hashes them: HashValue counts that).
  MTY_WORK(h->kind == Tag::kMap ? static_cast<MapObj*>(h)->entries.size() : cost::Copy(*h));
  HeapObj* copy = nullptr;
  // Each copy is owned by `hold` as soon as it exists: copying its contents
  // may throw std::bad_alloc (the real-bytes ceiling), which must not leak it.
  Value hold;
  switch (h->kind) {
    case Tag::kStr:
      copy = new StrObj(static_cast<StrObj*>(h)->s);
      hold = Value::Heap(copy);
      break;
    case Tag::kBytes:
      copy = new BytesObj(static_cast<BytesObj*>(h)->b);
      hold = Value::Heap(copy);
      break;
    case Tag::kArray:
    case Tag::kTuple: {
      auto* a = new ArrayObj(h->kind);
      hold = Value::Heap(a);
      a->items = static_cast<ArrayObj*>(h)->items;
      copy = a;
      break;
    }
    case Tag::kAdt: {
      auto* src = static_cast<AdtObj*>(h);
      auto* a = new AdtObj();
      hold = Value::Heap(a);
      a->adt = src->adt;
      a->variant = src->variant;
      a->fields = src->fields;
      copy = a;
      break;
    }
    case Tag::kMap: {
      auto* src = static_cast<MapObj*>(h);
      auto* m = new MapObj();
      hold = Value::Heap(m);
      m->entries = src->entries;
      m->index = src->index;
      m->head = src->head;
      m->tail = src->tail;
      m->free_slots = src->free_slots;
      copy = m;
      break;
    }
    case Tag::kClosure: {
      auto* c = new ClosureObj();
      hold = Value::Heap(c);
      c->fn = static_cast<ClosureObj*>(h)->fn;
      c->captures = static_cast<ClosureObj*>(h)->captures;
      copy = c;
      break;
    }
    case Tag::kRef: {
      auto* r = new RefObj(*static_cast<RefObj*>(h));
      r->rc = 1;
      hold = Value::Heap(r);
      copy = r;
      break;
    }
    case Tag::kCap: {
      auto* c = new CapObj(*static_cast<CapObj*>(h));
      c->rc = 1;
      hold = Value::Heap(c);
      copy = c;
      break;
    }
    default: return h;
  }
  copy->est = h->est;
  v = std::move(hold);
  return copy;
}

ArrayObj* Widen(Value& v) {
  const std::string& b = static_cast<BytesObj*>(v.h())->b;
  MTY_WORK(b.size());
  auto* a = new ArrayObj(Tag::kArray);
  Value hold = Value::Heap(a);  // owns a if reserving throws
  a->items.reserve(b.size());
  for (unsigned char c : b) a->items.push_back(Value::Int(c));
  a->est = cost::ArrayBytes(b.size());
  v = std::move(hold);
  return a;
}

Value MakeStr(std::string s) { return Value::Heap(new StrObj(std::move(s))); }

Value MakeAdt(uint32_t adt, uint32_t variant, std::vector<Value> fields) {
  auto* o = new AdtObj();
  o->adt = adt;
  o->variant = variant;
  o->est = cost::kHeader;
  for (const Value& f : fields) o->est += Estimate(f);
  o->fields = std::move(fields);
  return Value::Heap(o);
}

Value MakeSome(Value v) {
  return MakeAdt(ir::prelude::kOption, ir::prelude::kSome, {std::move(v)});
}
Value MakeNone() { return MakeAdt(ir::prelude::kOption, ir::prelude::kNone, {}); }
Value MakeOk(Value v) { return MakeAdt(ir::prelude::kResult, ir::prelude::kOk, {std::move(v)}); }
Value MakeErr(Value e) { return MakeAdt(ir::prelude::kResult, ir::prelude::kErr, {std::move(e)}); }

bool IsMapKey(const Value& v0) {
  std::vector<const Value*> work{&v0};  // iterative: keys may nest deeply
  while (!work.empty()) {
    const Value* v = work.back();
    work.pop_back();
    switch (v->tag()) {
      case Tag::kInt:
      case Tag::kStr:
      case Tag::kChar:
      case Tag::kBool: break;
      case Tag::kTuple:
        for (const Value& x : static_cast<ArrayObj*>(v->h())->items) work.push_back(&x);
        break;
      default: return false;
    }
  }
  return true;
}

namespace {

const std::vector<Value>* Children(const Value& v) {
  switch (v.tag()) {
    case Tag::kArray:
    case Tag::kTuple: return &static_cast<ArrayObj*>(v.h())->items;
    case Tag::kAdt: return &static_cast<AdtObj*>(v.h())->fields;
    case Tag::kClosure: return &static_cast<ClosureObj*>(v.h())->captures;
    default: return nullptr;
  }
}

// Equality where a or b holds compact bytes: element by element against the
// other array's Ints. Adds the elements read to *units.
bool BytesEqual(const Value& a, const Value& b, uint64_t* units) {
  if (!IsArray(a) || !IsArray(b)) return false;
  if (a.Is(Tag::kBytes) && b.Is(Tag::kBytes)) {
    const std::string& x = static_cast<BytesObj*>(a.h())->b;
    const std::string& y = static_cast<BytesObj*>(b.h())->b;
    if (x.size() == y.size()) *units += x.size();
    return x == y;
  }
  const std::string& x = static_cast<BytesObj*>((a.Is(Tag::kBytes) ? a : b).h())->b;
  const std::vector<Value>& ys = static_cast<ArrayObj*>((a.Is(Tag::kBytes) ? b : a).h())->items;
  if (x.size() != ys.size()) return false;
  for (size_t i = 0; i < x.size(); ++i) {
    ++*units;
    if (!ys[i].Is(Tag::kInt) || ys[i].i() != static_cast<unsigned char>(x[i])) return false;
  }
  return true;
}

bool ShallowEqual(const Value& a, const Value& b) {
  if (a.tag() != b.tag()) return false;
  switch (a.tag()) {
    case Tag::kUnit: return true;
    case Tag::kInt:  // by value: a U64 and an I64 of the same bits differ when negative
      return a.i() == b.i() && (a.IsUInt() == b.IsUInt() || a.i() >= 0);
    case Tag::kFloat: return a.f() == b.f();
    case Tag::kStr: return static_cast<StrObj*>(a.h())->s == static_cast<StrObj*>(b.h())->s;
    case Tag::kAdt: {
      auto* x = static_cast<AdtObj*>(a.h());
      auto* y = static_cast<AdtObj*>(b.h());
      return x->adt == y->adt && x->variant == y->variant;
    }
    case Tag::kClosure:
      return static_cast<ClosureObj*>(a.h())->fn == static_cast<ClosureObj*>(b.h())->fn;
    case Tag::kArray:
    case Tag::kTuple:
    case Tag::kMap: return true;
    case Tag::kRef: return a.h() == b.h();
    case Tag::kLocalRef: return a.i() == b.i() && a.aux() == b.aux();
    case Tag::kCap: {
      auto* x = static_cast<CapObj*>(a.h());
      auto* y = static_cast<CapObj*>(b.h());
      return x->family == y->family && x->constraint == y->constraint;
    }
    default: return a.i() == b.i();
  }
}

}  // namespace

bool ValuesEqual(const Value& a0, const Value& b0) {
  // Iterative structural equality (no recursion on deep values).
  if (!a0.IsHeap() || !b0.IsHeap()) {
    MTY_WORK(1);
    return ShallowEqual(a0, b0);
  }
  // Two strings (map keys, the common case): no work list.
  if (a0.Is(Tag::kStr) && b0.Is(Tag::kStr)) {
    const std::string& x = static_cast<StrObj*>(a0.h())->s;
    const std::string& y = static_cast<StrObj*>(b0.h())->s;
    MTY_WORK(1 + (x.size() == y.size() ? x.size() : 0));
    return a0.h() == b0.h() || x == y;
  }
  std::vector<std::pair<const Value*, const Value*>> work{{&a0, &b0}};
  uint64_t units = 0;
  struct Count {
    uint64_t& units;
    ~Count() { MTY_WORK(units); }
  } count{units};
  while (!work.empty()) {
    auto [a, b] = work.back();
    work.pop_back();
    ++units;
    if (a->IsHeap() && b->IsHeap() && a->h() == b->h()) continue;
    if (a->Is(Tag::kBytes) || b->Is(Tag::kBytes)) {
      if (!BytesEqual(*a, *b, &units)) return false;
      continue;
    }
    if (a->Is(Tag::kStr) && b->Is(Tag::kStr)) {
      // Strings of different lengths differ without reading their bytes.
      const size_t n = static_cast<StrObj*>(a->h())->s.size();
      if (n == static_cast<StrObj*>(b->h())->s.size()) units += n;
    }
    if (!ShallowEqual(*a, *b)) return false;
    if (a->tag() == Tag::kMap) {
      auto* x = static_cast<MapObj*>(a->h());
      auto* y = static_cast<MapObj*>(b->h());
      if (x->size() != y->size()) return false;
      bool missing = false;
      x->ForEach([&](const Value& k, const Value& v) {
        int j = missing ? -1 : y->Find(k);
        if (j < 0) {
          missing = true;
          return;
        }
        work.push_back({&v, &y->entries[j].second});
      });
      if (missing) return false;
      continue;
    }
    const std::vector<Value>* xs = Children(*a);
    if (!xs) continue;
    const std::vector<Value>* ys = Children(*b);
    if (xs->size() != ys->size()) return false;
    for (size_t i = 0; i < xs->size(); ++i) work.push_back({&(*xs)[i], &(*ys)[i]});
  }
  return true;
}

namespace {

int Cmp3(auto x, auto y) { return x < y ? -1 : (x > y ? 1 : 0); }

// Two Ints by mathematical value, either of them a U64.
int CompareIntValues(const Value& a, const Value& b) {
  if (a.IsUInt() && b.IsUInt()) return Cmp3(a.u(), b.u());
  if (!a.IsUInt() && a.i() < 0) return -1;  // a negative I64 is below every U64
  if (!b.IsUInt() && b.i() < 0) return 1;
  return Cmp3(a.u(), b.u());
}

// Compares two values that are not both sequences; `*descend` is set when
// they are same-kind sequences whose elements decide.
int CompareShallow(const Value& a, const Value& b, bool* descend) {
  *descend = false;
  if (a.tag() != b.tag()) return 2;
  switch (a.tag()) {
    case Tag::kInt:
      if (a.IsUInt() || b.IsUInt()) return CompareIntValues(a, b);
      return Cmp3(a.i(), b.i());
    case Tag::kChar:
    case Tag::kDuration:
    case Tag::kSize:
    case Tag::kBool: return Cmp3(a.i(), b.i());
    case Tag::kUnit: return 0;
    case Tag::kFloat:
      if (std::isnan(a.f()) || std::isnan(b.f())) return 2;
      return Cmp3(a.f(), b.f());
    case Tag::kStr:
      return Cmp3(static_cast<StrObj*>(a.h())->s.compare(static_cast<StrObj*>(b.h())->s), 0);
    case Tag::kAdt: {
      auto* x = static_cast<AdtObj*>(a.h());
      auto* y = static_cast<AdtObj*>(b.h());
      if (x->adt != y->adt) return 2;
      // By variant, in declaration order; Option's None comes before Some
      // (Rust declares None first), though it is variant 1 here.
      if (x->variant != y->variant)
        return x->adt == ir::prelude::kOption ? Cmp3(y->variant, x->variant)
                                              : Cmp3(x->variant, y->variant);
      *descend = true;
      return 0;
    }
    case Tag::kArray:
    case Tag::kTuple: *descend = true; return 0;
    default: return 2;
  }
}

// Ordering where a or b holds compact bytes: lexicographic over the bytes as
// Ints, against the other array's elements (2 where one is not an Int).
int CompareBytes(const Value& a, const Value& b, uint64_t* units) {
  if (!IsArray(a) || !IsArray(b)) return 2;
  auto at = [](const Value& v, size_t i, Value* scratch) -> const Value& {
    if (!v.Is(Tag::kBytes)) return static_cast<ArrayObj*>(v.h())->items[i];
    *scratch = Value::Int(static_cast<unsigned char>(static_cast<BytesObj*>(v.h())->b[i]));
    return *scratch;
  };
  auto size = [](const Value& v) {
    return v.Is(Tag::kBytes) ? static_cast<BytesObj*>(v.h())->b.size()
                             : static_cast<ArrayObj*>(v.h())->items.size();
  };
  const size_t n = size(a), m = size(b);
  Value sx, sy;
  for (size_t i = 0; i < n && i < m; ++i) {
    ++*units;
    const Value& x = at(a, i, &sx);
    const Value& y = at(b, i, &sy);
    if (!x.Is(Tag::kInt) || !y.Is(Tag::kInt)) return 2;
    if (x.i() != y.i()) return Cmp3(x.i(), y.i());
  }
  return Cmp3(n, m);
}

}  // namespace

int CompareValues(const Value& a0, const Value& b0) {
  // Lexicographic comparison with an explicit stack (no host recursion).
  struct Level {
    const std::vector<Value>* xs;
    const std::vector<Value>* ys;
    size_t i;
  };
  bool descend;
  uint64_t units = 1;
  struct Count {
    uint64_t& units;
    ~Count() { MTY_WORK(units); }
  } count{units};
  auto str_units = [&](const Value& x, const Value& y) {
    if (x.Is(Tag::kStr) && y.Is(Tag::kStr))
      units +=
          std::min(static_cast<StrObj*>(x.h())->s.size(), static_cast<StrObj*>(y.h())->s.size());
  };
  str_units(a0, b0);
  if (a0.Is(Tag::kBytes) || b0.Is(Tag::kBytes)) return CompareBytes(a0, b0, &units);
  int c = CompareShallow(a0, b0, &descend);
  if (!descend) return c;
  std::vector<Level> stack{{Children(a0), Children(b0), 0}};
  while (!stack.empty()) {
    ++units;
    Level& l = stack.back();
    if (l.i >= l.xs->size() || l.i >= l.ys->size()) {
      int r = Cmp3(l.xs->size(), l.ys->size());
      stack.pop_back();
      if (r != 0) return r;
      continue;
    }
    const Value& x = (*l.xs)[l.i];
    const Value& y = (*l.ys)[l.i];
    ++l.i;
    if (x.IsHeap() && y.IsHeap() && x.h() == y.h()) continue;
    str_units(x, y);
    if (x.Is(Tag::kBytes) || y.Is(Tag::kBytes)) {
      c = CompareBytes(x, y, &units);
      if (c != 0) return c;
      continue;
    }
    c = CompareShallow(x, y, &descend);
    if (c != 0) return c;
    if (descend) stack.push_back({Children(x), Children(y), 0});
  }
  return 0;
}

namespace {

// Mixes one node that is not a tuple into h: its kind and its payload (a
// string's bytes). Adds the units it read.
size_t HashLeaf(size_t h, const Value& v, uint64_t* units) {
  ++*units;
  switch (v.tag()) {
    case Tag::kStr: {
      const std::string& str = static_cast<StrObj*>(v.h())->s;
      *units += str.size();
      return absl::HashOf(h, static_cast<int>(Tag::kStr), std::string_view(str));
    }
    case Tag::kFloat: return absl::HashOf(h, static_cast<int>(Tag::kFloat), v.f());
    case Tag::kUnit: return absl::HashOf(h, static_cast<int>(Tag::kUnit));
    default:
      return v.IsHeap() ? absl::HashOf(h, static_cast<int>(v.tag()))
                        : absl::HashOf(h, static_cast<int>(v.tag()), v.i());
  }
}

}  // namespace

size_t HashValue(const Value& v0, uint64_t* work) {
  // The whole key, iteratively (keys may nest deeply): a pre-order walk that
  // mixes each node's kind, a tuple's length and each leaf, so keys that
  // differ anywhere, however deep, hash apart. A key that is not a tuple
  // (an Int, a Str: the common case) needs no work list.
  size_t h = 0x6d7479;  // "mty"
  uint64_t units = 0;
  if (!v0.Is(Tag::kTuple)) {
    h = HashLeaf(h, v0, &units);
  } else {
    std::vector<const Value*> work_list{&v0};
    while (!work_list.empty()) {
      const Value* v = work_list.back();
      work_list.pop_back();
      if (!v->Is(Tag::kTuple)) {
        h = HashLeaf(h, *v, &units);
        continue;
      }
      ++units;
      const auto& items = static_cast<ArrayObj*>(v->h())->items;
      h = absl::HashOf(h, static_cast<int>(Tag::kTuple), items.size());
      for (size_t i = items.size(); i-- > 0;) work_list.push_back(&items[i]);
    }
  }
  MTY_WORK(units);
  if (work) *work += units;
  return h;
}

size_t ValueHash::operator()(const Value& v) const { return HashValue(v, nullptr); }

bool ValueKeyEq::operator()(const Value& a, const Value& b) const { return ValuesEqual(a, b); }

}  // namespace mty::interp
