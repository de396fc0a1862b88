// Reading the files the command line is given (programs and manifests):
// one home for what an input file may be. Only a regular file is read (a
// directory, FIFO, device or socket is refused before any byte is read, so
// `mty run /dev/zero` cannot read forever and a FIFO cannot block), and at
// most `max_bytes`: a larger file is refused with the limit in the message.
#pragma once

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"
#include "mty/manifest.h"

namespace mty::driver {

// The file's bytes. An error's message is the reason alone (the caller
// names the file): kNotFound (missing), kFailedPrecondition (a directory or
// not a regular file), kOutOfRange (over max_bytes), kPermissionDenied or
// kUnavailable (any other failure to read).
absl::StatusOr<std::string> ReadInputFile(const std::string& path, size_t max_bytes);
// Standard input to its end (`mty run -`), at most `max_bytes` (the same
// error when it is longer).
absl::StatusOr<std::string> ReadStandardInput(size_t max_bytes);

// Reads a manifest file (at most mty::kMaxManifestBytes) and loads it with
// mty::LoadManifest, naming the file in errors. Malformed text is
// kInvalidArgument (`app.toml:3:8: error: ...`); a file that cannot be read
// keeps ReadInputFile's code: `app.toml: error: cannot read manifest file:
// No such file or directory`.
absl::StatusOr<mty::Policy> LoadManifestFile(const std::string& path);

}  // namespace mty::driver
