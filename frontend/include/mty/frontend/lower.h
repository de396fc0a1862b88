// Lowering: a parsed Mighty module -> MtyIR. Name resolution, the cheap type
// checks (arity, fields, variants, known methods, format! arguments, the
// types of evident values MT2016-MT2019) and mutability checks report
// MT1xxx/MT2xxx/MT3014 errors, with "did you mean" help and labels; a
// program without errors may get warnings (MT8000-MT8003: unused variables,
// unreachable statements, dropped Results), Severity::kWarning in `diags`.
#pragma once

#include "mty/frontend/ast.h"
#include "mty/frontend/diagnostics.h"
#include "mty/ir/host_fns.h"
#include "mty/ir/ir.h"

namespace mty::frontend {

// `host_fns`: the embedder's host functions (`host.kv.get(k)` calls are
// checked against them: name MT1005, arity MT2001, argument types MT2015).
ir::Program Lower(const Module& m, Diagnostics& diags, const ir::HostFnTable* host_fns = nullptr);

// Parse + lower. On errors, diags holds them and the program is empty.
ir::Program CompileSource(const SourceFile& file, Diagnostics& diags,
                          const ir::HostFnTable* host_fns = nullptr);

}  // namespace mty::frontend
