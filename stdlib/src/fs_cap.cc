// FsCap: root matching and file operations confined beneath a root's directory fd
// (openat2 + RESOLVE_BENEATH, else an O_NOFOLLOW walk), and the process-wide default caps.
#include "mty/stdlib/fs_cap.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "mty/ir/policy.h"

namespace mty::stdlib {

namespace internal {
// Test hook (declared by the tests, not in the header): forces the O_NOFOLLOW
// component walk even where the kernel has openat2.
void SetOpenat2DisabledForTesting(bool disabled);
}  // namespace internal

namespace {

constexpr int64_t kMaxReadBytes = int64_t{1} << 30;  // 1 GiB

std::atomic<bool> g_openat2_missing{false};  // set on the first ENOSYS
std::atomic<bool> g_openat2_disabled_for_test{false};

// Owns a file descriptor.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      Reset();
      fd_ = std::exchange(o.fd_, -1);
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { Reset(); }

  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  void Reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

// ---- Error shapes ----------------------------------------------------------

absl::Status Forbidden(std::string_view given) {
  return absl::PermissionDeniedError(absl::StrCat("forbidden: ", std::string(given)));
}

absl::Status NotADirectory(std::string_view given) {
  return absl::InternalError(absl::StrCat("io: not a directory: ", std::string(given)));
}

absl::Status NotFound(std::string_view given) {
  return absl::NotFoundError(absl::StrCat("not_found: ", std::string(given)));
}

absl::Status Io(std::string_view given, int err) {
  return absl::InternalError(absl::StrCat("io: ", std::string(given), ": ", std::strerror(err)));
}

// EXDEV (openat2 left the root) and ELOOP (a symlink met where none may be,
// or a magic link) are denials; ENOENT/ENOTDIR are absence; the rest is I/O.
absl::Status ErrnoStatus(int err, std::string_view given) {
  switch (err) {
    case EXDEV:
    case ELOOP: return Forbidden(given);
    case ENOENT:
    case ENOTDIR: return NotFound(given);
    default: return Io(given, err);
  }
}

// ---- Lexical paths ----------------------------------------------------------

std::vector<std::string> Components(std::string_view path) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (j > i) out.emplace_back(path.substr(i, j - i));
    i = j + 1;
  }
  return out;
}

std::string JoinAbsolute(const std::vector<std::string>& comps, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) absl::StrAppend(&out, "/", comps[i]);
  return out.empty() ? "/" : out;
}

std::string Append(const std::string& dir, const std::string& name) {
  return dir == "/" ? absl::StrCat("/", name) : absl::StrCat(dir, "/", name);
}

// Absolute against the cwd and lexically normalised: the policy table's one
// normaliser ("" for an empty path, a NUL byte or no cwd).
std::string Normalize(std::string_view path) { return ir::NormalizePath(path); }

// Resolves the longest prefix of a normalised absolute path that realpath can
// resolve, then appends the remaining components unchanged.
// Resolving is monotone in the prefix (a prefix of a resolvable path
// resolves), so the longest one is found by bisection: O(log n) realpath
// calls for n components, never one per component.
std::string ResolveExistingPrefix(const std::string& norm) {
  std::vector<std::string> comps = Components(norm);
  auto resolve = [&](size_t keep) -> std::optional<std::string> {
    char* real = ::realpath(JoinAbsolute(comps, keep).c_str(), nullptr);
    if (real == nullptr) return std::nullopt;
    std::string out = real;
    std::free(real);
    return out;
  };
  std::optional<std::string> best = resolve(comps.size());
  size_t keep = comps.size();
  if (!best) {
    size_t lo = 0, hi = comps.size();  // prefix lo resolves (0: "/"), prefix hi does not
    best = resolve(0);
    if (!best) return norm;
    while (hi - lo > 1) {
      size_t mid = lo + (hi - lo) / 2;
      if (std::optional<std::string> r = resolve(mid)) {
        lo = mid;
        best = std::move(r);
      } else {
        hi = mid;
      }
    }
    keep = lo;
  }
  std::string out = std::move(*best);
  for (size_t i = keep; i < comps.size(); ++i) {
    if (out != "/") out += '/';
    out += comps[i];
  }
  return out;
}

// As above, but leaves the last component unresolved (removal acts on a link,
// not on its target).
std::string ResolveParent(const std::string& norm) {
  std::vector<std::string> comps = Components(norm);
  if (comps.empty()) return "/";
  std::string parent = ResolveExistingPrefix(JoinAbsolute(comps, comps.size() - 1));
  return Append(parent, comps.back());
}

// `path` relative to `root` when `root` contains it by whole components.
std::optional<std::string> RelativeTo(const std::string& root, const std::string& path) {
  if (root == "/") return path.substr(1);
  if (path == root) return std::string();
  if (path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
      path[root.size()] == '/') {
    return path.substr(root.size() + 1);
  }
  return std::nullopt;
}

std::pair<std::string, std::string> SplitLast(const std::string& rel) {
  size_t slash = rel.rfind('/');
  if (slash == std::string::npos) return {"", rel};
  return {rel.substr(0, slash), rel.substr(slash + 1)};
}

// ---- Locating and opening -------------------------------------------------

// Where an operation happens: `rel` (no `..`, no empty components; "" is the
// root itself) beneath `root`. `confined` is false for unrestricted caps.
struct Target {
  std::string root;
  std::string rel;
  bool confined = true;
  // The path as given ends in `/` (or `/.`): it names a directory, so a file
  // there is "not a directory" as the kernel would say (normalising drops
  // the slash, so each operation checks it).
  bool names_dir = false;
};

bool EndsAsDirectory(std::string_view given) {
  return given.ends_with('/') || given.ends_with("/.") || given == ".";
}

absl::StatusOr<Target> Locate(const FsCap& cap, std::string_view given, bool follow_final) {
  // A NUL would cut the path short at the system call: refused first.
  if (absl::Status text = CheckPathText(given); !text.ok()) return text;
  // The kernel takes no longer path (PATH_MAX): refused before any work.
  if (given.size() >= PATH_MAX) return Io(given, ENAMETOOLONG);
  std::string norm = Normalize(given);
  if (norm.empty()) return Forbidden(given);
  std::string resolved = follow_final ? ResolveExistingPrefix(norm) : ResolveParent(norm);
  const bool names_dir = EndsAsDirectory(given);
  if (cap.unrestricted()) return Target{"/", resolved.substr(1), false, names_dir};
  const std::string* best = nullptr;
  std::string rel;
  for (const std::string& root : cap.roots()) {
    std::optional<std::string> r = RelativeTo(root, resolved);
    if (r && (best == nullptr || root.size() > best->size())) {
      best = &root;
      rel = std::move(*r);
    }
  }
  if (best == nullptr) return Forbidden(given);
  return Target{*best, std::move(rel), true, names_dir};
}

absl::StatusOr<Fd> OpenRoot(const Target& t, std::string_view given) {
  int fd = ::open(t.root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, given);
  return Fd(fd);
}

bool IsSymlinkAt(int dirfd, const std::string& name) {
  struct stat st;
  return ::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
}

// The fallback: one openat per component with O_NOFOLLOW. It refuses every
// symlink (-EXDEV, a denial). `rel` was symlink-resolved when it was located,
// so a symlink here was swapped in afterwards.
int WalkOpen(int rootfd, const std::string& rel, int flags, mode_t mode) {
  std::vector<std::string> comps = Components(rel);
  if (comps.empty()) {
    int fd = ::openat(rootfd, ".", flags, mode);
    return fd >= 0 ? fd : -errno;
  }
  Fd owned;
  int cur = rootfd;
  for (size_t i = 0; i + 1 < comps.size(); ++i) {
    int next = ::openat(cur, comps[i].c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (next < 0) {
      int err = errno;
      if ((err == ENOTDIR || err == ELOOP) && IsSymlinkAt(cur, comps[i])) return -EXDEV;
      return -err;
    }
    owned = Fd(next);
    cur = next;
  }
  const std::string& last = comps.back();
  int fd = ::openat(cur, last.c_str(), flags | O_NOFOLLOW, mode);
  if (fd < 0) {
    int err = errno;
    if (err == ELOOP || (err == ENOTDIR && IsSymlinkAt(cur, last))) return -EXDEV;
    return -err;
  }
  if (flags & O_PATH) {  // O_PATH|O_NOFOLLOW opens a link itself: refuse it
    struct stat st;
    if (::fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)) {
      ::close(fd);
      return -EXDEV;
    }
  }
  return fd;
}

// Opens `rel` beneath `rootfd`; returns an fd or -errno. Confined opens never
// resolve outside the root, whatever symlinks are swapped in meanwhile.
int OpenBeneath(int rootfd, const std::string& rel, int flags, mode_t mode, bool confined) {
  const char* p = rel.empty() ? "." : rel.c_str();
  flags |= O_CLOEXEC;
  if (!(flags & O_CREAT)) mode = 0;
  if (!confined) {
    int fd = ::openat(rootfd, p, flags, mode);
    return fd >= 0 ? fd : -errno;
  }
  if (!g_openat2_missing.load(std::memory_order_relaxed) &&
      !g_openat2_disabled_for_test.load(std::memory_order_relaxed)) {
    struct open_how how;
    std::memset(&how, 0, sizeof how);
    how.flags = static_cast<uint64_t>(flags);
    how.mode = mode;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    for (int attempt = 0; attempt < 16; ++attempt) {
      long fd = ::syscall(SYS_openat2, rootfd, p, &how, sizeof how);
      if (fd >= 0) return static_cast<int>(fd);
      if (errno == EINTR || errno == EAGAIN) continue;  // EAGAIN: a racing rename; retry
      if (errno != ENOSYS) return -errno;
      g_openat2_missing.store(true, std::memory_order_relaxed);
      break;
    }
    if (!g_openat2_missing.load(std::memory_order_relaxed)) return -EAGAIN;
  }
  return WalkOpen(rootfd, rel, flags, mode);
}

// Opens the root and then `t.rel` beneath it; a raw fd or -errno. A grant
// may name a file (`--allow-read=data.txt`) or a file a write is to create:
// when the target is the root itself and the root is no directory, it is
// opened from its parent by its one name, beneath that parent and with no
// symlink followed (the root was resolved when it was granted, so a link
// there now was swapped in).
absl::StatusOr<int> OpenFromRoot(const Target& t, std::string_view given, int flags, mode_t mode) {
  absl::StatusOr<Fd> root = OpenRoot(t, given);
  if (root.ok()) return OpenBeneath(root->get(), t.rel, flags, mode, t.confined);
  if (!t.rel.empty() || t.root == "/" || !absl::IsNotFound(root.status())) return root.status();
  auto [dir, name] = SplitLast(t.root.substr(1));
  std::string parent = absl::StrCat("/", dir);
  int pfd = ::open(parent.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (pfd < 0) return ErrnoStatus(errno, given);
  Fd owned(pfd);
  return OpenBeneath(owned.get(), name, flags, mode, true);
}

absl::StatusOr<Fd> OpenTarget(const Target& t, std::string_view given, int flags, mode_t mode = 0) {
  absl::StatusOr<int> fd = OpenFromRoot(t, given, flags, mode);
  if (!fd.ok()) return fd.status();
  if (*fd < 0) return ErrnoStatus(-*fd, given);
  return Fd(*fd);
}

// For a path that ends in `/`: what it names, when it exists, must be a
// directory (a symlink to one is followed, beneath the root). Absence is
// left to the operation to report; any other failure is the result.
absl::Status CheckNamesDirectory(const Target& t, std::string_view given) {
  if (!t.names_dir) return absl::OkStatus();
  absl::StatusOr<Fd> fd = OpenTarget(t, given, O_PATH);
  if (!fd.ok()) return absl::IsNotFound(fd.status()) ? absl::OkStatus() : fd.status();
  struct stat st;
  if (::fstat(fd->get(), &st) == 0 && !S_ISDIR(st.st_mode)) return NotADirectory(given);
  return absl::OkStatus();
}

absl::Status NotRegular(std::string_view given) {
  return absl::InternalError(absl::StrCat("io: not a regular file: ", std::string(given)));
}

// Opens a file to read or write its bytes: only a regular file. The open is
// non-blocking, so a FIFO, a device or a socket never makes it wait (for a
// writer, a reader, a carrier); each is refused, like a directory.
absl::StatusOr<Fd> OpenRegular(const Target& t, std::string_view given, int flags,
                               mode_t mode = 0) {
  absl::StatusOr<int> opened = OpenFromRoot(t, given, flags | O_NONBLOCK, mode);
  if (!opened.ok()) return opened.status();
  int raw = *opened;
  if (raw == -ENXIO) return NotRegular(given);  // a FIFO without a reader, a socket
  if (raw < 0) return ErrnoStatus(-raw, given);
  Fd fd(raw);
  struct stat st;
  if (::fstat(fd.get(), &st) != 0) return Io(given, errno);
  if (S_ISDIR(st.st_mode)) return Io(given, EISDIR);
  if (!S_ISREG(st.st_mode)) return NotRegular(given);
  int fl = ::fcntl(fd.get(), F_GETFL);
  if (fl >= 0) ::fcntl(fd.get(), F_SETFL, fl & ~O_NONBLOCK);
  return fd;
}

// The directory holding the target and the target's name in it. For the root
// itself that is the root's parent (trusted like the root path).
absl::StatusOr<std::pair<Fd, std::string>> OpenParent(const Target& t, std::string_view given) {
  if (t.rel.empty()) {
    if (t.root == "/") return Forbidden(given);
    auto [dir, name] = SplitLast(t.root.substr(1));
    std::string parent = absl::StrCat("/", dir);
    int fd = ::open(parent.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return ErrnoStatus(errno, given);
    return std::make_pair(Fd(fd), name);
  }
  auto [dir, name] = SplitLast(t.rel);
  absl::StatusOr<Fd> parent =
      OpenTarget(Target{t.root, dir, t.confined}, given, O_PATH | O_DIRECTORY);
  if (!parent.ok()) return parent.status();
  return std::make_pair(std::move(*parent), name);
}

// Removes `name` in `parent` and everything below it; never follows a symlink
// (a link is unlinked, its target untouched).
absl::Status RemoveTree(int parent, const std::string& name, std::string_view given) {
  int fd = ::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    int err = errno;
    if (err == ENOTDIR || err == ELOOP) {  // a file or a link: unlink it
      if (::unlinkat(parent, name.c_str(), 0) == 0 || errno == ENOENT) return absl::OkStatus();
      return Io(given, errno);
    }
    if (err == ENOENT) return absl::OkStatus();  // removed meanwhile
    return Io(given, err);
  }
  DIR* d = ::fdopendir(fd);
  if (d == nullptr) {
    int err = errno;
    ::close(fd);
    return Io(given, err);
  }
  std::vector<std::string> names;
  while (struct dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(std::move(n));
  }
  absl::Status status;
  for (const std::string& n : names) {
    status = RemoveTree(::dirfd(d), n, given);
    if (!status.ok()) break;
  }
  ::closedir(d);
  if (!status.ok()) return status;
  if (::unlinkat(parent, name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT) {
    return Io(given, errno);
  }
  return absl::OkStatus();
}

// ---- Default caps ---------------------------------------------------------

struct DefaultCaps {
  absl::Mutex mu;
  FsCap read ABSL_GUARDED_BY(mu) = FsCap::None();
  FsCap write ABSL_GUARDED_BY(mu) = FsCap::None();
};

DefaultCaps& Defaults() {
  static DefaultCaps* caps = new DefaultCaps();
  return *caps;
}

}  // namespace

namespace internal {
void SetOpenat2DisabledForTesting(bool disabled) { g_openat2_disabled_for_test.store(disabled); }
}  // namespace internal

// ---- FsCap ----------------------------------------------------------------

FsCap FsCap::Unrestricted() {
  FsCap cap;
  cap.unrestricted_ = true;
  return cap;
}

FsCap FsCap::Rooted(std::vector<std::string> roots) {
  FsCap cap;
  for (const std::string& r : roots) {
    std::string norm = Normalize(r);  // "" (an empty root) allows nothing
    if (norm.empty()) continue;
    if (norm == "/") return Unrestricted();  // the whole file system
    std::string resolved = ResolveExistingPrefix(norm);
    if (std::find(cap.roots_.begin(), cap.roots_.end(), resolved) == cap.roots_.end()) {
      cap.roots_.push_back(std::move(resolved));
    }
  }
  return cap;
}

absl::Status CheckPathText(std::string_view path) {
  if (path.find('\0') != std::string_view::npos)
    return absl::InvalidArgumentError("io: invalid path");
  return absl::OkStatus();
}

bool FsCap::Check(std::string_view path) const { return Locate(*this, path, true).ok(); }

FsCap FsCap::Narrow(std::string_view sub) const {
  std::string norm = Normalize(sub);
  if (norm.empty()) return None();
  std::string resolved = ResolveExistingPrefix(norm);
  bool inside = unrestricted_;
  for (const std::string& root : roots_) inside = inside || RelativeTo(root, resolved).has_value();
  if (!inside) return None();
  FsCap cap;
  cap.roots_.push_back(std::move(resolved));
  return cap;
}

FsCap FsCap::Intersect(const FsCap& other) const {
  if (unrestricted_) return other;
  if (other.unrestricted_) return *this;
  FsCap cap;
  auto keep = [&](const std::vector<std::string>& mine, const std::vector<std::string>& theirs) {
    for (const std::string& r : mine) {
      bool inside = false;
      for (const std::string& o : theirs) inside = inside || RelativeTo(o, r).has_value();
      if (inside && std::find(cap.roots_.begin(), cap.roots_.end(), r) == cap.roots_.end())
        cap.roots_.push_back(r);
    }
  };
  keep(roots_, other.roots_);
  keep(other.roots_, roots_);
  return cap;
}

absl::StatusOr<std::string> FsCap::ReadFile(std::string_view path, uint64_t max_bytes,
                                            uint64_t* too_large) const {
  absl::StatusOr<Target> t = Locate(*this, path, true);
  if (!t.ok()) return t.status();
  absl::StatusOr<Fd> fd = OpenRegular(*t, path, O_RDONLY);
  if (!fd.ok()) return fd.status();
  if (t->names_dir) return NotADirectory(path);  // a regular file, named as a directory
  struct stat st;
  if (::fstat(fd->get(), &st) != 0) return Io(path, errno);
  if (st.st_size > kMaxReadBytes) {
    return absl::InternalError(absl::StrCat("io: ", std::string(path), ": file too large"));
  }
  auto over = [&](uint64_t size) {
    if (too_large) *too_large = size;
    return absl::ResourceExhaustedError(
        absl::StrCat("io: ", std::string(path), ": ", size, " bytes, more than the budget allows"));
  };
  // The budget is checked before any byte is read.
  if (static_cast<uint64_t>(st.st_size) > max_bytes) return over(static_cast<uint64_t>(st.st_size));
  std::string out;
  out.reserve(static_cast<size_t>(st.st_size));
  char buf[65536];
  for (;;) {
    // Never more than max_bytes + 1 (the file may grow while it is read).
    const uint64_t left = max_bytes - std::min<uint64_t>(max_bytes, out.size());
    const uint64_t room = left == UINT64_MAX ? left : left + 1;
    ssize_t n = ::read(fd->get(), buf, static_cast<size_t>(std::min<uint64_t>(sizeof buf, room)));
    if (n < 0) {
      if (errno == EINTR) continue;
      return Io(path, errno);
    }
    if (n == 0) break;
    out.append(buf, static_cast<size_t>(n));
    if (out.size() > max_bytes) return over(out.size());
    if (static_cast<int64_t>(out.size()) > kMaxReadBytes) {
      return absl::InternalError(absl::StrCat("io: ", std::string(path), ": file too large"));
    }
  }
  return out;
}

absl::Status FsCap::WriteFile(std::string_view path, std::string_view data, bool append) const {
  absl::StatusOr<Target> t = Locate(*this, path, true);
  if (!t.ok()) return t.status();
  if (t->names_dir) {
    // Never creates a file by a name that ends in `/` (the kernel's EISDIR).
    if (absl::Status s = CheckNamesDirectory(*t, path); !s.ok()) return s;
    return Io(path, EISDIR);
  }
  int flags = O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC);
  absl::StatusOr<Fd> fd = OpenRegular(*t, path, flags, 0666);
  if (!fd.ok()) return fd.status();
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::write(fd->get(), data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Io(path, errno);
    }
    done += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> FsCap::Exists(std::string_view path) const {
  absl::StatusOr<Target> t = Locate(*this, path, true);
  if (!t.ok()) return t.status();
  absl::StatusOr<Fd> fd = OpenTarget(*t, path, O_PATH);
  if (fd.ok()) {
    struct stat st;
    if (t->names_dir && ::fstat(fd->get(), &st) == 0 && !S_ISDIR(st.st_mode))
      return NotADirectory(path);
    return true;
  }
  if (absl::IsNotFound(fd.status())) return false;
  return fd.status();
}

absl::StatusOr<std::vector<std::string>> FsCap::ListDir(std::string_view path) const {
  absl::StatusOr<Target> t = Locate(*this, path, true);
  if (!t.ok()) return t.status();
  if (absl::Status s = CheckNamesDirectory(*t, path); !s.ok()) return s;
  absl::StatusOr<Fd> fd = OpenTarget(*t, path, O_RDONLY | O_DIRECTORY);
  if (!fd.ok()) {
    // Listing a file is a failure, not an absence: tell them apart.
    if (fd.status().code() == absl::StatusCode::kNotFound) {
      absl::StatusOr<FileMetadata> m = Metadata(path);
      if (m.ok() && !m->is_dir) return Io(path, ENOTDIR);
    }
    return fd.status();
  }
  DIR* d = ::fdopendir(fd->get());
  if (d == nullptr) return Io(path, errno);
  fd->release();
  std::vector<std::string> names;
  errno = 0;
  while (struct dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(std::move(n));
  }
  int err = errno;
  ::closedir(d);
  if (err != 0) return Io(path, err);
  std::sort(names.begin(), names.end());
  return names;
}

absl::StatusOr<FileMetadata> FsCap::Metadata(std::string_view path) const {
  absl::StatusOr<Target> t = Locate(*this, path, true);
  if (!t.ok()) return t.status();
  absl::StatusOr<Fd> fd = OpenTarget(*t, path, O_PATH);
  if (!fd.ok()) return fd.status();
  struct stat st;
  if (::fstat(fd->get(), &st) != 0) return Io(path, errno);
  if (t->names_dir && !S_ISDIR(st.st_mode)) return NotADirectory(path);
  FileMetadata m;
  m.size = static_cast<int64_t>(st.st_size);
  m.is_file = S_ISREG(st.st_mode);
  m.is_dir = S_ISDIR(st.st_mode);
  m.mtime_ms = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
  return m;
}

absl::Status FsCap::CreateDirAll(std::string_view path) const {
  absl::StatusOr<Target> t = Locate(*this, path, true);
  if (!t.ok()) return t.status();
  if (absl::Status s = CheckNamesDirectory(*t, path); !s.ok()) return s;
  absl::StatusOr<Fd> cur = OpenRoot(*t, path);  // the root itself is never created
  if (!cur.ok()) return cur.status();
  Fd dir = std::move(*cur);
  int nofollow = t->confined ? O_NOFOLLOW : 0;
  for (const std::string& c : Components(t->rel)) {
    if (::mkdirat(dir.get(), c.c_str(), 0777) != 0 && errno != EEXIST) {
      return ErrnoStatus(errno, path);
    }
    int next = ::openat(dir.get(), c.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC | nofollow);
    if (next < 0) {
      int err = errno;
      if (t->confined && (err == ELOOP || err == ENOTDIR) && IsSymlinkAt(dir.get(), c)) {
        return Forbidden(path);
      }
      return err == ENOTDIR ? Io(path, err) : ErrnoStatus(err, path);
    }
    dir = Fd(next);
  }
  return absl::OkStatus();
}

absl::Status FsCap::RemoveFile(std::string_view path) const {
  absl::StatusOr<Target> t = Locate(*this, path, false);
  if (!t.ok()) return t.status();
  if (t->names_dir) {
    // A name that ends in `/` is never a file to remove: a file there is not
    // a directory, a directory (or a link to one) is not removed by this call.
    absl::StatusOr<Target> followed = Locate(*this, path, true);
    if (!followed.ok()) return followed.status();
    if (absl::Status s = CheckNamesDirectory(*followed, path); !s.ok()) return s;
    absl::StatusOr<Fd> fd = OpenTarget(*followed, path, O_PATH);
    if (!fd.ok()) return fd.status();
    return Io(path, EISDIR);
  }
  auto parent = OpenParent(*t, path);
  if (!parent.ok()) return parent.status();
  if (::unlinkat(parent->first.get(), parent->second.c_str(), 0) != 0) {
    return ErrnoStatus(errno, path);
  }
  return absl::OkStatus();
}

absl::Status FsCap::RemoveDirAll(std::string_view path) const {
  absl::StatusOr<Target> t = Locate(*this, path, false);
  if (!t.ok()) return t.status();
  // A root itself cannot be removed through the cap (create_dir_all cannot
  // create one either): the grant covers what is below it.
  if (t->confined && t->rel.empty()) return Forbidden(path);
  if (t->names_dir) {  // what the path names (through a link) must be a directory
    absl::StatusOr<Target> followed = Locate(*this, path, true);
    if (!followed.ok()) return followed.status();
    if (absl::Status s = CheckNamesDirectory(*followed, path); !s.ok()) return s;
  }
  auto parent = OpenParent(*t, path);
  if (!parent.ok()) return parent.status();
  int pfd = parent->first.get();
  const std::string& name = parent->second;
  struct stat st;
  if (::fstatat(pfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return ErrnoStatus(errno, path);
  if (S_ISLNK(st.st_mode)) {  // the link itself, never its target
    if (::unlinkat(pfd, name.c_str(), 0) != 0) return ErrnoStatus(errno, path);
    return absl::OkStatus();
  }
  if (!S_ISDIR(st.st_mode)) return Io(path, ENOTDIR);
  return RemoveTree(pfd, name, path);
}

std::string FsCap::ToString() const {
  if (unrestricted_) return "unrestricted";
  if (roots_.empty()) return "none";
  return absl::StrJoin(roots_, ", ");
}

// ---- Default caps ---------------------------------------------------------

FsCap InstallDefaultReadCap(FsCap cap) {
  DefaultCaps& d = Defaults();
  absl::MutexLock lock(&d.mu);
  return std::exchange(d.read, std::move(cap));
}

FsCap InstallDefaultWriteCap(FsCap cap) {
  DefaultCaps& d = Defaults();
  absl::MutexLock lock(&d.mu);
  return std::exchange(d.write, std::move(cap));
}

FsCap CurrentDefaultReadCap() {
  DefaultCaps& d = Defaults();
  absl::MutexLock lock(&d.mu);
  return d.read;
}

FsCap CurrentDefaultWriteCap() {
  DefaultCaps& d = Defaults();
  absl::MutexLock lock(&d.mu);
  return d.write;
}

ScopedDefaultCaps::ScopedDefaultCaps(FsCap read, FsCap write)
    : prev_read_(InstallDefaultReadCap(std::move(read))),
      prev_write_(InstallDefaultWriteCap(std::move(write))) {}

ScopedDefaultCaps::~ScopedDefaultCaps() {
  InstallDefaultReadCap(std::move(prev_read_));
  InstallDefaultWriteCap(std::move(prev_write_));
}

}  // namespace mty::stdlib
