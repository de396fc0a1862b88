// The one home of the cost rules (runtime.md §2): the sizes of the
// deterministic memory estimate, named once, and the work-based step charges
// that need no value (interp/src/cost.h adds the ones that read a value).
// Every layer that builds values (the interpreter, the hosts, the API's value
// conversion) charges with these names; docs/runtime.md has the tables.
#pragma once

#include <cstdint>

namespace mty::interp::cost {

// ---- Memory-estimate sizes -------------------------------------------------

// An immediate value: a unit, bool or char; an int, float, duration, size,
// function or agent (a local reference counts as a RefObj).
inline constexpr uint64_t kNarrow = 8;
inline constexpr uint64_t kWide = 16;
// A value in a slot: an element of an array, tuple, struct or map entry.
inline constexpr uint64_t kSlot = 16;
// The header of a string, `[U8]`, array, tuple, map or struct/enum value:
// its estimate is this plus what it holds (a string its bytes, the others
// their elements' estimates).
inline constexpr uint64_t kHeader = 24;
// What the `tuple` rvalue charges besides its elements (the original
// design's `16 + elements`; the tuple's estimate stays kHeader + elements).
inline constexpr uint64_t kTupleCharge = 16;
// The own value of a closure, a reference or a capability.
inline constexpr uint64_t kSmall = 16;
// A closure's environment object (its captures are shared, not copied).
inline constexpr uint64_t kClosureEnv = 64;
// What a new map key costs besides est(key) + est(value): the entry's links
// and its index slot (the map's estimate stays kHeader + its keys and values).
inline constexpr uint64_t kMapEntry = 48;
// What each spawned agent charges besides its state: its record, task,
// stacks and mailbox; what each message sent charges besides its arguments:
// its record in the mailbox.
inline constexpr uint64_t kAgent = 1024;
inline constexpr uint64_t kMessage = 64;
// The call stacks (Exec::PushFrame): a register slot, a frame slot.
inline constexpr uint64_t kRegister = 16;
inline constexpr uint64_t kFrame = 64;

// A string of n bytes.
inline constexpr uint64_t StrBytes(uint64_t n) { return kHeader + n; }
// An array of n immediates (a `[U8]` widened, a range collected).
inline constexpr uint64_t ArrayBytes(uint64_t n) { return kHeader + kSlot * n; }
// Making a closure with `captures` captured values (runtime.md §2,
// "closures as they really cost").
inline constexpr uint64_t ClosureCharge(uint64_t captures) {
  return kSmall + kClosureEnv + kSlot * captures;
}

// ---- Work (steps) ----------------------------------------------------------

// An operation charges one step per this many units of work (bytes or
// elements it touches) on top of its statement's own step; a host value
// arriving late is charged at the same rate.
inline constexpr uint64_t kUnitsPerStep = 64;

// Searching a text of n bytes for a pattern of m (search.h, Knuth-Morris-
// Pratt): at most 2n comparisons over the text, 3m to prepare the pattern.
inline uint64_t Search(uint64_t n, uint64_t m) { return 2 * n + 3 * m; }

// A string of n bytes in Debug quotes: each byte may become an escape of up
// to 6 bytes (`\u{1f}`), plus the quotes.
inline uint64_t Quoted(uint64_t n) { return 6 * n + 2; }

// Sorting n elements with a merge sort: ceil(log2 n) merge passes, each
// touching every element once and comparing at most n pairs.
inline uint64_t Log2Ceil(uint64_t n) {
  uint64_t k = 0;
  while ((uint64_t{1} << k) < n && k < 63) ++k;
  return k;
}

}  // namespace mty::interp::cost
