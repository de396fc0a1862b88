// The work-based step charges (runtime.md §2, "Steps measure work"): how many
// units -- bytes or elements read, written, copied, hashed or compared -- each
// kind of work touches. An operation charges one step per 64 units on top of
// the statement's own step (Ctx::Work, Exec::ChargeWork), before the work.
// With mty/interp/cost.h (the memory-estimate sizes and the rules that need
// no value) this is the one home of the cost rules; docs/runtime.md has the table of
// every built-in, and tests/interp/work_test.cc checks that the work really
// done (mty/interp/work.h) never exceeds what the charges pay for.
#pragma once

#include <cstdint>

#include "mty/interp/cost.h"
#include "mty/interp/value.h"

namespace mty::interp::cost {

// The size of a value as work: 1 for an immediate, else its memory estimate
// (cached, O(1)), which is at least its bytes and at least 8 per node.
inline uint64_t Size(const Value& v) { return v.IsHeap() ? v.h()->est : 1; }

// Comparing two values (==, <, sort, contains): at most the smaller one.
inline uint64_t Compare(const Value& a, const Value& b) {
  uint64_t x = Size(a), y = Size(b);
  return x < y ? x : y;
}

// Looking a key up in a map: hashing it and comparing it with the match.
inline uint64_t Lookup(const Value& key) { return 2 * Size(key); }

// Inserting a key: the lookup, plus its share of rehashing when the map
// grows (amortised: the table doubles, so each key is rehashed about once).
inline uint64_t Insert(const Value& key) { return 4 * Size(key); }

// Copying a shared value on write: its bytes or elements (a map also copies
// its index, which rehashes every key: its estimate bounds both).
inline uint64_t Copy(const HeapObj& h) {
  switch (h.kind) {
    case Tag::kStr: return static_cast<const StrObj&>(h).s.size();
    case Tag::kBytes: return static_cast<const BytesObj&>(h).b.size();
    case Tag::kArray:
    case Tag::kTuple: return static_cast<const ArrayObj&>(h).items.size();
    case Tag::kAdt: return static_cast<const AdtObj&>(h).fields.size();
    case Tag::kMap: return static_cast<const MapObj&>(h).entries.size() + h.est;
    case Tag::kClosure: return static_cast<const ClosureObj&>(h).captures.size();
    default: return 1;
  }
}

}  // namespace mty::interp::cost
