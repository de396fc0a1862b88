// `mty repl`: an interactive session (docs/cli.md, REPL). Items typed
// accumulate; each other input runs as a fresh entry function under the
// command line's budgets and grants, with the session's `let` bindings
// passed in as typed values and the new ones returned.
#pragma once

#include <functional>

#include "mty/mty.h"

namespace mty::driver {

struct ReplOptions {
  Policy policy;                       // each input's limits and grants (flags and manifest)
  std::optional<Policy> outer_policy;  // the flags', when a manifest narrows them
  bool deny_is_trap = false;           // --deny-is-trap
  // Called for each event of a run (the denial hints of `mty run`).
  std::function<void(const Event&)> on_event;
};

// Runs the session on standard input until `:quit` or end of input; the
// exit status (0).
int Repl(const ReplOptions& options);

}  // namespace mty::driver
