// What every fuzz target runs a compiled program under: small budgets on
// every limit, no grants, output discarded. A run must end by itself (the
// wall budget) and never crash, abort or exceed the real-bytes ceiling.
#pragma once

#include <memory>

#include "mty/mty.h"

namespace mty::fuzz {

// The memory budget of the runs; compiling is held to its real-heap
// ceiling too (CompileOptions::memory_budget).
inline constexpr uint64_t kMemory = 1 << 20;

inline void RunSmall(const std::shared_ptr<const Program>& p) {
  RunOptions o;
  o.policy.limits.Set(LimitId::kSteps, 20000);
  o.policy.limits.Set(LimitId::kMemory, kMemory);
  o.policy.limits.Set(LimitId::kWall, 1'000'000'000);  // 1 s
  o.policy.limits.Set(LimitId::kDepth, 200);
  o.policy.limits.Set(LimitId::kSpawned, 50);
  o.policy.limits.Set(LimitId::kMailbox, 100);
  o.policy.limits.Set(LimitId::kOutput, 1 << 16);
  o.policy.grants = Grants{};  // deny everything
  (void)p->Run(o);
}

}  // namespace mty::fuzz
