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
#include "mty/vocab/policy.h"

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

// EXDEV (the open would leave the root, or met a symlink where none may be)
// is a denial; ENOENT/ENOTDIR are absence; the rest, a symlink loop (ELOOP)
// among them, is I/O.
absl::Status ErrnoStatus(int err, std::string_view given) {
  switch (err) {
    case EXDEV: return Forbidden(given);
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

// ---- Roots -----------------------------------------------------------------

// FdPath: where the kernel says an open file is now (its /proc link), or
// nullopt (no /proc, or the file was removed).
std::optional<std::string> FdPath(int fd) {
  char buf[PATH_MAX + 1];
  const std::string link = absl::StrCat("/proc/self/fd/", fd);
  ssize_t n = ::readlink(link.c_str(), buf, PATH_MAX);
  if (n <= 0 || buf[0] != '/') return std::nullopt;
  std::string out(buf, static_cast<size_t>(n));
  if (out.ends_with(" (deleted)")) return std::nullopt;
  return out;
}

std::string JoinRel(const std::vector<std::string>& comps, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i) {
    if (!out.empty()) out += '/';
    out += comps[i];
  }
  return out;
}

std::string JoinRel(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return absl::StrCat(a, "/", b);
}

}  // namespace

// A root: a directory handle opened when the host granted it, and beneath it
// a path with no symlink in it (see fs_cap.h).
struct FsCap::Root {
  std::shared_ptr<const Fd> base;
  std::string base_path;  // where base was when it was opened
  std::string pending;    // "" (base itself) or components beneath it, no symlink
  std::string path;       // base_path + pending: what requests are matched against
  std::string alias;      // the root as granted (normalised), "" when it is `path`
};

namespace {

using Root = FsCap::Root;

bool SameFile(int a, int b) {
  struct stat sa, sb;
  return ::fstat(a, &sa) == 0 && ::fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

// ---- Opening beneath a directory -------------------------------------------

bool IsSymlinkAt(int dirfd, const std::string& name) {
  struct stat st;
  return ::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
}

// The fallback: one openat per component with O_NOFOLLOW. It refuses every
// symlink (-EXDEV, a denial).
int WalkOpen(int rootfd, const std::string& rel, int flags, mode_t mode) {
  std::vector<std::string> comps = Components(rel);
  if (comps.empty()) {
    int fd = ::openat(rootfd, ".", flags, mode);
    return fd >= 0 ? fd : -errno;
  }
  Fd owned;
  int cur = rootfd;
  for (size_t i = 0; i + 1 < comps.size(); ++i) {
    if (comps[i] == "..") return -EXDEV;  // never above the root
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
  if (last == "..") return -EXDEV;
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

// How a confined open resolves: symlinks followed while they stay beneath
// the directory, or none at all.
enum class Links { kBeneath, kNone };

// Opens `rel` beneath `dirfd`; returns an fd or -errno. Confined opens never
// resolve outside the directory, whatever symlinks are swapped in meanwhile
// (openat2; where the kernel lacks it, an O_NOFOLLOW walk that refuses every
// symlink). A symlink met where none may be is -EXDEV (a denial); a loop of
// symlinks beneath the directory is -ELOOP.
int OpenBeneath(int dirfd, const std::string& rel, int flags, mode_t mode, bool confined,
                Links links = Links::kBeneath) {
  const char* p = rel.empty() ? "." : rel.c_str();
  flags |= O_CLOEXEC;
  if (!(flags & O_CREAT)) mode = 0;
  if (!confined) {
    int fd = ::openat(dirfd, p, flags, mode);
    return fd >= 0 ? fd : -errno;
  }
  if (!g_openat2_missing.load(std::memory_order_relaxed) &&
      !g_openat2_disabled_for_test.load(std::memory_order_relaxed)) {
    struct open_how how;
    std::memset(&how, 0, sizeof how);
    how.flags = static_cast<uint64_t>(flags);
    how.mode = mode;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
    if (links == Links::kNone) how.resolve |= RESOLVE_NO_SYMLINKS;
    for (int attempt = 0; attempt < 16; ++attempt) {
      long fd = ::syscall(SYS_openat2, dirfd, p, &how, sizeof how);
      if (fd >= 0) return static_cast<int>(fd);
      if (errno == EINTR || errno == EAGAIN) continue;             // EAGAIN: a racing rename; retry
      if (errno == ELOOP && links == Links::kNone) return -EXDEV;  // a link where none may be
      if (errno != ENOSYS) return -errno;
      g_openat2_missing.store(true, std::memory_order_relaxed);
      break;
    }
    if (!g_openat2_missing.load(std::memory_order_relaxed)) return -EAGAIN;
  }
  return WalkOpen(dirfd, rel, flags, mode);
}

// ---- Locating ---------------------------------------------------------------

// Where an operation happens: `rel` (no `..`, no empty components; "" is the
// root itself) beneath `root` (nullptr: an unrestricted cap, beneath `/`).
struct Target {
  const Root* root = nullptr;
  std::string rel;
  // The path as given ends in `/` (or `/.`): it names a directory, so a file
  // there is "not a directory" as the kernel would say (normalising drops
  // the slash, so each operation checks it).
  bool names_dir = false;
};

bool EndsAsDirectory(std::string_view given) {
  return given.ends_with('/') || given.ends_with("/.") || given == ".";
}

// The root with the longest `key` that contains `path`, and `path` beneath it.
const Root* Match(const std::vector<std::shared_ptr<const Root>>& roots, const std::string& path,
                  bool as_granted, std::string* rel) {
  const Root* best = nullptr;
  size_t best_len = 0;
  for (const auto& root : roots) {
    for (const std::string* key : {&root->path, &root->alias}) {
      if (key->empty() || (key == &root->alias && !as_granted)) continue;
      std::optional<std::string> r = RelativeTo(*key, path);
      if (r && (best == nullptr || key->size() > best_len)) {
        best = root.get();
        best_len = key->size();
        *rel = std::move(*r);
      }
    }
  }
  return best;
}

absl::StatusOr<Target> Locate(bool unrestricted,
                              const std::vector<std::shared_ptr<const Root>>& roots,
                              std::string_view given, bool follow_final) {
  // A NUL would cut the path short at the system call: refused first.
  if (absl::Status text = CheckPathText(given); !text.ok()) return text;
  // The kernel takes no longer path (PATH_MAX): refused before any work.
  if (given.size() >= PATH_MAX) return Io(given, ENAMETOOLONG);
  std::string norm = Normalize(given);
  if (norm.empty()) return Forbidden(given);
  const bool names_dir = EndsAsDirectory(given);
  // The request's existing prefix resolved through symlinks (the last
  // component left alone when the operation acts on a link itself).
  std::string resolved = follow_final ? ResolveExistingPrefix(norm) : ResolveParent(norm);
  if (unrestricted) return Target{nullptr, resolved.substr(1), names_dir};
  // Where the request really is, else where it is by name (inside a root as
  // granted or as resolved): either way it is opened beneath that root's
  // handle, so a link on the way that leaves the root is refused there.
  std::string rel;
  const Root* root = Match(roots, resolved, false, &rel);
  if (root == nullptr) root = Match(roots, norm, true, &rel);
  if (root == nullptr) return Forbidden(given);
  return Target{root, std::move(rel), names_dir};
}

// Opens the target; a raw fd or -errno. The root's pending part is opened
// with no symlink, the rest beneath it.
int OpenRaw(const Target& t, int flags, mode_t mode) {
  if (t.root == nullptr) {
    Fd slash(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
    if (slash.get() < 0) return -errno;
    return OpenBeneath(slash.get(), t.rel, flags, mode, false);
  }
  const Root& r = *t.root;
  if (r.pending.empty()) return OpenBeneath(r.base->get(), t.rel, flags, mode, true);
  if (t.rel.empty()) return OpenBeneath(r.base->get(), r.pending, flags, mode, true, Links::kNone);
  Fd dir(OpenBeneath(r.base->get(), r.pending, O_PATH | O_DIRECTORY, 0, true, Links::kNone));
  if (dir.get() < 0) return dir.release();
  return OpenBeneath(dir.get(), t.rel, flags, mode, true);
}

absl::StatusOr<Fd> OpenTarget(const Target& t, std::string_view given, int flags, mode_t mode = 0) {
  int fd = OpenRaw(t, flags, mode);
  if (fd < 0) return ErrnoStatus(-fd, given);
  return Fd(fd);
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

// ---- Making roots -------------------------------------------------------------

// A host's root: resolved through symlinks now, its deepest existing
// directory opened; nullptr when it cannot be (a file on the way).
std::shared_ptr<const Root> HostRoot(const std::string& norm) {
  const std::string resolved = ResolveExistingPrefix(norm);
  const std::vector<std::string> comps = Components(resolved);
  for (size_t k = comps.size() + 1; k-- > 0;) {
    const std::string dir = JoinAbsolute(comps, k);
    int fd = ::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
      if (errno == ENOENT || (errno == ENOTDIR && k == comps.size())) continue;
      return nullptr;  // a file on the way, or no access: nothing to open beneath
    }
    auto root = std::make_shared<Root>();
    root->base = std::make_shared<const Fd>(fd);
    root->base_path = FdPath(fd).value_or(dir);
    root->pending = JoinRel(comps, k, comps.size());
    root->path = root->pending.empty() ? root->base_path : Append(root->base_path, root->pending);
    if (norm != root->path) root->alias = norm;
    return root;
  }
  return nullptr;
}

// `rel` resolved beneath `parent` now: the deepest part of it that exists is
// opened beneath the parent's directory (symlinks followed while they stay
// beneath it) and recorded by the path it really has there, with no symlink
// in it; the rest stays pending. nullptr when `rel` leaves the parent, is a
// symlink loop, or lies beneath a file.
std::shared_ptr<const Root> RootBeneath(const std::shared_ptr<const Root>& parent,
                                        const std::string& rel) {
  if (rel.empty()) return parent;
  auto root = std::make_shared<Root>();
  root->base = parent->base;
  root->base_path = parent->base_path;
  if (!parent->pending.empty()) {
    // Beneath a part that did not exist (or a granted file): still pending.
    root->pending = JoinRel(parent->pending, rel);
  } else {
    const int base = parent->base->get();
    const std::vector<std::string> comps = Components(rel);
    Fd found;
    size_t k = comps.size();
    for (;; --k) {
      int fd = OpenBeneath(base, JoinRel(comps, 0, k), O_PATH, 0, true);
      if (fd >= 0) {
        found = Fd(fd);
        break;
      }
      if (fd != -ENOENT || k == 0) return nullptr;
    }
    struct stat st;
    if (::fstat(found.get(), &st) != 0) return nullptr;
    if (k < comps.size() && !S_ISDIR(st.st_mode)) return nullptr;
    // Its real path beneath the base, checked by opening it with no symlink.
    std::string real;
    std::optional<std::string> at = FdPath(found.get());
    std::optional<std::string> from = FdPath(base);
    if (at && from) {
      std::optional<std::string> r = RelativeTo(*from, *at);
      if (!r) return nullptr;
      real = std::move(*r);
    } else {
      real = JoinRel(comps, 0, k);  // no /proc: only a path with no symlink in it
    }
    Fd check(OpenBeneath(base, real, O_PATH, 0, true, Links::kNone));
    if (check.get() < 0 || !SameFile(check.get(), found.get())) return nullptr;
    root->pending = JoinRel(real, JoinRel(comps, k, comps.size()));
  }
  root->path = root->pending.empty() ? root->base_path : Append(root->base_path, root->pending);
  return root;
}

void AddRoot(std::vector<std::shared_ptr<const Root>>& roots, std::shared_ptr<const Root> root) {
  if (!root) return;
  for (const auto& r : roots)
    if (r->path == root->path && r->base == root->base) return;
  roots.push_back(std::move(root));
}

// The directory holding the target and the target's name in it.
absl::StatusOr<std::pair<Fd, std::string>> OpenParent(const Target& t, std::string_view given) {
  if (!t.rel.empty()) {
    auto [dir, name] = SplitLast(t.rel);
    absl::StatusOr<Fd> parent = OpenTarget(Target{t.root, dir, false}, given, O_PATH | O_DIRECTORY);
    if (!parent.ok()) return parent.status();
    return std::make_pair(std::move(*parent), name);
  }
  // The root itself: a granted file (or a name yet to be made) is removed
  // from its directory; a directory the grant opened is the grant itself.
  if (t.root == nullptr || t.root->pending.empty()) return Io(given, EISDIR);
  auto [dir, name] = SplitLast(t.root->pending);
  int fd = OpenBeneath(t.root->base->get(), dir, O_PATH | O_DIRECTORY, 0, true, Links::kNone);
  if (fd < 0) return ErrnoStatus(-fd, given);
  return std::make_pair(Fd(fd), name);
}

absl::Status NotRegular(std::string_view given) {
  return absl::InternalError(absl::StrCat("io: not a regular file: ", std::string(given)));
}

// Opens a file to read or write its bytes: only a regular file. The open is
// non-blocking, so a FIFO, a device or a socket never makes it wait (for a
// writer, a reader, a carrier); each is refused, like a directory.
absl::StatusOr<Fd> OpenRegular(const Target& t, std::string_view given, int flags,
                               mode_t mode = 0) {
  int raw = OpenRaw(t, flags | O_NONBLOCK, mode);
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
    AddRoot(cap.roots_, HostRoot(norm));
  }
  return cap;
}

absl::Status CheckPathText(std::string_view path) {
  if (path.find('\0') != std::string_view::npos)
    return absl::InvalidArgumentError("io: invalid path");
  return absl::OkStatus();
}

std::vector<std::string> FsCap::roots() const {
  std::vector<std::string> out;
  for (const auto& r : roots_) out.push_back(r->path);
  return out;
}

bool FsCap::Check(std::string_view path) const {
  return Locate(unrestricted_, roots_, path, true).ok();
}

FsCap FsCap::Narrow(std::string_view sub) const {
  return Narrow(std::vector<std::string>{std::string(sub)});
}

FsCap FsCap::Narrow(const std::vector<std::string>& subs) const {
  if (unrestricted_) return Rooted(subs);  // beneath everything: the host's own resolution
  FsCap cap;
  for (const std::string& sub : subs) {
    absl::StatusOr<Target> t = Locate(false, roots_, sub, true);
    if (!t.ok()) continue;  // outside every root: grants nothing
    for (const auto& parent : roots_) {
      if (parent.get() != t->root) continue;
      std::shared_ptr<const Root> child = RootBeneath(parent, t->rel);
      if (child) {
        // Matched as granted (`data/x` below a root granted as `data`):
        // keep that name too, so requests written the same way match.
        std::string norm = Normalize(sub);
        if (norm != child->path && norm != child->alias) {
          auto named = std::make_shared<Root>(*child);
          named->alias = std::move(norm);
          child = std::move(named);
        }
      }
      AddRoot(cap.roots_, std::move(child));
    }
  }
  return cap;
}

std::shared_ptr<const interp::FsGrant> FsCap::NarrowGrant(
    const std::vector<std::string>& paths) const {
  return std::make_shared<FsCap>(Narrow(paths));
}

FsCap FsCap::Intersect(const FsCap& other) const {
  if (unrestricted_) return other;
  if (other.unrestricted_) return *this;
  FsCap cap;
  auto keep = [&](const FsCap& mine, const FsCap& theirs) {
    for (const auto& r : mine.roots_)
      for (const auto& o : theirs.roots_)
        if (RelativeTo(o->path, r->path)) {
          AddRoot(cap.roots_, r);
          break;
        }
  };
  keep(*this, other);
  keep(other, *this);
  return cap;
}

absl::StatusOr<std::string> FsCap::ReadFile(std::string_view path, uint64_t max_bytes,
                                            uint64_t* too_large) const {
  absl::StatusOr<Target> t = Locate(unrestricted_, roots_, path, true);
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

absl::Status FsCap::WriteFile(std::string_view path, std::string_view data, bool append,
                              const std::function<bool()>& admit) const {
  absl::StatusOr<Target> t = Locate(unrestricted_, roots_, path, true);
  if (!t.ok()) return t.status();
  if (admit && !admit()) return absl::AbortedError("write not admitted");
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
  absl::StatusOr<Target> t = Locate(unrestricted_, roots_, path, true);
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
  absl::StatusOr<Target> t = Locate(unrestricted_, roots_, path, true);
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
  absl::StatusOr<Target> t = Locate(unrestricted_, roots_, path, true);
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
  absl::StatusOr<Target> t = Locate(unrestricted_, roots_, path, true);
  if (!t.ok()) return t.status();
  if (absl::Status s = CheckNamesDirectory(*t, path); !s.ok()) return s;
  // The root itself is never created.
  absl::StatusOr<Fd> cur = OpenTarget(Target{t->root, "", false}, path, O_PATH | O_DIRECTORY);
  if (!cur.ok()) return cur.status();
  Fd dir = std::move(*cur);
  const bool confined = t->root != nullptr;
  int nofollow = confined ? O_NOFOLLOW : 0;
  for (const std::string& c : Components(t->rel)) {
    if (::mkdirat(dir.get(), c.c_str(), 0777) != 0 && errno != EEXIST) {
      return ErrnoStatus(errno, path);
    }
    int next = ::openat(dir.get(), c.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC | nofollow);
    if (next < 0) {
      int err = errno;
      if (confined && (err == ELOOP || err == ENOTDIR) && IsSymlinkAt(dir.get(), c)) {
        return Forbidden(path);
      }
      return err == ENOTDIR ? Io(path, err) : ErrnoStatus(err, path);
    }
    dir = Fd(next);
  }
  return absl::OkStatus();
}

absl::Status FsCap::RemoveFile(std::string_view path) const {
  absl::StatusOr<Target> t = Locate(unrestricted_, roots_, path, false);
  if (!t.ok()) return t.status();
  if (t->names_dir) {
    // A name that ends in `/` is never a file to remove: a file there is not
    // a directory, a directory (or a link to one) is not removed by this call.
    absl::StatusOr<Target> followed = Locate(unrestricted_, roots_, path, true);
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
  absl::StatusOr<Target> t = Locate(unrestricted_, roots_, path, false);
  if (!t.ok()) return t.status();
  // A root itself cannot be removed through the cap (create_dir_all cannot
  // create one either): the grant covers what is below it.
  if (t->root != nullptr && t->rel.empty()) return Forbidden(path);
  if (t->names_dir) {  // what the path names (through a link) must be a directory
    absl::StatusOr<Target> followed = Locate(unrestricted_, roots_, path, true);
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
  return absl::StrJoin(roots(), ", ");
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

namespace {

class HostGrants final : public interp::FsGrantSource {
 public:
  std::shared_ptr<const interp::FsGrant> Resolve(
      ir::GrantId, const std::vector<std::string>& roots) const override {
    return std::make_shared<FsCap>(FsCap::Rooted(roots));
  }
  std::shared_ptr<const interp::FsGrant> Default(ir::GrantId id) const override {
    return std::make_shared<FsCap>(id == ir::GrantId::kFsWrite ? CurrentDefaultWriteCap()
                                                               : CurrentDefaultReadCap());
  }
};

}  // namespace

std::shared_ptr<const interp::FsGrantSource> HostFsGrants() {
  static const std::shared_ptr<const interp::FsGrantSource> source = std::make_shared<HostGrants>();
  return source;
}

FsCap CapOf(const interp::FsGrant* grant) {
  const auto* cap = dynamic_cast<const FsCap*>(grant);
  return cap ? *cap : FsCap::None();
}

ScopedDefaultCaps::ScopedDefaultCaps(FsCap read, FsCap write)
    : prev_read_(InstallDefaultReadCap(std::move(read))),
      prev_write_(InstallDefaultWriteCap(std::move(write))) {}

ScopedDefaultCaps::~ScopedDefaultCaps() {
  InstallDefaultReadCap(std::move(prev_read_));
  InstallDefaultWriteCap(std::move(prev_write_));
}

}  // namespace mty::stdlib
