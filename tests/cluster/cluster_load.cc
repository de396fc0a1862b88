// mty_cluster_load: many jobs through mty::Client (include/mty/client.h),
// for tests/cluster/cluster_test.sh and bench/cluster_bench.sh.
//   mty_cluster_load URL PROGRAM JOBS [LATENCY_SAMPLES] [REPLICAS]
//   mty_cluster_load raw URL TEXT [ID]
//       publishes TEXT as a job, as it is (with MTY_LOAD_MSG_ID as its
//       Nats-Msg-Id when set); with ID, claims ID for TEXT first (its SHA-256
//       on the claims subject), as mty::Client::Submit does
//   mty_cluster_load again URL ID FILE
//       publishes the job document `mty submit --id ID FILE` sends (no args,
//       no manifest), byte for byte, without a message id: the same job
//       again, which the stream's duplicate window does not drop
//   mty_cluster_load kvput URL BUCKET KEY VALUE | kvdel URL BUCKET KEY
//       a raw put or delete in a key-value bucket, as any NATS client can
//       try (a forged result): prints `stored` and exits 0, or `refused:
//       WHY` and exits 1
//   mty_cluster_load weaken URL
//       updates the claims stream so that a claim can be overwritten (10
//       messages per subject, no discard-new), as a client could on a server
//       without permissions: prints `weakened` or `refused: WHY`
//   mty_cluster_load steal URL
//       pulls one job from the workers' consumer, as a client that is no
//       worker might try (to read another's program, or to make it vanish):
//       prints `took ID` and exits 0, or `refused: WHY` and exits 1
// Submits JOBS copies of PROGRAM at once (by its hash: stored once) and waits
// for all their results, then runs LATENCY_SAMPLES more one at a time
// (submit, wait). Prints `key value` lines: jobs, results, distinct, the
// jobs each worker ran (`worker NAME N`), each outcome (`outcome ok N`),
// attempts above 1, throughput (jobs/s) and the latencies (ms: p50, p99).
// The environment gives the connection: MTY_LOAD_VERIFY_KEY (the workers'
// public key, to accept results), MTY_LOAD_NKEY (an nkey seed file) and
// MTY_LOAD_INBOX_PREFIX.
#include <nats/nats.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "jobs.h"  // cluster/src: the job document mty::Client sends
#include "mty/client.h"
#include "nats.h"  // cluster/src: the connection mty::Client makes

namespace {

// A job document published as it is (malformed ones for the tests).
// MTY_TIME_FACTOR (an integer, default 1; 3 under scripts/sanitize.sh)
// multiplies the waits for results, as instrumented workers are slower.
int TimeFactor() {
  const char* v = std::getenv("MTY_TIME_FACTOR");
  const int f = v ? std::atoi(v) : 1;
  return f > 0 ? f : 1;
}

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

mty::ClusterOptions Options(const char* url) {
  mty::ClusterOptions o;
  o.url = url;
  o.nkey_file = Env("MTY_LOAD_NKEY");
  o.inbox_prefix = Env("MTY_LOAD_INBOX_PREFIX");
  if (std::string key = Env("MTY_LOAD_VERIFY_KEY"); !key.empty()) o.verify_keys.push_back(key);
  return o;
}

int Raw(const char* url, const std::string& text, const char* id) {
  mty::ClusterOptions o = Options(url);
  auto nats = mty::cluster::Nats::Open(o, "mty_cluster_load", /*consumer=*/false);
  if (!nats.ok()) return 69;
  jsCtx* js = (*nats)->js();
  natsStatus s = NATS_OK;
  if (id) {
    const std::string subject = o.claims_subject + "." + id;
    const std::string hash = mty::ProgramHash(text);  // SHA-256, as a job's hash
    jsPubAck* ack = nullptr;
    js_Publish(&ack, js, subject.c_str(), hash.data(), static_cast<int>(hash.size()), nullptr,
               nullptr);  // refused when claimed before: the test decides
    if (ack) jsPubAck_Destroy(ack);
  }
  jsPubOptions po;
  jsPubOptions_Init(&po);
  const std::string msg_id = Env("MTY_LOAD_MSG_ID");
  if (!msg_id.empty()) po.MsgId = msg_id.c_str();
  jsPubAck* ack = nullptr;
  if (s == NATS_OK)
    s = js_Publish(&ack, js, o.subject.c_str(), text.data(), static_cast<int>(text.size()), &po,
                   nullptr);
  if (ack) jsPubAck_Destroy(ack);
  return s == NATS_OK ? 0 : 69;
}

// A put (`value` not null) or delete straight into a bucket.
int KvWrite(const char* url, const char* bucket, const char* key, const char* value) {
  mty::ClusterOptions o = Options(url);
  o.request_timeout = std::chrono::seconds(2);
  auto nats = mty::cluster::Nats::Open(o, "mty_cluster_load", /*consumer=*/false);
  if (!nats.ok()) {
    std::cout << "refused: " << nats.status().message() << "\n";
    return 1;
  }
  kvStore* kv = nullptr;
  uint64_t rev = 0;
  natsStatus s = js_KeyValue(&kv, (*nats)->js(), bucket);
  if (s == NATS_OK) s = value ? kvStore_PutString(&rev, kv, key, value) : kvStore_Delete(kv, key);
  if (s == NATS_OK) {
    std::cout << "stored\n";
  } else {
    // A permissions violation comes back asynchronously (`-ERR`): the
    // request times out, and the connection's last error says why.
    const char* why = nullptr;
    natsConnection_GetLastError((*nats)->connection(), &why);
    std::cout << "refused: " << natsStatus_GetText(s) << " (" << (why ? why : "") << ")\n";
  }
  if (kv) kvStore_Destroy(kv);
  return s == NATS_OK ? 0 : 1;
}

// Makes the claims stream keep several messages per id.
int Weaken(const char* url) {
  mty::ClusterOptions o = Options(url);
  natsConnection* nc = nullptr;
  jsCtx* js = nullptr;
  jsStreamInfo* si = nullptr;
  natsStatus s = natsConnection_ConnectTo(&nc, url);
  if (s == NATS_OK) s = natsConnection_JetStream(&js, nc, nullptr);
  if (s == NATS_OK) s = js_GetStreamInfo(&si, js, o.claims.c_str(), nullptr, nullptr);
  if (s == NATS_OK) {
    jsStreamConfig cfg = *si->Config;
    cfg.MaxMsgsPerSubject = 10;
    cfg.DiscardNewPerSubject = false;
    jsStreamInfo* updated = nullptr;
    s = js_UpdateStream(&updated, js, &cfg, nullptr, nullptr);
    if (updated) jsStreamInfo_Destroy(updated);
  }
  if (si) jsStreamInfo_Destroy(si);
  std::cout << (s == NATS_OK ? "weakened" : std::string("refused: ") + natsStatus_GetText(s))
            << "\n";
  if (js) jsCtx_Destroy(js);
  if (nc) natsConnection_Destroy(nc);
  return s == NATS_OK ? 0 : 1;
}

// Fetches a job through the workers' durable consumer and terminates it.
int Steal(const char* url) {
  mty::ClusterOptions o = Options(url);
  o.request_timeout = std::chrono::seconds(2);
  auto nats = mty::cluster::Nats::Open(o, "mty_cluster_load", /*consumer=*/false);
  if (!nats.ok()) {
    std::cout << "refused: " << nats.status().message() << "\n";
    return 1;
  }
  jsSubOptions so;
  jsSubOptions_Init(&so);
  so.Stream = o.stream.c_str();
  so.Consumer = o.consumer.c_str();
  natsSubscription* sub = nullptr;
  natsMsgList list{nullptr, 0};
  natsStatus s = js_PullSubscribe(&sub, (*nats)->js(), o.subject.c_str(), o.consumer.c_str(),
                                  nullptr, &so, nullptr);
  if (s == NATS_OK) s = natsSubscription_Fetch(&list, sub, 1, 2000, nullptr);
  if (s == NATS_OK && list.Count == 1) {
    std::cout << "took "
              << std::string(natsMsg_GetData(list.Msgs[0]), natsMsg_GetDataLength(list.Msgs[0]))
              << "\n";
    natsMsg_Term(list.Msgs[0], nullptr);
  } else {
    const char* why = nullptr;
    natsConnection_GetLastError((*nats)->connection(), &why);
    std::cout << "refused: " << natsStatus_GetText(s) << " (" << (why ? why : "") << ")\n";
  }
  natsMsgList_Destroy(&list);
  if (sub) natsSubscription_Destroy(sub);
  return s == NATS_OK ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "raw" && (argc == 4 || argc == 5))
    return Raw(argv[2], argv[3], argc == 5 ? argv[4] : nullptr);
  if (mode == "again" && argc == 5) {
    std::ifstream in(argv[4]);
    std::stringstream text;
    text << in.rdbuf();
    mty::Job job;
    job.id = argv[3];
    job.file = argv[4];
    job.program = text.str();
    return Raw(argv[2], mty::cluster::JobJson(job), nullptr);
  }
  if (mode == "kvput" && argc == 6) return KvWrite(argv[2], argv[3], argv[4], argv[5]);
  if (mode == "kvdel" && argc == 5) return KvWrite(argv[2], argv[3], argv[4], nullptr);
  if (mode == "steal" && argc == 3) return Steal(argv[2]);
  if (mode == "weaken" && argc == 3) return Weaken(argv[2]);
  if (argc < 4) {
    std::cerr << "usage: mty_cluster_load URL PROGRAM JOBS [LATENCY_SAMPLES] [REPLICAS]\n";
    return 64;
  }
  mty::ClusterOptions o = Options(argv[1]);
  if (argc > 5) o.replicas = std::stoi(argv[5]);
  std::ifstream in(argv[2]);
  std::stringstream text;
  text << in.rdbuf();
  const int jobs = std::stoi(argv[3]);
  const int samples = argc > 4 ? std::stoi(argv[4]) : 0;
  auto client = mty::Client::Connect(o);
  if (!client.ok()) {
    std::cerr << "error: " << client.status() << "\n";
    return 69;
  }
  auto hash = (*client)->StoreProgram(text.str());
  if (!hash.ok()) {
    std::cerr << "error: " << hash.status() << "\n";
    return 69;
  }
  using Clock = std::chrono::steady_clock;
  std::vector<std::string> ids;
  const auto start = Clock::now();
  for (int i = 0; i < jobs; ++i) {
    mty::Job job;
    job.id = "load-" + std::to_string(getpid()) + "-" + std::to_string(i);
    job.program_hash = *hash;
    job.file = argv[2];
    absl::StatusOr<std::string> id = (*client)->Submit(job);
    // A cluster node may be lost meanwhile: submit again (same id: the
    // stream's duplicate window drops a second copy).
    for (int retry = 0; !id.ok() && retry < 50; ++retry) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      id = (*client)->Submit(job);
    }
    if (!id.ok()) {
      std::cerr << "error: submit: " << id.status() << "\n";
      return 69;
    }
    ids.push_back(*id);
  }
  auto results = (*client)->WaitAll(ids, std::chrono::seconds(120 * TimeFactor()));
  if (!results.ok()) {
    std::cerr << "error: " << results.status() << "\n";
    return 75;
  }
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();
  std::map<std::string, int> workers, outcomes;
  std::set<std::string> distinct;
  int retried = 0;
  for (size_t i = 0; i < results->size(); ++i) {
    const mty::JobResult& r = (*results)[i];
    if (r.id == ids[i]) distinct.insert(r.id);
    ++workers[r.worker];
    ++outcomes[r.outcome];
    if (r.attempt > 1) ++retried;
  }
  std::cout << "jobs " << jobs << "\nresults " << results->size() << "\ndistinct "
            << distinct.size() << "\n";
  for (const auto& [w, n] : workers) std::cout << "worker " << w << " " << n << "\n";
  for (const auto& [k, n] : outcomes) std::cout << "outcome " << k << " " << n << "\n";
  std::cout << "retried " << retried << "\n";
  if (jobs > 0) std::printf("throughput %.0f\n", jobs / secs);
  std::vector<double> ms;
  for (int i = 0; i < samples; ++i) {
    mty::Job job;
    job.program_hash = *hash;
    job.file = argv[2];
    const auto t0 = Clock::now();
    auto id = (*client)->Submit(job);
    if (!id.ok()) return 69;
    auto r = (*client)->Wait(*id, std::chrono::seconds(30 * TimeFactor()));
    if (!r.ok()) return 75;
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  if (!ms.empty()) {
    std::sort(ms.begin(), ms.end());
    std::printf("latency_p50_ms %.3f\nlatency_p99_ms %.3f\n", ms[ms.size() / 2],
                ms[std::min(ms.size() - 1, ms.size() * 99 / 100)]);
  }
  return 0;
}
