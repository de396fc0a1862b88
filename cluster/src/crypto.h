// The cluster's cryptography, over OpenSSL libcrypto (docs/scaling.md,
// "Result integrity" and "Credentials"): SHA-256, the workers' Ed25519
// result keys, and the public key of an NATS nkey seed. Key material is
// never put in an error message or a log line; errors name the file.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace mty::cluster {

// SHA-256 of the bytes, 64 lower-case hex digits.
std::string Sha256Hex(std::string_view bytes);

struct PKey;  // an OpenSSL EVP_PKEY (crypto.cc)

// A worker's Ed25519 private key (PEM, `openssl genpkey -algorithm
// ed25519`).
class SigningKey {
 public:
  // kInvalidArgument naming the file (never its contents) when it cannot be
  // read or is not an Ed25519 private key.
  static absl::StatusOr<SigningKey> Load(const std::string& path);
  // The Ed25519 signature of `message`, base64.
  std::string Sign(std::string_view message) const;
  // The first 16 hex digits of the SHA-256 of the raw public key: which key
  // signed (`signer` in a result).
  const std::string& fingerprint() const { return fingerprint_; }

 private:
  std::shared_ptr<PKey> key_;
  std::string fingerprint_;
};

// The Ed25519 public keys results are checked with: every PEM public key
// in each file (`openssl pkey -pubout`).
class VerifyKeys {
 public:
  static absl::StatusOr<VerifyKeys> Load(const std::vector<std::string>& paths);
  bool empty() const { return keys_.empty(); }
  // OK when the key with this fingerprint is one of these and `signature`
  // (base64) is its signature of `message`; kUnauthenticated saying which
  // check failed otherwise.
  absl::Status Verify(std::string_view fingerprint, std::string_view message,
                      std::string_view signature) const;

 private:
  struct Key {
    std::string fingerprint;
    std::shared_ptr<PKey> key;
  };
  std::vector<Key> keys_;
};

// The public key (`U...`) of a user nkey seed (`SU...`, base32 with a
// CRC-16), as nats-server's configuration names the user; kInvalidArgument
// when the text is no user seed (the message never holds the text).
absl::StatusOr<std::string> NkeyPublicFromSeed(std::string_view seed);

}  // namespace mty::cluster
