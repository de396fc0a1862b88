// mty::cluster::Worker (include/mty/cluster/worker.h).
#include "mty/cluster/worker.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <mutex>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "jobs.h"
#include "mty/denial_hints.h"
#include "mty/exit_codes.h"
#include "mty/manifest.h"
#include "nats.h"
#include "scratch.h"

namespace mty::cluster {

Policy JobPolicy(const Policy& worker, const Policy& job, const std::string& scratch) {
  Policy closed = worker;
  for (const ir::GrantInfo& g : ir::kGrants)
    if (!closed.grants.Get(g.id)) closed.grants.Set(g.id, std::vector<std::string>{});
  Policy out = Policy::Intersect(RebaseFsRoots(closed, scratch), RebaseFsRoots(job, scratch));
  Limits cap;
  cap.Set(LimitId::kOutput, kMaxOutputBudget);
  out.limits.Tighten(cap);
  return out;
}

namespace {

// The exit code of a job whose manifest is malformed, as `mty run
// --manifest` exits.
constexpr int kExitDataErr = ExitCode(Exit::kDataErr);

// Compiled programs by content hash and file name, shared by the threads.
class ProgramCache {
 public:
  std::shared_ptr<const Program> Find(const std::string& key) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = map_.find(key);
    return it == map_.end() ? nullptr : it->second;
  }
  void Add(const std::string& key, std::shared_ptr<const Program> p) {
    std::lock_guard<std::mutex> lock(mu_);
    if (map_.size() >= kMaxEntries) map_.clear();  // a simple bound
    map_.emplace(key, std::move(p));
  }

 private:
  static constexpr size_t kMaxEntries = 1024;
  std::mutex mu_;
  std::unordered_map<std::string, std::shared_ptr<const Program>> map_;
};

// A job in hand: its message (for in-progress acks) and its run (for a
// hard stop).
struct InHand {
  natsMsg* msg = nullptr;
  Runner* runner = nullptr;
};

}  // namespace

struct Worker::Impl {
  WorkerOptions options;
  std::unique_ptr<Nats> nats;
  std::optional<SigningKey> key;
  std::unique_ptr<ScratchRoot> scratch;
  // Each puller thread has a working directory of its own (IsolateThreadFs);
  // false: one puller, which changes the process's.
  bool own_cwd = true;
  ProgramCache cache;
  std::atomic<bool> stopping{false}, hard{false};
  std::atomic<uint64_t> done{0};
  // Test hook (docs/scaling.md, Tests): MTY_WORKER_TEST_EXIT_AFTER_STORE set
  // makes the worker exit, code 99, right after storing a result and before
  // acking its job, as a worker dying between the two would.
  bool exit_after_store = false;
  std::vector<std::thread> pullers;
  std::thread heartbeat;
  std::mutex mu;  // guards in_hand, log and the heartbeat's wake-up
  std::condition_variable wake;
  std::map<uint64_t, InHand> in_hand;
  uint64_t next_slot = 0;

  void Log(std::string_view line) {
    if (!options.log) return;
    std::lock_guard<std::mutex> lock(log_mu);
    options.log(line);
  }
  std::mutex log_mu;

  void Pull(int index);
  void Process(natsMsg* msg);
  // Sets `claimed` once the job is the one claimed under its id (it may
  // have a result).
  void RunJob(natsMsg* msg, JobResult& r, bool& claimed);
  // Claims the job's id for this document: true when it is this worker's to
  // run; false when the message has been dealt with (terminated or nak'ed).
  bool Claim(natsMsg* msg, JobResult& r);
  // The job's compiled program (from the cache, the job, or the programs
  // stream); nullptr when the message has been dealt with (a result saying
  // why, or nak'ed for later).
  std::shared_ptr<const Program> JobProgram(natsMsg* msg, JobResult& r, const Job& job,
                                            std::optional<uint64_t> memory);
  // A job that cannot start: a result saying why, and never again.
  void Invalid(natsMsg* msg, JobResult& r, std::string message, int exit_code);
  // A job the worker could not allocate for outside its run (its run's own
  // failures are its result already): once claimed, the memory breach,
  // exit 4; before, it is nak'ed.
  void OutOfMemory(natsMsg* msg, JobResult& r, bool claimed);
  void Beat();
  // Stores the result (unless one is stored already), then acks the job
  // (`terminate`: terminates it, never to be delivered again). A result
  // that cannot be stored naks the job.
  void Finish(natsMsg* msg, JobResult& r, bool terminate);
  // A job that cannot go on now (the server away, a request timed out):
  // nak'ed to come back in a second, so that a lost cluster node does not
  // use up its deliveries at once.
  void Later(natsMsg* msg, const std::string& id, const std::string& why) {
    Log(absl::StrCat("job ", id, ": ", why, ": nak'ed, again in 1s"));
    natsMsg_NakWithDelay(msg, 1000, nullptr);
  }
};

void Worker::Impl::Pull(int index) {
  // Each thread's jobs resolve relative paths against their own scratch
  // directory.
  if (absl::Status st = own_cwd ? IsolateThreadFs() : absl::OkStatus(); !st.ok()) {
    Log(absl::StrCat("thread ", index, ": ", st.message()));
    return;
  }
  natsSubscription* sub = nullptr;
  jsSubOptions so;
  jsSubOptions_Init(&so);
  const ClusterOptions& o = options.cluster;
  so.Stream = o.stream.c_str();
  so.Consumer = o.consumer.c_str();
  jsErrCode jerr = jsErrCode(0);
  natsStatus s = js_PullSubscribe(&sub, nats->js(), o.subject.c_str(), o.consumer.c_str(), nullptr,
                                  &so, &jerr);
  if (s != NATS_OK) {
    Log(NatsError(absl::StrCat("thread ", index, ": pull subscription"), s, jerr).ToString());
    return;
  }
  bool failing = false;
  while (!stopping.load()) {
    natsMsgList list{nullptr, 0};
    jerr = jsErrCode(0);
    s = natsSubscription_Fetch(&list, sub, 1, 500, &jerr);
    if (s == NATS_TIMEOUT) continue;
    if (s != NATS_OK) {
      // The server is away (a cluster node lost, reconnecting): retry.
      if (!failing) Log(NatsError("fetch (retrying)", s, jerr).ToString());
      failing = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      continue;
    }
    failing = false;
    for (int i = 0; i < list.Count; ++i) Process(list.Msgs[i]);
    natsMsgList_Destroy(&list);
  }
  natsSubscription_Destroy(sub);
}

void Worker::Impl::Beat() {
  // In-progress acks at a third of the ack wait keep a long job from being
  // delivered again while it runs.
  const auto every =
      std::chrono::nanoseconds(std::max<int64_t>(nats->ack_wait_ns() / 3, 50'000'000));
  std::unique_lock<std::mutex> lock(mu);
  while (!stopping.load() || !in_hand.empty()) {
    wake.wait_for(lock, every);
    for (auto& [slot, h] : in_hand) natsMsg_InProgress(h.msg, nullptr);
    if (stopping.load() && pullers.empty()) break;
  }
}

void Worker::Impl::Finish(natsMsg* msg, JobResult& r, bool terminate) {
  std::string json = SignedResultJson(r, *key);
  if (json.size() > kMaxJobBytes - 4096) {
    // Escaped output can pass a message's size: keep its start.
    const size_t keep =
        (kMaxJobBytes - 4096 - (json.size() - r.stdout_text.size() - r.stderr_text.size())) / 12;
    r.stdout_text.resize(std::min(r.stdout_text.size(), keep));
    r.stderr_text.resize(std::min(r.stderr_text.size(), keep));
    r.report += "mty worker: output cut to fit the result in one message\n";
    json = SignedResultJson(r, *key);
  }
  uint64_t rev = 0;
  natsStatus s = kvStore_Create(&rev, nats->results(), r.id.c_str(), json.data(),
                                static_cast<int>(json.size()));
  if (s != NATS_OK) {
    // Stored already (this job delivered twice: the first result stands)?
    auto existing = nats->Get(nats->results(), r.id);
    if (!existing.ok() || !*existing) {
      return Later(msg, r.id,
                   absl::StrCat("cannot store the result (", natsStatus_GetText(s), ")"));
    }
    Log(absl::StrCat("job ", r.id, " attempt ", r.attempt, ": a result was stored already"));
  } else if (exit_after_store) {
    Log(absl::StrCat("job ", r.id, " attempt ", r.attempt, ": stored, exiting before the ack"));
    _exit(99);
  }
  jsErrCode jerr = jsErrCode(0);
  s = terminate ? natsMsg_Term(msg, nullptr) : natsMsg_AckSync(msg, nullptr, &jerr);
  if (s != NATS_OK) Log(NatsError(absl::StrCat("job ", r.id, ": ack"), s, jerr).ToString());
  done.fetch_add(1);
}

void Worker::Impl::Process(natsMsg* msg) {
  JobResult r;
  bool claimed = false;
  try {
    RunJob(msg, r, claimed);
  } catch (const std::bad_alloc&) {
    OutOfMemory(msg, r, claimed);
  }
}

void Worker::Impl::OutOfMemory(natsMsg* msg, JobResult& r, bool claimed) {
  if (!claimed) {
    natsMsg_Nak(msg, nullptr);
    return;
  }
  try {
    // Its output is dropped: what it held may be why nothing could be made.
    std::string().swap(r.stdout_text);
    std::string().swap(r.stderr_text);
    r.outcome = ir::OutcomeName(Outcome::kBreach);
    r.exit_code = ir::Limit(LimitId::kMemory).exit_code;
    r.code = TrapText(ir::Limit(LimitId::kMemory).trap);
    r.breach = ir::Limit(LimitId::kMemory).key;
    r.message = absl::StrCat("memory budget exceeded: ", ir::kRealHeapSubject,
                             ": the worker could not allocate");
    r.report = absl::StrCat("trap ", r.code, ": ", r.message, "\n");
    Log(absl::StrCat("job ", r.id, " attempt ", r.attempt, ": ", r.message));
    Finish(msg, r, /*terminate=*/false);
  } catch (const std::bad_alloc&) {
    natsMsg_Nak(msg, nullptr);  // still none: another worker may
  }
}

void Worker::Impl::Invalid(natsMsg* msg, JobResult& r, std::string message, int exit_code) {
  r.outcome = "invalid_job";
  r.exit_code = exit_code;
  r.message = std::move(message);
  r.report = absl::StrCat("error: ", r.message, "\n");
  Log(absl::StrCat("job ", r.id, " attempt ", r.attempt, ": invalid: ", r.message));
  Finish(msg, r, /*terminate=*/true);
}

bool Worker::Impl::Claim(natsMsg* msg, JobResult& r) {
  // Only the job claimed under its id runs and gets a result there: another
  // document published with that id (by a client that did not claim it)
  // is dropped without a result, so it cannot take the id's result.
  auto claim = nats->Claim(r.id);
  // A cluster node lost: the claims stream elects a leader meanwhile.
  // Tried again for a while (keeping the job), then later.
  for (int tries = 0; !claim.ok() && Transient(claim.status()) && tries < 25 && !stopping.load();
       ++tries) {
    natsMsg_InProgress(msg, nullptr);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    claim = nats->Claim(r.id);
  }
  if (!claim.ok()) {
    Later(msg, r.id, std::string(claim.status().message()));
    return false;
  }
  if (!*claim || **claim != r.job_hash) {
    Log(absl::StrCat("job ", r.id, " attempt ", r.attempt,
                     *claim ? ": not the job claimed under its id: terminated, no result"
                            : ": its id is not claimed: terminated, no result"));
    natsMsg_Term(msg, nullptr);
    return false;
  }
  return true;
}

std::shared_ptr<const Program> Worker::Impl::JobProgram(natsMsg* msg, JobResult& r, const Job& job,
                                                        std::optional<uint64_t> memory) {
  // The program: sent, or stored earlier under its hash.
  std::string hash = job.program_hash;
  std::string text = job.program;
  if (hash.empty()) hash = ProgramHash(text);
  const std::string key = absl::StrCat(hash, "\n", job.file);
  if (std::shared_ptr<const Program> cached = cache.Find(key)) return cached;
  if (text.empty()) {
    auto stored = nats->Get(nats->programs(), hash);
    if (!stored.ok()) {
      Later(msg, r.id, std::string(stored.status().message()));
      return nullptr;
    }
    if (!*stored || ProgramHash(**stored) != hash) {
      Invalid(msg, r, absl::StrCat("no program is stored under hash ", hash), kExitDataErr);
      return nullptr;
    }
    text = std::move(**stored);
  }
  std::vector<Diagnostic> diagnostics;
  CompileOptions co;
  co.diagnostics = &diagnostics;
  co.rendered_warnings = &r.diagnostics;
  co.memory_budget = memory;
  auto compiled = Program::FromFile(text, job.file, co);
  if (!compiled.ok()) {
    r.outcome = "compile_error";
    r.exit_code = ExitCode(Exit::kFailed);
    r.diagnostics = std::string(compiled.status().message());
    if (!r.diagnostics.empty() && r.diagnostics.back() != '\n') r.diagnostics += "\n";
    Log(absl::StrCat("job ", r.id, " attempt ", r.attempt, ": does not compile"));
    Finish(msg, r, /*terminate=*/true);
    return nullptr;
  }
  if (r.diagnostics.empty()) cache.Add(key, *compiled);  // warnings are printed: not cached
  return *compiled;
}

namespace {

// What a job's result says of its run.
void RecordRun(const RunResult& run, JobResult& r) {
  r.outcome = ir::OutcomeName(run.outcome);
  r.exit_code = run.exit_code;
  if (run.code != TrapCode::kNone) r.code = TrapText(run.code);
  r.message = run.message;
  if (run.outcome == Outcome::kOk || run.outcome == Outcome::kMainErr) {
    r.returned = run.value;
    if (r.returned->size() > kMaxReturnedBytes) r.returned->resize(kMaxReturnedBytes);
  }
  r.report = run.Report();
  if (run.breach) r.breach = run.breach->Key();
  r.steps = run.steps_used;
  r.memory_bytes = run.mem_used;
  r.heap_peak_bytes = run.heap_peak;
  r.output_bytes = run.output_bytes;
  r.wall_ns = run.wall_ns;
  r.cpu_ns = run.cpu_ns;
  r.agents_spawned = run.agents_spawned;
}

}  // namespace

void Worker::Impl::RunJob(natsMsg* msg, JobResult& r, bool& claimed) {
  r.worker = options.name;
  if (jsMsgMetaData* meta = nullptr; natsMsg_GetMetaData(&meta, msg) == NATS_OK) {
    r.attempt = static_cast<int>(meta->NumDelivered);
    jsMsgMetaData_Destroy(meta);
  }
  const int len = natsMsg_GetDataLength(msg);
  std::string_view data(natsMsg_GetData(msg), static_cast<size_t>(len));
  absl::StatusOr<Job> job = ParseJob(data, &r.id);
  if (!job.ok() && r.id.empty()) {
    Log(absl::StrCat("a job without a usable id (", job.status().message(), "): terminated"));
    natsMsg_Term(msg, nullptr);
    return;
  }
  r.job_hash = Sha256Hex(data);
  if (!Claim(msg, r)) return;
  claimed = true;
  if (!job.ok())
    return Invalid(msg, r, std::string(job.status().message()), ExitCode(Exit::kUsage));
  // Delivered again after its result was stored (the ack was lost).
  if (auto stored = nats->Get(nats->results(), r.id); stored.ok() && *stored) {
    Log(absl::StrCat("job ", r.id, " attempt ", r.attempt, ": a result was stored already"));
    natsMsg_AckSync(msg, nullptr, nullptr);
    return;
  }
  Log(absl::StrCat("job ", r.id, " attempt ", r.attempt, ": started"));
  Policy manifest;
  if (!job->manifest.empty()) {
    auto m = LoadManifest(job->manifest, "job manifest");
    if (!m.ok()) return Invalid(msg, r, std::string(m.status().message()), kExitDataErr);
    manifest = *m;
  }
  // Compiled under the real-heap ceiling of the run's memory budget (the
  // limits of the job's policy do not depend on its directory).
  std::shared_ptr<const Program> program = JobProgram(
      msg, r, *job, JobPolicy(options.policy, manifest, "").limits.Get(LimitId::kMemory));
  if (!program) return;
  // The job's own directory, its working directory on this thread until
  // the run ends; removed whatever the outcome (the guard).
  auto dir = JobScratch::Enter(*scratch);
  if (!dir.ok())
    return Later(msg, r.id, absl::StrCat("scratch directory: ", dir.status().message()));
  RunOptions opts;
  opts.policy = JobPolicy(options.policy, manifest, (*dir)->path());
  // The job's manifest narrows the worker's roots: its paths are resolved
  // beneath the worker's (docs/security.md, "Resolution"), so a link in a
  // worker root that points out of it grants the job nothing.
  opts.outer_policy = RebaseFsRoots(options.policy, (*dir)->path());
  opts.args = job->args;
  opts.on_stdout = [&r](std::string_view s) { r.stdout_text.append(s); };
  opts.on_stderr = [&r](std::string_view s) { r.stderr_text.append(s); };
  // The job's stderr has the hints `mty run` prints for denials (a job has
  // no flags; its manifest is named "the job manifest").
  DenialHints hints(program->source_file().empty() ? job->file : program->source_file(), Policy{},
                    "the job manifest",
                    job->manifest.empty() ? std::nullopt : std::optional<Policy>(manifest));
  opts.event_kinds = RunOptions::EventBit(Event::Kind::kDenied);
  opts.on_event = [&r, &hints](const Event& e) { r.stderr_text += hints.Line(e); };
  Runner runner(program, std::move(opts));
  uint64_t slot = 0;
  {
    std::lock_guard<std::mutex> lock(mu);
    slot = next_slot++;
    in_hand[slot] = {msg, &runner};
    if (hard.load()) runner.Interrupt();
  }
  RunResult run = runner.Run();
  {
    std::lock_guard<std::mutex> lock(mu);
    in_hand.erase(slot);
  }
  if (absl::Status st = (*dir)->Remove(); !st.ok())
    Log(absl::StrCat("job ", r.id, ": removing its scratch directory: ", st.message()));
  if (run.outcome == Outcome::kCancelled && hard.load()) {
    Log(absl::StrCat("job ", r.id, " attempt ", r.attempt, ": interrupted by the stop: nak'ed"));
    natsMsg_Nak(msg, nullptr);
    return;
  }
  RecordRun(run, r);
  Log(absl::StrFormat("job %s attempt %d: %s, exit %d (%.3f ms)", r.id, r.attempt, r.outcome,
                      r.exit_code, run.wall_ns / 1e6));
  Finish(msg, r, /*terminate=*/false);
}

Worker::Worker(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Worker::~Worker() {
  Stop(false);
  Join();
}

absl::StatusOr<std::unique_ptr<Worker>> Worker::Start(WorkerOptions options) {
  if (options.concurrency < 1 || options.concurrency > 1024)
    return absl::InvalidArgumentError("--concurrency: 1 to 1024 threads");
  if (options.name.empty()) {
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    options.name = absl::StrCat(host, "-", getpid());
  }
  auto impl = std::make_unique<Impl>();
  impl->options = std::move(options);
  if (impl->options.sign_key.empty())
    return absl::InvalidArgumentError(
        "--sign-key FILE is required: the worker signs every result with it");
  auto key = SigningKey::Load(impl->options.sign_key);
  if (!key.ok()) return key.status();
  impl->key = std::move(*key);
  auto scratch = ScratchRoot::Make(impl->options.scratch);
  if (!scratch.ok()) return scratch.status();
  impl->scratch = std::move(*scratch);
  if (absl::Status st = CheckWorkerGrants(impl->options.policy, impl->scratch->path()); !st.ok())
    return st;
  // Each puller thread gets its own working directory when the kernel
  // allows it (a probe thread checks). Where it does not (a seccomp profile
  // that forbids unshare, as Docker's default does without CAP_SYS_ADMIN),
  // a job's working directory is the process's: one job at a time.
  absl::Status isolated;
  std::thread([&isolated] { isolated = IsolateThreadFs(); }).join();
  if (getenv("MTY_WORKER_TEST_NO_UNSHARE"))
    isolated = absl::InternalError("unshare CLONE_FS refused (MTY_WORKER_TEST_NO_UNSHARE)");
  impl->own_cwd = isolated.ok();
  if (!impl->own_cwd) {
    impl->Log(absl::StrCat(isolated.message(), ": jobs share the process's working directory, so ",
                           "they run one at a time (--concurrency ", impl->options.concurrency,
                           " ignored)"));
    impl->options.concurrency = 1;
  }
  impl->exit_after_store = getenv("MTY_WORKER_TEST_EXIT_AFTER_STORE") != nullptr;
  auto nats = Nats::Open(impl->options.cluster, absl::StrCat("mty worker ", impl->options.name),
                         /*consumer=*/true);
  if (!nats.ok()) return nats.status();
  impl->nats = std::move(*nats);
  Impl* p = impl.get();
  // The heartbeat's thread first, then the pullers': a thread made once
  // jobs run might find the address space used up by them.
  std::unique_ptr<Worker> worker(new Worker(std::move(impl)));
  try {
    p->heartbeat = std::thread([p] { p->Beat(); });
    for (int i = 0; i < p->options.concurrency; ++i)
      p->pullers.emplace_back([p, i] { p->Pull(i); });
  } catch (const std::system_error& e) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot start the worker's threads: ", e.what()));
  }
  return worker;
}

void Worker::Stop(bool hard) {
  impl_->stopping.store(true);
  if (!hard) return;
  impl_->hard.store(true);
  std::lock_guard<std::mutex> lock(impl_->mu);
  for (auto& [slot, h] : impl_->in_hand) h.runner->Interrupt();
}

void Worker::Join() {
  for (std::thread& t : impl_->pullers)
    if (t.joinable()) t.join();
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->pullers.clear();
  }
  impl_->wake.notify_all();
  if (impl_->heartbeat.joinable()) impl_->heartbeat.join();
}

const std::string& Worker::name() const { return impl_->options.name; }
uint64_t Worker::jobs_done() const { return impl_->done.load(); }

}  // namespace mty::cluster
