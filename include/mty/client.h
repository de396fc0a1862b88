// Running mty jobs on NATS JetStream (runtime.md §8, docs/scaling.md): the
// client side. A job (a program, its args and a manifest) goes into a
// JetStream work-queue stream; `mty worker` processes run it under the job's
// manifest intersected with their own and store one result per job id in a
// key-value bucket. mty::Client submits jobs, waits for their results and
// fetches stored ones. Link the `mty_cluster` target (it needs libnats).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace mty {

// Where the jobs, results and programs live, and the settings a worker or
// client uses when it creates them (a stream or consumer that exists already
// is bound as it is). The defaults are docs/scaling.md's.
struct ClusterOptions {
  // One or more server URLs, comma-separated: "nats://127.0.0.1:4222".
  std::string url = "nats://127.0.0.1:4222";
  std::string stream = "MTY_JOBS";        // the work-queue stream
  std::string subject = "mty.jobs";       // its subject
  std::string consumer = "mty-workers";   // the durable pull consumer
  std::string results = "mty_results";    // KV bucket: job id -> result JSON
  std::string programs = "mty_programs";  // KV bucket: content hash -> program text
  // The claims stream: one message per job id, `<claims_subject>.<id>`,
  // holding the SHA-256 of the job document submitted under it; a second
  // claim of an id is refused by the server (create-only), so an id belongs
  // to the first job submitted with it.
  std::string claims = "MTY_CLAIMS";
  std::string claims_subject = "mty.claims";
  int replicas = 1;  // of the stream, consumer and buckets (1 or 3)
  // A job not acked (nor in-progress acked) within ack_wait is delivered
  // again, at most max_deliver times in all.
  std::chrono::nanoseconds ack_wait = std::chrono::seconds(30);
  int max_deliver = 5;
  // Each request to the server (publish, KV get/put, stream setup).
  std::chrono::milliseconds request_timeout = std::chrono::seconds(5);

  // Credentials (docs/scaling.md, Credentials): files, read when connecting
  // and never printed. A URL's `user:password@` works too but is visible to
  // `ps` when given on the command line; RedactUrl hides it in messages.
  std::string creds_file;  // a NATS .creds file (user JWT and nkey seed)
  std::string nkey_file;   // a file holding a user nkey seed (`SU...`)
  std::string tls_ca;      // PEM CA certificates the server's certificate must chain to
  std::string tls_cert;    // PEM client certificate chain (with tls_key)
  std::string tls_key;     // its PEM private key
  // The prefix of this connection's reply subjects ("" : `_INBOX`): with a
  // prefix of its own per user, the server's permissions can keep one
  // client from reading the replies another gets (docs/scaling.md).
  std::string inbox_prefix;
  // PEM files of the workers' Ed25519 public keys. Wait, WaitAll and Fetch
  // return a result only when one of these keys signed it and it was
  // written for the job claimed under its id; anything else is an error
  // (kUnauthenticated). With none, every result is refused.
  std::vector<std::string> verify_keys;
};

// A job (the JSON document of docs/scaling.md, "Jobs").
struct Job {
  std::string id;                 // "" : Submit makes a random one
  std::string program;            // Mighty source or MtyIR text ("" : by program_hash)
  std::string program_hash;       // ProgramHash of a program stored with StoreProgram
  std::string file = "job.mty";   // the name diagnostics use; `.mtyir` is MtyIR text
  std::vector<std::string> args;  // std.env.args()
  std::string manifest;           // TOML text of a [sandbox] table ("" : none)
};

// A job's result, as the worker stored it.
struct JobResult {
  std::string id;
  // An ir::OutcomeName ("ok", "trap", "breach", ...), or "compile_error"
  // (the program did not compile: `diagnostics`) or "invalid_job" (a
  // malformed job or manifest, or a program hash nothing is stored under:
  // `message`). The last two are never retried.
  std::string outcome;
  int exit_code = 0;                    // what `mty run` would have exited with
  std::string code;                     // "MT5016", or ""
  std::string message;                  // the trap's, breach's or invalid job's message
  std::optional<std::string> returned;  // the returned value's debug text (kOk, kMainErr)
  std::string stdout_text;              // the program's stdout (bounded by its output budget)
  std::string stderr_text;              // its stderr
  std::string diagnostics;  // compile warnings or errors, rendered as `mty run` prints them
  std::string report;       // what `mty run` prints on stderr after the run
  std::string breach;       // the breached limit's key ("steps"), or ""
  // Usage (runtime.md §7).
  uint64_t steps = 0, memory_bytes = 0, heap_peak_bytes = 0, output_bytes = 0, wall_ns = 0,
           cpu_ns = 0, agents_spawned = 0;
  std::string worker;    // the worker's name
  int attempt = 0;       // which delivery of the job ran it (1: the first)
  std::string job_hash;  // SHA-256 of the job document the worker ran
  std::string signer;    // the fingerprint of the worker key that signed it
  std::string json;      // the stored document itself
};

// The content hash jobs name programs by: SHA-256 of the text, 64 hex digits.
std::string ProgramHash(std::string_view text);

// The NATS URL(s) with any `user:password@` replaced by `***@`: what
// messages and logs show of a URL.
std::string RedactUrl(std::string_view urls);

class Client {
 public:
  // Connects and creates (or binds) the stream and buckets.
  static absl::StatusOr<std::unique_ptr<Client>> Connect(const ClusterOptions& options);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  // Stores a program in the programs bucket; returns its ProgramHash (for
  // Job::program_hash).
  absl::StatusOr<std::string> StoreProgram(std::string_view text);
  // Claims the job's id for this job (the claims stream) and enqueues the
  // job (acknowledged by the stream); returns its id. An id claimed by a
  // job with other contents is kAlreadyExists (the same job again is
  // enqueued again: its stored result, if any, answers it).
  absl::StatusOr<std::string> Submit(Job job);
  // The job's result once stored; kDeadlineExceeded after `timeout` (zero:
  // no limit).
  absl::StatusOr<JobResult> Wait(std::string_view id,
                                 std::chrono::milliseconds timeout = std::chrono::milliseconds(0));
  // The results of all of `ids`, in their order, each as soon as it is
  // stored (one watch over the bucket); kDeadlineExceeded after `timeout`.
  absl::StatusOr<std::vector<JobResult>> WaitAll(
      const std::vector<std::string>& ids,
      std::chrono::milliseconds timeout = std::chrono::milliseconds(0));
  // The stored result; nullopt when there is none (yet).
  // Wait, WaitAll and Fetch check each result (ClusterOptions::verify_keys):
  // one that is unsigned, signed by another key, altered, or written for
  // another job than the one claimed under its id is kUnauthenticated.
  absl::StatusOr<std::optional<JobResult>> Fetch(std::string_view id);
  // Every job id with a stored result.
  absl::StatusOr<std::vector<std::string>> ResultIds();

 private:
  struct Impl;
  explicit Client(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Parses a result document (the text stored in the results bucket).
absl::StatusOr<JobResult> ParseJobResult(std::string_view json);

}  // namespace mty
