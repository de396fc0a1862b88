// libFuzzer target: Mighty source through the whole pipeline (parse, lower,
// compile) and, when it compiles, a run under small budgets.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return -1;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  mty::CompileOptions o;
  o.memory_budget = mty::fuzz::kMemory;
  auto p = mty::Program::FromSource(text, "fuzz.mty", o);
  if (p.ok()) mty::fuzz::RunSmall(*p);
  return 0;
}
