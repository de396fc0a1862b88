// The accounting allocator (mty/interp/heap.h): the replaceable global
// operator new and delete, counting into this thread's HeapAccount.
#include "mty/interp/heap.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

namespace mty::interp {

namespace {

thread_local HeapAccount* t_account = nullptr;

// The emergency reserve: address space held back (mapped, never touched, so
// it costs no RSS) and given back to the system when the host cannot
// allocate a small block, so that what must still happen (the run reaching
// its next safepoint, unwinding, its result and report) can. Process-wide,
// in blocks, so that runs failing at once on several threads each find one.
constexpr int kReserveBlocks = 4;
constexpr size_t kReserveBlockBytes = size_t{1} << 20;
std::atomic<void*> g_reserve[kReserveBlocks];

// Gives one block of the reserve back to the system; false when none is left.
bool DrawReserve() {
  for (std::atomic<void*>& slot : g_reserve)
    if (void* p = slot.exchange(nullptr)) {
      munmap(p, kReserveBlockBytes);
      return true;
    }
  return false;
}

// Maps the blocks of the reserve that are missing (a run start; a block the
// host cannot map now is tried again at the next).
void ArmReserve() {
  for (std::atomic<void*>& slot : g_reserve) {
    if (slot.load(std::memory_order_relaxed)) continue;
    void* p = mmap(nullptr, kReserveBlockBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    if (p == MAP_FAILED) return;  // the host is short now: armed again at the next run
    void* none = nullptr;
    if (!slot.compare_exchange_strong(none, p)) munmap(p, kReserveBlockBytes);
  }
}

}  // namespace

struct HeapHooks {
  // The counted path: refuse what would pass the ceiling when it must not
  // be made, count the block's usable size.
  static void* Allocate(HeapAccount* a, size_t n, size_t align, bool nothrow) {
    const int64_t want = static_cast<int64_t>(std::min<size_t>(n, INT64_MAX / 4));
    if (a->live_ + want > a->ceiling_ && (a->strict_ || n >= kLargeAllocation)) {
      a->MarkOver(a->live_ + want);
      if (nothrow) return nullptr;
      throw std::bad_alloc();
    }
    void* p = Raw(n, align);
    if (!p) {
      HostRefused(a, n);
      if (!a->strict_) p = FromReserve(n, align);
      if (!p) {
        if (nothrow) return nullptr;
        throw std::bad_alloc();
      }
    }
    a->live_ += static_cast<int64_t>(Chunk(n, align));
    if (a->live_ > a->peak_) {
      a->peak_ = a->live_;
      if (a->live_ > a->ceiling_) a->MarkOver(a->live_);
    }
    return p;
  }
  // The host could not give n bytes (an address-space limit, other runs of
  // the process): the run's memory breach, like passing the ceiling.
  static void HostRefused(HeapAccount* a, size_t n) {
    a->MarkOver(a->live_ + static_cast<int64_t>(std::min<size_t>(n, INT64_MAX / 4)));
  }
  // What a block really takes: glibc's chunk for n bytes (n + 8 rounded up
  // to 16, at least 32; large blocks are mapped, within a page of that),
  // plus the alignment for over-aligned ones. No call into malloc: a sized
  // delete gives n back.
  static size_t Chunk(size_t n, size_t align) {
    size_t c = std::max<size_t>(32, (n + 8 + 15) & ~size_t{15});
    return align > alignof(std::max_align_t) ? c + align : c;
  }
  static void Free(HeapAccount* a, void* p, size_t n, size_t align) {
    // An unsized delete: the chunk is the usable size + its 8-byte header.
    a->live_ -= static_cast<int64_t>(n != kUnsized ? Chunk(n, align) : malloc_usable_size(p) + 8);
  }
  static constexpr size_t kUnsized = SIZE_MAX;
  static void* Raw(size_t n, size_t align) {
    if (n == 0) n = 1;
    if (align <= alignof(std::max_align_t)) return std::malloc(n);
    void* p = nullptr;
    return posix_memalign(&p, align, n) == 0 ? p : nullptr;
  }
  // A small block the host refused, made after giving back the reserve a
  // block at a time (it may be inside a destructor or a handler, which must
  // not fail); nullptr for a large one or when the reserve is spent.
  static void* FromReserve(size_t n, size_t align) {
    if (n >= kLargeAllocation) return nullptr;
    while (DrawReserve())
      if (void* p = Raw(n, align)) return p;
    return nullptr;
  }
};

namespace {

inline void* Allocate(size_t n, size_t align, bool nothrow) {
  if (HeapAccount* a = t_account) return HeapHooks::Allocate(a, n, align, nothrow);
  void* p = HeapHooks::Raw(n, align);
  if (!p) p = HeapHooks::FromReserve(n, align);
  if (!p && !nothrow) throw std::bad_alloc();
  return p;
}

inline void Release(void* p, size_t n = HeapHooks::kUnsized, size_t align = 0) {
  if (!p) return;
  if (HeapAccount* a = t_account) HeapHooks::Free(a, p, n, align);
  std::free(p);
}

}  // namespace

void HeapAccount::MarkOver(int64_t would_be) {
  over_at_ = std::max(over_at_, static_cast<uint64_t>(std::max<int64_t>(0, would_be)));
  over_ = true;
  if (wake_) wake_->store(true, std::memory_order_relaxed);
}

HeapAccount* CurrentHeapAccount() { return t_account; }

void ThrowHostOutOfMemory(size_t bytes) {
  if (HeapAccount* a = t_account) HeapHooks::HostRefused(a, bytes);
  throw std::bad_alloc();
}

HeapScope::HeapScope(HeapAccount* account) : prev_(t_account) {
  if (account) ArmReserve();
  t_account = account;
}
HeapScope::~HeapScope() { t_account = prev_; }

uint64_t DefaultHeapCeiling() {
  const uint64_t four_gib = uint64_t{4} << 30;
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return four_gib;
  return std::min(four_gib, static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) / 2);
}

uint64_t HeapCeilingFor(std::optional<uint64_t> memory_budget) {
  if (!memory_budget) return DefaultHeapCeiling();
  const uint64_t b = std::min<uint64_t>(*memory_budget, uint64_t{1} << 60);
  return 2 * b + (uint64_t{16} << 20);
}

ir::Breach RealHeapBreach(const HeapAccount& account) {
  return ir::Breach::Over(ir::LimitId::kMemory, account.over_by(), account.ceiling(),
                          ir::kRealHeapSubject);
}

}  // namespace mty::interp

// ---- the replaceable allocation functions ------------------------------------

using mty::interp::Allocate;
using mty::interp::Release;

void* operator new(size_t n) { return Allocate(n, 0, false); }
void* operator new[](size_t n) { return Allocate(n, 0, false); }
void* operator new(size_t n, const std::nothrow_t&) noexcept { return Allocate(n, 0, true); }
void* operator new[](size_t n, const std::nothrow_t&) noexcept { return Allocate(n, 0, true); }
void* operator new(size_t n, std::align_val_t al) {
  return Allocate(n, static_cast<size_t>(al), false);
}
void* operator new[](size_t n, std::align_val_t al) {
  return Allocate(n, static_cast<size_t>(al), false);
}
void* operator new(size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
  return Allocate(n, static_cast<size_t>(al), true);
}
void* operator new[](size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
  return Allocate(n, static_cast<size_t>(al), true);
}

void operator delete(void* p) noexcept { Release(p); }
void operator delete[](void* p) noexcept { Release(p); }
void operator delete(void* p, size_t n) noexcept { Release(p, n); }
void operator delete[](void* p, size_t n) noexcept { Release(p, n); }
void operator delete(void* p, const std::nothrow_t&) noexcept { Release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { Release(p); }
void operator delete(void* p, std::align_val_t) noexcept { Release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { Release(p); }
void operator delete(void* p, size_t n, std::align_val_t al) noexcept {
  Release(p, n, static_cast<size_t>(al));
}
void operator delete[](void* p, size_t n, std::align_val_t al) noexcept {
  Release(p, n, static_cast<size_t>(al));
}
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { Release(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { Release(p); }
