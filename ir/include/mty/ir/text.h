// The MtyIR text format (.mtyir): parser and printer. See docs/ir.md.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "mty/ir/ir.h"
#include "mty/vocab/policy.h"  // kMaxProgramBytes

namespace mty::ir {

// Parses .mtyir text. Errors are `file:line:col: error: message`
// (kInvalidArgument). Statement and terminator locations default to their
// position in this text unless the text gives an explicit `@line:col`.
absl::StatusOr<Program> ParseText(std::string_view text, std::string_view file_name);

// Prints a program in the canonical text form. Round-trip exact:
// PrintText(*ParseText(PrintText(p))) == PrintText(p).
std::string PrintText(const Program& p);

// Pieces of the printer, shared with diagnostics and the disassembler.
std::string PrintType(const Type& t);
std::string PrintConstant(const Constant& c);
std::string PrintPlace(const Place& p);
std::string PrintOperand(const Operand& o);
std::string PrintRvalue(const Rvalue& r);
// `sandbox "Name" { steps = 1000, fs.read = ["./in"] }` (one line).
std::string PrintSandbox(const SandboxDecl& d);

// Canonical spellings of durations (`150ms`) and sizes (`64KiB`).
std::string FormatDuration(int64_t ns);
std::string FormatSize(int64_t bytes);
// Parses `88B`, `64KiB`, `1MiB`, ... (binary units; `k`/`M` decimal).
absl::StatusOr<int64_t> ParseSize(std::string_view text);
// Parses `10ns`, `5us`, `150ms`, `2s`, `3m`, `1h`.
absl::StatusOr<int64_t> ParseDuration(std::string_view text);

// Quotes a string with the escapes of the text format.
std::string QuoteString(std::string_view s);

}  // namespace mty::ir
