// The trap table's lookups (traps.def).
#include "mty/vocab/traps.h"

#include <cerrno>

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

TrapCode OutputTrap(int err) { return err == EPIPE ? TrapCode::kOutputClosed : TrapCode::kOutput; }

const char* OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kOk: return "ok";
    case Outcome::kMainErr: return "main returned Err";
    case Outcome::kTrap: return "trap";
    case Outcome::kBreach: return "budget exceeded";
    case Outcome::kCancelled: return "cancelled";
    case Outcome::kEscalated: return "escalated";
    case Outcome::kNoEntry: return "no entry function";
    case Outcome::kInvalid: return "invalid options";
    case Outcome::kSuspended: return "suspended";
    case Outcome::kPreempted: return "preempted";
    case Outcome::kDeadlinePassed: return "deadline passed";
  }
  return "unknown";
}

}  // namespace mty::ir
