// Run-time values: 16-byte tagged values and reference-counted,
// copy-on-write heap objects (strings, arrays, tuples, maps, ADTs, closures,
// references, capabilities). One run owns its heap; nothing here is atomic.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "mty/interp/cost.h"
#include "mty/interp/slot_index.h"

namespace mty::interp {

enum class Tag : uint8_t {
  // Immediate values.
  kUnit,
  kBool,
  kInt,
  kFloat,
  kChar,
  kDuration,
  kSize,
  kFn,     // i = function index
  kAgent,  // an agent handle: i = agent id, aux = the agent's `A::__init` function
  kDead,   // moved-out, dropped or not yet live (reading it traps MT5002)
  // A reference to a whole local of a live frame, held in the value itself
  // (no heap object): see Value::LocalRef. Any other reference is a kRef.
  kLocalRef,
  // Heap values (h points to a HeapObj). Keep kStr first.
  kStr,
  kBytes,  // an array of U8 held compactly (one byte per element): read_bytes' result
  kArray,
  kTuple,
  kMap,
  kAdt,
  kClosure,
  kRef,
  kCap,
};

const char* TagName(Tag t);

struct HeapObj {
  uint32_t rc = 1;
  Tag kind;
  // Cached deterministic size estimate (runtime.md §2); kept current by every
  // mutation so charging a wrapped value never walks it.
  uint64_t est = 0;
  explicit HeapObj(Tag k) : kind(k) {}
};

void ReleaseObj(HeapObj* h);  // frees h and (iteratively) its children

class Value {
 public:
  Value() : tag_(Tag::kUnit), aux_(0), i_(0) {}
  ~Value() {
    if (IsHeap()) DecRef();
  }
  Value(const Value& o) : tag_(o.tag_), aux_(o.aux_), i_(o.i_) {
    if (IsHeap()) ++h_->rc;
  }
  Value(Value&& o) noexcept : tag_(o.tag_), aux_(o.aux_), i_(o.i_) { o.tag_ = Tag::kUnit; }
  Value& operator=(const Value& o) {
    if (o.IsHeap()) ++o.h_->rc;
    if (IsHeap()) DecRef();
    tag_ = o.tag_;
    aux_ = o.aux_;
    i_ = o.i_;
    return *this;
  }
  Value& operator=(Value&& o) noexcept {
    if (this != &o) {
      if (IsHeap()) DecRef();
      tag_ = o.tag_;
      aux_ = o.aux_;
      i_ = o.i_;
      o.tag_ = Tag::kUnit;
    }
    return *this;
  }

  static Value Unit() { return Value(); }
  static Value Dead() { return Imm(Tag::kDead, 0); }
  static Value Bool(bool b) { return Imm(Tag::kBool, b); }
  static Value Int(int64_t v) { return Imm(Tag::kInt, v); }
  // A U64/USize: a kInt whose aux word is kUnsignedAux (a signed Int's is
  // always 0), holding the 64 bits unsigned. See Header().
  static constexpr uint32_t kUnsignedAux = 1;
  static Value UInt(uint64_t v) {
    Value x = Imm(Tag::kInt, static_cast<int64_t>(v));
    x.aux_ = kUnsignedAux;
    return x;
  }
  bool IsUInt() const { return tag_ == Tag::kInt && aux_ == kUnsignedAux; }
  uint64_t u() const { return static_cast<uint64_t>(i_); }
  // The first 8 bytes (tag, pad, aux) as one word: kSignedIntHeader exactly
  // when this is a signed Int, so the interpreter's fast path tests both
  // operands' kind and signedness with one compare each.
  static constexpr uint64_t kSignedIntHeader = static_cast<uint64_t>(Tag::kInt);
  uint64_t Header() const {
    uint64_t h;
    std::memcpy(&h, reinterpret_cast<const char*>(this), sizeof h);
    return h;
  }
  bool IsSignedInt() const { return Header() == kSignedIntHeader; }
  static Value Char(uint32_t c) { return Imm(Tag::kChar, c); }
  static Value Duration(int64_t ns) { return Imm(Tag::kDuration, ns); }
  static Value Size(int64_t b) { return Imm(Tag::kSize, b); }
  static Value Fn(uint32_t idx) { return Imm(Tag::kFn, idx); }
  static Value Agent(int64_t id, uint32_t init_fn) {
    Value v = Imm(Tag::kAgent, id);
    v.aux_ = init_fn;
    return v;
  }
  uint32_t aux() const { return aux_; }
  // A reference to local `local` of the frame at depth `depth` (index in
  // the task's frame stack) whose id is `frame_id`: the frame is live while
  // the frame at that depth still has that id (ids are unique in the
  // process, vm.h). i = frame_id << 16 | local, aux = depth << 1 | is_mut.
  // Fits is whether the three fit; a reference that does not is a RefObj.
  static constexpr uint64_t kLocalRefMaxId = (uint64_t{1} << 48) - 1;
  static bool LocalRefFits(uint64_t depth, uint64_t local, uint64_t frame_id) {
    return depth < (uint64_t{1} << 31) && local < (uint64_t{1} << 16) && frame_id <= kLocalRefMaxId;
  }
  static Value LocalRef(uint32_t depth, uint32_t local, uint64_t frame_id, bool is_mut) {
    Value v = Imm(Tag::kLocalRef, static_cast<int64_t>(frame_id << 16 | local));
    v.aux_ = depth << 1 | (is_mut ? 1u : 0u);
    return v;
  }
  uint32_t ref_depth() const { return aux_ >> 1; }
  uint32_t ref_local() const { return static_cast<uint32_t>(i_ & 0xffff); }
  uint64_t ref_frame_id() const { return static_cast<uint64_t>(i_) >> 16; }
  bool ref_mut() const { return (aux_ & 1) != 0; }
  static Value Float(double d) {
    Value v;
    v.tag_ = Tag::kFloat;
    v.f_ = d;
    return v;
  }
  // Takes ownership of one reference to h.
  static Value Heap(HeapObj* h) {
    Value v;
    v.tag_ = h->kind;
    v.h_ = h;
    return v;
  }

  Tag tag() const { return tag_; }
  bool IsHeap() const { return tag_ >= Tag::kStr; }
  bool Is(Tag t) const { return tag_ == t; }
  int64_t i() const { return i_; }
  double f() const { return f_; }
  bool b() const { return i_ != 0; }
  HeapObj* h() const { return h_; }

  // In-place setters for the hot loop (release the old payload first).
  void SetInt(int64_t v) {
    if (IsHeap()) DecRef();
    // tag, pad and aux in one store: a signed Int's header (Header).
    const uint64_t h = kSignedIntHeader;
    std::memcpy(reinterpret_cast<char*>(this), &h, sizeof h);
    i_ = v;
  }
  void SetBool(bool b) { SetImm(Tag::kBool, b); }
  void SetFloat(double d) {
    if (IsHeap()) DecRef();
    tag_ = Tag::kFloat;
    f_ = d;
  }
  // Keeps aux: only an Int's aux means something (SetInt, SetUInt).
  void SetImm(Tag t, int64_t v) {
    if (IsHeap()) DecRef();
    tag_ = t;
    i_ = v;
  }
  void SetUInt(uint64_t v) {
    SetImm(Tag::kInt, static_cast<int64_t>(v));
    aux_ = kUnsignedAux;
  }
  void Kill() { SetImm(Tag::kDead, 0); }
  // Overwrites a slot known to hold no heap value (no release check), e.g.
  // registers above the top frame, which PopFrame leaves free of heap values.
  void RawSetUnit() {
    tag_ = Tag::kUnit;
    i_ = 0;
  }
  void RawCopyImmediate(const Value& o) {
    tag_ = o.tag_;
    aux_ = o.aux_;
    i_ = o.i_;
  }

 private:
  static Value Imm(Tag t, int64_t v) {
    Value x;
    x.tag_ = t;
    x.i_ = v;
    return x;
  }
  // GCC 12 at -O3 reports a bogus -Warray-bounds here when it inlines the
  // destructor of a Value it cannot prove is a heap value.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
  void DecRef() {
    if (--h_->rc == 0) ReleaseObj(h_);
  }
#pragma GCC diagnostic pop

  Tag tag_;
  [[maybe_unused]] uint8_t pad_[3] = {0, 0, 0};
  uint32_t aux_;
  union {
    int64_t i_;
    double f_;
    HeapObj* h_;
  };
};
static_assert(sizeof(Value) == 16, "values are 16 bytes");

struct StrObj : HeapObj {
  std::string s;
  // Whether s is all ASCII, once someone asked (-1: not known yet); char
  // indices are then byte indices. Whoever changes s resets it.
  int8_t ascii = -1;
  explicit StrObj(std::string v) : HeapObj(Tag::kStr), s(std::move(v)) {
    est = cost::StrBytes(s.size());
  }
};

// Whether v is a reference, in either representation.
inline bool IsRef(const Value& v) { return v.Is(Tag::kRef) || v.Is(Tag::kLocalRef); }

// Arrays and tuples share a representation; kind tells them apart.
struct ArrayObj : HeapObj {
  std::vector<Value> items;
  explicit ArrayObj(Tag k) : HeapObj(k) {}
};

// An array of U8 held one byte per element (what std.fs.read_bytes returns):
// it is an array to the program (`[U8]`: len, index, for, ==, ordering and
// printing read the bytes as they are). Anything else done to it first
// widens it into an ArrayObj of Ints (Widen), which charges the difference.
struct BytesObj : HeapObj {
  std::string b;
  explicit BytesObj(std::string v) : HeapObj(Tag::kBytes), b(std::move(v)) {
    est = cost::StrBytes(b.size());
  }
};

// An array to the program, in either representation.
inline bool IsArray(const Value& v) { return v.Is(Tag::kArray) || v.Is(Tag::kBytes); }

// What widening the bytes of `b` into an ArrayObj adds to its estimate (15 B
// per element: each element's 16 B slot in place of its byte).
inline uint64_t WidenCharge(const BytesObj& b) { return (cost::kSlot - 1) * b.b.size(); }

// Replaces the compact bytes in `v` by an ArrayObj of the same Ints (its
// estimate 24 + 16 per element); the caller has charged WidenCharge.
ArrayObj* Widen(Value& v);

// What a push of an element estimated at `est` onto `a` charges (runtime.md
// §2): a vec's charge follows the storage it really holds. When the vec is
// full its storage doubles, and all the new slots are charged then (16 B
// each); each element is charged what it holds beyond its 16 B slot.
inline uint64_t PushCharge(const ArrayObj& a, uint64_t est) {
  const size_t n = a.items.size();
  const uint64_t beyond = est > cost::kSlot ? est - cost::kSlot : 0;
  if (n < a.items.capacity()) return beyond;
  const size_t grown = std::max<size_t>(1, 2 * n);  // libstdc++'s doubling
  return beyond + cost::kSlot * (grown - n);
}

struct AdtObj : HeapObj {
  uint32_t adt = 0;
  uint32_t variant = 0;
  std::vector<Value> fields;
  AdtObj() : HeapObj(Tag::kAdt) {}
};

struct ValueHash {
  size_t operator()(const Value& v) const;
};
struct ValueKeyEq {
  bool operator()(const Value& a, const Value& b) const;
};

// Insertion-ordered map. Entries live in slots linked in insertion order;
// the index maps a key to its slot, which never moves, so removing an entry
// is O(1): it is unlinked and its slot reused (no reindexing, no shifting).
struct MapObj : HeapObj {
  static constexpr uint32_t kNil = UINT32_MAX;
  struct Entry {
    Value first, second;
    uint32_t prev = kNil, next = kNil;
  };
  std::vector<Entry> entries;  // slots; the free ones hold dead values
  SlotIndex index;             // key -> slot (slot_index.h)
  uint32_t head = kNil, tail = kNil;
  std::vector<uint32_t> free_slots;
  MapObj() : HeapObj(Tag::kMap) {}
  size_t size() const { return index.size(); }
  bool empty() const { return index.empty(); }
  // The key's slot, or -1.
  int Find(const Value& k) const {
    if (index.empty()) return -1;
    const uint32_t s =
        index.Find(KeyHash(k), [&](uint32_t slot) { return ValueKeyEq{}(entries[slot].first, k); });
    return s == SlotIndex::kNone ? -1 : static_cast<int>(s);
  }
  static uint32_t KeyHash(const Value& k) { return SlotIndex::Mix(ValueHash{}(k)); }
  // Adds a key that is not in the map, last in order; returns its slot.
  uint32_t Append(Value k, Value v) {
    const uint32_t h = KeyHash(k);
    uint32_t slot;
    if (!free_slots.empty()) {
      slot = free_slots.back();
      free_slots.pop_back();
    } else {
      slot = static_cast<uint32_t>(entries.size());
      entries.emplace_back();
    }
    index.Insert(h, slot);  // may throw (growing): the entry is still free
    Entry& e = entries[slot];
    e.first = std::move(k);
    e.second = std::move(v);
    e.prev = tail;
    e.next = kNil;
    if (tail != kNil) entries[tail].next = slot;
    tail = slot;
    if (head == kNil) head = slot;
    return slot;
  }
  // Removes the entry in `slot` (from Find); its key and value move out.
  void Erase(uint32_t slot, Value* key, Value* value) {
    Entry& e = entries[slot];
    index.Erase(KeyHash(e.first), slot);
    if (e.prev != kNil)
      entries[e.prev].next = e.next;
    else
      head = e.next;
    if (e.next != kNil)
      entries[e.next].prev = e.prev;
    else
      tail = e.prev;
    *key = std::move(e.first);
    *value = std::move(e.second);
    e.first.Kill();
    e.second.Kill();
    e.prev = e.next = kNil;
    free_slots.push_back(slot);
  }
  // Calls f(key, value) for each entry in insertion order.
  template <typename F>
  void ForEach(F&& f) const {
    for (uint32_t i = head; i != kNil; i = entries[i].next) f(entries[i].first, entries[i].second);
  }
  template <typename F>
  void ForEachMut(F&& f) {
    for (uint32_t i = head; i != kNil; i = entries[i].next) f(entries[i].first, entries[i].second);
  }
};

struct ClosureObj : HeapObj {
  uint32_t fn = 0;
  std::vector<Value> captures;
  ClosureObj() : HeapObj(Tag::kClosure) { est = cost::kSmall; }
};

// A resolved projection step stored in a reference.
struct RefStep {
  enum class Kind : uint8_t { kField, kVariantField, kIndex } kind;
  uint32_t variant = 0;
  Value key;  // kIndex: the index or map key; kField: Int field index
};

// A reference to a place in some live frame: the absolute value-stack slot,
// the id of the frame that owned it when the reference was made (a stale
// reference traps MT5002), and the projections below the local.
struct RefObj : HeapObj {
  uint64_t slot = 0;
  uint64_t frame_id = 0;
  bool is_mut = false;
  std::vector<RefStep> steps;
  RefObj() : HeapObj(Tag::kRef) { est = cost::kSmall; }
};

class FsGrant;  // fs_grant.h

struct CapObj : HeapObj {
  std::string family;
  std::string constraint;  // the narrowing as written (normalised); "" for a run's whole grant
  // An fs capability with a constraint: its grants, resolved when it was made
  // beneath what it narrows (nullptr allows nothing).
  std::shared_ptr<const FsGrant> fs_read;
  std::shared_ptr<const FsGrant> fs_write;
  CapObj() : HeapObj(Tag::kCap) { est = cost::kSmall; }
};

// The deterministic size estimate of runtime.md §2.
inline uint64_t Estimate(const Value& v) {
  switch (v.tag()) {
    case Tag::kUnit:
    case Tag::kBool:
    case Tag::kChar:
    case Tag::kDead: return cost::kNarrow;
    case Tag::kInt:
    case Tag::kFloat:
    case Tag::kDuration:
    case Tag::kSize:
    case Tag::kFn:
    case Tag::kAgent:
    case Tag::kLocalRef: return cost::kWide;  // a local reference: as a RefObj's estimate
    default: return v.h()->est;
  }
}

// Makes v's heap object uniquely owned (cloning it if shared) and returns it.
HeapObj* MakeUnique(Value& v);

Value MakeStr(std::string s);
// A struct or enum value (prelude ADT `adt`, variant `variant`) with its
// estimate: kHeader + its fields' (the caller charges it).
Value MakeAdt(uint32_t adt, uint32_t variant, std::vector<Value> fields);
// The prelude's Option and Result values (ir::prelude), for hosts.
Value MakeSome(Value v);
Value MakeNone();
Value MakeOk(Value v);
Value MakeErr(Value e);
// Map keys: Int, Str, Char, Bool, and tuples of those (language.md §4).
bool IsMapKey(const Value& v);
// The hash of a map key: its whole structure, iteratively; adds the nodes
// and bytes it read to *work (and to the work counter).
size_t HashValue(const Value& v, uint64_t* work);
bool ValuesEqual(const Value& a, const Value& b);
// <0, 0, >0, or 2 when the values are not ordered (different kinds, NaN).
int CompareValues(const Value& a, const Value& b);

}  // namespace mty::interp
