// The exit statuses of `mty` that no limit or trap owns (runtime.md §1,
// docs/cli.md): one table for the API's RunResult::exit_code (kOk, kFailed,
// kNoMain, kUsage), the command line's returns, the cluster's results and
// the man page. A limit's breach exits with its row's code in policy.def
// (3..7, 9) and a trap with its row's code in traps.def (1, 7, 8; 74 and
// 141 for output that cannot be written, which the driver's own files use
// too: ir::OutputTrap).
#pragma once

namespace mty {

// X(name, code, meaning): every status once; the enum and the man page's
// table are made from it. 64..76 are sysexits.h's (EX_USAGE, EX_DATAERR,
// EX_NOINPUT, EX_UNAVAILABLE, EX_CANTCREAT, EX_TEMPFAIL, EX_PROTOCOL); 130
// is 128 + SIGINT.
#define MTY_EXITS(X)                                                                           \
  X(kOk, 0, "main returned (a returned Int is the status, clamped to 0..255)")                 \
  X(kFailed, 1, "a trap, main returned Err, or a compile error")                               \
  X(kNoMain, 2, "no fn main")                                                                  \
  X(kReplayDiverged, 10, "mty replay: the run diverged from its recording")                    \
  X(kUsage, 64, "a usage error")                                                               \
  X(kDataErr, 65,                                                                              \
    "a malformed manifest or recording; mty replay: the program a recording names is not the " \
    "recorded one")                                                                            \
  X(kNoInput, 66, "an input that cannot be read")                                              \
  X(kUnavailable, 69, "mty worker, submit, result: the NATS server cannot be used")            \
  X(kCantCreate, 73, "a trace or recording file that cannot be created (nothing runs)")        \
  X(kTempFail, 75, "mty submit, result: no result within --timeout")                           \
  X(kRejected, 76,                                                                             \
    "mty submit, result: a result refused (unsigned, signed by a key no --verify-key names, "  \
    "altered, or written for another job than the one claimed under its id), or a job id "     \
    "another job holds")                                                                       \
  X(kInterrupted, 130, "interrupted (Ctrl-C)")

enum class Exit : int {
#define MTY_EXIT_ENUM(name, code, meaning) name = code,
  MTY_EXITS(MTY_EXIT_ENUM)
#undef MTY_EXIT_ENUM
};

struct ExitInfo {
  Exit exit;
  const char* meaning;  // for the man page
};

inline constexpr ExitInfo kExits[] = {
#define MTY_EXIT_ROW(name, code, meaning) {Exit::name, meaning},
    MTY_EXITS(MTY_EXIT_ROW)
#undef MTY_EXIT_ROW
};

constexpr int ExitCode(Exit e) { return static_cast<int>(e); }

}  // namespace mty
