// FsCap: a file-system capability (a set of allowed roots) and the file
// operations performed through it, safe against `..`, symlink, prefix and
// check-then-use (TOCTOU) escapes. Also the process-wide default caps.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mty/interp/fs_grant.h"

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
//   kInternal          any other I/O failure (message: strerror and path),
//                      a symlink loop among them ("io: <path>: Too many
//                      levels of symbolic links"); a path ending in `/`
//                      whose file is not a directory is "io: not a
//                      directory: <path>"
//
// A root is held as a directory handle opened when the host granted it (its
// `base`) and, beneath it, a path with no symlink in it (`pending`: empty
// for a directory the grant opened, the name of a granted file, or
// components that did not exist yet). Every operation opens the pending
// part beneath the base refusing any symlink, then the request beneath that
// with RESOLVE_BENEATH: nothing outside the root is ever reached, whatever
// links the paths pass through or are swapped in. A narrower cap (Narrow) is
// resolved beneath this one's handles when it is made, so it can never name
// what this one could not open (docs/security.md, "Resolution").
class FsCap : public interp::FsGrant {
 public:
  // Allows everything.
  static FsCap Unrestricted();
  // A host's grant: allows each root and everything below it. Roots are made
  // absolute against the current working directory, normalised (`.`, `..`,
  // repeated `/`), resolved through symlinks once, here (the host trusts its
  // own links), and opened. An empty list allows nothing.
  static FsCap Rooted(std::vector<std::string> roots);
  // Allows nothing.
  static FsCap None() { return FsCap(); }

  bool unrestricted() const { return unrestricted_; }
  // The roots' resolved absolute paths.
  std::vector<std::string> roots() const;

  // Whether `path` is inside a root: made absolute and normalised, then
  // matched by whole path components (`/data` does not allow `/database`)
  // against the roots' resolved paths (after resolving the request's
  // existing prefix through symlinks) or as the roots were granted.
  bool Check(std::string_view path) const;

  // A capability never wider than this one: `sub`, resolved beneath this
  // cap's handles now (symlinks followed only while they stay beneath the
  // root they start in); a cap that allows nothing when it cannot be.
  FsCap Narrow(std::string_view sub) const;
  FsCap Narrow(const std::vector<std::string>& subs) const;

  // What both caps allow: each root of one that lies at or below a root of
  // the other (by resolved path; each keeps its own handle). Never wider
  // than either.
  FsCap Intersect(const FsCap& other) const;

  // interp::FsGrant.
  bool Admits(std::string_view path) const override { return Check(path); }
  std::shared_ptr<const interp::FsGrant> NarrowGrant(
      const std::vector<std::string>& paths) const override;
  std::string ToString() const override;

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
  // parent directories. `admit`, when given, is asked once the path is
  // located inside the grant and before the file is opened (nothing is
  // created or truncated when it says no: then kAborted): the caller's
  // charge for the write, so the access is checked once.
  absl::Status WriteFile(std::string_view path, std::string_view data, bool append,
                         const std::function<bool()>& admit = {}) const;
  absl::StatusOr<bool> Exists(std::string_view path) const;
  // Sorted entry names (no "." or "..").
  absl::StatusOr<std::vector<std::string>> ListDir(std::string_view path) const;
  absl::StatusOr<FileMetadata> Metadata(std::string_view path) const;
  // Creates the directory and missing parents, all inside a root.
  absl::Status CreateDirAll(std::string_view path) const;
  absl::Status RemoveFile(std::string_view path) const;
  absl::Status RemoveDirAll(std::string_view path) const;

  struct Root;  // fs_cap.cc

 private:
  bool unrestricted_ = false;
  std::vector<std::shared_ptr<const Root>> roots_;
};

// The host's source of grants for a run's tracker chain: a run's lists are
// resolved by FsCap::Rooted, a family no tracker lists falls back to the
// process-wide default cap below (one snapshot per call).
std::shared_ptr<const interp::FsGrantSource> HostFsGrants();

// What an fs grant of the tracker chain or of a capability value is: the
// FsCap behind it (FsCap is the only implementation), or none for nullptr.
FsCap CapOf(const interp::FsGrant* grant);

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
