// mty::Client (include/mty/client.h): jobs in, results out.
#include "mty/client.h"

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "absl/strings/str_cat.h"
#include "jobs.h"
#include "nats.h"

namespace mty {

struct Client::Impl {
  std::unique_ptr<cluster::Nats> nats;
  cluster::VerifyKeys keys;

  // The hash of each job this client submitted whose result it has not
  // accepted yet: its results are checked against what was sent, not only
  // against the claim.
  mutable std::mutex mu;
  mutable std::map<std::string, std::string, std::less<>> submitted;

  // The stored document `json` for job `id` as a result, when a worker key
  // signed it for the job this client submitted under the id, or else the
  // job claimed under it (kUnauthenticated otherwise).
  absl::StatusOr<JobResult> Check(std::string_view id, std::string_view json) const {
    if (keys.empty())
      return absl::UnauthenticatedError(
          "no --verify-key: a result cannot be checked, so none is accepted");
    std::optional<std::string> expected;
    {
      std::lock_guard<std::mutex> lock(mu);
      if (auto it = submitted.find(id); it != submitted.end()) expected = it->second;
    }
    if (!expected) {
      auto claim = nats->Claim(id);
      if (!claim.ok()) return claim.status();
      if (!*claim)
        return absl::UnauthenticatedError(absl::StrCat("a result is stored for job ",
                                                       std::string(id),
                                                       ", but no job was submitted with that id"));
      expected = std::move(*claim);
    }
    auto r = cluster::CheckedResult(json, keys, id, *expected);
    if (r.ok()) {
      std::lock_guard<std::mutex> lock(mu);
      if (auto it = submitted.find(id); it != submitted.end()) submitted.erase(it);
    }
    return r;
  }
  // Watches the results bucket (only `key` when not null) for the results
  // of `want` (ids -> their index in `out`) until all are there or
  // `timeout` (zero: no limit) passes.
  absl::Status Collect(const char* key, std::map<std::string, size_t>& want,
                       std::vector<std::optional<JobResult>>& out,
                       std::chrono::milliseconds timeout) const;
};

Client::Client(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Client::~Client() = default;

absl::StatusOr<std::unique_ptr<Client>> Client::Connect(const ClusterOptions& options) {
  auto keys = cluster::VerifyKeys::Load(options.verify_keys);
  if (!keys.ok()) return keys.status();
  auto nats = cluster::Nats::Open(options, "mty client", /*consumer=*/false);
  if (!nats.ok()) return nats.status();
  auto impl = std::make_unique<Impl>();
  impl->nats = std::move(*nats);
  impl->keys = std::move(*keys);
  return std::unique_ptr<Client>(new Client(std::move(impl)));
}

absl::StatusOr<std::string> Client::StoreProgram(std::string_view text) {
  if (text.size() + 1024 > cluster::kMaxJobBytes)
    return absl::OutOfRangeError(
        absl::StrCat("the program is too large for the cluster: ", text.size(), " bytes (at most ",
                     cluster::kMaxJobBytes - 1024, ")"));
  std::string hash = ProgramHash(text);
  uint64_t rev = 0;
  natsStatus s = kvStore_Put(&rev, impl_->nats->programs(), hash.c_str(), text.data(),
                             static_cast<int>(text.size()));
  if (s != NATS_OK) return cluster::NatsError("store the program", s);
  return hash;
}

absl::StatusOr<std::string> Client::Submit(Job job) {
  if (job.id.empty()) job.id = cluster::NewJobId();
  if (absl::Status s = cluster::CheckJobId(job.id); !s.ok()) return s;
  std::string body = cluster::JobJson(job);
  if (body.size() > cluster::kMaxJobBytes)
    return absl::OutOfRangeError(absl::StrCat("the job is too large: ", body.size(),
                                              " bytes, at most ", cluster::kMaxJobBytes));
  const std::string hash = cluster::Sha256Hex(body);
  if (absl::Status s = impl_->nats->ClaimId(job.id, hash); !s.ok()) return s;
  jsPubOptions po;
  jsPubOptions_Init(&po);
  // The stream drops a second publish of the same job; the hash in the
  // message id keeps a document another client published under this id
  // first (not the claimed one: no worker runs it) from making the stream
  // drop this one.
  const std::string msg_id = absl::StrCat(job.id, ".", hash);
  po.MsgId = msg_id.c_str();
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->submitted[job.id] = hash;
  }
  const ClusterOptions& o = impl_->nats->options();
  po.MaxWait = o.request_timeout.count();
  jsPubAck* ack = nullptr;
  jsErrCode jerr = jsErrCode(0);
  natsStatus s = js_Publish(&ack, impl_->nats->js(), o.subject.c_str(), body.data(),
                            static_cast<int>(body.size()), &po, &jerr);
  if (ack) jsPubAck_Destroy(ack);
  if (s != NATS_OK) return cluster::NatsError("submit the job", s, jerr);
  return job.id;
}

absl::Status Client::Impl::Collect(const char* key, std::map<std::string, size_t>& want,
                                   std::vector<std::optional<JobResult>>& out,
                                   std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  // The watch is an ordered consumer the server makes: while a cluster
  // node is lost it may time out or find no responder; tried again.
  kvWatcher* w = nullptr;
  for (;;) {
    natsStatus s = key ? kvStore_Watch(&w, nats->results(), key, nullptr)
                       : kvStore_WatchAll(&w, nats->results(), nullptr);
    if (s == NATS_OK) break;
    const bool transient = s == NATS_TIMEOUT || s == NATS_NO_RESPONDERS || s == NATS_NO_SERVER ||
                           s == NATS_CONNECTION_DISCONNECTED;
    if (!transient || (timeout.count() > 0 && std::chrono::steady_clock::now() >= deadline))
      return cluster::NatsError("watch the results", s);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  std::unique_ptr<kvWatcher, void (*)(kvWatcher*)> guard(w, kvWatcher_Destroy);
  size_t missing = want.size();
  // Results whose claim could not be read yet (a cluster node lost: the
  // claims stream is electing a leader): checked again until the deadline.
  std::map<std::string, std::string> unchecked;
  auto check = [&](const std::string& key, const std::string& value) -> absl::Status {
    auto r = Check(key, value);
    if (cluster::Transient(r.status())) {
      unchecked[key] = value;
      return absl::OkStatus();
    }
    if (!r.ok()) return r.status();
    unchecked.erase(key);
    out[want[key]] = std::move(*r);
    --missing;
    return absl::OkStatus();
  };
  while (missing > 0) {
    for (auto it = unchecked.begin(); it != unchecked.end();) {
      auto [key, value] = *it++;
      if (absl::Status st = check(key, value); !st.ok()) return st;
    }
    int64_t wait = unchecked.empty() ? 1000 : 200;
    if (timeout.count() > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      deadline - std::chrono::steady_clock::now())
                      .count();
      if (left <= 0)
        return absl::DeadlineExceededError(
            absl::StrCat("no result after ", timeout.count(), " ms for ", missing, " job(s)"));
      wait = std::min<int64_t>(wait, left);
    }
    kvEntry* e = nullptr;
    natsStatus s = kvWatcher_Next(&e, w, wait);
    if (s == NATS_TIMEOUT) continue;
    if (s != NATS_OK) return cluster::NatsError("watch the results", s);
    if (e == nullptr) continue;  // the end of the values stored before the watch
    std::string key = kvEntry_Key(e);
    std::string value(static_cast<const char*>(kvEntry_Value(e)), kvEntry_ValueLen(e));
    const bool put = kvEntry_Operation(e) == kvOp_Put;
    kvEntry_Destroy(e);
    auto it = want.find(key);
    if (!put || it == want.end() || out[it->second]) continue;
    if (absl::Status st = check(key, value); !st.ok()) return st;
  }
  return absl::OkStatus();
}

absl::StatusOr<JobResult> Client::Wait(std::string_view id, std::chrono::milliseconds timeout) {
  if (absl::Status s = cluster::CheckJobId(id); !s.ok()) return s;
  const std::string key(id);
  std::map<std::string, size_t> want = {{key, 0}};
  std::vector<std::optional<JobResult>> out(1);
  if (absl::Status st = impl_->Collect(key.c_str(), want, out, timeout); !st.ok()) return st;
  return std::move(*out[0]);
}

absl::StatusOr<std::vector<JobResult>> Client::WaitAll(const std::vector<std::string>& ids,
                                                       std::chrono::milliseconds timeout) {
  std::map<std::string, size_t> want;
  for (size_t i = 0; i < ids.size(); ++i) want.emplace(ids[i], i);
  std::vector<std::optional<JobResult>> out(ids.size());
  if (absl::Status st = impl_->Collect(nullptr, want, out, timeout); !st.ok()) return st;
  std::vector<JobResult> results;
  results.reserve(out.size());
  for (auto& r : out) results.push_back(std::move(*r));
  return results;
}

absl::StatusOr<std::optional<JobResult>> Client::Fetch(std::string_view id) {
  if (absl::Status s = cluster::CheckJobId(id); !s.ok()) return s;
  auto v = impl_->nats->Get(impl_->nats->results(), id);
  if (!v.ok()) return v.status();
  if (!*v) return std::nullopt;
  auto r = impl_->Check(id, **v);
  if (!r.ok()) return r.status();
  return std::optional<JobResult>(std::move(*r));
}

absl::StatusOr<std::vector<std::string>> Client::ResultIds() {
  kvKeysList list;
  natsStatus s = kvStore_Keys(&list, impl_->nats->results(), nullptr);
  if (s == NATS_NOT_FOUND) return std::vector<std::string>{};
  if (s != NATS_OK) return cluster::NatsError("list the results", s);
  std::vector<std::string> ids(list.Keys, list.Keys + list.Count);
  kvKeysList_Destroy(&list);
  return ids;
}

}  // namespace mty
