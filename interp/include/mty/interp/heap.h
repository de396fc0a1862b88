// Real bytes (runtime.md §2): the heap a run really uses, counted by an
// accounting allocator, separately from the deterministic memory estimate.
//
// mty replaces the global operator new and delete (interp/src/heap.cc).
// Allocations made on a thread while a HeapScope is active are counted in
// its HeapAccount (malloc_usable_size bytes; a free on that thread
// subtracts). A run activates its account for as long as it runs, agents
// included (they run on the run's thread); compiling can have one too.
//
// Passing the account's ceiling:
//  - an allocation of kLargeAllocation bytes or more that would pass it is
//    refused (std::bad_alloc, which the interpreter and the API turn into a
//    typed result) without allocating;
//  - a smaller one is made (it may be inside a destructor, which must not
//    throw), the account is marked over and the running task is woken
//    (SetWake): it stops at its next safepoint with the memory breach
//    "real heap". In strict mode (compiling: no destructor there
//    allocates) every allocation past the ceiling is refused.
// The host failing to allocate (malloc returns null: an address-space
// limit, other runs of the process) is the same breach, below the ceiling:
// the account is marked over (over_by() <= ceiling() tells it apart); a
// large block is refused, a small one is made from an emergency reserve
// (address space held back for it, given back to the system a block at a
// time), so that the run reaches its safepoint and reports. Outside any
// account a small block comes from the reserve too (what the host prints
// after such a run). Freeing never allocates (ReleaseObj).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "mty/vocab/policy.h"

namespace mty::interp {

inline constexpr size_t kLargeAllocation = size_t{64} << 10;

// One run's (or one compile's) heap. Only the thread whose HeapScope holds
// it changes it; read it from other threads only after that scope ended.
class HeapAccount {
 public:
  explicit HeapAccount(uint64_t ceiling, bool strict = false)
      : ceiling_(static_cast<int64_t>(std::min<uint64_t>(ceiling, INT64_MAX / 2))),
        strict_(strict) {}
  HeapAccount(const HeapAccount&) = delete;
  HeapAccount& operator=(const HeapAccount&) = delete;

  uint64_t ceiling() const { return static_cast<uint64_t>(ceiling_); }
  // Bytes allocated and not yet freed (frees of blocks allocated before
  // the scope can make it negative), and the most there ever were.
  int64_t live() const { return live_; }
  uint64_t peak() const { return static_cast<uint64_t>(std::max<int64_t>(0, peak_)); }
  // Whether the ceiling was passed (or an allocation refused), and the
  // bytes the heap held or would have held then.
  bool over() const { return over_; }
  uint64_t over_by() const { return over_at_; }
  // The flag to set when the account goes over (a task's interrupt flag);
  // returns the previous one.
  std::atomic<bool>* SetWake(std::atomic<bool>* flag) {
    std::atomic<bool>* prev = wake_;
    wake_ = flag;
    return prev;
  }

 private:
  friend struct HeapHooks;  // the allocator (heap.cc)
  void MarkOver(int64_t would_be);

  const int64_t ceiling_;
  const bool strict_;
  int64_t live_ = 0;
  int64_t peak_ = 0;
  bool over_ = false;
  uint64_t over_at_ = 0;
  std::atomic<bool>* wake_ = nullptr;
};

// The account of this thread's allocations (nullptr: none).
HeapAccount* CurrentHeapAccount();

// Makes `account` this thread's for the scope's life (nullptr: none).
class HeapScope {
 public:
  explicit HeapScope(HeapAccount* account);
  ~HeapScope();
  HeapScope(const HeapScope&) = delete;
  HeapScope& operator=(const HeapScope&) = delete;

 private:
  HeapAccount* prev_;
};

// The host could not give `bytes` outside the allocator (a thread's
// stack): marks this thread's account over as a refused malloc does, so the
// run ends with the memory breach, and throws std::bad_alloc.
[[noreturn]] void ThrowHostOutOfMemory(size_t bytes);

// The ceiling of runtime.md §2: 2 x the memory budget + 16 MiB, or, with no
// budget, DefaultHeapCeiling(): 4 GiB or half the machine's memory,
// whichever is smaller.
uint64_t DefaultHeapCeiling();
uint64_t HeapCeilingFor(std::optional<uint64_t> memory_budget);

// The memory breach of an account that went over: `memory budget exceeded:
// real heap N B > ceiling C B`, or, when the host could not allocate below
// the ceiling, `memory budget exceeded: real heap N B: the host could not
// allocate it (ceiling C B)`.
ir::Breach RealHeapBreach(const HeapAccount& account);

}  // namespace mty::interp
