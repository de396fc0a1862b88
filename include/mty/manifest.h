// Manifest files (docs/sandboxing.md, runtime.md §4): a TOML file with one
// [sandbox] table holding the policy table's entries, the same as a
// `sandbox Name with { ... }` block in source. This is the loader
// `mty run --manifest` and `mty check --manifest` use.
#pragma once

#include <cstddef>
#include <string_view>

#include "absl/status/statusor.h"
#include "mty/vocab/policy.h"

namespace mty {

// Limits + grants (ir/policy.h); also in mty/mty.h.
using ir::Policy;

// The largest manifest text LoadManifest accepts (and `mty` reads): 1 MiB.
inline constexpr size_t kMaxManifestBytes = size_t{1} << 20;

// The policy of a manifest's [sandbox] table: the limits and grants it sets
// (an entry it leaves out stays unset). Relative paths are kept as written
// (a run resolves them against the working directory). `file_name` only
// names the text in errors.
//
// Malformed text is kInvalidArgument: the first problem in source order,
// located and naming the key, exactly as `mty run --manifest` prints it:
//   app.toml:3:8: error: manifest key `sandbox.wall`: bad duration "2x" (expected a string like
//   "150ms" or "2s")
// Invalid TOML, a top-level key other than `sandbox`, an unknown entry
// (the message lists the known keys), a value of the wrong type, a bad
// count, size, duration or choice (`mb_policy`: the message lists the
// choices), a value out of range, the same entry under both spellings
// (`memory` and `mem`), a key of more than 64 dotted parts or nesting deeper
// than 64 levels. Text longer than kMaxManifestBytes is kOutOfRange.
absl::StatusOr<Policy> LoadManifest(std::string_view text,
                                    std::string_view file_name = "manifest.toml");

}  // namespace mty
