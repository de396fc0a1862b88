// The policy a cluster job runs under (mty/cluster/worker.h, JobPolicy):
// the worker's manifest, each family it leaves out denied, tightened by the
// job's, file roots inside the job's scratch directory; the scratch
// directory's removal; result signatures, nkey seeds and URL redaction; and
// the job and result documents' rules that need no server.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "crypto.h"
#include "jobs.h"
#include "mty/client.h"
#include "mty/cluster/worker.h"
#include "mty/manifest.h"
#include "scratch.h"

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
  mty::Policy p = mty::cluster::JobPolicy(worker, job, "/scratch/job-1");
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
  mty::Policy p = mty::cluster::JobPolicy(worker, job, "/scratch/job-1");
  EXPECT_EQ(p.limits.Get(mty::LimitId::kSteps), 500u);
  EXPECT_EQ(p.limits.Get(mty::LimitId::kOutput), 512u << 10);  // a result is one message
  mty::Policy none = mty::cluster::JobPolicy(mty::Policy{}, mty::Policy{}, "/s");
  EXPECT_EQ(none.limits.Get(mty::LimitId::kOutput), 512u << 10);
  EXPECT_FALSE(none.limits.Get(mty::LimitId::kSteps));
}

TEST(JobPolicy, RelativeRootsAreInsideTheScratchDirectory) {
  mty::Policy worker = Manifest("[sandbox]\nfs.read = [\".\", \"/data\"]\nfs.write = [\".\"]\n");
  mty::Policy job = Manifest(
      "[sandbox]\nfs.read = [\"in\", \"/data/x\"]\nfs.write = [\"out\", \"/tmp\", "
      "\"../job-2\"]\n");
  mty::Policy p = mty::cluster::JobPolicy(worker, job, "/scratch/job-1");
  EXPECT_EQ(p.grants.Get(mty::GrantId::kFsRead),
            (std::vector<std::string>{"/data/x", "/scratch/job-1/in"}));
  // `/tmp` and a sibling's directory are outside this job's: nothing.
  EXPECT_EQ(p.grants.Get(mty::GrantId::kFsWrite), std::vector<std::string>{"/scratch/job-1/out"});
  // The job names nothing: the worker's, in this job's directory.
  mty::Policy plain = mty::cluster::JobPolicy(worker, mty::Policy{}, "/scratch/job-2");
  EXPECT_EQ(plain.grants.Get(mty::GrantId::kFsWrite), std::vector<std::string>{"/scratch/job-2"});
}

TEST(WorkerGrants, WriteRootsAndReadRootsThatSeeScratchAreRefused) {
  using mty::cluster::CheckWorkerGrants;
  EXPECT_TRUE(CheckWorkerGrants(Manifest("[sandbox]\nfs.read = [\".\", \"/data\"]\nfs.write = "
                                         "[\".\", \"out\"]\n"),
                                "/tmp/mty-worker-1")
                  .ok());
  auto shared = CheckWorkerGrants(Manifest("[sandbox]\nfs.write = [\"/srv/out\"]\n"), "/tmp/w");
  EXPECT_EQ(shared.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(shared.message().find("/srv/out"), std::string_view::npos) << shared;
  EXPECT_FALSE(CheckWorkerGrants(Manifest("[sandbox]\nfs.read = [\"..\"]\n"), "/tmp/w").ok());
  EXPECT_FALSE(
      CheckWorkerGrants(Manifest("[sandbox]\nfs.write = [\"a/../../b\"]\n"), "/tmp/w").ok());
  // A read root holding the scratch directory, or inside it.
  EXPECT_FALSE(CheckWorkerGrants(Manifest("[sandbox]\nfs.read = [\"/tmp\"]\n"), "/tmp/w").ok());
  EXPECT_FALSE(
      CheckWorkerGrants(Manifest("[sandbox]\nfs.read = [\"/tmp/w/job-1\"]\n"), "/tmp/w").ok());
  EXPECT_TRUE(CheckWorkerGrants(Manifest("[sandbox]\nfs.read = [\"/tmp/wx\"]\n"), "/tmp/w").ok());
}

// A temporary directory, removed at the end.
struct TempDir {
  std::string path;
  TempDir() {
    std::string t = (std::filesystem::temp_directory_path() / "mty-scratch-test-XXXXXX").string();
    path = mkdtemp(t.data());
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

TEST(RemoveTree, FollowsNoSymlinkAndHandlesDepth) {
  TempDir tmp;
  namespace fs = std::filesystem;
  fs::create_directories(tmp.path + "/victim");
  std::ofstream(tmp.path + "/victim/keep.txt") << "keep";
  const std::string job = tmp.path + "/job";
  fs::create_directories(job + "/a/b");
  std::ofstream(job + "/a/b/f.txt") << "x";
  // Links out of the directory, to a directory and to a file.
  fs::create_directory_symlink(tmp.path + "/victim", job + "/a/out");
  fs::create_symlink(tmp.path + "/victim/keep.txt", job + "/file-link");
  // 300 levels: deeper than the descriptors a walk holding one per level
  // could count on, with a file at the bottom.
  std::string deep = job;
  for (int i = 0; i < 300; ++i) deep += "/d";
  fs::create_directories(deep);
  std::ofstream(deep + "/bottom.txt") << "x";
  int parent = open(tmp.path.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(parent, 0);
  absl::Status st = mty::cluster::RemoveTree(parent, "job");
  EXPECT_TRUE(st.ok()) << st;
  EXPECT_FALSE(fs::exists(fs::symlink_status(job)));
  EXPECT_TRUE(fs::exists(tmp.path + "/victim/keep.txt"));
  // Missing: OK. A symlink named: the link goes, not its target.
  EXPECT_TRUE(mty::cluster::RemoveTree(parent, "job").ok());
  fs::create_directory_symlink(tmp.path + "/victim", tmp.path + "/link");
  EXPECT_TRUE(mty::cluster::RemoveTree(parent, "link").ok());
  EXPECT_TRUE(fs::exists(tmp.path + "/victim/keep.txt"));
  EXPECT_FALSE(fs::exists(fs::symlink_status(tmp.path + "/link")));
  close(parent);
}

// An Ed25519 key pair written as PEM files in `dir`: dir/NAME.key, .pub.
void NewKey(const std::string& dir, const std::string& name) {
  EVP_PKEY* k = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
  ASSERT_NE(k, nullptr);
  FILE* f = std::fopen((dir + "/" + name + ".key").c_str(), "w");
  PEM_write_PrivateKey(f, k, nullptr, nullptr, 0, nullptr, nullptr);
  std::fclose(f);
  f = std::fopen((dir + "/" + name + ".pub").c_str(), "w");
  PEM_write_PUBKEY(f, k);
  std::fclose(f);
  EVP_PKEY_free(k);
}

TEST(ResultSignature, BindsTheResultToItsKeyIdAndJob) {
  TempDir tmp;
  NewKey(tmp.path, "w");
  NewKey(tmp.path, "other");
  auto key = mty::cluster::SigningKey::Load(tmp.path + "/w.key");
  ASSERT_TRUE(key.ok()) << key.status();
  auto keys = mty::cluster::VerifyKeys::Load({tmp.path + "/w.pub"});
  ASSERT_TRUE(keys.ok()) << keys.status();
  mty::JobResult r;
  r.id = "job-1";
  r.outcome = "ok";
  r.stdout_text = "hello \xff\n";  // not UTF-8: replaced, and still verifies
  r.job_hash = mty::ProgramHash("the job");
  const std::string doc = mty::cluster::SignedResultJson(r, *key);
  auto ok = mty::cluster::CheckedResult(doc, *keys, "job-1", r.job_hash);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->signer, key->fingerprint());
  auto rejected = [&](const std::string& d, std::string_view id, std::string_view hash,
                      const mty::cluster::VerifyKeys& k) {
    auto got = mty::cluster::CheckedResult(d, k, id, hash);
    EXPECT_EQ(got.status().code(), absl::StatusCode::kUnauthenticated) << d;
    return std::string(got.status().message());
  };
  std::string forged = doc;
  forged.replace(forged.find("hello"), 5, "HELLO");
  EXPECT_NE(rejected(forged, "job-1", r.job_hash, *keys).find("does not match"), std::string::npos);
  EXPECT_NE(rejected(doc, "job-2", r.job_hash, *keys).find("job-1"), std::string::npos);
  EXPECT_NE(rejected(doc, "job-1", mty::ProgramHash("another job"), *keys).find("another job"),
            std::string::npos);
  auto other = mty::cluster::VerifyKeys::Load({tmp.path + "/other.pub"});
  ASSERT_TRUE(other.ok());
  EXPECT_NE(rejected(doc, "job-1", r.job_hash, *other).find("not a --verify-key"),
            std::string::npos);
  // The signature taken out: unsigned.
  std::string bare = doc;
  const size_t at = bare.find(",\"signature\":\"");
  ASSERT_NE(at, std::string::npos);
  bare.erase(at, bare.find('"', at + 14) + 1 - at);
  EXPECT_NE(rejected(bare, "job-1", r.job_hash, *keys).find("not signed"), std::string::npos);
  // A private key is no verify key, and a public key no signing key.
  EXPECT_FALSE(mty::cluster::VerifyKeys::Load({tmp.path + "/w.key"}).ok());
  EXPECT_FALSE(mty::cluster::SigningKey::Load(tmp.path + "/w.pub").ok());
}

TEST(Nkey, PublicKeyOfASeed) {
  // The public key computed independently (Python's `cryptography`).
  auto pub = mty::cluster::NkeyPublicFromSeed(
      "SUAMK2FG4MI6UE3ACF3FK3OIQBCEIEZV7NSWFFEW63UXMRLFM2XLAXK4GY\n");
  ASSERT_TRUE(pub.ok()) << pub.status();
  EXPECT_EQ(*pub, "UAT6BWCSCWLUKJT6K6MBJJOEOTXZ5AJDOYKNEVRFC7VNO6OA43N4TRNO");
  // One character changed: the checksum fails, and the message does not
  // show the seed.
  auto bad = mty::cluster::NkeyPublicFromSeed(
      "SUAMK2FG4MI6UE3ACF3FK3OIQBCEIEZV7NSWFFEW63UXMRLFM2XLBXK4GY");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message().find("SUAM"), std::string_view::npos);
  EXPECT_FALSE(mty::cluster::NkeyPublicFromSeed("").ok());
}

TEST(RedactUrl, HidesUserinfo) {
  EXPECT_EQ(mty::RedactUrl("nats://u:secret@h:4222"), "nats://***@h:4222");
  EXPECT_EQ(mty::RedactUrl("nats://tok@h,nats://h2:1"), "nats://***@h,nats://h2:1");
  EXPECT_EQ(mty::RedactUrl("nats://u:p/a@ss@h:4222"), "nats://***@h:4222");
  EXPECT_EQ(mty::RedactUrl("u:p@h:4222"), "***@h:4222");
  EXPECT_EQ(mty::RedactUrl("nats://h:4222"), "nats://h:4222");
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
