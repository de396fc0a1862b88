#include "nats.h"

#include <openssl/crypto.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "crypto.h"

namespace mty::cluster {

absl::Status NatsError(std::string_view what, natsStatus s, jsErrCode jerr) {
  std::string text = absl::StrCat(std::string(what), ": ", natsStatus_GetText(s));
  if (jerr != 0) absl::StrAppend(&text, " (JetStream error ", static_cast<int>(jerr), ")");
  const absl::StatusCode code =
      s == NATS_TIMEOUT     ? absl::StatusCode::kDeadlineExceeded
      : s == NATS_NOT_FOUND ? absl::StatusCode::kNotFound
      : s == NATS_NO_SERVER || s == NATS_CONNECTION_CLOSED || s == NATS_NO_RESPONDERS ||
              s == NATS_CONNECTION_DISCONNECTED || jerr == JSClusterNotAvailErr
          ? absl::StatusCode::kUnavailable
          : absl::StatusCode::kInternal;
  return absl::Status(code, text);
}

bool Transient(const absl::Status& s) {
  return s.code() == absl::StatusCode::kDeadlineExceeded ||
         s.code() == absl::StatusCode::kUnavailable;
}

namespace {

// The credentials of ClusterOptions on a connection's options; messages
// name the flag and the file, never what the file holds.
absl::Status SetCredentials(natsOptions* opts, const ClusterOptions& o) {
  // libnats reads a .creds file again at each reconnect, maybe from a
  // thread whose working directory is a job's: the path is made absolute.
  auto absolute = [](const std::string& path) {
    std::error_code ec;
    std::filesystem::path p = std::filesystem::absolute(path, ec);
    return ec ? path : p.string();
  };
  // A file libnats refuses (not PEM, no key in it) is the caller's error:
  // kInvalidArgument naming the flag and the file.
  auto refused = [](const std::string& what, natsStatus st) {
    const char* detail = nats_GetLastError(nullptr);
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": ", natsStatus_GetText(st), detail && *detail ? " (" : "",
                     detail ? detail : "", detail && *detail ? ")" : ""));
  };
  natsStatus s = NATS_OK;
  if (!o.creds_file.empty() && !o.nkey_file.empty())
    return absl::InvalidArgumentError("--creds and --nkey: give one of them");
  if (!o.tls_cert.empty() != !o.tls_key.empty())
    return absl::InvalidArgumentError("--tls-cert and --tls-key go together");
  // Every file named must be readable (kInvalidArgument naming it).
  for (const auto& [flag, path] : {std::pair{"--creds", &o.creds_file},
                                   {"--nkey", &o.nkey_file},
                                   {"--tls-ca", &o.tls_ca},
                                   {"--tls-cert", &o.tls_cert},
                                   {"--tls-key", &o.tls_key}})
    if (!path->empty() && access(path->c_str(), R_OK) != 0)
      return absl::InvalidArgumentError(absl::StrCat(flag, " ", *path, ": ", std::strerror(errno)));
  if (!o.creds_file.empty()) {
    const std::string path = absolute(o.creds_file);
    s = natsOptions_SetUserCredentialsFromFiles(opts, path.c_str(), nullptr);
    if (s != NATS_OK) return refused(absl::StrCat("--creds ", o.creds_file), s);
  }
  if (!o.nkey_file.empty()) {
    const std::string path = absolute(o.nkey_file);
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    absl::StatusOr<std::string> pub = NkeyPublicFromSeed(text);
    OPENSSL_cleanse(text.data(), text.size());
    if (!pub.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("--nkey ", o.nkey_file, ": ", pub.status().message()));
    s = natsOptions_SetNKeyFromSeed(opts, pub->c_str(), path.c_str());
    if (s != NATS_OK) return refused(absl::StrCat("--nkey ", o.nkey_file), s);
  }
  if (!o.tls_ca.empty() || !o.tls_cert.empty()) {
    s = natsOptions_SetSecure(opts, true);
    if (s == NATS_OK && !o.tls_ca.empty())
      s = natsOptions_LoadCATrustedCertificates(opts, o.tls_ca.c_str());
    if (s != NATS_OK) return refused(absl::StrCat("--tls-ca ", o.tls_ca), s);
    if (!o.tls_cert.empty())
      s = natsOptions_LoadCertificatesChain(opts, o.tls_cert.c_str(), o.tls_key.c_str());
    if (s != NATS_OK)
      return refused(absl::StrCat("--tls-cert ", o.tls_cert, " --tls-key ", o.tls_key), s);
  }
  if (!o.inbox_prefix.empty()) {
    s = natsOptions_SetCustomInboxPrefix(opts, o.inbox_prefix.c_str());
    if (s != NATS_OK) return refused(absl::StrCat("--inbox-prefix ", o.inbox_prefix), s);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<Nats>> Nats::Open(const ClusterOptions& options,
                                                 std::string_view name, bool consumer) {
  std::unique_ptr<Nats> n(new Nats());
  n->options_ = options;
  const std::string shown = RedactUrl(options.url);
  natsOptions* opts = nullptr;
  if (natsStatus s = natsOptions_Create(&opts); s != NATS_OK) return NatsError("nats options", s);
  std::unique_ptr<natsOptions, void (*)(natsOptions*)> guard(opts, natsOptions_Destroy);
  std::vector<std::string> urls = absl::StrSplit(options.url, ',', absl::SkipWhitespace());
  std::vector<const char*> servers;
  for (const std::string& u : urls) servers.push_back(u.c_str());
  if (servers.empty()) return absl::InvalidArgumentError("--nats: no server URL given");
  natsStatus s = natsOptions_SetServers(opts, servers.data(), static_cast<int>(servers.size()));
  if (s == NATS_OK) s = natsOptions_SetName(opts, std::string(name).c_str());
  // A lost server is retried for ever (the cluster test kills one node):
  // reconnecting every 100 ms, to any of the URLs or the servers they told.
  if (s == NATS_OK) s = natsOptions_SetMaxReconnect(opts, -1);
  if (s == NATS_OK) s = natsOptions_SetReconnectWait(opts, 100);
  if (s == NATS_OK) s = natsOptions_SetTimeout(opts, options.request_timeout.count());
  if (s != NATS_OK) return NatsError(absl::StrCat("--nats ", shown), s);
  if (absl::Status st = SetCredentials(opts, options); !st.ok()) return st;
  if (s = natsConnection_Connect(&n->nc_, opts); s != NATS_OK)
    return NatsError(absl::StrCat("cannot connect to ", shown), s);
  jsOptions jo;
  jsOptions_Init(&jo);
  jo.Wait = options.request_timeout.count();
  if (s = natsConnection_JetStream(&n->js_, n->nc_, &jo); s != NATS_OK)
    return NatsError("JetStream", s);
  // A cluster that has just started answers JetStream requests only once
  // it has elected its leaders: a timeout, or "temporarily unavailable",
  // is waited out (every step is idempotent: what exists is bound) for up
  // to kSetupWindow, then reported.
  const auto start = std::chrono::steady_clock::now();
  auto pause = std::chrono::milliseconds(100);
  for (;;) {
    absl::Status st = n->Setup(consumer);
    if (st.ok()) return n;
    if (!Transient(st) || std::chrono::steady_clock::now() - start + pause > kSetupWindow)
      return st;
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(2000));
  }
}

Nats::~Nats() {
  if (results_) kvStore_Destroy(results_);
  if (programs_) kvStore_Destroy(programs_);
  if (js_) jsCtx_Destroy(js_);
  if (nc_) {
    natsConnection_FlushTimeout(nc_, 1000);
    natsConnection_Destroy(nc_);
  }
}

namespace {

// A bucket: bound when it exists (with whatever settings), else created.
// Binding first lets a client whose permissions allow no creation (a
// submitter, docs/scaling.md) use what the workers made.
absl::Status Bucket(jsCtx* js, const std::string& name, int replicas, kvStore** out) {
  natsStatus s = js_KeyValue(out, js, name.c_str());
  if (s == NATS_OK) return absl::OkStatus();
  if (s == NATS_NOT_FOUND) {
    kvConfig kc;
    kvConfig_Init(&kc);
    kc.Bucket = name.c_str();
    kc.History = 1;
    kc.StorageType = js_FileStorage;
    kc.Replicas = replicas;
    s = js_CreateKeyValue(out, js, &kc);
    // Made meanwhile by another worker or client: bind.
    if (s != NATS_OK) s = js_KeyValue(out, js, name.c_str());
  }
  if (s != NATS_OK) return NatsError(absl::StrCat("key-value bucket ", name), s);
  return absl::OkStatus();
}

// A stream: bound when it exists (with whatever settings), else created.
absl::Status Stream(jsCtx* js, jsStreamConfig& sc) {
  jsStreamInfo* si = nullptr;
  jsErrCode jerr = jsErrCode(0);
  natsStatus s = js_GetStreamInfo(&si, js, sc.Name, nullptr, &jerr);
  if (s == NATS_NOT_FOUND || jerr == JSStreamNotFoundErr) {
    jerr = jsErrCode(0);
    s = js_AddStream(&si, js, &sc, nullptr, &jerr);
    if (s != NATS_OK && jerr == JSStreamNameExistErr) {
      // Made meanwhile by another worker or client: bind.
      jerr = jsErrCode(0);
      s = js_GetStreamInfo(&si, js, sc.Name, nullptr, &jerr);
    }
  }
  if (si) jsStreamInfo_Destroy(si);
  if (s != NATS_OK) return NatsError(absl::StrCat("stream ", sc.Name), s, jerr);
  return absl::OkStatus();
}

}  // namespace

absl::Status Nats::Setup(bool consumer) {
  const ClusterOptions& o = options_;
  // The work queue: a job is removed once acked; kept on disk, replicated.
  jsStreamConfig sc;
  jsStreamConfig_Init(&sc);
  sc.Name = o.stream.c_str();
  const char* subjects[] = {o.subject.c_str()};
  sc.Subjects = subjects;
  sc.SubjectsLen = 1;
  sc.Retention = js_WorkQueuePolicy;
  sc.Storage = js_FileStorage;
  sc.Replicas = o.replicas;
  if (absl::Status st = Stream(js_, sc); !st.ok()) return st;
  // The claims: one message per subject, a second one refused by the
  // server whatever its headers; none deleted or purged.
  jsStreamConfig cc;
  jsStreamConfig_Init(&cc);
  cc.Name = o.claims.c_str();
  const std::string claim_subjects = absl::StrCat(o.claims_subject, ".*");
  const char* claim_list[] = {claim_subjects.c_str()};
  cc.Subjects = claim_list;
  cc.SubjectsLen = 1;
  cc.Storage = js_FileStorage;
  cc.Replicas = o.replicas;
  cc.MaxMsgsPerSubject = 1;
  cc.Discard = js_DiscardNew;
  cc.DiscardNewPerSubject = true;
  cc.DenyDelete = true;
  cc.DenyPurge = true;
  if (absl::Status st = Stream(js_, cc); !st.ok()) return st;
  // One that exists was maybe made otherwise: claims are only worth
  // anything create-only.
  jsStreamInfo* claims_info = nullptr;
  jsErrCode cerr = jsErrCode(0);
  if (natsStatus s = js_GetStreamInfo(&claims_info, js_, cc.Name, nullptr, &cerr); s != NATS_OK)
    return NatsError(absl::StrCat("stream ", o.claims), s, cerr);
  const jsStreamConfig* got = claims_info->Config;
  const bool create_only = got->MaxMsgsPerSubject == 1 && got->Discard == js_DiscardNew &&
                           got->DiscardNewPerSubject && got->DenyDelete && got->DenyPurge;
  jsStreamInfo_Destroy(claims_info);
  if (!create_only)
    return absl::FailedPreconditionError(absl::StrCat(
        "stream ", o.claims,
        " exists but is not create-only (one message per subject, discard new per subject, "
        "deny delete and purge): job ids could be taken over; delete it or name another"));
  if (absl::Status st = Bucket(js_, o.results, o.replicas, &results_); !st.ok()) return st;
  if (absl::Status st = Bucket(js_, o.programs, o.replicas, &programs_); !st.ok()) return st;
  if (!consumer) return absl::OkStatus();
  jsConsumerConfig kc;
  jsConsumerConfig_Init(&kc);
  kc.Durable = o.consumer.c_str();
  kc.AckPolicy = js_AckExplicit;
  kc.AckWait = o.ack_wait.count();
  kc.MaxDeliver = o.max_deliver;
  kc.FilterSubject = o.subject.c_str();
  kc.MaxAckPending = 10000;
  kc.Replicas = o.replicas;
  jsConsumerInfo* ci = nullptr;
  jsErrCode jerr = jsErrCode(0);
  natsStatus s = js_AddConsumer(&ci, js_, o.stream.c_str(), &kc, nullptr, &jerr);
  if (s != NATS_OK) {
    // It exists (another worker made it, maybe with other settings): bind.
    jerr = jsErrCode(0);
    s = js_GetConsumerInfo(&ci, js_, o.stream.c_str(), o.consumer.c_str(), nullptr, &jerr);
  }
  if (s != NATS_OK) return NatsError(absl::StrCat("consumer ", o.consumer), s, jerr);
  ack_wait_ns_ = ci->Config->AckWait;
  jsConsumerInfo_Destroy(ci);
  return absl::OkStatus();
}

absl::StatusOr<std::optional<std::string>> Nats::Get(kvStore* kv, std::string_view key) const {
  kvEntry* e = nullptr;
  natsStatus s = kvStore_Get(&e, kv, std::string(key).c_str());
  if (s == NATS_NOT_FOUND) return std::nullopt;
  if (s != NATS_OK) return NatsError(absl::StrCat("get ", std::string(key)), s);
  std::string value(static_cast<const char*>(kvEntry_Value(e)), kvEntry_ValueLen(e));
  kvEntry_Destroy(e);
  return value;
}

absl::StatusOr<std::optional<std::string>> Nats::Claim(std::string_view id) const {
  const std::string subject = absl::StrCat(options_.claims_subject, ".", std::string(id));
  natsMsg* m = nullptr;
  jsErrCode jerr = jsErrCode(0);
  natsStatus s = js_GetLastMsg(&m, js_, options_.claims.c_str(), subject.c_str(), nullptr, &jerr);
  if (s == NATS_NOT_FOUND) return std::nullopt;
  if (s != NATS_OK) return NatsError(absl::StrCat("the claim of job ", std::string(id)), s, jerr);
  std::string hash(natsMsg_GetData(m), static_cast<size_t>(natsMsg_GetDataLength(m)));
  natsMsg_Destroy(m);
  return hash;
}

absl::Status Nats::ClaimId(std::string_view id, std::string_view job_hash) const {
  const std::string subject = absl::StrCat(options_.claims_subject, ".", std::string(id));
  jsPubOptions po;
  jsPubOptions_Init(&po);
  po.MaxWait = options_.request_timeout.count();
  jsPubAck* ack = nullptr;
  jsErrCode jerr = jsErrCode(0);
  natsStatus s = js_Publish(&ack, js_, subject.c_str(), job_hash.data(),
                            static_cast<int>(job_hash.size()), &po, &jerr);
  if (ack) jsPubAck_Destroy(ack);
  if (s == NATS_OK) return absl::OkStatus();
  // Refused: claimed before, by this job (submitted again) or another.
  auto held = Claim(id);
  if (!held.ok()) return held.status();
  if (!*held) return NatsError(absl::StrCat("claim job id ", std::string(id)), s, jerr);
  if (**held == job_hash) return absl::OkStatus();
  return absl::AlreadyExistsError(
      absl::StrCat("job id ", std::string(id),
                   " is held by another job (submitted before with other contents): choose "
                   "another id"));
}

}  // namespace mty::cluster

namespace mty {

std::string RedactUrl(std::string_view urls) {
  std::string out;
  const std::vector<std::string> parts = absl::StrSplit(std::string(urls), ',');
  for (const std::string& url : parts) {
    if (!out.empty()) out += ',';
    const size_t scheme = url.find("://");
    const size_t host = scheme == std::string::npos ? 0 : scheme + 3;
    // The last `@`: a password may hold `/` or `@` unescaped.
    const size_t at = url.rfind('@');
    if (at != std::string::npos && at >= host) {
      absl::StrAppend(&out, url.substr(0, host), "***", url.substr(at));
    } else {
      absl::StrAppend(&out, url);
    }
  }
  return out;
}

}  // namespace mty
