// SlotIndex (the map's key index): against std::unordered_map over random
// inserts and erases (linear probing with backward-shift deletion), with
// colliding hashes, and a copy that is independent of its source.
#include "mty/interp/slot_index.h"

#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

#include "gtest/gtest.h"

namespace mty::interp {
namespace {

// Keys are uint64s; slot s holds keys[s].
struct Model {
  SlotIndex index;
  std::vector<uint64_t> keys;
  std::unordered_map<uint64_t, uint32_t> ref;
  uint32_t (*hash)(uint64_t);

  uint32_t Find(uint64_t k) const {
    return index.Find(hash(k), [&](uint32_t s) { return keys[s] == k; });
  }
  void Insert(uint64_t k) {
    const auto s = static_cast<uint32_t>(keys.size());
    keys.push_back(k);
    index.Insert(hash(k), s);
    ref[k] = s;
  }
  void Erase(uint64_t k) {
    index.Erase(hash(k), ref.at(k));
    ref.erase(k);
  }
  void Check() const {
    ASSERT_EQ(index.size(), ref.size());
    for (const auto& [k, s] : ref) ASSERT_EQ(Find(k), s) << k;
  }
};

uint32_t GoodHash(uint64_t k) { return SlotIndex::Mix(k); }
uint32_t FewHashes(uint64_t k) { return SlotIndex::Mix(k % 5); }           // long runs, same hash
uint32_t SameHome(uint64_t k) { return static_cast<uint32_t>(k & 0xff); }  // all home to 0

void RandomOps(uint32_t (*hash)(uint64_t), int ops) {
  Model m;
  m.hash = hash;
  std::mt19937_64 rng(42);
  for (int i = 0; i < ops; ++i) {
    const uint64_t k = rng() % 600;
    if (m.ref.count(k)) {
      if (rng() % 3 == 0) m.Erase(k);
    } else {
      m.Insert(k);
    }
    if (i % 97 == 0) m.Check();
    ASSERT_EQ(m.Find(1000 + k), SlotIndex::kNone);  // never inserted
  }
  m.Check();
}

TEST(SlotIndex, MatchesAReferenceMap) { RandomOps(GoodHash, 20000); }
TEST(SlotIndex, CollidingHashes) { RandomOps(FewHashes, 5000); }
TEST(SlotIndex, EveryKeyHomesToOneBucket) { RandomOps(SameHome, 5000); }

TEST(SlotIndex, EmptyFindsNothing) {
  SlotIndex i;
  EXPECT_TRUE(i.empty());
  EXPECT_EQ(i.Find(7, [](uint32_t) { return true; }), SlotIndex::kNone);
}

TEST(SlotIndex, CopyIsIndependent) {
  Model a;
  a.hash = GoodHash;
  for (uint64_t k = 0; k < 100; ++k) a.Insert(k);
  Model b = a;
  for (uint64_t k = 0; k < 50; ++k) b.Erase(k);
  a.Check();
  b.Check();
  EXPECT_EQ(a.index.size(), 100u);
  EXPECT_EQ(b.index.size(), 50u);
  a.index.Clear();
  EXPECT_TRUE(a.index.empty());
  b.Check();
}

}  // namespace
}  // namespace mty::interp
