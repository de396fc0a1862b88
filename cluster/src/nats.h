// The NATS side of mty's cluster (docs/scaling.md): one connection with its
// credentials, its JetStream context and the two key-value buckets, and the
// one place the streams, the consumer and the buckets are created (or bound)
// from ClusterOptions. libnats (the Debian libnats-dev C client) is used only
// through this file and worker.cc.
#pragma once

#include <nats/nats.h>

#include <chrono>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mty/client.h"

namespace mty::cluster {

// A libnats status as an absl::Status: `what: text (detail)`.
absl::Status NatsError(std::string_view what, natsStatus s, jsErrCode jerr = jsErrCode(0));

// A failure worth trying again later: a request timed out, the server is
// away, or JetStream is electing its leaders (error 10008).
bool Transient(const absl::Status& s);

// How long opening waits for a cluster that is electing its leaders.
inline constexpr std::chrono::seconds kSetupWindow{60};

class Nats {
 public:
  // Connects with the options' credentials (reconnecting forever to any of
  // the URLs after a loss), binds the streams and the buckets, creating
  // those that do not exist; with `consumer`, the durable pull consumer
  // too. Messages show URLs redacted (RedactUrl).
  static absl::StatusOr<std::unique_ptr<Nats>> Open(const ClusterOptions& options,
                                                    std::string_view name, bool consumer);
  ~Nats();
  Nats(const Nats&) = delete;
  Nats& operator=(const Nats&) = delete;

  natsConnection* connection() const { return nc_; }
  jsCtx* js() const { return js_; }
  kvStore* results() const { return results_; }
  kvStore* programs() const { return programs_; }
  const ClusterOptions& options() const { return options_; }
  // The consumer's ack wait as the server has it (Open with `consumer`).
  int64_t ack_wait_ns() const { return ack_wait_ns_; }

  // The value stored under `key`; nullopt when there is none.
  absl::StatusOr<std::optional<std::string>> Get(kvStore* kv, std::string_view key) const;

  // The job hash claimed under job id `id`; nullopt when none is.
  absl::StatusOr<std::optional<std::string>> Claim(std::string_view id) const;
  // Claims `id` for the job whose document hashes to `job_hash`: OK when
  // this claim is stored or the same hash was claimed before;
  // kAlreadyExists when another job holds the id.
  absl::Status ClaimId(std::string_view id, std::string_view job_hash) const;

 private:
  Nats() = default;
  absl::Status Setup(bool consumer);

  ClusterOptions options_;
  natsConnection* nc_ = nullptr;
  jsCtx* js_ = nullptr;
  kvStore* results_ = nullptr;
  kvStore* programs_ = nullptr;
  int64_t ack_wait_ns_ = 0;
};

}  // namespace mty::cluster
