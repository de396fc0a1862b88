// The trap table's lookups (traps.def).
#include "mty/ir/traps.h"

namespace mty::ir {

const TrapInfo& Trap(TrapCode code) {
  static constexpr TrapInfo kNoTrap{TrapCode::kNone, "", 0, absl::StatusCode::kOk, "no trap"};
  for (const TrapInfo& t : kTraps)
    if (t.code == code) return t;
  return kNoTrap;
}

std::optional<TrapCode> ParseTrapCode(std::string_view text) {
  for (const TrapInfo& t : kTraps)
    if (text == t.text) return t.code;
  return std::nullopt;
}

}  // namespace mty::ir
