// libFuzzer target: MtyIR text (parse, verify, compile) and, when it
// compiles, a run under small budgets.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return -1;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto p = mty::Program::FromIrText(text, "fuzz.mtyir");
  if (p.ok()) mty::fuzz::RunSmall(*p);
  return 0;
}
