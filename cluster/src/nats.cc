#include "nats.h"

#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace mty::cluster {

absl::Status NatsError(std::string_view what, natsStatus s, jsErrCode jerr) {
  std::string text = absl::StrCat(std::string(what), ": ", natsStatus_GetText(s));
  if (jerr != 0) absl::StrAppend(&text, " (JetStream error ", static_cast<int>(jerr), ")");
  const absl::StatusCode code = s == NATS_TIMEOUT     ? absl::StatusCode::kDeadlineExceeded
                                : s == NATS_NOT_FOUND ? absl::StatusCode::kNotFound
                                : s == NATS_NO_SERVER || s == NATS_CONNECTION_CLOSED
                                    ? absl::StatusCode::kUnavailable
                                    : absl::StatusCode::kInternal;
  return absl::Status(code, text);
}

absl::StatusOr<std::unique_ptr<Nats>> Nats::Open(const ClusterOptions& options,
                                                 std::string_view name, bool consumer) {
  std::unique_ptr<Nats> n(new Nats());
  n->options_ = options;
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
  if (s != NATS_OK) return NatsError(absl::StrCat("--nats ", options.url), s);
  if (s = natsConnection_Connect(&n->nc_, opts); s != NATS_OK)
    return NatsError(absl::StrCat("cannot connect to ", options.url), s);
  jsOptions jo;
  jsOptions_Init(&jo);
  jo.Wait = options.request_timeout.count();
  if (s = natsConnection_JetStream(&n->js_, n->nc_, &jo); s != NATS_OK)
    return NatsError("JetStream", s);
  if (absl::Status st = n->Setup(consumer); !st.ok()) return st;
  return n;
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

// A bucket: created, or bound when it exists (with whatever settings).
absl::Status Bucket(jsCtx* js, const std::string& name, int replicas, kvStore** out) {
  kvConfig kc;
  kvConfig_Init(&kc);
  kc.Bucket = name.c_str();
  kc.History = 1;
  kc.StorageType = js_FileStorage;
  kc.Replicas = replicas;
  if (js_CreateKeyValue(out, js, &kc) == NATS_OK) return absl::OkStatus();
  if (natsStatus s = js_KeyValue(out, js, name.c_str()); s != NATS_OK)
    return NatsError(absl::StrCat("key-value bucket ", name), s);
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
  jsStreamInfo* si = nullptr;
  jsErrCode jerr = jsErrCode(0);
  natsStatus s = js_AddStream(&si, js_, &sc, nullptr, &jerr);
  if (s != NATS_OK && jerr == JSStreamNameExistErr) {
    // Made by another worker or client, maybe with other settings: bind.
    jerr = jsErrCode(0);
    s = js_GetStreamInfo(&si, js_, o.stream.c_str(), nullptr, &jerr);
  }
  if (si) jsStreamInfo_Destroy(si);
  if (s != NATS_OK) return NatsError(absl::StrCat("stream ", o.stream), s, jerr);
  if (absl::Status st = Bucket(js_, o.results, o.replicas, &results_); !st.ok()) return st;
  if (absl::Status st = Bucket(js_, o.programs, o.replicas, &programs_); !st.ok()) return st;
  if (!consumer) return absl::OkStatus();
  jsConsumerConfig cc;
  jsConsumerConfig_Init(&cc);
  cc.Durable = o.consumer.c_str();
  cc.AckPolicy = js_AckExplicit;
  cc.AckWait = o.ack_wait.count();
  cc.MaxDeliver = o.max_deliver;
  cc.FilterSubject = o.subject.c_str();
  cc.MaxAckPending = 10000;
  cc.Replicas = o.replicas;
  jsConsumerInfo* ci = nullptr;
  jerr = jsErrCode(0);
  s = js_AddConsumer(&ci, js_, o.stream.c_str(), &cc, nullptr, &jerr);
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

}  // namespace mty::cluster
