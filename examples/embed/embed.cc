// embed: mty inside a C++ program (docs/embedding.md). Defines a host
// module (a key-value store, `host.kv.get` / `host.kv.put`, capability
// family "kv"), compiles one Mighty program against it once, runs it 100
// times on a pool of 4 threads, each run with its own limits, grants,
// parameters, arguments and captured stdout, and prints a summary of the
// typed results. Building it: examples/embed/README.md.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include "mty/mty.h"

namespace {

// The job. main's parameter is the job number (a typed mty::Value) and
// std.env.args() is [input file]; the number decides what it does, so that
// the runs end in each kind of outcome a host sees.
constexpr std::string_view kJobSource = R"mty(
fn checksum(text: Str, rounds: I64) -> I64 {
    let mut h = 17
    for _ in 0..rounds {
        for w in text.split(" ") {
            h = (h * 31 + w.len()) % 1000003
        }
    }
    h
}

fn main(job: I64) -> Result[I64, Str] {
    let args = std.env.args()?
    let kind = job % 5
    if kind == 1 {
        // never ends: stopped at the step limit
        let mut i = 0
        while i >= 0 {
            i += 1
        }
    }
    if kind == 2 {
        // grows until the memory limit
        let mut v = []
        while true {
            v.push(v.len())
        }
    }
    if kind == 3 {
        // outside the fs.read grant: main returns Err("forbidden: /etc/passwd")
        let secret = std.fs.read("/etc/passwd")?
        log(secret.len())
    }
    if kind == 4 {
        // an index out of range: trap MT5017
        let xs = [1, 2, 3]
        log(xs[job])
    }
    let text = std.fs.read(args[0])?
    let words = text.trim().split(" ").len()
    log(format!("job {} read {} words", job, words))
    // the host's store: one entry per job, and the previous job's if there
    host.kv.put(format!("job{}", job), format!("{}", words))?
    match host.kv.get(format!("job{}", job)) {
        Some(w) => log(format!("job {} stored {}", job, w)),
        None => return Err("lost my entry"),
    }
    Ok(checksum(text, 10 + job))
}
)mty";

constexpr int kJobs = 100;
constexpr int kThreads = 4;

struct Job {
  int id = 0;
  std::string input_dir;  // the one directory the job may read
  std::string input_file;
};

// The host module: a store shared by every run (host functions run on the
// calling run's thread, so it locks). put refuses an empty key with Err;
// the guest sees Option / Result values, the host mty::Value.
class KvStore {
 public:
  absl::Status DefineIn(mty::Linker& linker) {
    using mty::Type;
    absl::Status s = linker.Define("host.kv.get", "kv", {{Type::Str()}, Type::Option(Type::Str())},
                                   [this](mty::HostCall& call) -> absl::StatusOr<mty::Value> {
                                     std::lock_guard<std::mutex> lock(mu_);
                                     auto it = data_.find(call.args()[0].as_str());
                                     if (it == data_.end()) return mty::Value::None();
                                     return mty::Value::Some(mty::Value::Str(it->second));
                                   });
    if (!s.ok()) return s;
    return linker.Define("host.kv.put", "kv",
                         {{Type::Str(), Type::Str()}, Type::Result(Type::Unit(), Type::Str())},
                         [this](mty::HostCall& call) -> absl::StatusOr<mty::Value> {
                           const std::string& key = call.args()[0].as_str();
                           if (key.empty()) return mty::Value::Err(mty::Value::Str("empty key"));
                           std::lock_guard<std::mutex> lock(mu_);
                           data_[key] = call.args()[1].as_str();
                           return mty::Value::Ok(mty::Value::Unit());
                         });
  }
  size_t size() {
    std::lock_guard<std::mutex> lock(mu_);
    return data_.size();
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::string> data_;
};

struct JobResult {
  mty::RunResult result;
  std::string out;  // what the job printed
};

// One run: its own budget, grants (files and the "kv" host family),
// parameter, arguments and stdout sink.
JobResult RunJob(const mty::Program& program, const Job& job) {
  JobResult r;
  mty::RunOptions options;
  options.policy.limits.Set(mty::LimitId::kSteps, 1'000'000);
  options.policy.limits.Set(mty::LimitId::kMemory, 1 << 20);  // estimated bytes
  options.policy.limits.Set(mty::LimitId::kOutput, 64 << 10);
  options.policy.grants.Set(mty::GrantId::kFsRead, std::vector<std::string>{job.input_dir});
  options.policy.grants.Set(mty::GrantId::kHost, std::vector<std::string>{"kv"});
  options.args = {job.input_file};
  options.on_stdout = [&r](std::string_view s) { r.out.append(s); };
  r.result = program.Run("main", {mty::Value::Int(job.id)}, std::move(options));
  return r;
}

// Runs every job on `threads` threads; results in job order.
std::vector<JobResult> RunAll(const mty::Program& program, const std::vector<Job>& jobs,
                              int threads) {
  std::vector<JobResult> results(jobs.size());
  std::atomic<size_t> next{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (size_t i = next++; i < jobs.size(); i = next++) results[i] = RunJob(program, jobs[i]);
    });
  }
  for (std::thread& t : pool) t.join();
  return results;
}

// What a host meets at the boundary, each a typed result rather than a
// crash or an empty `returned` (docs/embedding.md, RunResult): a Runner
// without a program, results that cannot be returned, a parameter a
// million levels deep (built with the moving builders: no copy per level),
// and the memory figure of a run with no limits.
void Boundary() {
  auto say = [](const char* what, const mty::RunResult& r) {
    std::printf("%s: %s", what, mty::ir::OutcomeName(r.outcome));
    if (r.outcome == mty::Outcome::kTrap) std::printf(" %s", mty::TrapText(r.code));
    if (r.breach) std::printf(" %s (%s)", r.breach->Key(), r.breach->subject.c_str());
    std::printf("\n");
  };
  say("null program", mty::Runner(nullptr, {}).Run());
  auto program = mty::Program::FromSource(R"mty(
fn wrong() -> I64 {
    let c: Any = |x: I64| x + 1
    c
}
fn shared() -> [I64] {
    let mut v: Any = [1]
    for _ in 0..40 { v = [v, v] }
    v
}
fn count(xs: [I64]) -> I64 {
    let mut v = []
    for x in xs { v.push(format!("{x}")) }
    v.len()
}
)mty",
                                          "boundary.mty");
  if (!program.ok()) {
    std::fprintf(stderr, "%s\n", std::string(program.status().message()).c_str());
    return;
  }
  say("closure returned as I64", (*program)->Run("wrong", {}));
  say("shared structure returned", (*program)->Run("shared", {}));
  mty::Value deep = mty::Value::Int(1);
  for (int i = 0; i < 1'000'000; ++i) deep = mty::Value::Vec(std::move(deep));
  std::vector<mty::Value> params;  // not {std::move(deep)}: a braced list copies
  params.push_back(std::move(deep));
  say("parameter a million levels deep", (*program)->Run("count", std::move(params)));
  std::vector<mty::Value> xs;
  for (int i = 0; i < 100; ++i) xs.push_back(mty::Value::Int(i));
  mty::RunResult counted = (*program)->Run("count", {mty::Value::Vec(std::move(xs))});
  std::printf("memory counted without a limit: %s\n", counted.mem_used > 0 ? "yes" : "no");
}

}  // namespace

int main() {
  // The job's input: one file in a directory of its own.
  std::error_code ec;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path(ec) / ("mty-embed-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir, ec);
  const std::filesystem::path input = dir / "input.txt";
  std::ofstream(input) << "the quick brown fox jumps over the lazy dog\n";

  KvStore store;
  mty::Linker linker;
  if (absl::Status s = store.DefineIn(linker); !s.ok()) {
    std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
    return 1;
  }
  std::vector<mty::Diagnostic> diagnostics;
  auto program = mty::Program::FromSource(kJobSource, "job.mty", {&linker, &diagnostics});
  if (!program.ok()) {
    // The rendered text; `diagnostics` holds each error's code and place.
    std::fprintf(stderr, "%s\n", std::string(program.status().message()).c_str());
    return 1;
  }
  std::vector<Job> jobs;
  for (int i = 0; i < kJobs; ++i) jobs.push_back({i, dir.string(), input.string()});
  const std::vector<JobResult> results = RunAll(**program, jobs, kThreads);
  std::filesystem::remove_all(dir, ec);

  // The summary: outcomes, breached limits, trap codes, Err messages.
  std::map<std::string, int> outcomes, details;
  int printed = 0, typed = 0;
  uint64_t steps = 0, heap_peak = 0;
  for (const JobResult& j : results) {
    const mty::RunResult& r = j.result;
    ++outcomes[mty::ir::OutcomeName(r.outcome)];
    switch (r.outcome) {
      case mty::Outcome::kOk:
        if (j.out.find(" read 9 words\n") != std::string::npos &&
            j.out.find(" stored 9\n") != std::string::npos)
          ++printed;
        // The returned value, typed: Ok(checksum).
        if (r.returned && r.returned->is_variant("Result", "Ok") &&
            r.returned->items()[0].is(mty::Value::Kind::kInt))
          ++typed;
        break;
      case mty::Outcome::kBreach: ++details[std::string("limit ") + r.breach->Key()]; break;
      case mty::Outcome::kTrap: ++details[std::string("trap ") + mty::TrapText(r.code)]; break;
      case mty::Outcome::kMainErr: ++details[r.message]; break;
      default: ++details["exit " + std::to_string(r.exit_code)]; break;
    }
    steps += r.steps_used;
    heap_peak = std::max(heap_peak, r.heap_peak);
  }
  std::printf("runs: %zu on %d threads\n", results.size(), kThreads);
  for (const auto& [name, n] : outcomes) std::printf("outcome %s: %d\n", name.c_str(), n);
  for (const auto& [name, n] : details) std::printf("%s: %d\n", name.c_str(), n);
  std::printf("ok runs that printed their lines: %d\n", printed);
  std::printf("ok runs that returned an Int: %d\n", typed);
  std::printf("kv entries: %zu\n", store.size());
  std::printf("steps: %llu, largest real heap: %llu B\n", static_cast<unsigned long long>(steps),
              static_cast<unsigned long long>(heap_peak));
  Boundary();
  return 0;
}
