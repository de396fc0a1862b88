// Ctrl-C (SIGINT) for the command line (docs/cli.md): the one handler of
// `mty run`, `mty replay` and `mty repl`. SIGINT is blocked in every thread
// and one thread waits for it (no code runs in a signal handler); a Ctrl-C
// interrupts the armed run, which ends at its next safepoint or wait.
#pragma once

#include <signal.h>

#include <mutex>
#include <thread>

#include "mty/mty.h"

namespace mty::driver {

class CtrlC {
 public:
  enum class Mode {
    // One run (`mty run`, `mty replay`): a Ctrl-C before the run is armed
    // interrupts it as soon as it is; a second Ctrl-C ends the process at
    // once (exit 130).
    kOneRun,
    // A session of runs (`mty repl`): a Ctrl-C interrupts the armed run;
    // with none armed it makes prompt_fd() readable (the line being typed is
    // dropped). It never ends the process.
    kSession,
  };
  // Blocks SIGINT in the calling thread before starting the waiting one:
  // make it before any other thread exists (threads inherit the mask).
  explicit CtrlC(Mode mode);
  ~CtrlC();
  CtrlC(const CtrlC&) = delete;
  CtrlC& operator=(const CtrlC&) = delete;

  // The run a Ctrl-C interrupts (nullptr: none, e.g. back at the prompt).
  void Arm(Runner* runner);
  // Whether a Ctrl-C interrupted the run armed last.
  bool interrupted();
  // kSession: readable when Ctrl-C was pressed with no run armed; Drain()
  // reads what is there. -1 when the pipe could not be made.
  int prompt_fd() const { return prompt_[0]; }
  void Drain();

 private:
  void Wait();

  const Mode mode_;
  sigset_t set_, old_;
  int prompt_[2] = {-1, -1};
  std::mutex mu_;
  Runner* runner_ = nullptr;
  bool done_ = false;
  int pressed_ = 0;           // the Ctrl-Cs so far
  bool interrupted_ = false;  // the armed run was interrupted
  std::thread thread_;
};

}  // namespace mty::driver
