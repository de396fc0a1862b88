// Trap codes (runtime.md §1), generated from traps.def: the enum every layer
// passes around instead of `"MT5xxx"` strings, and its table of texts, exit
// codes and status codes.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "absl/status/status.h"

namespace mty::ir {

enum class TrapCode : uint16_t {
  kNone = 0,  // no trap
#define TRAP(id, number, exit, status, doc) k##id = number,
#include "mty/ir/traps.def"
#undef TRAP
};

struct TrapInfo {
  TrapCode code;
  const char* text;  // "MT5001"
  int exit_code;     // `mty run` exit when this trap ends the run
  absl::StatusCode status;
  const char* doc;  // "panic: ..."
};

// Every trap code, in the order of traps.def.
inline constexpr TrapInfo kTraps[] = {
#define TRAP(id, number, exit, status, doc) \
  {TrapCode::k##id, "MT" #number, exit, absl::StatusCode::status, doc},
#include "mty/ir/traps.def"
#undef TRAP
};

// The row of `code` (kNone has none: text "", exit 0, status kOk).
const TrapInfo& Trap(TrapCode code);
// "MT5016" ("" for kNone). Texts are `const char*`: Debian's Abseil has its
// own string_view, which absl::StrCat takes and std::string_view is not.
inline const char* TrapText(TrapCode code) { return Trap(code).text; }
// "MT5016" -> kType; nullopt for anything that is not a trap code.
std::optional<TrapCode> ParseTrapCode(std::string_view text);

}  // namespace mty::ir
