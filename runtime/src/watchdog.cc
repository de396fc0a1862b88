#include "mty/runtime/watchdog.h"

#include <time.h>

#include <algorithm>
#include <chrono>
#include <system_error>

#include "mty/interp/heap.h"

namespace mty::runtime {

namespace {

// What starting the watchdog's thread asks of the host: its stack.
constexpr size_t kThreadStackBytes = size_t{8} << 20;

int64_t SteadyNow() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The CPU time of the thread behind `clock`, or -1 when it cannot be read
// (the thread has finished its run).
int64_t CpuNow(int clock) {
  timespec ts{};
  if (clock_gettime(static_cast<clockid_t>(clock), &ts) != 0) return -1;
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

}  // namespace

Watchdog& Watchdog::Shared() {
  static Watchdog* shared = new Watchdog();
  return *shared;
}

Watchdog::~Watchdog() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  for (Entry& e : tasks_) e.task->SetFenceWatcher(nullptr);
}

// A task is listed (and the lock taken) only once it has a finite fence:
// most agent turns never have one, and watching them costs nothing.
void Watchdog::Watch(interp::Task& task) { task.SetFenceWatcher(this); }

void Watchdog::Unwatch(interp::Task& task) {
  if (task.fence_listed()) {
    std::lock_guard<std::mutex> lock(mu_);
    std::erase_if(tasks_, [&](const Entry& e) { return e.task == &task; });
    task.set_fence_listed(false);
  }
  task.SetFenceWatcher(nullptr);
}

void Watchdog::FencesChanged(interp::Task& task) {
  bool finite =
      task.fences().wall_deadline.load(std::memory_order_relaxed) != interp::Fences::kNone ||
      task.fences().cpu_deadline.load(std::memory_order_relaxed) != interp::Fences::kNone;
  if (!finite && !task.fence_listed()) return;  // nothing to watch
  bool wake = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!task.fence_listed()) {
      tasks_.push_back(Entry{&task});
      task.set_fence_listed(true);
    } else {
      for (Entry& e : tasks_)
        if (e.task == &task) e.poked_at = 0;
    }
    if (finite && !thread_.joinable()) {
      try {
        thread_ = std::thread([this] { Loop(); });
      } catch (const std::system_error&) {
        // No room for its stack: the run cannot be watched, and ends with
        // the memory breach (runtime.md §2).
        interp::ThrowHostOutOfMemory(kThreadStackBytes);
      }
    }
    // The thread is woken only when this fence can pass before it would
    // look anyway (a fence removed, or later than its next look, costs no
    // wake-up: an agent's turn per ask would otherwise wake it each time).
    wake = finite && task.fences().earliest.load(std::memory_order_relaxed) < next_wake_;
    if (wake) changed_ = true;
  }
  if (wake) cv_.notify_all();
}

void Watchdog::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    changed_ = false;
    next_wake_ = INT64_MIN;  // scanning: every change is seen by this scan or the next
    const int64_t now = SteadyNow();
    int64_t wake = now + kMaxCpuSleepNs * 20;  // idle: sleep long, woken by changes
    for (Entry& e : tasks_) {
      interp::Fences& f = e.task->fences();
      const int64_t wall = f.wall_deadline.load(std::memory_order_relaxed);
      const int64_t cpu = f.cpu_deadline.load(std::memory_order_relaxed);
      bool due = false;
      if (wall != interp::Fences::kNone) {
        if (now >= wall) {
          due = true;
        } else {
          wake = std::min(wake, wall);
        }
      }
      if (cpu != interp::Fences::kNone) {
        int64_t used = CpuNow(f.cpu_clock.load(std::memory_order_relaxed));
        if (used >= cpu) {
          due = true;
        } else if (used >= 0) {
          wake = std::min(wake, now + std::clamp<int64_t>(cpu - used, 100'000, kMaxCpuSleepNs));
        }
      }
      if (due) {
        if (e.poked_at == 0 || now - e.poked_at >= kRepokeNs) {
          e.task->Poke();
          e.poked_at = now;
        }
        wake = std::min(wake, e.poked_at + kRepokeNs);
      }
    }
    if (changed_) continue;
    next_wake_ = wake;
    cv_.wait_until(lock, std::chrono::steady_clock::time_point(std::chrono::nanoseconds(wake)),
                   [this] { return stop_ || changed_; });
  }
}

}  // namespace mty::runtime
