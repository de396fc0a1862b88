// `mty worker` (runtime.md §8, docs/scaling.md): pulls jobs from the
// JetStream work-queue stream through its durable pull consumer, runs up to
// `concurrency` of them at once, each under its own manifest intersected
// with the worker's and in its own scratch directory, stores each result,
// signed, in the results bucket keyed by job id and only then acks the job.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "mty/client.h"
#include "mty/mty.h"

namespace mty::cluster {

struct WorkerOptions {
  ClusterOptions cluster;
  int concurrency = 1;
  std::string name;  // in every result; "" : `hostname-pid`
  // The worker's manifest. A family it leaves unset is denied to its jobs
  // (a job can never widen it); a job's limits are the smaller of each.
  // Its fs.write roots and relative fs.read roots name places inside each
  // job's scratch directory (`.` is the whole of it); an absolute fs.read
  // root is data every job may read (docs/scaling.md, Job isolation).
  Policy policy;
  // The PEM file of the worker's Ed25519 private key, which signs every
  // result (required).
  std::string sign_key;
  // Where the worker makes its scratch directory (`mty-worker-XXXXXX`, one
  // `job-XXXXXX` in it per running job); "" : $TMPDIR, else /tmp.
  std::string scratch;
  // One line per job and per problem (no newline); may be called from any
  // of the worker's threads, one call at a time.
  std::function<void(std::string_view)> log;
};

// The policy a job runs under: the worker's (each unset family denied),
// tightened by the job's manifest, with an output budget of at most
// 512 KiB (a result is one message); the relative file roots of both are
// inside the job's scratch directory `scratch`. One home for the rule.
Policy JobPolicy(const Policy& worker, const Policy& job, const std::string& scratch);

class Worker {
 public:
  // Loads the signing key, makes the scratch directory, checks the
  // manifest's file roots against job isolation (kInvalidArgument), connects,
  // creates or binds the streams, the buckets and the consumer, and starts
  // pulling.
  static absl::StatusOr<std::unique_ptr<Worker>> Start(WorkerOptions options);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Stops pulling (any thread). The jobs in hand finish and are acked; with
  // `hard`, they are interrupted and nak'ed instead (delivered again, to
  // another worker).
  void Stop(bool hard);
  // Blocks until every thread has ended (after Stop).
  void Join();
  const std::string& name() const;
  uint64_t jobs_done() const;

 private:
  struct Impl;
  explicit Worker(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace mty::cluster
