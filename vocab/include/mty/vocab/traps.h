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
#include "mty/vocab/traps.def"
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
#include "mty/vocab/traps.def"
#undef TRAP
};

// The row of `code` (kNone has none: text "", exit 0, status kOk).
const TrapInfo& Trap(TrapCode code);
// "MT5016" ("" for kNone). Texts are `const char*`: Debian's Abseil has its
// own string_view, which absl::StrCat takes and std::string_view is not.
inline const char* TrapText(TrapCode code) { return Trap(code).text; }
// "MT5016" -> kType; nullopt for anything that is not a trap code.
std::optional<TrapCode> ParseTrapCode(std::string_view text);
// The trap a failed write of an output ends with, from its errno: MT5024
// when the reader went away (EPIPE), MT5023 for anything else (ENOSPC,
// EFBIG, EIO, EBADF, ...). One rule for the run's stdout and stderr and
// for the files mty writes itself.
TrapCode OutputTrap(int err);

// How a run ended: one enum from the interpreter's loop up to the API's
// result (docs/runtime.md). Each case carries its own details: a trap its
// TrapCode, a breach its ir::Breach (which limit, which sandbox).
enum class Outcome : uint8_t {
  kOk,         // the entry function returned a value
  kMainErr,    // the entry function returned Err(e) (MT5006, exit 1)
  kTrap,       // a trap: code, message, backtrace
  kBreach,     // a limit went over: the breach says which (and which sandbox)
  kCancelled,  // interrupted by the host
  kEscalated,  // a supervisor escalated at the top (MT5013, MT5014 for a restart limit)
  kNoEntry,    // the entry function does not exist (exit 2)
  kInvalid,    // the embedder's options or entry arguments are invalid (kInvalidArgument, exit 64)
  // A task's Run() also stops before its end, which is never a run's result:
  kSuspended,       // it waits (an ask, a full mailbox, `suspend`); Run() resumes
  kPreempted,       // its scheduler quantum ran out; Run() resumes
  kDeadlinePassed,  // the deadline set by Task::SetCancelDeadline passed (a late handler)
};
const char* OutcomeName(Outcome o);

}  // namespace mty::ir
