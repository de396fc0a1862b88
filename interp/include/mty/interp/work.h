// The work counter (runtime.md §2, "Steps measure work"). Every built-in
// operation whose work grows with its operands adds what it really did (the
// bytes and elements it read, wrote, copied, hashed or compared, and the
// iterations of its internal loops) to a count per thread. The step charges
// are computed separately, from the operands' sizes, before the work; tests
// check over an adversarial corpus that a run's work stays within 64 x the
// steps it was charged plus a small constant, i.e. that no operation does
// more than its charge pays for. Counting is one thread-local add per
// operation, so it is part of every build: the tests measure the code that
// ships.
#pragma once

#include <cstdint>

namespace mty::interp {

namespace internal {
extern thread_local uint64_t g_work_units;
}  // namespace internal

// The work this thread's runs did since the thread started or the last reset.
inline uint64_t WorkUnits() { return internal::g_work_units; }
inline void ResetWorkUnits() { internal::g_work_units = 0; }

}  // namespace mty::interp

#define MTY_WORK(n) (::mty::interp::internal::g_work_units += static_cast<uint64_t>(n))
