// FsCap: a file-system capability (a set of allowed roots) and the file
// operations performed through it, safe against `..`, symlink, prefix and
// check-then-use (TOCTOU) escapes. Also the process-wide default caps.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace mty::stdlib {

struct FileMetadata {
  int64_t size = 0;
  bool is_file = false;
  bool is_dir = false;
  int64_t mtime_ms = 0;
};

// Errors of the operations below are typed so callers can tell denial,
// absence and failure apart:
//   kPermissionDenied  the path is outside every root (nothing was touched)
//   kNotFound          the path (or a parent) does not exist
//   kInvalidArgument   the path holds a NUL byte: "io: invalid path" (the
//                      kernel would cut the path there); nothing was touched
//   kInternal          any other I/O failure (message: strerror and path);
//                      a path ending in `/` whose file is not a directory is
//                      "io: not a directory: <path>"
class FsCap {
 public:
  // Allows everything.
  static FsCap Unrestricted();
  // Allows each root and everything below it. Roots are made absolute
  // against the current working directory, normalised (`.`, `..`, repeated
  // `/`) and, when they exist, resolved through symlinks once, here. An
  // empty list allows nothing.
  static FsCap Rooted(std::vector<std::string> roots);
  // Allows nothing.
  static FsCap None() { return Rooted({}); }

  bool unrestricted() const { return unrestricted_; }
  const std::vector<std::string>& roots() const { return roots_; }

  // Whether `path` is inside a root: made absolute and normalised, its
  // longest existing prefix resolved through symlinks, then matched by whole
  // path components (`/data` does not allow `/database`).
  bool Check(std::string_view path) const;

  // A capability never wider than this one: `sub` (made absolute) if it is
  // inside this cap, else a cap that allows nothing.
  FsCap Narrow(std::string_view sub) const;

  // What both caps allow: each root of one that lies at or below a root of
  // the other (roots are symlink-resolved, so a root that is a link out of
  // the other cap does not survive). Never wider than either.
  FsCap Intersect(const FsCap& other) const;

  // Operations. Each resolves `path` against the roots and performs the
  // access relative to the root's directory fd with no symlink able to lead
  // outside it (openat2 + RESOLVE_BENEATH where the kernel has it, an
  // O_NOFOLLOW component walk otherwise), so a symlink swapped in after a
  // check cannot redirect the access.
  // Reads at most `max_bytes`: a larger file (by its size, or by what it
  // held when it grew while being read) is kResourceExhausted, with its
  // size in *too_large, and no more than max_bytes + 1 bytes are read.
  absl::StatusOr<std::string> ReadFile(std::string_view path, uint64_t max_bytes = UINT64_MAX,
                                       uint64_t* too_large = nullptr) const;
  // Creates or truncates (append=false) / appends to the file; never creates
  // parent directories.
  absl::Status WriteFile(std::string_view path, std::string_view data, bool append) const;
  absl::StatusOr<bool> Exists(std::string_view path) const;
  // Sorted entry names (no "." or "..").
  absl::StatusOr<std::vector<std::string>> ListDir(std::string_view path) const;
  absl::StatusOr<FileMetadata> Metadata(std::string_view path) const;
  // Creates the directory and missing parents, all inside a root.
  absl::Status CreateDirAll(std::string_view path) const;
  absl::Status RemoveFile(std::string_view path) const;
  absl::Status RemoveDirAll(std::string_view path) const;

  // A human-readable form: `unrestricted`, `none`, or the roots joined by ", ".
  std::string ToString() const;

 private:
  bool unrestricted_ = false;
  std::vector<std::string> roots_;  // absolute, normalised, symlink-resolved
};

// OK, or "io: invalid path" (kInvalidArgument) for a path holding a NUL byte.
// Every operation checks it first; hosts check it before any grant.
absl::Status CheckPathText(std::string_view path);

// The process-wide default caps (the original design's mechanism). Host
// dispatch uses the cap of the call or of the active run first and falls
// back to these. Thread-safe; each host call takes one snapshot. Both start
// as FsCap::None() (deny by default).
FsCap InstallDefaultReadCap(FsCap cap);   // returns the previous cap
FsCap InstallDefaultWriteCap(FsCap cap);  // returns the previous cap
FsCap CurrentDefaultReadCap();
FsCap CurrentDefaultWriteCap();

// Installs default caps for its lifetime and restores the previous ones.
class ScopedDefaultCaps {
 public:
  ScopedDefaultCaps(FsCap read, FsCap write);
  ~ScopedDefaultCaps();
  ScopedDefaultCaps(const ScopedDefaultCaps&) = delete;
  ScopedDefaultCaps& operator=(const ScopedDefaultCaps&) = delete;

 private:
  FsCap prev_read_;
  FsCap prev_write_;
};

}  // namespace mty::stdlib
