// The wall-clock and CPU fence of a run, in the spirit of wasmtime's epoch
// interruption: one thread watches the published deadlines of its tasks
// (interp::Fences) and pokes a task when one passes; the task sees the poke
// at its next safepoint (one relaxed load) and re-checks its clocks. The
// thread starts only when a task publishes a finite deadline, so a run
// without wall or CPU budgets pays nothing but construction. Runs of the
// embedding API share one process-wide watchdog (Shared()), so a short run
// with a deadline pays a registration (a lock and a notify), not a thread
// start and join.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "mty/interp/vm.h"

namespace mty::runtime {

class Watchdog : public interp::FenceWatcher {
 public:
  Watchdog() = default;
  ~Watchdog() override;
  // The process-wide instance (never destroyed; its thread starts on first
  // need and lives until the process exits).
  static Watchdog& Shared();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  // Starts watching `task` (which must outlive the watch, and be unwatched
  // before this watchdog goes) and makes this the task's fence watcher. The
  // task is listed, under the lock, only when it first has a finite fence.
  // Watch, Unwatch and the task's FencesChanged run on the task's thread.
  void Watch(interp::Task& task);
  void Unwatch(interp::Task& task);

  void FencesChanged(interp::Task& task) override;

  // How often a CPU deadline is sampled at most while it is far away; the
  // watchdog sleeps for the remaining CPU time (a thread cannot use CPU
  // faster than wall time) but never longer than this.
  static constexpr int64_t kMaxCpuSleepNs = 50'000'000;
  // After a poke, the deadline is re-poked this often until the task acts.
  static constexpr int64_t kRepokeNs = 2'000'000;

 private:
  struct Entry {
    interp::Task* task;
    int64_t poked_at = 0;  // steady ns of the last poke (0 = none)
  };
  void Loop();

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Entry> tasks_;
  bool stop_ = false;
  bool changed_ = false;
  // When the thread will next look at the fences (steady ns; it is asleep
  // until then unless woken).
  int64_t next_wake_ = INT64_MIN;
  std::thread thread_;
};

}  // namespace mty::runtime
