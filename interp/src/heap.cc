// The accounting allocator (mty/interp/heap.h): the replaceable global
// operator new and delete, counting into this thread's HeapAccount.
#include "mty/interp/heap.h"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <new>

namespace mty::interp {

namespace {

thread_local HeapAccount* t_account = nullptr;
thread_local int t_no_refuse = 0;  // HeapNoRefuse scopes open on this thread

}  // namespace

struct HeapHooks {
  // The counted path: refuse what would pass the ceiling when it must not
  // be made, count the block's usable size.
  static void* Allocate(HeapAccount* a, size_t n, size_t align, bool nothrow) {
    const int64_t want = static_cast<int64_t>(std::min<size_t>(n, INT64_MAX / 4));
    if (a->live_ + want > a->ceiling_ && (a->strict_ || n >= kLargeAllocation) &&
        t_no_refuse == 0) {
      a->MarkOver(a->live_ + want);
      if (nothrow) return nullptr;
      throw std::bad_alloc();
    }
    void* p = Raw(n, align);
    if (!p) {
      if (nothrow) return nullptr;
      throw std::bad_alloc();
    }
    a->live_ += static_cast<int64_t>(Chunk(n, align));
    if (a->live_ > a->peak_) {
      a->peak_ = a->live_;
      if (a->live_ > a->ceiling_) a->MarkOver(a->live_);
    }
    return p;
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
};

namespace {

inline void* Allocate(size_t n, size_t align, bool nothrow) {
  if (HeapAccount* a = t_account) return HeapHooks::Allocate(a, n, align, nothrow);
  void* p = HeapHooks::Raw(n, align);
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

HeapNoRefuse::HeapNoRefuse() { ++t_no_refuse; }
HeapNoRefuse::~HeapNoRefuse() { --t_no_refuse; }

HeapScope::HeapScope(HeapAccount* account) : prev_(t_account) { t_account = account; }
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
