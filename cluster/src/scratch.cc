#include "scratch.h"

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "mty/vocab/policy.h"

namespace mty::cluster {

namespace {

absl::Status Errno(const char* what, const std::string& path) {
  return absl::InternalError(absl::StrCat(what, " ", path, ": ", std::strerror(errno)));
}

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

// The name of the first subdirectory of the directory `fd`, after unlinking
// every other entry seen before it (files, symlinks, sockets); "" when the
// directory is empty then.
absl::StatusOr<std::string> ClearFiles(int fd) {
  int copy = dup(fd);
  if (copy < 0) return Errno("dup", "");
  DIR* d = fdopendir(copy);
  if (!d) {
    close(copy);
    return Errno("fdopendir", "");
  }
  std::string sub;
  absl::Status st;
  while (dirent* e = readdir(d)) {
    if (!std::strcmp(e->d_name, ".") || !std::strcmp(e->d_name, "..")) continue;
    bool is_dir = e->d_type == DT_DIR;
    if (e->d_type == DT_UNKNOWN) {
      struct stat s;
      is_dir = fstatat(fd, e->d_name, &s, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(s.st_mode);
    }
    if (is_dir) {
      sub = e->d_name;
      break;
    }
    if (unlinkat(fd, e->d_name, 0) != 0 && errno != ENOENT) {
      st = Errno("unlink", e->d_name);
      break;
    }
  }
  closedir(d);
  if (!st.ok()) return st;
  return sub;
}

}  // namespace

absl::Status IsolateThreadFs() {
  if (unshare(CLONE_FS) != 0)
    return absl::InternalError(
        absl::StrCat("cannot give a job thread its own working directory (unshare CLONE_FS): ",
                     std::strerror(errno)));
  umask(077);
  return absl::OkStatus();
}

absl::Status RemoveTree(int parent_fd, const std::string& name) {
  int fd = openat(parent_fd, name.c_str(), kDirFlags);
  if (fd < 0) {
    if (errno == ENOENT) return absl::OkStatus();
    if (errno != ENOTDIR && errno != ELOOP) return Errno("open", name);
    // A file, or a symlink: the link itself goes.
    if (unlinkat(parent_fd, name.c_str(), 0) != 0 && errno != ENOENT) return Errno("unlink", name);
    return absl::OkStatus();
  }
  // The directories entered below `name`, and the identity of each level
  // (`name` first), to check that `..` leads back where we came from.
  std::vector<std::string> names;
  std::vector<std::pair<dev_t, ino_t>> ids;
  struct stat s;
  if (fstat(fd, &s) != 0) {
    close(fd);
    return Errno("stat", name);
  }
  ids.emplace_back(s.st_dev, s.st_ino);
  for (;;) {
    absl::StatusOr<std::string> sub = ClearFiles(fd);
    if (!sub.ok()) {
      close(fd);
      return sub.status();
    }
    if (!sub->empty()) {
      int child = openat(fd, sub->c_str(), kDirFlags);
      if (child < 0) {
        absl::Status st = Errno("open", *sub);
        close(fd);
        return st;
      }
      if (fstat(child, &s) != 0) {
        close(child);
        close(fd);
        return Errno("stat", *sub);
      }
      close(fd);
      fd = child;
      names.push_back(std::move(*sub));
      ids.emplace_back(s.st_dev, s.st_ino);
      continue;
    }
    // This directory is empty now.
    if (names.empty()) {
      close(fd);
      if (unlinkat(parent_fd, name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT)
        return Errno("remove", name);
      return absl::OkStatus();
    }
    int up = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    close(fd);
    if (up < 0) return Errno("open", "..");
    ids.pop_back();
    if (fstat(up, &s) != 0 || std::pair(s.st_dev, s.st_ino) != ids.back()) {
      close(up);
      return absl::AbortedError(
          absl::StrCat("a directory in ", name, " was moved while it was removed: stopped"));
    }
    if (unlinkat(up, names.back().c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT) {
      absl::Status st = Errno("remove", names.back());
      close(up);
      return st;
    }
    names.pop_back();
    fd = up;
  }
}

// ---- ScratchRoot ---------------------------------------------------------------

absl::StatusOr<std::unique_ptr<ScratchRoot>> ScratchRoot::Make(std::string base) {
  if (base.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    base = tmp && *tmp ? tmp : "/tmp";
  }
  char* real = realpath(base.c_str(), nullptr);
  if (!real)
    return absl::InvalidArgumentError(absl::StrCat("--scratch ", base, ": ", std::strerror(errno)));
  std::string resolved = real;
  std::free(real);
  std::unique_ptr<ScratchRoot> r(new ScratchRoot());
  r->parent_fd_ = open(resolved.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (r->parent_fd_ < 0)
    return absl::InvalidArgumentError(absl::StrCat("--scratch ", base, ": ", std::strerror(errno)));
  std::string templ = absl::StrCat(resolved == "/" ? "" : resolved, "/mty-worker-XXXXXX");
  if (!mkdtemp(templ.data()))
    return absl::InvalidArgumentError(absl::StrCat(
        "--scratch ", base, ": cannot create a directory in it: ", std::strerror(errno)));
  r->path_ = templ;
  r->name_ = templ.substr(templ.rfind('/') + 1);
  r->fd_ = openat(r->parent_fd_, r->name_.c_str(), kDirFlags);
  if (r->fd_ < 0) return Errno("open", templ);
  return r;
}

ScratchRoot::~ScratchRoot() {
  if (fd_ >= 0) close(fd_);
  if (parent_fd_ >= 0) {
    (void)RemoveTree(parent_fd_, name_);
    close(parent_fd_);
  }
}

// ---- JobScratch ----------------------------------------------------------------

absl::StatusOr<std::unique_ptr<JobScratch>> JobScratch::Enter(const ScratchRoot& root) {
  std::string templ = absl::StrCat(root.path(), "/job-XXXXXX");
  if (!mkdtemp(templ.data())) return Errno("create", templ);
  std::unique_ptr<JobScratch> j(new JobScratch());
  j->root_ = &root;
  j->path_ = templ;
  j->name_ = templ.substr(templ.rfind('/') + 1);
  int fd = openat(root.fd(), j->name_.c_str(), kDirFlags);
  if (fd < 0 || fchdir(fd) != 0) {
    absl::Status st = Errno("enter", templ);
    if (fd >= 0) close(fd);
    return st;  // the destructor removes it
  }
  close(fd);
  return j;
}

absl::Status JobScratch::Remove() {
  if (removed_) return absl::OkStatus();
  removed_ = true;
  if (fchdir(root_->fd()) != 0) return Errno("leave", path_);
  return RemoveTree(root_->fd(), name_);
}

JobScratch::~JobScratch() { (void)Remove(); }

// ---- Grants --------------------------------------------------------------------

absl::Status CheckWorkerGrants(const Policy& worker, const std::string& scratch_root) {
  // Relative roots are checked against a stand-in scratch directory.
  const std::string s = absl::StrCat(scratch_root, "/job");
  for (GrantId id : {GrantId::kFsRead, GrantId::kFsWrite}) {
    const auto& roots = worker.grants.Get(id);
    if (!roots) continue;
    const char* key = ir::Grant(id).key;
    for (const std::string& r : *roots) {
      if (!r.empty() && r[0] != '/') {
        if (!ir::PathWithin(s, ir::NormalizePath(absl::StrCat(s, "/", r))))
          return absl::InvalidArgumentError(
              absl::StrCat("the worker's ", key, " root \"", r,
                           "\" leaves the job's scratch directory (relative roots are inside it)"));
        continue;
      }
      if (id == GrantId::kFsWrite)
        return absl::InvalidArgumentError(absl::StrCat(
            "the worker's fs.write root \"", r,
            "\" is outside the jobs' scratch directories, so every job could write it and read "
            "what others wrote: write roots are relative to each job's scratch directory "
            "(\"."
            "\" is the whole of it)"));
      std::string lexical = ir::NormalizePath(r), resolved = lexical;
      if (char* real = realpath(lexical.c_str(), nullptr)) {
        resolved = real;
        std::free(real);
      }
      for (const std::string& p : {lexical, resolved})
        if (ir::PathWithin(p, scratch_root) || ir::PathWithin(scratch_root, p))
          return absl::InvalidArgumentError(absl::StrCat(
              "the worker's fs.read root \"", r, "\" overlaps the scratch directory ", scratch_root,
              ", so jobs could read each other's files: choose another --scratch"));
    }
  }
  return absl::OkStatus();
}

Policy RebaseFsRoots(Policy p, const std::string& scratch) {
  for (GrantId id : {GrantId::kFsRead, GrantId::kFsWrite}) {
    const auto& roots = p.grants.Get(id);
    if (!roots) continue;
    std::vector<std::string> out;
    for (const std::string& r : *roots) {
      std::string abs =
          !r.empty() && r[0] != '/' ? ir::NormalizePath(absl::StrCat(scratch, "/", r)) : r;
      if (!abs.empty()) out.push_back(std::move(abs));
    }
    p.grants.Set(id, std::move(out));
  }
  return p;
}

}  // namespace mty::cluster
