// The exit statuses of `mty` that no limit or trap owns (runtime.md §1,
// docs/cli.md): one table for the API's RunResult::exit_code (kOk, kFailed,
// kNoMain, kUsage), the command line's returns, the cluster's results and
// the man page. A limit's breach exits with its row's code in policy.def
// (3..7, 9) and a trap with its row's code in traps.def (1, 7, 8; 74 and
// 141 for output that cannot be written, which the driver's own files use
// too: ir::OutputTrap).
#pragma once

namespace mty {

enum class Exit : int {
  kOk = 0,
  kFailed = 1,           // a trap, main returned Err, or a compile error
  kNoMain = 2,           // no fn main
  kReplayDiverged = 10,  // mty replay did not reproduce the recording
  kUsage = 64,           // a usage error (EX_USAGE)
  kDataErr = 65,         // a malformed manifest or recording (EX_DATAERR)
  kNoInput = 66,         // an input that cannot be read (EX_NOINPUT)
  kUnavailable = 69,     // no NATS server to be reached (EX_UNAVAILABLE)
  kCantCreate = 73,      // --trace-file or --record cannot be created (EX_CANTCREAT)
  kTempFail = 75,        // mty submit / result: no result within --timeout (EX_TEMPFAIL)
  kRejected = 76,        // mty submit / result: a result or id not this job's (EX_PROTOCOL)
  kInterrupted = 130,    // Ctrl-C (128 + SIGINT)
};

struct ExitInfo {
  Exit exit;
  const char* meaning;  // for the man page
};

inline constexpr ExitInfo kExits[] = {
    {Exit::kOk, "main returned (a returned Int is the status, clamped to 0..255)"},
    {Exit::kFailed, "a trap, main returned Err, or a compile error"},
    {Exit::kNoMain, "no fn main"},
    {Exit::kReplayDiverged, "mty replay: the run diverged from its recording"},
    {Exit::kUsage, "a usage error"},
    {Exit::kDataErr,
     "a malformed manifest or recording; mty replay: the program a recording names is not the "
     "recorded one"},
    {Exit::kNoInput, "an input that cannot be read"},
    {Exit::kUnavailable, "mty worker, submit, result: the NATS server cannot be used"},
    {Exit::kCantCreate, "a trace or recording file that cannot be created (nothing runs)"},
    {Exit::kTempFail, "mty submit, result: no result within --timeout"},
    {Exit::kRejected,
     "mty submit, result: a result refused (unsigned, signed by a key no --verify-key names, "
     "altered, or written for another job than the one claimed under its id), or a job id "
     "another job holds"},
    {Exit::kInterrupted, "interrupted (Ctrl-C)"},
};

constexpr int ExitCode(Exit e) { return static_cast<int>(e); }

}  // namespace mty
