// Lowering: a parsed Mighty module -> MtyIR. Name resolution, the cheap type
// checks (arity, fields, variants, known methods, format! arguments) and
// mutability checks report MT1xxx/MT2xxx/MT3014 diagnostics.
#pragma once

#include "mty/frontend/ast.h"
#include "mty/frontend/diagnostics.h"
#include "mty/ir/ir.h"

namespace mty::frontend {

ir::Program Lower(const Module& m, Diagnostics& diags);

// Parse + lower. On errors, diags holds them and the program is empty.
ir::Program CompileSource(const SourceFile& file, Diagnostics& diags);

}  // namespace mty::frontend
