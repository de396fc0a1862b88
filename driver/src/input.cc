#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <system_error>

#include "absl/strings/str_cat.h"
#include "mty/vocab/policy.h"

namespace mty::driver {

namespace {

absl::Status Failed(int err) {
  std::string msg = std::generic_category().message(err);
  if (err == ENOENT || err == ENOTDIR) return absl::NotFoundError(msg);
  if (err == EACCES || err == EPERM) return absl::PermissionDeniedError(msg);
  return absl::UnavailableError(msg);
}

absl::Status TooLarge(size_t max_bytes) {
  return absl::OutOfRangeError(
      absl::StrCat("larger than the limit of ", ir::FormatQuantity(ir::Unit::kSize, max_bytes)));
}

// Reads `fd` to its end, at most max_bytes (one more is an error): the size
// of a file may change while it is read.
absl::StatusOr<std::string> ReadToEnd(int fd, size_t expected, size_t max_bytes) {
  std::string text;
  text.resize(expected);
  size_t got = 0;
  for (;;) {
    if (got == text.size()) {
      if (text.size() > max_bytes) return TooLarge(max_bytes);
      text.resize(std::min(max_bytes + 1, std::max<size_t>(text.size() * 2, 4096)));
    }
    ssize_t n = read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Failed(errno);
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  if (got > max_bytes) return TooLarge(max_bytes);
  text.resize(got);
  return text;
}

}  // namespace

absl::StatusOr<std::string> ReadInputFile(const std::string& path, size_t max_bytes) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Failed(errno);
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  struct stat st;
  if (fstat(fd, &st) != 0) return Failed(errno);
  if (!S_ISREG(st.st_mode))
    return absl::FailedPreconditionError(S_ISDIR(st.st_mode) ? "Is a directory"
                                                             : "not a regular file");
  if (static_cast<uint64_t>(st.st_size) > max_bytes) return TooLarge(max_bytes);
  return ReadToEnd(fd, static_cast<size_t>(st.st_size), max_bytes);
}

absl::StatusOr<std::string> ReadStandardInput(size_t max_bytes) {
  return ReadToEnd(STDIN_FILENO, 0, max_bytes);
}

absl::StatusOr<mty::Policy> LoadManifestFile(const std::string& path) {
  auto text = ReadInputFile(path, mty::kMaxManifestBytes);
  if (!text.ok())
    return absl::Status(
        text.status().code(),
        absl::StrCat(path, ": error: cannot read manifest file: ", text.status().message()));
  return mty::LoadManifest(*text, path);
}

}  // namespace mty::driver
