// mty::LoadManifest (include/mty/manifest.h): manifest text -> the policy
// table's limits and grants, and the located errors `mty run --manifest`
// prints. File reading is the driver's (tests/driver/manifest_test.cc).
#include "mty/manifest.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace mty {
namespace {

using Strings = std::vector<std::string>;

// The unknown-key message lists the table's keys (ir::KnownKeys); these are
// the ones every manifest has had, in the table's order.
constexpr std::string_view kKnownPrefix =
    "steps, memory, wall, cpu, spawned, mailbox, depth, output, mb_policy, fs.read, fs.write, net, "
    "env";

std::string Known() {
  EXPECT_TRUE(ir::KnownKeys().starts_with(kKnownPrefix)) << ir::KnownKeys();
  return "(known: " + ir::KnownKeys() + ")";
}

// The error message of a manifest that must be rejected.
std::string Error(std::string_view text) {
  absl::StatusOr<Policy> m = LoadManifest(text, "app.toml");
  EXPECT_FALSE(m.ok()) << text;
  if (m.ok()) return "";
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  return std::string(m.status().message());
}

TEST(Manifest, EveryKeyInItsUnits) {
  absl::StatusOr<Policy> m = LoadManifest(R"(# every [sandbox] key
[sandbox]
fs.read = ["./in", "/data"]
fs.write = ["./out"]
net = ["api.example.com:443", "*.internal"]
env = ["HOME", "LANG"]
steps = 1_000_000
memory = "64MiB"
cpu = "150ms"
wall = "2s"
spawned = 8
mailbox = "1k"
mb_policy = "fail"
depth = 500
output = "10kB"
)");
  ASSERT_TRUE(m.ok()) << m.status();
  // Relative paths are kept as written: a run resolves them against its
  // working directory, not the manifest's.
  EXPECT_EQ(m->grants.Get(ir::GrantId::kFsRead), (Strings{"./in", "/data"}));
  EXPECT_EQ(m->grants.Get(ir::GrantId::kFsWrite), (Strings{"./out"}));
  EXPECT_EQ(m->grants.Get(ir::GrantId::kNet), (Strings{"api.example.com:443", "*.internal"}));
  EXPECT_EQ(m->grants.Get(ir::GrantId::kEnv), (Strings{"HOME", "LANG"}));
  EXPECT_EQ(m->limits.Get(ir::LimitId::kSteps), 1000000u);
  EXPECT_EQ(m->limits.Get(ir::LimitId::kMemory), 64u << 20);
  EXPECT_EQ(m->limits.Get(ir::LimitId::kCpu), 150'000'000u);     // ns
  EXPECT_EQ(m->limits.Get(ir::LimitId::kWall), 2'000'000'000u);  // ns
  EXPECT_EQ(m->limits.Get(ir::LimitId::kSpawned), 8u);
  EXPECT_EQ(m->limits.Get(ir::LimitId::kMailbox), 1000u);
  EXPECT_EQ(m->limits.mb_policy, ir::MailboxPolicy::kFail);
  EXPECT_EQ(m->limits.Get(ir::LimitId::kDepth), 500u);
  EXPECT_EQ(m->limits.Get(ir::LimitId::kOutput), 10'000u);
}

TEST(Manifest, SameValuesAsThePolicyBuiltByHand) {
  Policy expected;
  expected.limits.Set(ir::LimitId::kSteps, 10'000);
  expected.limits.Set(ir::LimitId::kWall, 1'500'000'000);
  expected.limits.mb_policy = ir::MailboxPolicy::kDrop;
  expected.grants.Set(ir::GrantId::kNet, Strings{"*"});
  absl::StatusOr<Policy> m = LoadManifest(
      "[sandbox]\nsteps = \"10k\"\nwall = \"1500ms\"\nmb_policy = \"drop\"\nnet = [\"*\"]\n");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(*m, expected);
}

TEST(Manifest, TheDefaultFileNameLocatesErrors) {
  absl::StatusOr<Policy> m = LoadManifest("[sandbox]\nmb_policy = \"explode\"\n");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(m.status().message(),
            "manifest.toml:2:13: error: manifest key `sandbox.mb_policy`: bad mailbox policy "
            "\"explode\" (expected " +
                ir::ChoiceList(ir::kMbPolicyChoice) + ")");
}

TEST(Manifest, AliasesIntegersAndSubTable) {
  absl::StatusOr<Policy> m = LoadManifest(
      "[sandbox]\nmem = 1024\nmb = 16\nmb_policy = \"block\"\n\n[sandbox.fs]\nread = []\n",
      "app.toml");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->limits.Get(ir::LimitId::kMemory), 1024u);
  EXPECT_EQ(m->limits.Get(ir::LimitId::kMailbox), 16u);
  EXPECT_EQ(m->limits.mb_policy, ir::MailboxPolicy::kBlock);
  EXPECT_EQ(m->grants.Get(ir::GrantId::kFsRead), Strings{});  // set, and empty: grants nothing
  EXPECT_FALSE(m->grants.Get(ir::GrantId::kFsWrite).has_value());
  EXPECT_FALSE(m->limits.Get(ir::LimitId::kSteps).has_value());
}

TEST(Manifest, InlineTableAndQuotedDottedKey) {
  absl::StatusOr<Policy> m = LoadManifest(
      "sandbox = { steps = 0, \"fs.write\" = [\"/tmp\"], mailbox = 3, wall = \"1m\" }\n",
      "app.toml");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->limits.Get(ir::LimitId::kSteps), 0u);
  EXPECT_EQ(m->grants.Get(ir::GrantId::kFsWrite), Strings{"/tmp"});
  EXPECT_EQ(m->limits.Get(ir::LimitId::kMailbox), 3u);
  EXPECT_EQ(m->limits.Get(ir::LimitId::kWall), 60'000'000'000);
}

TEST(Manifest, EmptySandboxSetsNothing) {
  absl::StatusOr<Policy> m = LoadManifest("# no limits\n[sandbox]\n", "app.toml");
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(*m, Policy());
}

TEST(Manifest, InvalidToml) {
  EXPECT_EQ(Error("[sandbox]\nsteps = 1\nwall = 2s\n"),
            "app.toml:3:9: error: Error while parsing decimal integer: expected digit, saw 's'");
  EXPECT_EQ(Error("[sandbox]\nsteps = 1\nsteps = 2\n"),
            "app.toml:3:9: error: Error while parsing key-value pair: cannot redefine existing "
            "integer 'steps'");
}

TEST(Manifest, UnknownTopLevelKey) {
  EXPECT_EQ(Error("[sandbox]\nsteps = 1\n\n[limits]\nsteps = 2\n"),
            "app.toml:4:2: error: unknown manifest key `limits` (a manifest has one [sandbox] "
            "table)");
  EXPECT_EQ(Error("name = \"app\"\n[sandbox]\n"),
            "app.toml:1:1: error: unknown manifest key `name` (a manifest has one [sandbox] "
            "table)");
  EXPECT_EQ(Error("[sandbox]\n[[package]]\nx = 1\n"),
            "app.toml:2:3: error: unknown manifest key `package` (a manifest has one [sandbox] "
            "table)");
}

TEST(Manifest, MissingSandbox) {
  constexpr std::string_view kMissing =
      "app.toml:1:1: error: a manifest needs a [sandbox] table, and this file has none";
  EXPECT_EQ(Error(""), kMissing);
  EXPECT_EQ(Error("# comments only\n\n"), kMissing);
  EXPECT_EQ(Error("sandbox = 3\n"),
            "app.toml:1:11: error: manifest key `sandbox`: expected a table, got an integer");
  EXPECT_EQ(Error("[[sandbox]]\nsteps = 1\n"),
            "app.toml:1:1: error: manifest key `sandbox`: expected a table, got an array");
}

TEST(Manifest, UnknownKeyInSandbox) {
  EXPECT_EQ(Error("[sandbox]\nsteps = 1\nmemory = \"1MiB\"\nwal = \"2s\"\n"),
            std::string("app.toml:4:1: error: unknown manifest key `sandbox.wal` ") + Known());
  EXPECT_EQ(Error("[sandbox]\nfs.exec = [\"/bin\"]\n"),
            std::string("app.toml:2:4: error: unknown manifest key `sandbox.fs.exec` ") + Known());
  EXPECT_EQ(Error("[sandbox]\n\n[sandbox.limits]\nsteps = 1\n"),
            std::string("app.toml:3:10: error: unknown manifest key `sandbox.limits` ") + Known());
  EXPECT_EQ(
      Error("[sandbox]\n\"my key\" = 1\n"),
      std::string("app.toml:2:1: error: unknown manifest key `sandbox.\"my key\"` ") + Known());
}

TEST(Manifest, WrongTypes) {
  // Arrays of strings.
  EXPECT_EQ(Error("[sandbox]\nnet = \"example.com\"\n"),
            "app.toml:2:7: error: manifest key `sandbox.net`: expected an array of strings, got a "
            "string");
  EXPECT_EQ(Error("[sandbox]\nfs.read = { path = \"/\" }\n"),
            "app.toml:2:11: error: manifest key `sandbox.fs.read`: expected an array of strings, "
            "got a table");
  EXPECT_EQ(Error("[sandbox]\nfs = [\"/\"]\n"),
            "app.toml:2:6: error: manifest key `sandbox.fs`: expected a table (write `fs.read = "
            "[..]` and `fs.write = [..]`), got an array");
  // Integers.
  // A count may be written as a string in the table's units, like a size.
  EXPECT_EQ(Error("[sandbox]\nsteps = \"10s\"\n"),
            "app.toml:2:9: error: manifest key `sandbox.steps`: bad count \"10s\" (expected an "
            "integer or a string like \"1k\")");
  EXPECT_EQ(Error("[sandbox]\ndepth = 2.5\n"),
            "app.toml:2:9: error: manifest key `sandbox.depth`: expected an integer or a count "
            "string like \"1k\", got a float");
  EXPECT_EQ(Error("[sandbox]\nspawned = true\n"),
            "app.toml:2:11: error: manifest key `sandbox.spawned`: expected an integer or a count "
            "string like \"1k\", got a boolean");
  // Sizes and counts.
  EXPECT_EQ(Error("[sandbox]\nmemory = [64]\n"),
            "app.toml:2:10: error: manifest key `sandbox.memory`: expected an integer or a size "
            "string like \"64MiB\", got an array");
  EXPECT_EQ(Error("[sandbox]\nmb = 1.5\n"),
            "app.toml:2:6: error: manifest key `sandbox.mb`: expected an integer or a count "
            "string like \"1k\", got a float");
  // Durations.
  EXPECT_EQ(Error("[sandbox]\ncpu = false\n"),
            "app.toml:2:7: error: manifest key `sandbox.cpu`: expected a duration, a string like "
            "\"150ms\" or \"2s\", got a boolean");
  EXPECT_EQ(Error("[sandbox]\nwall = 2\n"),
            "app.toml:2:8: error: manifest key `sandbox.wall`: a duration needs a unit: got the "
            "bare integer 2, use a string like \"150ms\" or \"2s\"");
  // The policy.
  EXPECT_EQ(Error("[sandbox]\nmb_policy = 1\n"),
            "app.toml:2:13: error: manifest key `sandbox.mb_policy`: expected a string (\"block\", "
            "\"drop\" or \"fail\"), got an integer");
}

TEST(Manifest, BadDuration) {
  EXPECT_EQ(Error("[sandbox]\nsteps = 10\nwall = \"2x\"\n"),
            "app.toml:3:8: error: manifest key `sandbox.wall`: bad duration \"2x\" (expected a "
            "string like \"150ms\" or \"2s\")");
  EXPECT_EQ(Error("[sandbox]\ncpu = \"ms\"\n"),
            "app.toml:2:7: error: manifest key `sandbox.cpu`: bad duration \"ms\" (expected a "
            "string like \"150ms\" or \"2s\")");
}

TEST(Manifest, BadSize) {
  EXPECT_EQ(Error("[sandbox]\n\nmemory = \"64XB\"\n"),
            "app.toml:3:10: error: manifest key `sandbox.memory`: bad size \"64XB\" (expected an "
            "integer or a string like \"64MiB\")");
  EXPECT_EQ(Error("[sandbox]\nmem = \"-1MiB\"\n"),
            "app.toml:2:7: error: manifest key `sandbox.mem`: bad size \"-1MiB\" (expected an "
            "integer or a string like \"64MiB\")");
  // A mailbox holds messages: decimal count suffixes only, no byte units.
  EXPECT_EQ(Error("[sandbox]\nmailbox = \"1KiB\"\n"),
            "app.toml:2:11: error: manifest key `sandbox.mailbox`: bad count \"1KiB\" (expected an "
            "integer or a string like \"1k\")");
}

TEST(Manifest, BadPolicy) {
  EXPECT_EQ(Error("[sandbox]\nmailbox = 10\nmb_policy = \"Drop\"\n"),
            "app.toml:3:13: error: manifest key `sandbox.mb_policy`: bad mailbox policy \"Drop\" "
            "(expected \"block\", \"drop\" or \"fail\")");
}

TEST(Manifest, NegativeOrOutOfRangeInteger) {
  EXPECT_EQ(Error("[sandbox]\nsteps = -1\n"),
            "app.toml:2:9: error: manifest key `sandbox.steps`: expected a non-negative integer, "
            "got -1");
  EXPECT_EQ(Error("[sandbox]\nmemory = -4096\n"),
            "app.toml:2:10: error: manifest key `sandbox.memory`: expected a non-negative "
            "integer, got -4096");
  EXPECT_EQ(Error("[sandbox]\ndepth = 0\n"),
            "app.toml:2:9: error: manifest key `sandbox.depth`: `depth` must be at least 1 (leave "
            "it out for no limit)");
  EXPECT_EQ(Error("[sandbox]\ndepth = 4611686018427387905\n"),
            "app.toml:2:9: error: manifest key `sandbox.depth`: `depth` is out of range");
  // A mailbox holds at least one message.
  EXPECT_EQ(Error("[sandbox]\nmailbox = 0\n"),
            "app.toml:2:11: error: manifest key `sandbox.mailbox`: `mailbox` must be at least 1 "
            "(leave it out for no limit)");
}

// An integer outside 64 bits never reaches the checker (toml++ refuses it
// while parsing): its error still names the key, at the integer.
TEST(Manifest, IntegerBeyond64BitsNamesItsKey) {
  const std::string over =
      "`steps` is out of range: the integer 99999999999999999999 is above "
      "the largest limit, 4611686018427387904";
  EXPECT_EQ(Error("[sandbox]\nsteps = 99999999999999999999\n"),
            "app.toml:2:9: error: manifest key `sandbox.steps`: " + over);
  EXPECT_EQ(Error("# limits\n[ sandbox ]\n  steps   =   99999999999999999999  # comment\n"),
            "app.toml:3:15: error: manifest key `sandbox.steps`: " + over);
  EXPECT_EQ(Error("sandbox.steps = 99999999999999999999\n"),
            "app.toml:1:17: error: manifest key `sandbox.steps`: " + over);
  EXPECT_EQ(Error("sandbox = { mailbox = 2, \"steps\" = 99999999999999999999 }\n"),
            "app.toml:1:36: error: manifest key `sandbox.steps`: " + over);
  // 2^63, one past what TOML holds, for another limit.
  EXPECT_EQ(Error("[sandbox]\nmemory = 9223372036854775808\n"),
            "app.toml:2:10: error: manifest key `sandbox.memory`: `memory` is out of range: the "
            "integer 9223372036854775808 is above the largest limit, 4611686018427387904");
  EXPECT_EQ(Error("[sandbox]\ndepth = 0x1FFFFFFFFFFFFFFFF\n"),
            "app.toml:2:9: error: manifest key `sandbox.depth`: `depth` is out of range: the "
            "integer 0x1FFFFFFFFFFFFFFFF is above the largest limit, 4611686018427387904");
  EXPECT_EQ(Error("[sandbox]\nsteps = -99999999999999999999\n"),
            "app.toml:2:9: error: manifest key `sandbox.steps`: expected a non-negative integer, "
            "got -99999999999999999999");
  // Not a limit: still named, in an array or a group table.
  EXPECT_EQ(Error("[sandbox]\nfs.read = [\"a\", 99999999999999999999]\n"),
            "app.toml:2:17: error: manifest key `sandbox.fs.read`: the integer "
            "99999999999999999999 does not fit in 64 bits");
  EXPECT_EQ(Error("[sandbox.fs]\nread = 99999999999999999999\n"),
            "app.toml:2:8: error: manifest key `sandbox.fs.read`: the integer "
            "99999999999999999999 does not fit in 64 bits");
  // The largest 64-bit integer parses, and the checker names the key.
  EXPECT_EQ(Error("[sandbox]\nsteps = 9223372036854775807\n"),
            "app.toml:2:9: error: manifest key `sandbox.steps`: `steps` is out of range");
  // The largest limit itself is fine.
  absl::StatusOr<Policy> max = LoadManifest("[sandbox]\nsteps = 4611686018427387904\n", "a");
  ASSERT_TRUE(max.ok()) << max.status();
  EXPECT_EQ(max->limits.Get(ir::LimitId::kSteps), uint64_t{1} << 62);
}

TEST(Manifest, DuplicatedAlias) {
  EXPECT_EQ(Error("[sandbox]\nmemory = \"1MiB\"\nsteps = 5\nmem = 1024\n"),
            "app.toml:4:1: error: manifest key `sandbox.mem`: duplicates `sandbox.memory` (line "
            "2); set only one of them");
  EXPECT_EQ(Error("[sandbox]\nmb = 4\nmailbox = \"1k\"\n"),
            "app.toml:3:1: error: manifest key `sandbox.mailbox`: duplicates `sandbox.mb` (line "
            "2); set only one of them");
  EXPECT_EQ(Error("[sandbox]\nfs.read = []\n\"fs.read\" = [\"/\"]\n"),
            "app.toml:3:1: error: manifest key `sandbox.\"fs.read\"`: duplicates "
            "`sandbox.fs.read` (line 2); set only one of them");
}

TEST(Manifest, NonStringArrayElement) {
  EXPECT_EQ(Error("[sandbox]\nnet = [\n  \"a.example:80\",\n  443,\n]\n"),
            "app.toml:4:3: error: manifest key `sandbox.net`: expected an array of strings, but "
            "element 2 is an integer");
  EXPECT_EQ(Error("[sandbox]\nenv = [[\"HOME\"]]\n"),
            "app.toml:2:8: error: manifest key `sandbox.env`: expected an array of strings, but "
            "element 1 is an array");
}

TEST(Manifest, FirstErrorInSourceOrder) {
  // toml++ orders keys by name; errors are reported in the order of the file.
  EXPECT_EQ(Error("[sandbox]\nwall = \"x\"\nsteps = -1\n\n[zzz]\n"),
            "app.toml:2:8: error: manifest key `sandbox.wall`: bad duration \"x\" (expected a "
            "string like \"150ms\" or \"2s\")");
  EXPECT_EQ(Error("[aaa]\n[sandbox]\nbogus = 1\n"),
            "app.toml:1:2: error: unknown manifest key `aaa` (a manifest has one [sandbox] "
            "table)");
}

TEST(Manifest, HugeText) {
  // Up to kMaxManifestBytes is parsed (here a long comment and a long list).
  std::string big = "[sandbox]\nnet = [";
  for (int i = 0; i < 20000; ++i) big += "\"h" + std::to_string(i) + ".example:443\", ";
  big += "]\n#";
  big.resize(kMaxManifestBytes, 'x');
  absl::StatusOr<Policy> m = LoadManifest(big, "app.toml");
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_TRUE(m->grants.Get(ir::GrantId::kNet).has_value());
  EXPECT_EQ(m->grants.Get(ir::GrantId::kNet)->size(), 20000u);
  EXPECT_EQ(m->grants.Get(ir::GrantId::kNet)->back(), "h19999.example:443");
  // One byte more is refused before any of it is parsed, like the file.
  big += 'x';
  m = LoadManifest(big, "app.toml");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(m.status().message(), "app.toml: error: manifest larger than the limit of 1MiB");
}

// toml++ recurses on dotted keys and nesting: both are bounded, located,
// before it sees the text.
TEST(Manifest, DeeplyNestedOrDottedText) {
  std::string dots;
  for (int i = 0; i < 63; ++i) dots += ".a";
  // 64 parts pass the bound; the checker names the first unknown part.
  EXPECT_EQ(Error("sandbox" + dots + " = 1\n"),
            "app.toml:1:9: error: unknown manifest key `sandbox.a` " + Known());
  // 65 parts: located at the 64th dot.
  EXPECT_EQ(Error("[sandbox]\na" + dots + ".a = 1\n"),
            "app.toml:2:128: error: a key of more than 64 dotted parts");
  EXPECT_EQ(Error("[sandbox]\nnet = " + std::string(100000, '[') + "\n"),
            "app.toml:2:71: error: nesting deeper than 64 levels");
  EXPECT_EQ(Error("sandbox = " + std::string(65, '{')),
            "app.toml:1:75: error: nesting deeper than 64 levels");
  // Within the bounds: toml++'s own error, still located.
  std::string nested = "[sandbox]\nnet = " + std::string(60, '[') + std::string(60, ']') + "\n";
  EXPECT_EQ(Error(nested),
            "app.toml:2:8: error: manifest key `sandbox.net`: expected an array of strings, but "
            "element 1 is an array");
}

}  // namespace
}  // namespace mty
