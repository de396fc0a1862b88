// mty_cluster_load: many jobs through mty::Client (include/mty/client.h),
// for tests/cluster/cluster_test.sh and bench/cluster_bench.sh.
//   mty_cluster_load URL PROGRAM JOBS [LATENCY_SAMPLES] [REPLICAS]
//   mty_cluster_load raw URL TEXT   (publishes TEXT as a job, as it is)
// Submits JOBS copies of PROGRAM at once (by its hash: stored once) and waits
// for all their results, then runs LATENCY_SAMPLES more one at a time
// (submit, wait). Prints `key value` lines: jobs, results, distinct, the
// jobs each worker ran (`worker NAME N`), each outcome (`outcome ok N`),
// attempts above 1, throughput (jobs/s) and the latencies (ms: p50, p99).
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

#include "mty/client.h"

namespace {

// A job document published as it is (malformed ones for the tests).
// MTY_TIME_FACTOR (an integer, default 1; 3 under scripts/sanitize.sh)
// multiplies the waits for results, as instrumented workers are slower.
int TimeFactor() {
  const char* v = std::getenv("MTY_TIME_FACTOR");
  const int f = v ? std::atoi(v) : 1;
  return f > 0 ? f : 1;
}

int Raw(const char* url, const std::string& text) {
  mty::ClusterOptions o;
  o.url = url;
  auto client = mty::Client::Connect(o);  // makes the stream
  if (!client.ok()) return 69;
  natsConnection* nc = nullptr;
  jsCtx* js = nullptr;
  if (natsConnection_ConnectTo(&nc, url) != NATS_OK) return 69;
  natsStatus s = natsConnection_JetStream(&js, nc, nullptr);
  jsPubAck* ack = nullptr;
  if (s == NATS_OK)
    s = js_Publish(&ack, js, o.subject.c_str(), text.data(), static_cast<int>(text.size()), nullptr,
                   nullptr);
  if (ack) jsPubAck_Destroy(ack);
  if (js) jsCtx_Destroy(js);
  natsConnection_Destroy(nc);
  return s == NATS_OK ? 0 : 69;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::string(argv[1]) == "raw") return Raw(argv[2], argv[3]);
  if (argc < 4) {
    std::cerr << "usage: mty_cluster_load URL PROGRAM JOBS [LATENCY_SAMPLES] [REPLICAS]\n";
    return 64;
  }
  mty::ClusterOptions o;
  o.url = argv[1];
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
