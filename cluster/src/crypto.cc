#include "crypto.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <cstdio>
#include <cstring>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace mty::cluster {

struct PKey {
  EVP_PKEY* pkey = nullptr;
  ~PKey() { EVP_PKEY_free(pkey); }
};

namespace {

// The first 16 hex digits of SHA-256 of the key's raw public bytes.
std::string Fingerprint(EVP_PKEY* pkey) {
  unsigned char raw[32];
  size_t len = sizeof raw;
  if (EVP_PKEY_get_raw_public_key(pkey, raw, &len) != 1) return "";
  return Sha256Hex(std::string_view(reinterpret_cast<const char*>(raw), len)).substr(0, 16);
}

// The PEM blocks of a file through `read` (one key each) until none is left.
template <typename Read>
absl::StatusOr<std::vector<std::shared_ptr<PKey>>> ReadKeys(const std::string& path, Read read,
                                                            const char* what) {
  FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return absl::InvalidArgumentError(absl::StrCat(what, " ", path, ": cannot be read"));
  std::vector<std::shared_ptr<PKey>> keys;
  for (;;) {
    EVP_PKEY* k = read(f);
    if (!k) break;
    auto key = std::make_shared<PKey>();
    key->pkey = k;
    if (EVP_PKEY_id(k) != EVP_PKEY_ED25519) {
      std::fclose(f);
      return absl::InvalidArgumentError(
          absl::StrCat(what, " ", path, ": a key that is not Ed25519"));
    }
    keys.push_back(std::move(key));
  }
  std::fclose(f);
  if (keys.empty())
    return absl::InvalidArgumentError(absl::StrCat(what, " ", path, ": no PEM Ed25519 key in it"));
  return keys;
}

// RFC 4648 base32 without padding (nkeys' encoding).
constexpr char kBase32[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

std::string Base32(const std::string& bytes) {
  std::string out;
  unsigned buffer = 0;
  int bits = 0;
  for (unsigned char c : bytes) {
    buffer = (buffer << 8) | c;
    bits += 8;
    while (bits >= 5) {
      out += kBase32[(buffer >> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += kBase32[(buffer << (5 - bits)) & 31];
  return out;
}

bool Unbase32(std::string_view text, std::string* out) {
  unsigned buffer = 0;
  int bits = 0;
  for (char c : text) {
    const char* p = c ? std::strchr(kBase32, c) : nullptr;
    if (!p) return false;
    buffer = (buffer << 5) | static_cast<unsigned>(p - kBase32);
    bits += 5;
    if (bits >= 8) {
      out->push_back(static_cast<char>((buffer >> (bits - 8)) & 0xff));
      bits -= 8;
    }
  }
  return true;
}

// CRC-16/XMODEM (nkeys' checksum).
uint16_t Crc16(std::string_view bytes) {
  uint16_t crc = 0;
  for (unsigned char c : bytes) {
    crc ^= static_cast<uint16_t>(c << 8);
    for (int i = 0; i < 8; ++i)
      crc = (crc & 0x8000) ? static_cast<uint16_t>((crc << 1) ^ 0x1021)
                           : static_cast<uint16_t>(crc << 1);
  }
  return crc;
}

constexpr unsigned char kPrefixSeed = 18 << 3;  // `S`
constexpr unsigned char kPrefixUser = 20 << 3;  // `U`

}  // namespace

std::string Sha256Hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &len, EVP_sha256(), nullptr);
  std::string out;
  for (unsigned int i = 0; i < len; ++i) absl::StrAppendFormat(&out, "%02x", digest[i]);
  return out;
}

absl::StatusOr<SigningKey> SigningKey::Load(const std::string& path) {
  auto keys = ReadKeys(
      path, [](FILE* f) { return PEM_read_PrivateKey(f, nullptr, nullptr, nullptr); },
      "--sign-key");
  if (!keys.ok()) return keys.status();
  SigningKey k;
  k.key_ = (*keys)[0];
  k.fingerprint_ = Fingerprint(k.key_->pkey);
  return k;
}

std::string SigningKey::Sign(std::string_view message) const {
  unsigned char sig[64];
  size_t len = sizeof sig;
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bool ok = ctx && EVP_DigestSignInit(ctx, nullptr, nullptr, nullptr, key_->pkey) == 1 &&
            EVP_DigestSign(ctx, sig, &len, reinterpret_cast<const unsigned char*>(message.data()),
                           message.size()) == 1;
  EVP_MD_CTX_free(ctx);
  if (!ok) return "";
  return absl::Base64Escape(std::string(reinterpret_cast<const char*>(sig), len));
}

absl::StatusOr<VerifyKeys> VerifyKeys::Load(const std::vector<std::string>& paths) {
  VerifyKeys out;
  for (const std::string& path : paths) {
    auto keys = ReadKeys(
        path, [](FILE* f) { return PEM_read_PUBKEY(f, nullptr, nullptr, nullptr); },
        "--verify-key");
    if (!keys.ok()) return keys.status();
    for (auto& k : *keys) out.keys_.push_back({Fingerprint(k->pkey), k});
  }
  return out;
}

absl::Status VerifyKeys::Verify(std::string_view fingerprint, std::string_view message,
                                std::string_view signature) const {
  if (signature.empty()) return absl::UnauthenticatedError("the result is not signed");
  const Key* key = nullptr;
  for (const Key& k : keys_)
    if (k.fingerprint == fingerprint) key = &k;
  if (!key)
    return absl::UnauthenticatedError(absl::StrCat("the result is signed by key ",
                                                   std::string(fingerprint).substr(0, 16),
                                                   ", which is not a --verify-key"));
  std::string sig;
  if (!absl::Base64Unescape(std::string(signature), &sig) || sig.size() != 64)
    return absl::UnauthenticatedError("the result's signature is malformed");
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  bool ok =
      ctx && EVP_DigestVerifyInit(ctx, nullptr, nullptr, nullptr, key->key->pkey) == 1 &&
      EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char*>(sig.data()), sig.size(),
                       reinterpret_cast<const unsigned char*>(message.data()), message.size()) == 1;
  EVP_MD_CTX_free(ctx);
  if (!ok)
    return absl::UnauthenticatedError(absl::StrCat(
        "the result's signature does not match its contents (key ", key->fingerprint, ")"));
  return absl::OkStatus();
}

absl::StatusOr<std::string> NkeyPublicFromSeed(std::string_view text) {
  const absl::Status bad = absl::InvalidArgumentError("no user nkey seed (SU...) in it");
  // The first word that starts `SU` (a seed file, or the seed block of a
  // .creds file).
  size_t at = 0;
  std::string_view seed;
  while (at < text.size()) {
    size_t end = text.find_first_of(" \t\r\n", at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view word = text.substr(at, end - at);
    if (word.starts_with("SU")) {
      seed = word;
      break;
    }
    at = end + 1;
  }
  std::string raw;
  if (seed.empty() || !Unbase32(seed, &raw) || raw.size() != 36) {
    OPENSSL_cleanse(raw.data(), raw.size());
    return bad;
  }
  const uint16_t crc = static_cast<uint16_t>(static_cast<unsigned char>(raw[34]) |
                                             (static_cast<unsigned char>(raw[35]) << 8));
  const unsigned char b1 = static_cast<unsigned char>(raw[0]),
                      b2 = static_cast<unsigned char>(raw[1]);
  const unsigned prefix = ((b1 & 7u) << 5) | ((b2 & 248u) >> 3);
  if (Crc16(std::string_view(raw).substr(0, 34)) != crc || (b1 & 248u) != kPrefixSeed ||
      prefix != kPrefixUser) {
    OPENSSL_cleanse(raw.data(), raw.size());
    return bad;
  }
  EVP_PKEY* pkey = EVP_PKEY_new_raw_private_key(
      EVP_PKEY_ED25519, nullptr, reinterpret_cast<const unsigned char*>(raw.data() + 2), 32);
  OPENSSL_cleanse(raw.data(), raw.size());
  if (!pkey) return bad;
  unsigned char pub[32];
  size_t len = sizeof pub;
  const bool ok = EVP_PKEY_get_raw_public_key(pkey, pub, &len) == 1 && len == 32;
  EVP_PKEY_free(pkey);
  if (!ok) return bad;
  std::string body(1, static_cast<char>(kPrefixUser));
  body.append(reinterpret_cast<const char*>(pub), 32);
  const uint16_t sum = Crc16(body);
  body.push_back(static_cast<char>(sum & 0xff));
  body.push_back(static_cast<char>(sum >> 8));
  return Base32(body);
}

}  // namespace mty::cluster
