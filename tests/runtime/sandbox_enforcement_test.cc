// sandbox_enforcement: the original design's allow-list suite, plus what mty
// fixes (whole-component path matching, `..` normalisation, empty lists allow
// nothing, proper host entries) and nested sandboxes that never widen.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "mty/runtime/budget.h"
#include "mty/stdlib/fs_cap.h"

namespace mty::runtime {
namespace {

using Paths = std::vector<std::string>;

Policy ReadOnly(Paths roots) {
  Policy b;
  b.grants.Set(GrantId::kFsRead, std::move(roots));
  return b;
}

Policy Hosts(Paths hosts) {
  Policy b;
  b.grants.Set(GrantId::kNet, std::move(hosts));
  return b;
}

bool Allowed(const std::optional<Breach>& b) { return !b.has_value(); }

// ---- The original design's tests ------------------------------------------

TEST(SandboxEnforcement, HostAllowlistBlocksExternal) {
  BudgetTracker t(Hosts({"api.example.com:443"}));
  EXPECT_TRUE(Allowed(t.CheckHost("api.example.com:443")));
  std::optional<Breach> b = t.CheckHost("evil.example.com:443");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->grant, GrantId::kNet);
  EXPECT_STREQ(ir::TrapText(b->Code()), "MT5015");
}

TEST(SandboxEnforcement, ReadPathAllowlistAdmitsPrefixDirs) {
  BudgetTracker t(ReadOnly({"/models", "/tmp/input.json"}), "", nullptr, stdlib::HostFsGrants());
  EXPECT_TRUE(Allowed(t.CheckReadPath("/models/foo")));
  EXPECT_TRUE(Allowed(t.CheckReadPath("/models")));
  EXPECT_TRUE(Allowed(t.CheckReadPath("/tmp/input.json")));
  EXPECT_FALSE(Allowed(t.CheckReadPath("/etc/passwd")));
}

TEST(SandboxEnforcement, WritePathAllowlistIndependentOfRead) {
  Policy budget;
  budget.grants.Set(GrantId::kFsRead, Paths{"/models"});
  budget.grants.Set(GrantId::kFsWrite, Paths{"/tmp/out"});
  BudgetTracker t(budget, "", nullptr, stdlib::HostFsGrants());
  EXPECT_TRUE(Allowed(t.CheckReadPath("/models/x")));
  EXPECT_FALSE(Allowed(t.CheckWritePath("/models/x")));
  EXPECT_TRUE(Allowed(t.CheckWritePath("/tmp/out/y")));
  EXPECT_FALSE(Allowed(t.CheckReadPath("/tmp/out/y")));
}

TEST(SandboxEnforcement, NoAllowlistMeansPermissive) {
  BudgetTracker t(Policy{}, "", nullptr, stdlib::HostFsGrants());
  EXPECT_TRUE(Allowed(t.CheckHost("anything")));
  EXPECT_TRUE(Allowed(t.CheckReadPath("/anywhere")));
  EXPECT_TRUE(Allowed(t.CheckWritePath("/anywhere")));
  EXPECT_TRUE(Allowed(t.CheckEnv("HOME")));
  // No list on the chain: the host's default decides (the process-wide
  // default caps, which allow nothing until a host installs them).
  EXPECT_EQ(t.FsGrantOf(GrantId::kFsRead)->ToString(), "none");
  EXPECT_EQ(t.FsGrantOf(GrantId::kFsWrite)->ToString(), "none");
}

// ---- Paths: what upstream gets wrong --------------------------------------

TEST(SandboxEnforcement, PathsMatchByWholeComponents) {
  BudgetTracker t(ReadOnly({"/models", "/tmp/input.json"}), "", nullptr, stdlib::HostFsGrants());
  EXPECT_FALSE(Allowed(t.CheckReadPath("/modelsX/secret")));
  EXPECT_FALSE(Allowed(t.CheckReadPath("/modelsX")));
  EXPECT_FALSE(Allowed(t.CheckReadPath("/tmp/input.json.bak")));
  EXPECT_FALSE(Allowed(t.CheckReadPath("/mod")));
}

TEST(SandboxEnforcement, DotDotIsNormalisedBeforeMatching) {
  BudgetTracker t(ReadOnly({"/models"}), "", nullptr, stdlib::HostFsGrants());
  std::optional<Breach> b = t.CheckReadPath("/models/../etc/passwd");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->grant, GrantId::kFsRead);
  EXPECT_EQ(b->subject, "/models/../etc/passwd");
  EXPECT_FALSE(Allowed(t.CheckReadPath("/models/../../../etc/passwd")));
  EXPECT_FALSE(Allowed(t.CheckReadPath("/models/..")));
  EXPECT_TRUE(Allowed(t.CheckReadPath("/models/a/../b")));
  EXPECT_TRUE(Allowed(t.CheckReadPath("//models///./foo/")));
  EXPECT_TRUE(Allowed(t.CheckReadPath("/etc/../models/x")));
}

TEST(SandboxEnforcement, RootsAreNormalisedToo) {
  BudgetTracker t(ReadOnly({"/models/", "/data/./sub//", "/x/../y"}), "", nullptr,
                  stdlib::HostFsGrants());
  EXPECT_TRUE(Allowed(t.CheckReadPath("/models")));
  EXPECT_TRUE(Allowed(t.CheckReadPath("/data/sub/file")));
  EXPECT_TRUE(Allowed(t.CheckReadPath("/y/z")));
  EXPECT_FALSE(Allowed(t.CheckReadPath("/x/y")));
  EXPECT_EQ(t.FsGrantOf(GrantId::kFsRead)->ToString(), "/models, /data/sub, /y");
}

TEST(SandboxEnforcement, EmptyListAllowsNothing) {
  Policy budget;
  budget.grants.Set(GrantId::kFsRead, Paths{});
  budget.grants.Set(GrantId::kFsWrite, Paths{});
  budget.grants.Set(GrantId::kNet, Paths{});
  budget.grants.Set(GrantId::kEnv, Paths{});
  BudgetTracker t(budget, "", nullptr, stdlib::HostFsGrants());
  EXPECT_FALSE(Allowed(t.CheckReadPath("/")));
  EXPECT_FALSE(Allowed(t.CheckReadPath("/anything")));
  EXPECT_FALSE(Allowed(t.CheckWritePath("/tmp/x")));
  EXPECT_FALSE(Allowed(t.CheckHost("api.example.com:443")));
  EXPECT_FALSE(Allowed(t.CheckEnv("HOME")));
  EXPECT_EQ(t.FsGrantOf(GrantId::kFsRead)->ToString(), "none");
}

TEST(SandboxEnforcement, EmptyRootStringAllowsNothing) {
  BudgetTracker t(ReadOnly({""}), "", nullptr, stdlib::HostFsGrants());
  EXPECT_FALSE(Allowed(t.CheckReadPath("/etc/passwd")));
  EXPECT_FALSE(Allowed(t.CheckReadPath("relative")));
}

TEST(SandboxEnforcement, EmptyOrNulRequestIsDenied) {
  BudgetTracker t(ReadOnly({"/"}), "", nullptr, stdlib::HostFsGrants());
  EXPECT_TRUE(Allowed(t.CheckReadPath("/etc/passwd")));
  EXPECT_FALSE(Allowed(t.CheckReadPath("")));
  EXPECT_FALSE(Allowed(t.CheckReadPath(std::string_view("/etc\0/x", 7))));
}

TEST(SandboxEnforcement, RelativePathsResolveAgainstCwd) {
  std::string cwd = std::filesystem::current_path().string();
  BudgetTracker t(ReadOnly({"./in"}), "", nullptr, stdlib::HostFsGrants());
  EXPECT_TRUE(Allowed(t.CheckReadPath("in/data.json")));
  EXPECT_TRUE(Allowed(t.CheckReadPath(cwd + "/in/data.json")));
  EXPECT_FALSE(Allowed(t.CheckReadPath("out/data.json")));
  EXPECT_FALSE(Allowed(t.CheckReadPath("in/../out")));
  EXPECT_EQ(t.FsGrantOf(GrantId::kFsRead)->ToString(), ir::NormalizePath(cwd + "/in"));
}

TEST(SandboxEnforcement, NormalizePathAndPathWithin) {
  EXPECT_EQ(ir::NormalizePath("/a/./b//c/../d/"), "/a/b/d");
  EXPECT_EQ(ir::NormalizePath("/../.."), "/");
  EXPECT_EQ(ir::NormalizePath("/"), "/");
  EXPECT_EQ(ir::NormalizePath(""), "");
  EXPECT_TRUE(ir::PathWithin("/", "/etc"));
  EXPECT_TRUE(ir::PathWithin("/data", "/data"));
  EXPECT_TRUE(ir::PathWithin("/data", "/data/x"));
  EXPECT_FALSE(ir::PathWithin("/data", "/database"));
  EXPECT_FALSE(ir::PathWithin("", "/data"));
}

// ---- Hosts ----------------------------------------------------------------

TEST(SandboxEnforcement, HostEntryForms) {
  BudgetTracker t(
      Hosts({"api.example.com:443", "files.example.org", "*.cdn.example.net", "[::1]:8080"}));
  // host:port: that port only.
  EXPECT_TRUE(Allowed(t.CheckHost("api.example.com:443")));
  EXPECT_FALSE(Allowed(t.CheckHost("api.example.com:80")));
  EXPECT_FALSE(Allowed(t.CheckHost("api.example.com")));
  // host: any port.
  EXPECT_TRUE(Allowed(t.CheckHost("files.example.org")));
  EXPECT_TRUE(Allowed(t.CheckHost("files.example.org:8443")));
  EXPECT_FALSE(Allowed(t.CheckHost("evil.files.example.org")));
  // *.suffix: any subdomain, label-aligned, not the apex.
  EXPECT_TRUE(Allowed(t.CheckHost("a.cdn.example.net:443")));
  EXPECT_TRUE(Allowed(t.CheckHost("a.b.cdn.example.net")));
  EXPECT_FALSE(Allowed(t.CheckHost("cdn.example.net")));
  EXPECT_FALSE(Allowed(t.CheckHost("evilcdn.example.net")));
  // IPv6 in brackets.
  EXPECT_TRUE(Allowed(t.CheckHost("[::1]:8080")));
  EXPECT_FALSE(Allowed(t.CheckHost("[::1]:8081")));
}

TEST(SandboxEnforcement, HostsCompareCaseInsensitively) {
  BudgetTracker t(Hosts({"API.Example.com:443"}));
  EXPECT_TRUE(Allowed(t.CheckHost("api.example.COM:443")));
  EXPECT_TRUE(Allowed(t.CheckHost("api.example.com.:443")));
}

TEST(SandboxEnforcement, MalformedHostRequestsAreDenied) {
  BudgetTracker t(Hosts({"*"}));
  EXPECT_TRUE(Allowed(t.CheckHost("anything.example:1")));
  EXPECT_FALSE(Allowed(t.CheckHost("")));
  EXPECT_FALSE(Allowed(t.CheckHost("host:notaport")));
  EXPECT_FALSE(Allowed(t.CheckHost("host:70000")));
  EXPECT_FALSE(Allowed(t.CheckHost("user@host:443")));
  EXPECT_FALSE(Allowed(t.CheckHost("*.example.com")));

  // Characters a sloppy URL split could leave in the host never match.
  BudgetTracker suffix(Hosts({"*.example.com"}));
  EXPECT_TRUE(Allowed(suffix.CheckHost("api.example.com:443")));
  EXPECT_FALSE(Allowed(suffix.CheckHost("evil.com#.example.com:443")));
  EXPECT_FALSE(Allowed(suffix.CheckHost("evil.com/.example.com")));
  EXPECT_FALSE(Allowed(suffix.CheckHost("evil.com?.example.com")));
  EXPECT_FALSE(Allowed(suffix.CheckHost("evil.com\\.example.com")));
}

TEST(SandboxEnforcement, HostEntryAllowsHelper) {
  EXPECT_TRUE(ir::HostEntryAllows("api.example.com:443", "api.example.com:443"));
  EXPECT_TRUE(ir::HostEntryAllows("*.example.com", "api.example.com:443"));
  EXPECT_FALSE(ir::HostEntryAllows("*.example.com:80", "api.example.com:443"));
}

TEST(SandboxEnforcement, EnvAllowlistIsExact) {
  Policy budget;
  budget.grants.Set(GrantId::kEnv, Paths{"HOME", "LANG"});
  BudgetTracker t(budget, "Env");
  EXPECT_TRUE(Allowed(t.CheckEnv("HOME")));
  std::optional<Breach> b = t.CheckEnv("home");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->grant, GrantId::kEnv);
  EXPECT_EQ(b->Message(), "sandbox Env: capability not granted: env home");
  EXPECT_FALSE(Allowed(t.CheckEnv("PATH")));
}

// ---- Nested sandboxes never widen -----------------------------------------

TEST(SandboxNesting, ChildCannotWidenParentPaths) {
  BudgetTracker parent(ReadOnly({"/data"}), "Outer", nullptr, stdlib::HostFsGrants());
  BudgetTracker child(ReadOnly({"/etc"}), "Inner", &parent);
  std::optional<Breach> b = child.CheckReadPath("/etc/passwd");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->sandbox, "Outer");  // the child allows it; the parent denies
  b = child.CheckReadPath("/data/x");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->sandbox, "Inner");
  EXPECT_EQ(child.FsGrantOf(GrantId::kFsRead)->ToString(), "none");
}

TEST(SandboxNesting, ChildNarrowsParentPaths) {
  BudgetTracker parent(ReadOnly({"/data"}), "Outer", nullptr, stdlib::HostFsGrants());
  BudgetTracker child(ReadOnly({"/data/sub"}), "Inner", &parent);
  EXPECT_TRUE(Allowed(child.CheckReadPath("/data/sub/x")));
  EXPECT_FALSE(Allowed(child.CheckReadPath("/data/other")));
  EXPECT_TRUE(Allowed(parent.CheckReadPath("/data/other")));
  EXPECT_EQ(child.FsGrantOf(GrantId::kFsRead)->ToString(), "/data/sub");
}

TEST(SandboxNesting, ChildWithoutListInheritsParent) {
  BudgetTracker parent(ReadOnly({"/data"}), "", nullptr, stdlib::HostFsGrants());
  BudgetTracker child(Policy{}, "Inner", &parent);
  EXPECT_TRUE(Allowed(child.CheckReadPath("/data/x")));
  EXPECT_FALSE(Allowed(child.CheckReadPath("/etc/passwd")));
  EXPECT_EQ(child.FsGrantOf(GrantId::kFsRead)->ToString(), "/data");
  EXPECT_EQ(child.FsGrantOf(GrantId::kFsWrite)->ToString(), "none");  // the default
}

// A chain with no list of its own stands on the host's default cap: a
// child's list is resolved beneath the default in force when it is made.
TEST(SandboxNesting, ParentWithoutListDefersToDefaultCap) {
  Policy inner;
  inner.grants.Set(GrantId::kFsWrite, Paths{"/tmp/out"});
  {
    BudgetTracker parent(Policy{}, "", nullptr, stdlib::HostFsGrants());
    BudgetTracker child(inner, "Inner", &parent);              // beneath the default: nothing
    EXPECT_TRUE(Allowed(child.CheckWritePath("/tmp/out/a")));  // its own list names it
    EXPECT_FALSE(child.FsGrantOf(GrantId::kFsWrite)->Admits("/tmp/out/a"));
    EXPECT_EQ(child.FsGrantOf(GrantId::kFsWrite)->ToString(), "none");
  }
  stdlib::ScopedDefaultCaps caps(stdlib::FsCap::None(), stdlib::FsCap::Rooted({"/tmp"}));
  BudgetTracker parent(Policy{}, "", nullptr, stdlib::HostFsGrants());
  BudgetTracker child(inner, "Inner", &parent);
  EXPECT_TRUE(child.FsGrantOf(GrantId::kFsWrite)->Admits("/tmp/out/a"));
  EXPECT_FALSE(child.FsGrantOf(GrantId::kFsWrite)->Admits("/tmp/a"));
  EXPECT_FALSE(Allowed(child.CheckWritePath("/tmp/a")));
  EXPECT_EQ(child.FsGrantOf(GrantId::kFsWrite)->ToString(),
            stdlib::FsCap::Rooted({"/tmp/out"}).ToString());
}

TEST(SandboxNesting, ChildCannotWidenHostsOrEnv) {
  Policy outer = Hosts({"*.example.com:443"});
  outer.grants.Set(GrantId::kEnv, Paths{"HOME"});
  BudgetTracker parent(outer, "Outer");
  Policy inner = Hosts({"api.example.com", "evil.org:443"});
  inner.grants.Set(GrantId::kEnv, Paths{"HOME", "SECRET"});
  BudgetTracker child(inner, "Inner", &parent);
  EXPECT_TRUE(Allowed(child.CheckHost("api.example.com:443")));
  EXPECT_FALSE(Allowed(child.CheckHost("api.example.com:80")));   // parent: port 443 only
  EXPECT_FALSE(Allowed(child.CheckHost("evil.org:443")));         // parent denies
  EXPECT_FALSE(Allowed(child.CheckHost("www.example.com:443")));  // child denies
  EXPECT_TRUE(Allowed(child.CheckEnv("HOME")));
  std::optional<Breach> b = child.CheckEnv("SECRET");
  ASSERT_TRUE(b.has_value());
  EXPECT_EQ(b->sandbox, "Outer");
}

TEST(SandboxNesting, ThreeLevelsIntersect) {
  BudgetTracker root(ReadOnly({"/srv", "/data"}), "", nullptr, stdlib::HostFsGrants());
  BudgetTracker mid(ReadOnly({"/data/a", "/data/b", "/etc"}), "Mid", &root);
  BudgetTracker leaf(ReadOnly({"/data/a/x", "/data/b", "/srv"}), "Leaf", &mid);
  EXPECT_TRUE(Allowed(leaf.CheckReadPath("/data/a/x/1")));
  EXPECT_TRUE(Allowed(leaf.CheckReadPath("/data/b/2")));
  EXPECT_FALSE(Allowed(leaf.CheckReadPath("/data/a/y")));  // leaf denies
  EXPECT_FALSE(Allowed(leaf.CheckReadPath("/srv/x")));     // mid denies
  EXPECT_FALSE(Allowed(leaf.CheckReadPath("/etc/x")));     // leaf and root deny
  EXPECT_EQ(leaf.CheckReadPath("/srv/x")->sandbox, "Mid");
  EXPECT_EQ(leaf.CheckReadPath("/etc/x")->sandbox, "Leaf");
  EXPECT_EQ(mid.CheckReadPath("/etc/x")->sandbox, "");
  EXPECT_EQ(leaf.FsGrantOf(GrantId::kFsRead)->ToString(), "/data/a/x, /data/b");
}

// ---- Intersect() of allow-lists --------------------------------------------

TEST(SandboxNesting, IntersectPathLists) {
  Policy a = ReadOnly({"/data", "/srv/app"});
  a.grants.Set(GrantId::kFsWrite, Paths{"/tmp"});
  Policy b = ReadOnly({"/data/sub", "/srv", "/etc"});
  Policy m = Policy::Intersect(a, b);
  EXPECT_EQ(m.grants.Get(GrantId::kFsRead), std::optional<Paths>(Paths{"/data/sub", "/srv/app"}));
  EXPECT_EQ(m.grants.Get(GrantId::kFsWrite),
            std::optional<Paths>(Paths{"/tmp"}));  // b has no write list
  EXPECT_FALSE(m.grants.Get(GrantId::kNet).has_value());
  EXPECT_FALSE(m.grants.Get(GrantId::kEnv).has_value());

  Policy disjoint = Policy::Intersect(ReadOnly({"/data"}), ReadOnly({"/database"}));
  EXPECT_EQ(disjoint.grants.Get(GrantId::kFsRead), std::optional<Paths>(Paths{}));
}

TEST(SandboxNesting, IntersectHostLists) {
  Policy m = Policy::Intersect(Hosts({"*.example.com", "other.org:80"}),
                               Hosts({"api.example.com:443", "evil.com", "other.org"}));
  EXPECT_EQ(m.grants.Get(GrantId::kNet),
            std::optional<Paths>(Paths{"api.example.com:443", "other.org:80"}));

  // Neither entry admits the other, but both admit api.example.com:443.
  Policy crossed = Policy::Intersect(Hosts({"*.example.com:443"}), Hosts({"api.example.com"}));
  EXPECT_EQ(crossed.grants.Get(GrantId::kNet), std::optional<Paths>(Paths{"api.example.com:443"}));

  Policy wild = Policy::Intersect(Hosts({"*.example.com"}), Hosts({"*.a.example.com"}));
  EXPECT_EQ(wild.grants.Get(GrantId::kNet), std::optional<Paths>(Paths{"*.a.example.com"}));

  Policy none = Policy::Intersect(Hosts({"a.com:443"}), Hosts({"a.com:80"}));
  EXPECT_EQ(none.grants.Get(GrantId::kNet), std::optional<Paths>(Paths{}));
}

TEST(SandboxNesting, IntersectEnvLists) {
  Policy a;
  a.grants.Set(GrantId::kEnv, Paths{"HOME", "LANG", "PATH"});
  Policy b;
  b.grants.Set(GrantId::kEnv, Paths{"PATH", "HOME", "SECRET"});
  EXPECT_EQ(Policy::Intersect(a, b).grants.Get(GrantId::kEnv),
            std::optional<Paths>(Paths{"HOME", "PATH"}));
  EXPECT_EQ(Policy::Intersect(a, Policy{}).grants.Get(GrantId::kEnv), a.grants.Get(GrantId::kEnv));
}

TEST(SandboxNesting, IntersectedBudgetDeniesWhatEitherDenies) {
  Policy manifest = ReadOnly({"/data"});
  manifest.grants.Set(GrantId::kNet, Paths{"*.example.com"});
  Policy flags = ReadOnly({"/data/in", "/etc"});
  flags.grants.Set(GrantId::kNet, Paths{"api.example.com:443", "evil.org"});
  BudgetTracker t(Policy::Intersect(manifest, flags), "", nullptr, stdlib::HostFsGrants());
  EXPECT_TRUE(Allowed(t.CheckReadPath("/data/in/x")));
  EXPECT_FALSE(Allowed(t.CheckReadPath("/data/out")));
  EXPECT_FALSE(Allowed(t.CheckReadPath("/etc/passwd")));
  EXPECT_TRUE(Allowed(t.CheckHost("api.example.com:443")));
  EXPECT_FALSE(Allowed(t.CheckHost("evil.org:443")));
  EXPECT_FALSE(Allowed(t.CheckHost("www.example.com:443")));
}

}  // namespace
}  // namespace mty::runtime
