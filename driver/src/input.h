// Reading the files the command line is given (programs and manifests):
// one home for what an input file may be. Only a regular file is read (a
// directory, FIFO, device or socket is refused before any byte is read, so
// `mty run /dev/zero` cannot read forever and a FIFO cannot block), and at
// most `max_bytes`: a larger file is refused with the limit in the message.
#pragma once

#include <cstddef>
#include <string>

#include "absl/status/statusor.h"

namespace mty::driver {

// The file's bytes. An error's message is the reason alone (the caller
// names the file): kNotFound (missing), kFailedPrecondition (a directory or
// not a regular file), kOutOfRange (over max_bytes), kPermissionDenied or
// kUnavailable (any other failure to read).
absl::StatusOr<std::string> ReadInputFile(const std::string& path, size_t max_bytes);

}  // namespace mty::driver
