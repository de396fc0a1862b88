// libFuzzer target: manifest text through mty::LoadManifest (the shape
// check, toml++, the policy table's keys and values).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "mty/manifest.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 64 * 1024) return -1;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)mty::LoadManifest(text, "fuzz.toml");
  return 0;
}
