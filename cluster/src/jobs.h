// The two JSON documents of the cluster (docs/scaling.md, "Jobs" and
// "Results"): what a client enqueues and what a worker stores. One home for
// their field names; client.cc and worker.cc both use these.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "crypto.h"
#include "mty/client.h"

namespace mty::cluster {

// The largest job document a worker reads and a client sends (also the
// default max_payload of nats-server: 1 MiB).
inline constexpr size_t kMaxJobBytes = size_t{1} << 20;
// A job's output budget is at most this (stdout and stderr together), so
// that its result fits in one message.
inline constexpr uint64_t kMaxOutputBudget = uint64_t{512} << 10;
// The returned value's debug text is cut at this many bytes in a result.
inline constexpr size_t kMaxReturnedBytes = size_t{64} << 10;

// A job id is a KV key: 1 to 128 of [A-Za-z0-9_-].
absl::Status CheckJobId(std::string_view id);
// A random job id (32 hex digits).
std::string NewJobId();

std::string JobJson(const Job& job);
// kInvalidArgument naming the field. The id is filled in as soon as it is
// read, so that a job with a valid id but a bad field still gets its
// error result (`*id`, when not null).
absl::StatusOr<Job> ParseJob(std::string_view json, std::string* id);

// The result document of `r` (its json field is ignored), signed with
// `key`: `signer` (the key's fingerprint) and `signature`, the Ed25519
// signature of "mty-result-v1\n" followed by the document without its
// `signature` field (docs/scaling.md, Result integrity).
std::string SignedResultJson(const JobResult& r, const SigningKey& key);

// The result stored for job `id` when it is signed by one of `keys`, its
// signature matches its contents, and it was written for that id and for
// the job whose document hashes to `job_hash`; kUnauthenticated saying
// which check failed otherwise.
absl::StatusOr<JobResult> CheckedResult(std::string_view json, const VerifyKeys& keys,
                                        std::string_view id, std::string_view job_hash);

}  // namespace mty::cluster
