// fs_capability_allowlist: FsCap roots, every known escape (`..`, symlinks,
// string prefixes, TOCTOU swaps), denial shapes and the default caps.
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "mty/stdlib/fs_cap.h"

namespace mty::stdlib {
namespace internal {
void SetOpenat2DisabledForTesting(bool disabled);  // defined in fs_cap.cc
}  // namespace internal

namespace {

// A fresh temporary directory (symlink-resolved), removed with its contents.
class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/mty_fscap_XXXXXX";
    char* made = ::mkdtemp(tmpl);
    EXPECT_NE(made, nullptr);
    char* real = ::realpath(made, nullptr);
    path_ = real;
    std::free(real);
  }
  ~TempDir() { [[maybe_unused]] int rc = std::system(("rm -rf '" + path_ + "'").c_str()); }
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& rel) const { return path_ + "/" + rel; }

 private:
  std::string path_;
};

void Put(const std::string& path, const std::string& data) {
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  std::fwrite(data.data(), 1, data.size(), f);
  std::fclose(f);
}

void MkDir(const std::string& path) { ASSERT_EQ(::mkdir(path.c_str(), 0777), 0) << path; }

void Link(const std::string& target, const std::string& link) {
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0) << link;
}

bool OnDisk(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0;
}

std::string Slurp(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return "<missing>";
  std::string out;
  char buf[256];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  std::fclose(f);
  return out;
}

void ExpectForbidden(const absl::Status& s, const std::string& path) {
  EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied) << s;
  EXPECT_EQ(s.message(), "forbidden: " + path);
}

// Forces the O_NOFOLLOW walk for its lifetime.
class ScopedFallback {
 public:
  ScopedFallback() { internal::SetOpenat2DisabledForTesting(true); }
  ~ScopedFallback() { internal::SetOpenat2DisabledForTesting(false); }
};

// Restores the working directory.
class ScopedCwd {
 public:
  explicit ScopedCwd(const std::string& dir) {
    char buf[PATH_MAX];
    EXPECT_NE(::getcwd(buf, sizeof buf), nullptr);
    old_ = buf;
    EXPECT_EQ(::chdir(dir.c_str()), 0);
  }
  ~ScopedCwd() { EXPECT_EQ(::chdir(old_.c_str()), 0); }

 private:
  std::string old_;
};

// ---- Roots and denial --------------------------------------------------------

TEST(FsCap, RootedCapAllowsInsideDeniesOutside) {
  FsCap lexical = FsCap::Rooted({"/only/here"});
  EXPECT_TRUE(lexical.Check("/only/here/x"));
  EXPECT_TRUE(lexical.Check("/only/here"));
  EXPECT_TRUE(lexical.Check("/only//here/./x"));
  EXPECT_FALSE(lexical.Check("/elsewhere/x"));
  EXPECT_FALSE(lexical.Check("/only"));

  TempDir tmp;
  MkDir(tmp / "root");
  Put(tmp / "root/in.txt", "inside");
  Put(tmp / "out.txt", "outside");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  EXPECT_EQ(*cap.ReadFile(tmp / "root/in.txt"), "inside");
  ExpectForbidden(cap.ReadFile(tmp / "out.txt").status(), tmp / "out.txt");
  EXPECT_TRUE(cap.WriteFile(tmp / "root/new.txt", "n", false).ok());
  EXPECT_EQ(Slurp(tmp / "root/new.txt"), "n");
}

// Host results are charged before they are read (runtime.md §2): a file
// larger than what the caller can afford is refused by its size, before
// any byte is read; exactly the limit is read.
TEST(FsCap, ReadFileRefusesMoreThanMaxBytesBeforeReading) {
  TempDir tmp;
  MkDir(tmp / "root");
  Put(tmp / "root/f.txt", "0123456789");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  uint64_t size = 0;
  auto r = cap.ReadFile(tmp / "root/f.txt", 9, &size);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(size, 10u);
  r = cap.ReadFile(tmp / "root/f.txt", 10, &size);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, "0123456789");
  r = cap.ReadFile(tmp / "root/f.txt", 0, &size);
  EXPECT_EQ(r.status().code(), absl::StatusCode::kResourceExhausted);
}

TEST(FsCap, DeniedReadReturnsForbiddenNamingPath) {
  FsCap cap = FsCap::Rooted({"/only/here"});
  absl::StatusOr<std::string> r = cap.ReadFile("/elsewhere/x");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(r.status().message(), "forbidden: /elsewhere/x");
}

TEST(FsCap, ErrorShapesTellDenialAbsenceAndFailureApart) {
  TempDir tmp;
  MkDir(tmp / "root");
  MkDir(tmp / "root/dir");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  absl::Status missing = cap.ReadFile(tmp / "root/missing").status();
  EXPECT_EQ(missing.code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(missing.message(), "not_found: " + (tmp / "root/missing"));
  absl::Status dir = cap.ReadFile(tmp / "root/dir").status();
  EXPECT_EQ(dir.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(dir.message(), "io: " + (tmp / "root/dir") + ": " + std::strerror(EISDIR));
}

// A write is checked once (issue 33): it locates the path inside the grant,
// then asks the caller's admit (StdHost: the output limit), then opens. A
// path outside the grant never reaches admit; a refusing admit leaves the
// file as it was (not created, not truncated).
TEST(FsCap, WriteAsksAdmitOnceLocatedAndBeforeOpening) {
  TempDir tmp;
  MkDir(tmp / "root");
  Put(tmp / "root/kept", "old");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  int asked = 0;
  auto refuse = [&] {
    ++asked;
    return false;
  };
  ExpectForbidden(cap.WriteFile(tmp / "elsewhere", "x", false, refuse), tmp / "elsewhere");
  EXPECT_EQ(asked, 0);
  EXPECT_EQ(cap.WriteFile(tmp / "root/kept", "new", false, refuse).code(),
            absl::StatusCode::kAborted);
  EXPECT_EQ(cap.WriteFile(tmp / "root/fresh", "new", false, refuse).code(),
            absl::StatusCode::kAborted);
  EXPECT_EQ(asked, 2);
  EXPECT_EQ(*cap.ReadFile(tmp / "root/kept"), "old");
  EXPECT_FALSE(OnDisk(tmp / "root/fresh"));
  EXPECT_TRUE(cap.WriteFile(tmp / "root/kept", "new", false, [&] { return ++asked > 0; }).ok());
  EXPECT_EQ(asked, 3);
  EXPECT_EQ(*cap.ReadFile(tmp / "root/kept"), "new");
}

TEST(FsCap, EmptyRootListAllowsNothing) {
  TempDir tmp;
  Put(tmp / "f", "x");
  for (const FsCap& cap : {FsCap::Rooted({}), FsCap::None(), FsCap::Rooted({""})}) {
    EXPECT_FALSE(cap.unrestricted());
    EXPECT_EQ(cap.ToString(), "none");
    EXPECT_FALSE(cap.Check(tmp / "f"));
    EXPECT_FALSE(cap.Check("/"));
    ExpectForbidden(cap.ReadFile(tmp / "f").status(), tmp / "f");
    ExpectForbidden(cap.Exists(tmp / "f").status(), tmp / "f");
    ExpectForbidden(cap.WriteFile(tmp / "g", "x", false), tmp / "g");
    EXPECT_FALSE(OnDisk(tmp / "g"));
  }
}

TEST(FsCap, UnrestrictedAllows) {
  TempDir tmp;
  Put(tmp / "f", "data");
  FsCap cap = FsCap::Unrestricted();
  EXPECT_TRUE(cap.unrestricted());
  EXPECT_EQ(cap.ToString(), "unrestricted");
  EXPECT_TRUE(cap.Check("/etc/passwd"));
  EXPECT_EQ(*cap.ReadFile(tmp / "f"), "data");
  EXPECT_TRUE(cap.WriteFile(tmp / "g", "w", false).ok());
  EXPECT_TRUE(*cap.Exists(tmp / "g"));
  EXPECT_FALSE(*cap.Exists(tmp / "nope"));
  EXPECT_TRUE(cap.CreateDirAll(tmp / "a/b/c").ok());
  EXPECT_TRUE(cap.RemoveDirAll(tmp / "a").ok());
  EXPECT_FALSE(OnDisk(tmp / "a"));
}

TEST(FsCap, SiblingWithRootAsStringPrefixIsDenied) {
  TempDir tmp;
  MkDir(tmp / "data");
  MkDir(tmp / "database");
  Put(tmp / "data/ok", "ok");
  Put(tmp / "database/secret", "SECRET");
  FsCap cap = FsCap::Rooted({tmp / "data"});
  EXPECT_EQ(*cap.ReadFile(tmp / "data/ok"), "ok");
  ExpectForbidden(cap.ReadFile(tmp / "database/secret").status(), tmp / "database/secret");
  ExpectForbidden(cap.ListDir(tmp / "database").status(), tmp / "database");
  ExpectForbidden(cap.WriteFile(tmp / "database/x", "x", false), tmp / "database/x");
  EXPECT_FALSE(OnDisk(tmp / "database/x"));
}

TEST(FsCap, DotDotEscapesAreDenied) {
  TempDir tmp;
  MkDir(tmp / "root");
  MkDir(tmp / "root/sub");
  Put(tmp / "secret", "SECRET");
  Put(tmp / "root/in", "inside");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  for (const std::string& p : {tmp / "root/../secret", tmp / "root/sub/../../secret",
                               tmp / "root/./sub/../../../" + tmp.path().substr(1) + "/secret"}) {
    ExpectForbidden(cap.ReadFile(p).status(), p);
    ExpectForbidden(cap.Exists(p).status(), p);
    ExpectForbidden(cap.WriteFile(p, "x", false), p);
  }
  EXPECT_EQ(Slurp(tmp / "secret"), "SECRET");
  // `..` that stays inside is fine.
  EXPECT_EQ(*cap.ReadFile(tmp / "root/sub/../in"), "inside");
}

TEST(FsCap, RelativeAndAbsolutePaths) {
  TempDir tmp;
  MkDir(tmp / "data");
  Put(tmp / "data/f", "rel");
  Put(tmp / "other", "SECRET");
  ScopedCwd cwd(tmp.path());
  FsCap cap = FsCap::Rooted({"data"});
  ASSERT_EQ(cap.roots().size(), 1u);
  EXPECT_EQ(cap.roots()[0], tmp / "data");
  EXPECT_EQ(*cap.ReadFile("data/f"), "rel");
  EXPECT_EQ(*cap.ReadFile("./data/f"), "rel");
  EXPECT_EQ(*cap.ReadFile(tmp / "data/f"), "rel");
  ExpectForbidden(cap.ReadFile("other").status(), "other");
  ExpectForbidden(cap.ReadFile("data/../other").status(), "data/../other");
  FsCap abs = FsCap::Rooted({tmp / "data"});
  EXPECT_EQ(*abs.ReadFile("data/f"), "rel");
}

TEST(FsCap, RootThroughSymlinkIsResolvedOnce) {
  TempDir tmp;
  MkDir(tmp / "real");
  Put(tmp / "real/f", "x");
  Link(tmp / "real", tmp / "alias");
  FsCap cap = FsCap::Rooted({tmp / "alias"});
  ASSERT_EQ(cap.roots().size(), 1u);
  EXPECT_EQ(cap.roots()[0], tmp / "real");
  EXPECT_EQ(*cap.ReadFile(tmp / "alias/f"), "x");
  EXPECT_EQ(*cap.ReadFile(tmp / "real/f"), "x");
}

// A grant may name one file (`--allow-read=data.txt`): that file, and
// nothing beside or "beneath" it; a write grant may name a file to create.
TEST(FsCap, AGrantNamingAFileAllowsExactlyThatFile) {
  TempDir tmp;
  Put(tmp / "data.txt", "d");
  Put(tmp / "other.txt", "o");
  FsCap read = FsCap::Rooted({tmp / "data.txt"});
  EXPECT_EQ(*read.ReadFile(tmp / "data.txt"), "d");
  EXPECT_TRUE(*read.Exists(tmp / "data.txt"));
  EXPECT_EQ(read.ReadFile(tmp / "other.txt").status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_FALSE(read.ReadFile(tmp / "data.txt/x").ok());
  FsCap write = FsCap::Rooted({tmp / "out.txt"});
  ASSERT_TRUE(write.WriteFile(tmp / "out.txt", "w", false).ok());
  EXPECT_TRUE(OnDisk(tmp / "out.txt"));
  EXPECT_EQ(write.WriteFile(tmp / "other.txt", "w", false).code(),
            absl::StatusCode::kPermissionDenied);
  // A symlink swapped in for the granted file after the grant is refused.
  ASSERT_EQ(::unlink((tmp / "out.txt").c_str()), 0);
  Link(tmp / "other.txt", tmp / "out.txt");
  EXPECT_FALSE(write.WriteFile(tmp / "out.txt", "evil", false).ok());
  EXPECT_EQ(*FsCap::Rooted({tmp.path()}).ReadFile(tmp / "other.txt"), "o");
}

TEST(FsCap, NarrowNeverWidens) {
  TempDir tmp;
  MkDir(tmp / "root");
  MkDir(tmp / "root/sub");
  Put(tmp / "root/sub/f", "sub");
  Put(tmp / "root/g", "g");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  FsCap sub = cap.Narrow(tmp / "root/sub");
  EXPECT_EQ(*sub.ReadFile(tmp / "root/sub/f"), "sub");
  ExpectForbidden(sub.ReadFile(tmp / "root/g").status(), tmp / "root/g");
  EXPECT_EQ(cap.Narrow(tmp.path()).ToString(), "none");
  EXPECT_EQ(cap.Narrow(tmp / "root/../elsewhere").ToString(), "none");
  EXPECT_EQ(cap.Narrow("/").ToString(), "none");
  EXPECT_EQ(FsCap::None().Narrow(tmp / "root").ToString(), "none");
  EXPECT_EQ(sub.Narrow(tmp / "root").ToString(), "none");
  EXPECT_EQ(FsCap::Unrestricted().Narrow(tmp / "root").ToString(), tmp / "root");
}

// ---- Isolation ------------------------------------------------------------

TEST(FsCap, TwoDisjointCapsIsolateInTheSameProcess) {
  TempDir tmp;
  MkDir(tmp / "agent_a");
  MkDir(tmp / "agent_b");
  Put(tmp / "agent_a/a.txt", "alpha");
  Put(tmp / "agent_b/b.txt", "bravo");
  FsCap cap_a = FsCap::Rooted({tmp / "agent_a"});
  FsCap cap_b = FsCap::Rooted({tmp / "agent_b"});
  EXPECT_EQ(*cap_a.ReadFile(tmp / "agent_a/a.txt"), "alpha");
  EXPECT_EQ(*cap_b.ReadFile(tmp / "agent_b/b.txt"), "bravo");
  ExpectForbidden(cap_a.ReadFile(tmp / "agent_b/b.txt").status(), tmp / "agent_b/b.txt");
  ExpectForbidden(cap_b.ReadFile(tmp / "agent_a/a.txt").status(), tmp / "agent_a/a.txt");
  EXPECT_TRUE(*cap_a.Exists(tmp / "agent_a/a.txt"));
  ExpectForbidden(cap_a.Exists(tmp / "agent_b/b.txt").status(), tmp / "agent_b/b.txt");
  ExpectForbidden(cap_b.Exists(tmp / "agent_a/a.txt").status(), tmp / "agent_a/a.txt");
  ExpectForbidden(cap_a.WriteFile(tmp / "agent_b/smuggled.txt", "x", false),
                  tmp / "agent_b/smuggled.txt");
  EXPECT_FALSE(OnDisk(tmp / "agent_b/smuggled.txt"));
  ExpectForbidden(cap_a.ListDir(tmp / "agent_b").status(), tmp / "agent_b");
  ExpectForbidden(cap_a.Metadata(tmp / "agent_b/b.txt").status(), tmp / "agent_b/b.txt");
  ExpectForbidden(cap_a.RemoveFile(tmp / "agent_b/b.txt"), tmp / "agent_b/b.txt");
  EXPECT_EQ(Slurp(tmp / "agent_b/b.txt"), "bravo");
}

// ---- Symlinks -------------------------------------------------------------

void SymlinksOutsideAreDenied() {
  TempDir tmp;
  MkDir(tmp / "root");
  MkDir(tmp / "outside");
  Put(tmp / "outside/secret", "SECRET");
  Link(tmp / "outside/secret", tmp / "root/file_link");
  Link("../outside/secret", tmp / "root/rel_file_link");
  Link(tmp / "outside", tmp / "root/dir_link");
  Link(tmp / "outside/new", tmp / "root/dangling_out");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  for (const std::string& p :
       {tmp / "root/file_link", tmp / "root/rel_file_link", tmp / "root/dir_link/secret"}) {
    absl::StatusOr<std::string> r = cap.ReadFile(p);
    ASSERT_FALSE(r.ok()) << p << " returned " << *r;
    ExpectForbidden(r.status(), p);
    ExpectForbidden(cap.Exists(p).status(), p);
    ExpectForbidden(cap.Metadata(p).status(), p);
    ExpectForbidden(cap.WriteFile(p, "pwned", false), p);
  }
  ExpectForbidden(cap.ListDir(tmp / "root/dir_link").status(), tmp / "root/dir_link");
  ExpectForbidden(cap.WriteFile(tmp / "root/dir_link/new", "x", false), tmp / "root/dir_link/new");
  ExpectForbidden(cap.CreateDirAll(tmp / "root/dir_link/made"), tmp / "root/dir_link/made");
  // A dangling link to the outside: writing through it would create a file there.
  absl::Status s = cap.WriteFile(tmp / "root/dangling_out", "x", false);
  EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied) << s;
  EXPECT_FALSE(OnDisk(tmp / "outside/new"));
  EXPECT_FALSE(OnDisk(tmp / "outside/made"));
  EXPECT_FALSE(OnDisk(tmp / "outside/new"));
  EXPECT_EQ(Slurp(tmp / "outside/secret"), "SECRET");
}

TEST(FsCap, SymlinksInsidePointingOutsideAreDenied) { SymlinksOutsideAreDenied(); }

TEST(FsCap, SymlinksInsidePointingOutsideAreDeniedOnFallback) {
  ScopedFallback fallback;
  SymlinksOutsideAreDenied();
}

void SymlinksInsideAreAllowed() {
  TempDir tmp;
  MkDir(tmp / "root");
  MkDir(tmp / "root/dir");
  Put(tmp / "root/dir/f", "inside");
  Link(tmp / "root/dir/f", tmp / "root/abs_link");
  Link("dir/f", tmp / "root/rel_link");
  Link("dir", tmp / "root/dir_link");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  EXPECT_EQ(*cap.ReadFile(tmp / "root/abs_link"), "inside");
  EXPECT_EQ(*cap.ReadFile(tmp / "root/rel_link"), "inside");
  EXPECT_EQ(*cap.ReadFile(tmp / "root/dir_link/f"), "inside");
  EXPECT_EQ(*cap.ListDir(tmp / "root/dir_link"), std::vector<std::string>{"f"});
  EXPECT_TRUE(cap.WriteFile(tmp / "root/dir_link/g", "g", false).ok());
  EXPECT_EQ(Slurp(tmp / "root/dir/g"), "g");
  EXPECT_TRUE(cap.WriteFile(tmp / "root/abs_link", "+", true).ok());
  EXPECT_EQ(Slurp(tmp / "root/dir/f"), "inside+");
}

TEST(FsCap, SymlinkInsidePointingInsideIsAllowed) { SymlinksInsideAreAllowed(); }

TEST(FsCap, SymlinkInsidePointingInsideIsAllowedOnFallback) {
  ScopedFallback fallback;
  SymlinksInsideAreAllowed();
}

// ---- Writes, directories, removal ----------------------------------------

TEST(FsCap, WritesNeverCreateParents) {
  TempDir tmp;
  MkDir(tmp / "root");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  absl::Status inside = cap.WriteFile(tmp / "root/missing/f", "x", false);
  EXPECT_EQ(inside.code(), absl::StatusCode::kNotFound) << inside;
  EXPECT_EQ(inside.message(), "not_found: " + (tmp / "root/missing/f"));
  EXPECT_FALSE(OnDisk(tmp / "root/missing"));
  ExpectForbidden(cap.WriteFile(tmp / "out/deep/f", "x", false), tmp / "out/deep/f");
  EXPECT_FALSE(OnDisk(tmp / "out"));
  ExpectForbidden(cap.WriteFile(tmp / "root/../out/f", "x", true), tmp / "root/../out/f");
  EXPECT_FALSE(OnDisk(tmp / "out"));
}

TEST(FsCap, WriteTruncatesAndAppends) {
  TempDir tmp;
  MkDir(tmp / "root");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  ASSERT_TRUE(cap.WriteFile(tmp / "root/f", "hello", false).ok());
  ASSERT_TRUE(cap.WriteFile(tmp / "root/f", " world", true).ok());
  EXPECT_EQ(*cap.ReadFile(tmp / "root/f"), "hello world");
  ASSERT_TRUE(cap.WriteFile(tmp / "root/f", "x", false).ok());
  EXPECT_EQ(*cap.ReadFile(tmp / "root/f"), "x");
  ASSERT_TRUE(cap.WriteFile(tmp / "root/g", "appended", true).ok());
  EXPECT_EQ(*cap.ReadFile(tmp / "root/g"), "appended");
}

TEST(FsCap, ListDirIsSortedAndMetadataIsTyped) {
  TempDir tmp;
  MkDir(tmp / "root");
  Put(tmp / "root/c", "ccc");
  Put(tmp / "root/a", "a");
  MkDir(tmp / "root/b");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  EXPECT_EQ(*cap.ListDir(tmp / "root"), (std::vector<std::string>{"a", "b", "c"}));
  FileMetadata f = *cap.Metadata(tmp / "root/c");
  EXPECT_EQ(f.size, 3);
  EXPECT_TRUE(f.is_file);
  EXPECT_FALSE(f.is_dir);
  EXPECT_GT(f.mtime_ms, 1'500'000'000'000);
  FileMetadata d = *cap.Metadata(tmp / "root/b");
  EXPECT_TRUE(d.is_dir);
  EXPECT_FALSE(d.is_file);
  EXPECT_EQ(cap.Metadata(tmp / "root/none").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(cap.ListDir(tmp / "root/none").status().code(), absl::StatusCode::kNotFound);
}

TEST(FsCap, CreateDirAllStaysInside) {
  TempDir tmp;
  MkDir(tmp / "root");
  MkDir(tmp / "outside");
  Link(tmp / "outside", tmp / "root/out_link");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  ASSERT_TRUE(cap.CreateDirAll(tmp / "root/a/b/c").ok());
  EXPECT_TRUE(cap.Metadata(tmp / "root/a/b/c")->is_dir);
  EXPECT_TRUE(cap.CreateDirAll(tmp / "root/a/b/c").ok());  // idempotent
  ExpectForbidden(cap.CreateDirAll(tmp / "elsewhere/x"), tmp / "elsewhere/x");
  EXPECT_FALSE(OnDisk(tmp / "elsewhere"));
  ExpectForbidden(cap.CreateDirAll(tmp / "root/../elsewhere"), tmp / "root/../elsewhere");
  EXPECT_FALSE(OnDisk(tmp / "elsewhere"));
  ExpectForbidden(cap.CreateDirAll(tmp / "root/out_link/x/y"), tmp / "root/out_link/x/y");
  EXPECT_FALSE(OnDisk(tmp / "outside/x"));
  // A root that does not exist is never created (its parent is outside).
  FsCap missing = FsCap::Rooted({tmp / "not_yet"});
  EXPECT_EQ(missing.CreateDirAll(tmp / "not_yet/x").code(), absl::StatusCode::kNotFound);
  EXPECT_FALSE(OnDisk(tmp / "not_yet"));
}

TEST(FsCap, RemoveFileInsideOnly) {
  TempDir tmp;
  MkDir(tmp / "root");
  Put(tmp / "root/f", "x");
  Put(tmp / "keep", "k");
  Put(tmp / "outside_target", "t");
  Link(tmp / "outside_target", tmp / "root/link");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  EXPECT_TRUE(cap.RemoveFile(tmp / "root/f").ok());
  EXPECT_FALSE(OnDisk(tmp / "root/f"));
  EXPECT_EQ(cap.RemoveFile(tmp / "root/f").code(), absl::StatusCode::kNotFound);
  ExpectForbidden(cap.RemoveFile(tmp / "keep"), tmp / "keep");
  ExpectForbidden(cap.RemoveFile(tmp / "root/../keep"), tmp / "root/../keep");
  EXPECT_TRUE(OnDisk(tmp / "keep"));
  // Removing a link inside removes the link, never its target.
  EXPECT_TRUE(cap.RemoveFile(tmp / "root/link").ok());
  EXPECT_FALSE(OnDisk(tmp / "root/link"));
  EXPECT_EQ(Slurp(tmp / "outside_target"), "t");
}

TEST(FsCap, RemoveDirAllDoesNotFollowSymlinkOut) {
  TempDir tmp;
  MkDir(tmp / "root");
  MkDir(tmp / "root/tree");
  MkDir(tmp / "root/tree/sub");
  Put(tmp / "root/tree/sub/f", "x");
  MkDir(tmp / "outside");
  Put(tmp / "outside/precious", "P");
  Link(tmp / "outside", tmp / "root/tree/sub/out_link");
  Link(tmp / "outside", tmp / "root/top_link");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  ASSERT_TRUE(cap.RemoveDirAll(tmp / "root/tree").ok());
  EXPECT_FALSE(OnDisk(tmp / "root/tree"));
  EXPECT_EQ(Slurp(tmp / "outside/precious"), "P");
  ASSERT_TRUE(cap.RemoveDirAll(tmp / "root/top_link").ok());  // the link only
  EXPECT_FALSE(OnDisk(tmp / "root/top_link"));
  EXPECT_EQ(Slurp(tmp / "outside/precious"), "P");
  ExpectForbidden(cap.RemoveDirAll(tmp / "outside"), tmp / "outside");
  ExpectForbidden(cap.RemoveDirAll(tmp / "root/.."), tmp / "root/..");
  EXPECT_EQ(Slurp(tmp / "outside/precious"), "P");
  EXPECT_EQ(cap.RemoveDirAll(tmp / "root/none").code(), absl::StatusCode::kNotFound);
}

// ---- Races ----------------------------------------------------------------

// Runs `body` on a thread until destroyed (also when an ASSERT returns early).
class BackgroundLoop {
 public:
  template <typename F>
  explicit BackgroundLoop(F body)
      : thread_([this, body] {
          while (!stop_.load()) body();
        }) {}
  ~BackgroundLoop() {
    stop_ = true;
    thread_.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// A thread retargets `root/link` between a file inside and one outside.
void SymlinkTargetSwapRace() {
  TempDir tmp;
  MkDir(tmp / "root");
  Put(tmp / "root/inside", "inside");
  Put(tmp / "secret", "SECRET");
  Link(tmp / "root/inside", tmp / "root/link");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  const std::string tmp_link = tmp / "root/link.tmp", link = tmp / "root/link";
  const std::string secret = tmp / "secret", inside = tmp / "root/inside";
  bool out = true;
  BackgroundLoop swapper([&] {
    out = !out;
    ::unlink(tmp_link.c_str());
    if (::symlink((out ? secret : inside).c_str(), tmp_link.c_str()) == 0) {
      ::rename(tmp_link.c_str(), link.c_str());
    }
  });
  int ok = 0;
  for (int i = 0; i < 10000; ++i) {
    absl::StatusOr<std::string> r = cap.ReadFile(tmp / "root/link");
    if (r.ok()) {
      ASSERT_EQ(*r, "inside");
      ++ok;
    } else {
      ASSERT_TRUE(absl::IsPermissionDenied(r.status()) || absl::IsNotFound(r.status()))
          << r.status();
    }
  }
  EXPECT_EQ(Slurp(tmp / "secret"), "SECRET");
  ::testing::Test::RecordProperty("inside_reads", ok);
}

// A thread atomically exchanges a real directory `root/d` with a symlink to an
// outside directory holding the same file name (the check-then-use race).
void DirectoryExchangeRace() {
  TempDir tmp;
  MkDir(tmp / "root");
  MkDir(tmp / "root/d");
  Put(tmp / "root/d/f", "inside");
  MkDir(tmp / "outside");
  Put(tmp / "outside/f", "SECRET");
  Link(tmp / "outside", tmp / "root/alt");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  std::atomic<int> swaps{0};
  const std::string a = tmp / "root/d", b = tmp / "root/alt";
  BackgroundLoop swapper([&] {
    if (::renameat2(AT_FDCWD, a.c_str(), AT_FDCWD, b.c_str(), RENAME_EXCHANGE) == 0) ++swaps;
  });
  int ok = 0, denied = 0;
  for (int i = 0; i < 10000; ++i) {
    absl::StatusOr<std::string> r = cap.ReadFile(tmp / "root/d/f");
    if (r.ok()) {
      ASSERT_EQ(*r, "inside");
      ++ok;
    } else {
      ASSERT_TRUE(absl::IsPermissionDenied(r.status()) || absl::IsNotFound(r.status()))
          << r.status();
      ++denied;
    }
  }
  EXPECT_GT(swaps.load(), 0);
  ::testing::Test::RecordProperty("inside_reads", ok);
  ::testing::Test::RecordProperty("denied_reads", denied);
}

TEST(FsCap, SymlinkSwapRaceNeverReturnsOutsideContent) { SymlinkTargetSwapRace(); }

TEST(FsCap, SymlinkSwapRaceNeverReturnsOutsideContentOnFallback) {
  ScopedFallback fallback;
  SymlinkTargetSwapRace();
}

TEST(FsCap, DirectoryExchangeRaceNeverReturnsOutsideContent) { DirectoryExchangeRace(); }

TEST(FsCap, DirectoryExchangeRaceNeverReturnsOutsideContentOnFallback) {
  ScopedFallback fallback;
  DirectoryExchangeRace();
}

// ---- Default caps -----------------------------------------------------------

TEST(DefaultCaps, StartDenyingAndInstallReturnsPrevious) {
  EXPECT_EQ(CurrentDefaultReadCap().ToString(), "none");
  EXPECT_EQ(CurrentDefaultWriteCap().ToString(), "none");
  FsCap prev = InstallDefaultReadCap(FsCap::Rooted({"/scoped"}));
  EXPECT_EQ(prev.ToString(), "none");
  EXPECT_EQ(CurrentDefaultReadCap().ToString(), "/scoped");
  FsCap scoped = InstallDefaultReadCap(prev);
  EXPECT_EQ(scoped.ToString(), "/scoped");
  EXPECT_EQ(CurrentDefaultReadCap().ToString(), "none");

  FsCap prev_w = InstallDefaultWriteCap(FsCap::Unrestricted());
  EXPECT_EQ(prev_w.ToString(), "none");
  EXPECT_TRUE(CurrentDefaultWriteCap().unrestricted());
  InstallDefaultWriteCap(prev_w);
  EXPECT_EQ(CurrentDefaultWriteCap().ToString(), "none");
}

TEST(DefaultCaps, ScopedDefaultCapsRestores) {
  {
    ScopedDefaultCaps outer(FsCap::Rooted({"/r1"}), FsCap::Rooted({"/w1"}));
    EXPECT_EQ(CurrentDefaultReadCap().ToString(), "/r1");
    EXPECT_EQ(CurrentDefaultWriteCap().ToString(), "/w1");
    {
      ScopedDefaultCaps inner(FsCap::Unrestricted(), FsCap::None());
      EXPECT_TRUE(CurrentDefaultReadCap().unrestricted());
      EXPECT_EQ(CurrentDefaultWriteCap().ToString(), "none");
    }
    EXPECT_EQ(CurrentDefaultReadCap().ToString(), "/r1");
    EXPECT_EQ(CurrentDefaultWriteCap().ToString(), "/w1");
  }
  EXPECT_EQ(CurrentDefaultReadCap().ToString(), "none");
  EXPECT_EQ(CurrentDefaultWriteCap().ToString(), "none");
}

TEST(DefaultCaps, DefaultCapGovernsAccessThroughASnapshot) {
  TempDir tmp;
  MkDir(tmp / "allowed");
  Put(tmp / "allowed/ok.txt", "inside-bytes");
  Put(tmp / "outside.txt", "outside-bytes");
  ScopedDefaultCaps caps(FsCap::Rooted({tmp / "allowed"}), FsCap::Unrestricted());
  FsCap snapshot = CurrentDefaultReadCap();
  InstallDefaultReadCap(FsCap::None());  // a later install does not change the snapshot
  EXPECT_EQ(*snapshot.ReadFile(tmp / "allowed/ok.txt"), "inside-bytes");
  absl::Status s = snapshot.ReadFile(tmp / "outside.txt").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_NE(s.message().find("forbidden"), std::string::npos);
  EXPECT_FALSE(CurrentDefaultReadCap().Check(tmp / "allowed/ok.txt"));
}

TEST(DefaultCaps, ConcurrentInstallAndRestore) {
  std::vector<std::thread> threads;
  std::atomic<int> bad{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([t, &bad] {
      const std::string mine = "/thread/" + std::to_string(t);
      for (int i = 0; i < 2000; ++i) {
        ScopedDefaultCaps caps(FsCap::Rooted({mine}), FsCap::Rooted({mine}));
        FsCap r = CurrentDefaultReadCap();
        // Another thread may have installed its own cap meanwhile; any value
        // seen must be a whole cap (one root, or none).
        if (r.roots().size() > 1 || r.unrestricted()) ++bad;
        FsCap prev = InstallDefaultWriteCap(CurrentDefaultWriteCap());
        if (prev.roots().size() > 1) ++bad;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(bad.load(), 0);
  std::string last = CurrentDefaultReadCap().ToString();
  EXPECT_TRUE(last == "none" || last.rfind("/thread/", 0) == 0) << last;
  // Each guard restored what it saw; interleaved guards can leave another
  // thread's cap, so reset and check the slot still works.
  InstallDefaultReadCap(FsCap::None());
  InstallDefaultWriteCap(FsCap::None());
  EXPECT_EQ(CurrentDefaultReadCap().ToString(), "none");
  EXPECT_EQ(CurrentDefaultWriteCap().ToString(), "none");
}

}  // namespace
}  // namespace mty::stdlib

namespace mty::stdlib {
namespace {

TEST(FsCap, ListingAFileIsAFailureNotAnAbsence) {
  TempDir tmp;
  MkDir(tmp / "root");
  Put(tmp / "root/file.txt", "x");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  auto r = cap.ListDir(tmp / "root/file.txt");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInternal) << r.status();
  EXPECT_TRUE(absl::StartsWith(r.status().message(), "io: ")) << r.status();
  auto missing = cap.ListDir(tmp / "root/nope");
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
}

TEST(FsCap, ARootItselfCannotBeRemoved) {
  TempDir tmp;
  MkDir(tmp / "root");
  Put(tmp / "root/keep.txt", "x");
  FsCap cap = FsCap::Rooted({tmp / "root"});
  ExpectForbidden(cap.RemoveDirAll(tmp / "root"), tmp / "root");
  EXPECT_TRUE(OnDisk(tmp / "root/keep.txt"));
  MkDir(tmp / "root/sub");
  EXPECT_TRUE(cap.RemoveDirAll(tmp / "root/sub").ok());
  EXPECT_FALSE(OnDisk(tmp / "root/sub"));
}

// A FIFO inside a granted root: reading it would wait for a writer forever
// and writing it for a reader. Both are refused at once, on both open paths.
void FifosAreRefusedWithoutWaiting() {
  TempDir tmp;
  MkDir(tmp / "root");
  ASSERT_EQ(::mkfifo((tmp / "root/pipe").c_str(), 0666), 0);
  FsCap cap = FsCap::Rooted({tmp / "root"});
  std::string want = "io: not a regular file: " + (tmp / "root/pipe");
  auto r = cap.ReadFile(tmp / "root/pipe");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), want);
  absl::Status w = cap.WriteFile(tmp / "root/pipe", "x", false);
  EXPECT_EQ(w.message(), want);
  EXPECT_EQ(cap.WriteFile(tmp / "root/pipe", "x", true).message(), want);
  // With a reader waiting on the other end the open succeeds, and the write
  // is still refused: nothing is written into the pipe.
  int reader = ::open((tmp / "root/pipe").c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  EXPECT_EQ(cap.WriteFile(tmp / "root/pipe", "x", false).message(), want);
  char c;
  EXPECT_LE(::read(reader, &c, 1), 0);
  ::close(reader);
}

TEST(FsCap, FifosAreRefusedWithoutWaiting) { FifosAreRefusedWithoutWaiting(); }

TEST(FsCap, FifosAreRefusedWithoutWaitingOnFallback) {
  internal::SetOpenat2DisabledForTesting(true);
  FifosAreRefusedWithoutWaiting();
  internal::SetOpenat2DisabledForTesting(false);
}

// A NUL byte would cut the path at the system call (`x.txt\0.sh` would
// write `x.txt`): every operation refuses it as an invalid path, touching
// nothing, whatever the cap.
void NulBytesAreInvalidPaths() {
  TempDir tmp;
  MkDir(tmp / "root");
  Put(tmp / "root/a.txt", "a");
  MkDir(tmp / "root/sub");
  const std::string nul("\0", 1);
  for (const FsCap& cap : {FsCap::Rooted({tmp / "root"}), FsCap::Unrestricted()}) {
    const std::string file = tmp / "root/x.txt" + nul + ".sh";
    auto expect_invalid = [](const absl::Status& s) {
      EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
      EXPECT_EQ(s.message(), "io: invalid path");
    };
    expect_invalid(cap.WriteFile(file, "data", false));
    expect_invalid(cap.WriteFile(file, "data", true));
    expect_invalid(cap.ReadFile(tmp / "root/a.txt" + nul + "zz").status());
    expect_invalid(cap.Exists(tmp / "root/a.txt" + nul).status());
    expect_invalid(cap.ListDir(tmp / "root/sub" + nul + "/..").status());
    expect_invalid(cap.Metadata(tmp / "root/a.txt" + nul).status());
    expect_invalid(cap.CreateDirAll(tmp / "root/new" + nul + "/x"));
    expect_invalid(cap.RemoveFile(tmp / "root/a.txt" + nul + ".bak"));
    expect_invalid(cap.RemoveDirAll(tmp / "root/sub" + nul));
    EXPECT_FALSE(cap.Check(tmp / "root/a.txt" + nul));
    EXPECT_FALSE(OnDisk(tmp / "root/x.txt"));
    EXPECT_FALSE(OnDisk(tmp / "root/new"));
    EXPECT_TRUE(OnDisk(tmp / "root/a.txt"));
    EXPECT_TRUE(OnDisk(tmp / "root/sub"));
  }
  EXPECT_EQ(CheckPathText("a" + nul).message(), "io: invalid path");
  EXPECT_TRUE(CheckPathText("a/b.txt").ok());
}

TEST(FsCap, NulBytesAreInvalidPaths) { NulBytesAreInvalidPaths(); }

TEST(FsCap, NulBytesAreInvalidPathsOnFallback) {
  ScopedFallback fallback;
  NulBytesAreInvalidPaths();
}

// A path that ends in `/` names a directory: when a file is there, every
// operation fails with "io: not a directory" (the kernel's ENOTDIR, which the
// normalised path no longer carries), and nothing is created or removed. A
// directory named so works as without the slash.
void TrailingSlashNamesADirectory() {
  TempDir tmp;
  MkDir(tmp / "root");
  Put(tmp / "root/a.txt", "a");
  MkDir(tmp / "root/sub");
  Put(tmp / "root/sub/in.txt", "in");
  Link(tmp / "root/a.txt", tmp / "root/link");  // absolute
  Link("a.txt", tmp / "root/rlink");            // relative
  for (const FsCap& cap : {FsCap::Rooted({tmp / "root"}), FsCap::Unrestricted()}) {
    for (std::string_view rel : {"a.txt/", "a.txt/.", "link/", "rlink/"}) {
      const std::string p = tmp / ("root/" + std::string(rel));
      const std::string want = "io: not a directory: " + p;
      EXPECT_EQ(cap.ReadFile(p).status().message(), want);
      EXPECT_EQ(cap.WriteFile(p, "x", false).message(), want);
      EXPECT_EQ(cap.WriteFile(p, "x", true).message(), want);
      EXPECT_EQ(cap.Exists(p).status().message(), want);
      EXPECT_EQ(cap.ListDir(p).status().message(), want);
      EXPECT_EQ(cap.Metadata(p).status().message(), want);
      EXPECT_EQ(cap.CreateDirAll(p).message(), want);
      EXPECT_EQ(cap.RemoveFile(p).message(), want);
      EXPECT_EQ(cap.RemoveDirAll(p).message(), want);
      EXPECT_EQ(cap.ReadFile(p).status().code(), absl::StatusCode::kInternal);
    }
    EXPECT_EQ(Slurp(tmp / "root/a.txt"), "a");
    EXPECT_TRUE(OnDisk(tmp / "root/link"));
    EXPECT_TRUE(OnDisk(tmp / "root/rlink"));
    // Without the slash the file is a file.
    EXPECT_EQ(*cap.ReadFile(tmp / "root/a.txt"), "a");
    // A directory named with a slash is the directory.
    auto names = cap.ListDir(tmp / "root/sub/");
    ASSERT_TRUE(names.ok()) << names.status();
    EXPECT_EQ(*names, std::vector<std::string>{"in.txt"});
    EXPECT_TRUE(*cap.Exists(tmp / "root/sub/"));
    EXPECT_TRUE(cap.Metadata(tmp / "root/sub/")->is_dir);
    EXPECT_FALSE(*cap.Exists(tmp / "root/none/"));
    EXPECT_EQ(cap.ReadFile(tmp / "root/sub/").status().message(),
              "io: " + (tmp / "root/sub/") + ": Is a directory");
    // No file is made by a name ending in `/`, and remove_file removes none.
    EXPECT_EQ(cap.WriteFile(tmp / "root/new/", "x", false).message(),
              "io: " + (tmp / "root/new/") + ": Is a directory");
    EXPECT_FALSE(OnDisk(tmp / "root/new"));
    EXPECT_EQ(cap.RemoveFile(tmp / "root/sub/").message(),
              "io: " + (tmp / "root/sub/") + ": Is a directory");
    EXPECT_TRUE(OnDisk(tmp / "root/sub/in.txt"));
    EXPECT_EQ(cap.RemoveFile(tmp / "root/none/").code(), absl::StatusCode::kNotFound);
    // create_dir_all with a slash makes the directory.
    EXPECT_TRUE(cap.CreateDirAll(tmp / "root/made/").ok());
    EXPECT_TRUE(cap.Metadata(tmp / "root/made")->is_dir);
    EXPECT_TRUE(cap.RemoveDirAll(tmp / "root/made/").ok());
    EXPECT_FALSE(OnDisk(tmp / "root/made"));
  }
}

TEST(FsCap, TrailingSlashNamesADirectory) { TrailingSlashNamesADirectory(); }

TEST(FsCap, TrailingSlashNamesADirectoryOnFallback) {
  ScopedFallback fallback;
  TrailingSlashNamesADirectory();
}

// A hard link inside a root to a file outside it is the same file: inside
// the root (only paths are checked; docs/security.md). FsCap makes no links.
TEST(FsCap, AHardLinkInsideARootIsInsideIt) {
  TempDir tmp;
  MkDir(tmp / "root");
  Put(tmp / "outside.txt", "shared");
  ASSERT_EQ(::link((tmp / "outside.txt").c_str(), (tmp / "root/hard").c_str()), 0);
  FsCap cap = FsCap::Rooted({tmp / "root"});
  EXPECT_EQ(*cap.ReadFile(tmp / "root/hard"), "shared");
  ExpectForbidden(cap.ReadFile(tmp / "outside.txt").status(), tmp / "outside.txt");
  ASSERT_TRUE(cap.WriteFile(tmp / "root/hard", "changed", false).ok());
  EXPECT_EQ(Slurp(tmp / "outside.txt"), "changed");
  // Removing the link removes that name only.
  ASSERT_TRUE(cap.RemoveFile(tmp / "root/hard").ok());
  EXPECT_EQ(Slurp(tmp / "outside.txt"), "changed");
}

TEST(FsCap, DevicesAreRefused) {
  // /dev/zero would read forever (up to the size cap), /dev/null swallows:
  // neither is a regular file.
  FsCap cap = FsCap::Rooted({"/dev"});
  EXPECT_EQ(cap.ReadFile("/dev/zero").status().message(), "io: not a regular file: /dev/zero");
  EXPECT_EQ(cap.WriteFile("/dev/null", "x", false).message(), "io: not a regular file: /dev/null");
  FsCap all = FsCap::Unrestricted();
  EXPECT_EQ(all.ReadFile("/dev/zero").status().message(), "io: not a regular file: /dev/zero");
}

// ---- Resolution: a narrower cap beneath the one it narrows ------------------

// The layout of issue 31: links out of a root, a link inside, a loop.
struct Escapes {
  TempDir tmp;
  Escapes() {
    MkDir(tmp / "inputs");
    MkDir(tmp / "inputs/sub");
    MkDir(tmp / "secret");
    Put(tmp / "inputs/ok.txt", "ok");
    Put(tmp / "inputs/sub/in.txt", "in");
    Put(tmp / "secret/s.txt", "SECRET");
    Link("../secret/s.txt", tmp / "inputs/link.txt");
    Link("../secret", tmp / "inputs/dirlink");
    Link(tmp / "secret", tmp / "inputs/abslink");
    Link("sub", tmp / "inputs/inlink");
    Link("loop", tmp / "inputs/loop");
  }
};

void NarrowNeverNamesWhatTheParentCannotOpen() {
  Escapes e;
  const TempDir& tmp = e.tmp;
  FsCap cap = FsCap::Rooted({tmp / "inputs"});
  // The parent itself refuses every one of these.
  ExpectForbidden(cap.ReadFile(tmp / "inputs/link.txt").status(), tmp / "inputs/link.txt");
  // A child naming a link out of the parent grants nothing, whatever form.
  for (const char* name :
       {"inputs/link.txt", "inputs/dirlink", "inputs/abslink", "inputs/dirlink/s.txt",
        "inputs/loop", "inputs/ok.txt/x", "inputs/../secret", "secret"}) {
    FsCap child = cap.Narrow(tmp / name);
    EXPECT_EQ(child.ToString(), "none") << name;
    EXPECT_EQ(child.ReadFile(tmp / name).status().code(), absl::StatusCode::kPermissionDenied)
        << name;
    EXPECT_FALSE(child.ReadFile(tmp / "secret/s.txt").ok()) << name;
  }
  // Several paths at once: only those the parent can open survive.
  FsCap some = cap.Narrow(std::vector<std::string>{tmp / "inputs/link.txt", tmp / "inputs/sub"});
  EXPECT_EQ(some.ToString(), tmp / "inputs/sub");
  // A link that stays inside the parent is followed when the child is made:
  // the child is where the link led.
  FsCap in = cap.Narrow(tmp / "inputs/inlink");
  EXPECT_EQ(in.ToString(), tmp / "inputs/sub");
  EXPECT_EQ(*in.ReadFile(tmp / "inputs/inlink/in.txt"), "in");
  EXPECT_EQ(*in.ReadFile(tmp / "inputs/sub/in.txt"), "in");
  ExpectForbidden(in.ReadFile(tmp / "inputs/ok.txt").status(), tmp / "inputs/ok.txt");
  // A grandchild cannot get back out through the child's name either.
  EXPECT_EQ(in.Narrow(tmp / "inputs").ToString(), "none");
  EXPECT_EQ(in.Narrow(tmp / "inputs/inlink/../link.txt").ToString(), "none");
}

TEST(FsCapResolution, NarrowNeverNamesWhatTheParentCannotOpen) {
  NarrowNeverNamesWhatTheParentCannotOpen();
}

// The fallback walk follows no link at all: the same children grant nothing;
// one through an inside link is matched where it really is (resolved when it
// is made) and walked from there with no link on the way.
TEST(FsCapResolution, NarrowNeverNamesWhatTheParentCannotOpenOnFallback) {
  ScopedFallback fallback;
  Escapes e;
  const TempDir& tmp = e.tmp;
  FsCap cap = FsCap::Rooted({tmp / "inputs"});
  for (const char* name : {"inputs/link.txt", "inputs/dirlink", "inputs/abslink"})
    EXPECT_EQ(cap.Narrow(tmp / name).ToString(), "none") << name;
  EXPECT_EQ(cap.Narrow(tmp / "inputs/inlink").ToString(), tmp / "inputs/sub");
  EXPECT_EQ(*cap.Narrow(tmp / "inputs/sub").ReadFile(tmp / "inputs/sub/in.txt"), "in");
}

// A symlink loop inside a root is an I/O failure (ELOOP), not a denial.
TEST(FsCapResolution, ASymlinkLoopIsAnIoError) {
  Escapes e;
  FsCap cap = FsCap::Rooted({e.tmp / "inputs"});
  absl::Status s = cap.ReadFile(e.tmp / "inputs/loop").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal) << s;
  EXPECT_TRUE(absl::StrContains(s.message(), "Too many levels of symbolic links")) << s;
  EXPECT_EQ(cap.Exists(e.tmp / "inputs/loop").status().code(), absl::StatusCode::kInternal);
}

// A child's root was resolved when it was made: a directory swapped for a
// link out of the parent afterwards is refused (its path beneath the base is
// opened with no symlink), and so is a child root created later as a link.
TEST(FsCapResolution, AChildRootSwappedForALinkAfterwardsIsRefused) {
  Escapes e;
  const TempDir& tmp = e.tmp;
  FsCap cap = FsCap::Rooted({tmp / "inputs"});
  FsCap child = cap.Narrow(tmp / "inputs/sub");
  FsCap later = cap.Narrow(tmp / "inputs/not_yet");
  EXPECT_EQ(later.ToString(), tmp / "inputs/not_yet");
  ASSERT_EQ(::rename((tmp / "inputs/sub").c_str(), (tmp / "inputs/sub.old").c_str()), 0);
  Link("../secret", tmp / "inputs/sub");
  Link("../secret", tmp / "inputs/not_yet");
  Put(tmp / "secret/in.txt", "SECRET");
  ExpectForbidden(child.ReadFile(tmp / "inputs/sub/in.txt").status(), tmp / "inputs/sub/in.txt");
  ExpectForbidden(child.ReadFile(tmp / "inputs/sub/s.txt").status(), tmp / "inputs/sub/s.txt");
  ExpectForbidden(later.ReadFile(tmp / "inputs/not_yet/s.txt").status(),
                  tmp / "inputs/not_yet/s.txt");
  ExpectForbidden(later.WriteFile(tmp / "inputs/not_yet/new.txt", "x", false),
                  tmp / "inputs/not_yet/new.txt");
  EXPECT_FALSE(OnDisk(tmp / "secret/new.txt"));
  // Put back as a directory, the child works again.
  ASSERT_EQ(::unlink((tmp / "inputs/sub").c_str()), 0);
  ASSERT_EQ(::rename((tmp / "inputs/sub.old").c_str(), (tmp / "inputs/sub").c_str()), 0);
  EXPECT_EQ(*child.ReadFile(tmp / "inputs/sub/in.txt"), "in");
}

// A host's root that is itself a link is resolved once, when it is granted:
// reached by either name, and pointing the link elsewhere later does not
// move the grant.
TEST(FsCapResolution, AHostRootThatIsALinkIsResolvedOnce) {
  TempDir tmp;
  MkDir(tmp / "real");
  MkDir(tmp / "other");
  Put(tmp / "real/a.txt", "real");
  Put(tmp / "other/a.txt", "other");
  Link("real", tmp / "data");
  ScopedCwd cwd(tmp.path());
  FsCap cap = FsCap::Rooted({"data"});
  EXPECT_EQ(cap.ToString(), tmp / "real");
  EXPECT_EQ(*cap.ReadFile("data/a.txt"), "real");
  EXPECT_EQ(*cap.ReadFile("real/a.txt"), "real");
  EXPECT_EQ(*cap.ListDir("data"), std::vector<std::string>{"a.txt"});
  // A child written through the host's link name.
  EXPECT_EQ(*cap.Narrow("data").ReadFile("data/a.txt"), "real");
  ASSERT_EQ(::unlink((tmp / "data").c_str()), 0);
  Link("other", tmp / "data");
  EXPECT_EQ(*cap.ReadFile("real/a.txt"), "real");
  ExpectForbidden(cap.ReadFile("other/a.txt").status(), "other/a.txt");
}

// Intersect keeps each side's handles: a value's root inside the scope's.
TEST(FsCapResolution, IntersectKeepsRootsInsideBoth) {
  Escapes e;
  const TempDir& tmp = e.tmp;
  FsCap scope = FsCap::Rooted({tmp / "inputs"});
  FsCap value = scope.Narrow(tmp / "inputs/sub");
  FsCap both = scope.Intersect(value);
  EXPECT_EQ(both.ToString(), tmp / "inputs/sub");
  EXPECT_EQ(*both.ReadFile(tmp / "inputs/sub/in.txt"), "in");
  ExpectForbidden(both.ReadFile(tmp / "inputs/ok.txt").status(), tmp / "inputs/ok.txt");
  EXPECT_EQ(scope.Intersect(FsCap::Rooted({tmp / "secret"})).ToString(), "none");
}

// Children hold no descriptors: 10 000 nested narrowings and a cap of 5 000
// roots open none beyond the host's root.
TEST(FsCapResolution, ChildrenHoldNoDescriptors) {
  Escapes e;
  const TempDir& tmp = e.tmp;
  auto open_fds = [] {
    int n = 0;
    for (int fd = 0; fd < 65536; ++fd)
      if (::fcntl(fd, F_GETFD) >= 0) ++n;
    return n;
  };
  FsCap cap = FsCap::Rooted({tmp / "inputs"});
  const int before = open_fds();
  std::vector<FsCap> chain;
  chain.push_back(cap);
  for (int i = 0; i < 10000; ++i) chain.push_back(chain.back().Narrow(tmp / "inputs/sub"));
  std::vector<std::string> many;
  for (int i = 0; i < 5000; ++i) many.push_back(tmp / ("inputs/sub/d" + std::to_string(i)));
  FsCap wide = cap.Narrow(many);
  EXPECT_EQ(wide.roots().size(), 5000u);
  EXPECT_EQ(open_fds(), before);
  EXPECT_EQ(*chain.back().ReadFile(tmp / "inputs/sub/in.txt"), "in");
}

}  // namespace
}  // namespace mty::stdlib
