// The MtyIR verifier: rejects malformed programs with a located message
// before anything is lowered or run.
#pragma once

#include <string_view>

#include "absl/status/status.h"
#include "mty/ir/ir.h"

namespace mty::ir {

// Whether `cast x as T` is supported for T (the builtin table's casts).
bool IsCastTarget(const Type& t);

// Checks block and local indices, projections, callee names and arities,
// ADT/variant names and field counts, switch targets, builtin names and
// cast targets. Errors read `file:line:col: error: in fn NAME: ...` where
// file is `file_name` (or the program's `source`).
absl::Status Verify(const Program& p, std::string_view file_name);

}  // namespace mty::ir
