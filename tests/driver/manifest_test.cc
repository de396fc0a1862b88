// The `mty` driver's manifest files (driver/src/input.h): read as its
// input files are, then loaded by mty::LoadManifest (whose text cases are
// tests/api/manifest_test.cc).
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "input.h"

namespace mty::driver {
namespace {

using Strings = std::vector<std::string>;

std::string Fixture(std::string_view name) {
  return std::string(MTY_MANIFEST_FIXTURES) + "/" + std::string(name);
}

// The file is its text through mty::LoadManifest.
TEST(ManifestFile, FullFixtureIsItsText) {
  absl::StatusOr<Policy> m = LoadManifestFile(Fixture("full.toml"));
  ASSERT_TRUE(m.ok()) << m.status();
  std::ifstream in(Fixture("full.toml"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  absl::StatusOr<Policy> from_text = LoadManifest(text, "full.toml");
  ASSERT_TRUE(from_text.ok()) << from_text.status();
  EXPECT_EQ(*m, *from_text);
  EXPECT_EQ(m->grants.Get(ir::GrantId::kFsRead), (Strings{"./in", "/data"}));
  EXPECT_EQ(m->limits.Get(ir::LimitId::kWall), 2'000'000'000u);
  EXPECT_EQ(m->limits.mb_policy, ir::MailboxPolicy::kFail);
}

TEST(ManifestFile, LoadNamesTheFile) {
  std::string path = Fixture("bad_wall.toml");
  absl::StatusOr<Policy> m = LoadManifestFile(path);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(m.status().message(),
            path +
                ":3:8: error: manifest key `sandbox.wall`: bad duration \"2x\" (expected a "
                "string like \"150ms\" or \"2s\")");
}

TEST(ManifestFile, UnreadableFile) {
  std::string missing = Fixture("no_such_manifest.toml");
  absl::StatusOr<Policy> m = LoadManifestFile(missing);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(m.status().message(),
            missing + ": error: cannot read manifest file: No such file or directory");

  // A directory, a device or a FIFO is not read at all, and a file over
  // 1 MiB not past its limit; none of them is "malformed" (exit 65).
  std::string dir = Fixture("");
  m = LoadManifestFile(dir);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(m.status().message(), dir + ": error: cannot read manifest file: Is a directory");

  m = LoadManifestFile("/dev/zero");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(m.status().message(),
            "/dev/zero: error: cannot read manifest file: not a regular file");

  std::string big = ::testing::TempDir() + "/big_manifest.toml";
  {
    std::ofstream out(big);
    out << "[sandbox]\n" << std::string((1 << 20) + 1, '#');
  }
  m = LoadManifestFile(big);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(m.status().message(),
            big + ": error: cannot read manifest file: larger than the limit of 1MiB");
}

}  // namespace
}  // namespace mty::driver
