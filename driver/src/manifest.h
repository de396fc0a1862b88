// Manifest files for `mty run --manifest app.toml` (docs/runtime.md §4): a
// TOML file with one [sandbox] table holding the same entries as a
// `sandbox Name with { ... }` block in source.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "mty/mty.h"

namespace mty::driver {

// The [sandbox] table of a manifest file: the policy table's entries (an
// unset limit or grant is not in the manifest).
using Manifest = mty::Policy;

// Parses manifest text; `file_name` is used in error messages. The first
// error (in source order) is kInvalidArgument, located and naming the key:
// `app.toml:3:8: error: manifest key `sandbox.wall`: bad duration "2x" ...`.
absl::StatusOr<Manifest> ParseManifest(std::string_view text, std::string_view file_name);

// Reads and parses a file. A missing file is kNotFound, any other unreadable
// file kInvalidArgument; both name the file.
absl::StatusOr<Manifest> LoadManifest(const std::string& path);

}  // namespace mty::driver
