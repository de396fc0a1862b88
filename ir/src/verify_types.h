// The verifier's type pass (verify_types.cc), run by Verify after the
// structural checks: declared types against the values stored, passed and
// operated on.
#pragma once

#include <string_view>

#include "absl/status/status.h"
#include "mty/ir/ir.h"

namespace mty::ir {

absl::Status VerifyTypes(const Program& p, const ProgramIndex& index, std::string_view file);

}  // namespace mty::ir
