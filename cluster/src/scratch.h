// Job isolation on a worker (docs/scaling.md, "Job isolation"): each job
// runs in a fresh scratch directory, its working directory, that holds every
// root it may write, and is removed when the job ends, whatever the outcome.
#pragma once

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mty/mty.h"

namespace mty::cluster {

// Gives the calling thread its own working directory and umask
// (unshare(CLONE_FS)), umask 077: a job's relative paths are resolved
// against its own scratch directory, never another thread's.
absl::Status IsolateThreadFs();

// Removes `name` beneath the directory `parent_fd` and everything in it
// without following any symlink (a link is removed, never what it points
// to) and holding at most three descriptors whatever the depth. A directory
// moved while it is removed stops the removal (kAborted). OK when `name`
// does not exist.
absl::Status RemoveTree(int parent_fd, const std::string& name);

// A worker's scratch directory: `base/mty-worker-XXXXXX`, mode 0700,
// removed with all it holds by the destructor.
class ScratchRoot {
 public:
  // `base` "": $TMPDIR, else /tmp. `base` must be an existing directory.
  static absl::StatusOr<std::unique_ptr<ScratchRoot>> Make(std::string base);
  ~ScratchRoot();
  ScratchRoot(const ScratchRoot&) = delete;
  ScratchRoot& operator=(const ScratchRoot&) = delete;
  const std::string& path() const { return path_; }  // symlink-resolved, absolute
  int fd() const { return fd_; }

 private:
  ScratchRoot() = default;
  std::string path_;
  int parent_fd_ = -1, fd_ = -1;
  std::string name_;
};

// A job's scratch directory: `root/job-XXXXXX`, mode 0700, the calling
// thread's working directory while this lives (after IsolateThreadFs; else
// the process's). Remove (or the destructor) moves back to the root and
// removes the directory (RemoveTree).
class JobScratch {
 public:
  static absl::StatusOr<std::unique_ptr<JobScratch>> Enter(const ScratchRoot& root);
  ~JobScratch();
  JobScratch(const JobScratch&) = delete;
  JobScratch& operator=(const JobScratch&) = delete;
  const std::string& path() const { return path_; }
  // Leaves and removes the directory now, saying how that went (the
  // destructor then does nothing more).
  absl::Status Remove();

 private:
  JobScratch() = default;
  const ScratchRoot* root_ = nullptr;
  std::string path_, name_;
  bool removed_ = false;
};

// The worker's file grants checked against job isolation: every fs.write
// root and every relative fs.read root must stay inside the job's scratch
// directory (`.` is the whole of it); an absolute fs.read root (shared
// read-only data) must not hold the scratch root nor lie in it.
// kInvalidArgument naming the root.
absl::Status CheckWorkerGrants(const Policy& worker, const std::string& scratch_root);

// The fs roots of `p` with each relative root made absolute against
// `scratch` (lexically normalised: `a/../b` is `scratch/b`).
Policy RebaseFsRoots(Policy p, const std::string& scratch);

}  // namespace mty::cluster
