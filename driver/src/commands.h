// mty's subcommands and their options: the one table the parser, the help,
// the completions and the man page read (args.h). The limit and grant
// options come from the policy table (mty/vocab/policy.def), so they take the
// keys and units of manifests and sandbox blocks.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "args.h"

namespace mty::driver {

const std::vector<CommandSpec>& Commands();
// The flag of a policy key: `mb_policy` -> `mb-policy`.
std::string FlagName(std::string_view key);
// The man page's sections after the commands (exit status, environment).
std::string ManTail();

}  // namespace mty::driver
