// The index of an insertion-ordered map (MapObj): from a key's hash to the
// slot that holds the key. Open addressing with linear probing; a bucket
// holds the key's 32-bit hash and its slot, never the key (the key lives
// once, in the map's entry), so a bucket is 8 bytes.
//
// Exception safety is the reason it exists: growing allocates the new table
// before it changes anything, so a std::bad_alloc (the run's real-heap
// ceiling, or the host out of memory) leaves the index as it was and the
// map can still be released. absl's tables update their capacity before
// allocating: a failed resize left a table that crashed when destroyed.
#ifndef MTY_INTERP_SLOT_INDEX_H_
#define MTY_INTERP_SLOT_INDEX_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

namespace mty::interp {

class SlotIndex {
 public:
  SlotIndex() = default;
  SlotIndex(const SlotIndex& o) { *this = o; }
  SlotIndex& operator=(const SlotIndex& o) {
    if (this == &o) return *this;
    std::unique_ptr<Bucket[]> b;
    if (o.cap_) {
      b.reset(new Bucket[o.cap_]);
      std::memcpy(b.get(), o.b_.get(), o.cap_ * sizeof(Bucket));
    }
    b_ = std::move(b);
    cap_ = o.cap_;
    shift_ = o.shift_;
    count_ = o.count_;
    return *this;
  }

  size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }

  // A key's 32-bit hash from its full hash: the high bits of a Fibonacci
  // mix, so the bucket (the hash's top bits) depends on every input bit.
  static uint32_t Mix(size_t h) {
    return static_cast<uint32_t>((static_cast<uint64_t>(h) * 0x9E3779B97F4A7C15ull) >> 32);
  }

  // The slot s with hash h for which is_key(s), or kNone.
  static constexpr uint32_t kNone = UINT32_MAX;
  template <typename IsKey>
  uint32_t Find(uint32_t h, IsKey&& is_key) const {
    if (!count_) return kNone;
    for (size_t i = Home(h);; i = Next(i)) {
      const Bucket& b = b_[i];
      if (b.slot == kNone) return kNone;
      if (b.hash == h && is_key(b.slot)) return b.slot;
    }
  }

  // Adds slot (not in the index) under hash h. Only growing allocates; if
  // it throws, nothing has changed.
  void Insert(uint32_t h, uint32_t slot) {
    if ((count_ + 1) * 4 > cap_ * 3) Grow();
    Place({h, slot});
    ++count_;
  }

  // Removes slot (in the index under hash h); moves later buckets of its
  // run back, so no tombstones are left.
  void Erase(uint32_t h, uint32_t slot) {
    size_t i = Home(h);
    while (b_[i].slot != slot) i = Next(i);
    for (size_t j = Next(i);; j = Next(j)) {
      if (b_[j].slot == kNone) break;
      // Bucket j may move to the hole at i when its home is not in (i, j].
      const size_t home = Home(b_[j].hash);
      const bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (stays) continue;
      b_[i] = b_[j];
      i = j;
    }
    b_[i].slot = kNone;
    --count_;
  }

  void Clear() {
    b_.reset();
    cap_ = 0;
    shift_ = 32;
    count_ = 0;
  }

 private:
  struct Bucket {
    uint32_t hash;
    uint32_t slot;  // kNone: empty
  };

  size_t Home(uint32_t h) const { return static_cast<size_t>(h) >> shift_; }
  size_t Next(size_t i) const { return (i + 1) & (cap_ - 1); }

  void Place(Bucket nb) {
    size_t i = Home(nb.hash);
    while (b_[i].slot != kNone) i = Next(i);
    b_[i] = nb;
  }

  void Grow() {
    const size_t cap = cap_ ? cap_ * 2 : 8;
    std::unique_ptr<Bucket[]> fresh(new Bucket[cap]);  // the only throw
    for (size_t i = 0; i < cap; ++i) fresh[i].slot = kNone;
    std::unique_ptr<Bucket[]> old = std::move(b_);
    const size_t old_cap = cap_;
    b_ = std::move(fresh);
    cap_ = cap;
    shift_ = 32 - static_cast<uint32_t>(__builtin_ctzll(cap));
    for (size_t i = 0; i < old_cap; ++i)
      if (old[i].slot != kNone) Place(old[i]);
  }

  std::unique_ptr<Bucket[]> b_;
  size_t cap_ = 0;
  uint32_t shift_ = 32;
  uint32_t count_ = 0;
};

}  // namespace mty::interp

#endif  // MTY_INTERP_SLOT_INDEX_H_
