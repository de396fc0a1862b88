// What mty itself writes (docs/cli.md, "Host outputs"): one home for how a
// file mty writes is opened (`--trace-file`, `--record`), how every write
// and the final flush of stdout are checked, and what a failure exits with
// (the trap table's rows for a failed output, ir::OutputTrap: 74, and 141
// for a reader that went away). The run's own stdout and stderr are the
// API's (RunOptions::stdout_fd: a refused write ends the run with the same
// rows).
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace mty::driver {

// Readies the process for writing, first thing in main: SIGPIPE and
// SIGXFSZ are ignored (a write to a pipe whose reader left returns EPIPE,
// one past the file-size limit EFBIG: an error mty reports, never a signal
// that kills it), and descriptors 0, 1 and 2 are open: a closed one is
// taken by /dev/null opened the wrong way round (write-only for 0,
// read-only for 1 and 2), so no file mty opens later becomes the program's
// stdout, and every write to a closed stdout fails with EBADF.
void PrepareProcess();

// A file mty writes, or one of its standard streams.
class HostOutput {
 public:
  // Files a new output must not be: (path, what it is) pairs, e.g.
  // {"prog.mty", "the program"}.
  using InUse = std::vector<std::pair<std::string, std::string>>;

  // A standard stream (`name` is "stdout" or "stderr"); never closed.
  HostOutput(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  // Creates PATH (mode 0644) or truncates it. It never waits and never
  // writes anything but a regular file: PATH is opened non-blocking (a
  // FIFO without a reader is refused, not waited on) and refused unless it
  // is a regular file (a FIFO, a device such as /dev/full or /dev/null, a
  // socket, a directory; a symlink counts as what it points to), and
  // refused when it is the same file as one of `in_use`, before anything
  // is truncated. The error's message: `cannot write PATH: REASON`.
  static absl::StatusOr<HostOutput> Create(const std::string& path, const InUse& in_use);
  HostOutput(HostOutput&& o) noexcept;
  HostOutput& operator=(HostOutput&&) = delete;
  ~HostOutput();

  // Writes all of `text`, waiting at most `max_wait` for the descriptor to
  // take it. The first failure is kept; every later write is skipped. False
  // when it or an earlier one failed.
  bool Write(std::string_view text, std::chrono::nanoseconds max_wait);
  // Closes a file Create opened, checking close() too (a network file
  // system reports a write's error there); a stream stays open.
  bool Close();
  bool ok() const { return err_ == 0; }
  // `cannot write NAME: REASON` for the first failure.
  std::string Error() const;
  // The exit code of the failure (74; 141 when its reader went away).
  int ExitCode() const;
  // Prints `error: ` and Error() on stderr (nothing when the reader went
  // away: its choice) and returns ExitCode().
  int Report() const;
  // Keeps `err` (an errno; 0 counts as EIO) as the failure unless one is
  // kept already; false.
  bool Fail(int err);

 private:
  int fd_;
  std::string name_;
  bool owned_ = false;
  int err_ = 0;
};

// Flushes mty's own stdout (stdio and std::cout) at its exit and checks
// it: `rc` when every byte was written or `rc` is already a failure; else,
// with `error: cannot write stdout: REASON` on stderr, 74 (141 and no
// message when the reader went away).
int FinishStdout(int rc);

}  // namespace mty::driver
