#include "ctrl_c.h"

#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

namespace mty::driver {

CtrlC::CtrlC(Mode mode) : mode_(mode) {
  sigemptyset(&set_);
  sigaddset(&set_, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set_, &old_);
  if (mode_ == Mode::kSession && pipe2(prompt_, O_CLOEXEC | O_NONBLOCK) != 0)
    prompt_[0] = prompt_[1] = -1;
  thread_ = std::thread([this] { Wait(); });
}

CtrlC::~CtrlC() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    done_ = true;
  }
  pthread_kill(thread_.native_handle(), SIGINT);
  thread_.join();
  pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  for (int fd : prompt_)
    if (fd >= 0) close(fd);
}

void CtrlC::Wait() {
  for (;;) {
    int sig = 0;
    if (sigwait(&set_, &sig) != 0) continue;
    std::lock_guard<std::mutex> lock(mu_);
    if (done_) return;
    ++pressed_;
    if (mode_ == Mode::kOneRun && pressed_ > 1) _exit(ExitCode(Exit::kInterrupted));
    if (runner_) {
      interrupted_ = true;
      runner_->Interrupt();
    } else if (prompt_[1] >= 0) {
      [[maybe_unused]] ssize_t n = write(prompt_[1], "i", 1);
    }
  }
}

void CtrlC::Arm(Runner* runner) {
  std::lock_guard<std::mutex> lock(mu_);
  runner_ = runner;
  if (!runner) return;
  if (mode_ == Mode::kSession) {
    interrupted_ = false;
  } else if (pressed_ > 0) {
    // Pressed before the run began (while compiling): it stops at once.
    interrupted_ = true;
    runner->Interrupt();
  }
}

bool CtrlC::interrupted() {
  std::lock_guard<std::mutex> lock(mu_);
  return interrupted_;
}

void CtrlC::Drain() {
  char buf[64];
  if (prompt_[0] >= 0)
    while (read(prompt_[0], buf, sizeof buf) > 0) {
    }
}

}  // namespace mty::driver
