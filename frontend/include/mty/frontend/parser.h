// Lexer and parser: Mighty source -> AST, with error recovery (several
// diagnostics per run where sensible). User macros are expanded here.
#pragma once

#include <string>

#include "mty/frontend/ast.h"
#include "mty/frontend/diagnostics.h"

namespace mty::frontend {

// Parses a whole file. Errors go to `diags` (MT0xxx codes); the returned
// module holds whatever parsed (callers stop when diags.HasErrors()).
Module Parse(const SourceFile& file, Diagnostics& diags);

// A readable, stable dump of the AST (`mty dump --ast`).
std::string DumpAst(const Module& m);

}  // namespace mty::frontend
