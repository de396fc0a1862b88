// Writing a run's output to a file descriptor without ever waiting past the
// run's wall deadline or an interrupt (runtime.md §2, "Every wait ends at
// the wall deadline"): a stdout that nobody drains cannot hold a run.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mty::runtime {

// Steady-clock nanoseconds: the clock every deadline of a run is on.
int64_t SteadyNowNs();

// Why a write stopped before all of its bytes were written.
enum class WriteEnd { kDone, kDeadline, kCancelled, kError };

// Writes all of `data` to `fd`. It waits for the descriptor to take bytes
// (poll, then at most PIPE_BUF bytes at a time, so a pipe write never
// blocks) and gives up when it would have to wait past `deadline_ns`
// (steady ns) or `*cancel` is set, looking at both at least every 5 ms.
// Bytes the descriptor takes at once are written even after the deadline.
// kError leaves errno set (EBADF for a descriptor that is not open).
WriteEnd WriteBefore(int fd, std::string_view data, std::optional<int64_t> deadline_ns,
                     const std::atomic<bool>* cancel);

// One output stream of a run: buffered like stdio (fully, unless the
// descriptor is a terminal, which gets each write at once), written with
// WriteBefore. After a write gave up, the stream drops what it is given.
class FdStream {
 public:
  explicit FdStream(int fd, bool buffered = true);
  int fd() const { return fd_; }
  WriteEnd Write(std::string_view data, std::optional<int64_t> deadline_ns,
                 const std::atomic<bool>* cancel);
  WriteEnd Flush(std::optional<int64_t> deadline_ns, const std::atomic<bool>* cancel);
  // How the last write that did not finish ended (kDone if none).
  WriteEnd ended() const { return ended_; }
  // The errno of the write that ended kError (0 otherwise).
  int error() const { return error_; }

 private:
  static constexpr size_t kBuffer = 64 * 1024;
  int fd_;
  bool buffered_;
  std::string buf_;
  WriteEnd ended_ = WriteEnd::kDone;
  int error_ = 0;
  WriteEnd Ended(WriteEnd e);
};

}  // namespace mty::runtime
