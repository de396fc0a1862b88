// The policy a cluster job runs under (mty/cluster/worker.h, JobPolicy):
// the worker's manifest, each family it leaves out denied, tightened by the
// job's; and the job and result documents' rules that need no server.
#include <gtest/gtest.h>

#include "mty/client.h"
#include "mty/cluster/worker.h"
#include "mty/manifest.h"

namespace {

mty::Policy Manifest(const char* text) {
  auto p = mty::LoadManifest(text, "test.toml");
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : mty::Policy{};
}

TEST(JobPolicy, AJobCannotWidenItsWorker) {
  mty::Policy worker = Manifest("[sandbox]\nsteps = \"100k\"\nfs.read = [\"/data\"]\n");
  mty::Policy job = Manifest(
      "[sandbox]\nsteps = \"10M\"\nwall = \"1s\"\nfs.read = [\"/\"]\nnet = [\"*\"]\nenv = "
      "[\"*\"]\n");
  mty::Policy p = mty::cluster::JobPolicy(worker, job);
  EXPECT_EQ(p.limits.Get(mty::LimitId::kSteps), 100'000u);       // the worker's
  EXPECT_EQ(p.limits.Get(mty::LimitId::kWall), 1'000'000'000u);  // the job's own
  EXPECT_EQ(p.grants.Get(mty::GrantId::kFsRead), std::vector<std::string>{"/data"});
  // The worker left net and env out: denied, whatever the job asks.
  EXPECT_EQ(p.grants.Get(mty::GrantId::kNet), std::vector<std::string>{});
  EXPECT_EQ(p.grants.Get(mty::GrantId::kEnv), std::vector<std::string>{});
  EXPECT_EQ(p.grants.Get(mty::GrantId::kFsWrite), std::vector<std::string>{});
}

TEST(JobPolicy, TheJobTightensAndOutputIsBounded) {
  mty::Policy worker = Manifest("[sandbox]\nsteps = \"1M\"\noutput = \"10MiB\"\n");
  mty::Policy job = Manifest("[sandbox]\nsteps = 500\n");
  mty::Policy p = mty::cluster::JobPolicy(worker, job);
  EXPECT_EQ(p.limits.Get(mty::LimitId::kSteps), 500u);
  EXPECT_EQ(p.limits.Get(mty::LimitId::kOutput), 512u << 10);  // a result is one message
  mty::Policy none = mty::cluster::JobPolicy(mty::Policy{}, mty::Policy{});
  EXPECT_EQ(none.limits.Get(mty::LimitId::kOutput), 512u << 10);
  EXPECT_FALSE(none.limits.Get(mty::LimitId::kSteps));
}

TEST(ProgramHash, IsSha256) {
  EXPECT_EQ(mty::ProgramHash(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_NE(mty::ProgramHash("fn main() {}"), mty::ProgramHash("fn main() { }"));
}

TEST(JobResult, MalformedDocumentsAreErrors) {
  EXPECT_FALSE(mty::ParseJobResult("not json").ok());
  EXPECT_FALSE(mty::ParseJobResult("{\"id\": \"a\"}").ok());
  auto r = mty::ParseJobResult(
      R"({"id":"a","outcome":"ok","exit_code":3,"usage":{"steps":7},"worker":"w","attempt":2})");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->steps, 7u);
  EXPECT_EQ(r->attempt, 2);
  EXPECT_FALSE(r->returned);
}

}  // namespace
