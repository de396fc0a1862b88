// Deadline-bounded writes to a file descriptor (runtime/output.h).
#include "mty/runtime/output.h"

#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>

namespace mty::runtime {

int64_t SteadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

WriteEnd WriteBefore(int fd, std::string_view data, std::optional<int64_t> deadline_ns,
                     const std::atomic<bool>* cancel) {
  constexpr int64_t kSliceNs = 5'000'000;  // how often the deadline and cancel are looked at
  // A regular file takes any amount at once; anything else (a pipe, a
  // terminal, a socket) gets at most PIPE_BUF bytes per ready poll.
  struct stat st;
  const bool regular = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  size_t done = 0;
  while (done < data.size()) {
    if (cancel && cancel->load(std::memory_order_relaxed)) return WriteEnd::kCancelled;
    // The deadline bounds the waiting, not the writing: bytes the
    // descriptor takes at once are written even after it passed.
    int64_t wait_ns = kSliceNs;
    bool passed = false;
    if (deadline_ns) {
      int64_t left = *deadline_ns - SteadyNowNs();
      passed = left <= 0;
      wait_ns = std::clamp<int64_t>(left, 0, kSliceNs);
    }
    if (!regular) {
      struct pollfd p = {fd, POLLOUT, 0};
      int timeout_ms = passed ? 0 : static_cast<int>(std::max<int64_t>(1, wait_ns / 1'000'000));
      int n = ::poll(&p, 1, timeout_ms);
      if (n < 0 && errno != EINTR) return WriteEnd::kError;
      if (n <= 0) {
        if (passed) return WriteEnd::kDeadline;
        continue;
      }
      if (p.revents & POLLNVAL) {
        errno = EBADF;
        return WriteEnd::kError;
      }
    }
    size_t chunk = data.size() - done;
    if (!regular) chunk = std::min<size_t>(chunk, PIPE_BUF);
    ssize_t w = ::write(fd, data.data() + done, chunk);
    if (w < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return WriteEnd::kError;
    }
    done += static_cast<size_t>(w);
  }
  return WriteEnd::kDone;
}

FdStream::FdStream(int fd, bool buffered) : fd_(fd), buffered_(buffered && !::isatty(fd)) {}

WriteEnd FdStream::Write(std::string_view data, std::optional<int64_t> deadline_ns,
                         const std::atomic<bool>* cancel) {
  if (ended_ != WriteEnd::kDone) return ended_;
  if (buffered_ && buf_.size() + data.size() <= kBuffer) {
    buf_.append(data);
    return WriteEnd::kDone;
  }
  if (WriteEnd e = Flush(deadline_ns, cancel); e != WriteEnd::kDone) return e;
  if (buffered_ && data.size() <= kBuffer) {
    buf_.append(data);
    return WriteEnd::kDone;
  }
  return Ended(WriteBefore(fd_, data, deadline_ns, cancel));
}

WriteEnd FdStream::Flush(std::optional<int64_t> deadline_ns, const std::atomic<bool>* cancel) {
  if (ended_ != WriteEnd::kDone) return ended_;
  if (buf_.empty()) return WriteEnd::kDone;
  WriteEnd e = Ended(WriteBefore(fd_, buf_, deadline_ns, cancel));
  buf_.clear();
  return e;
}

WriteEnd FdStream::Ended(WriteEnd e) {
  if (e == WriteEnd::kError) error_ = errno;
  ended_ = e;
  return e;
}

}  // namespace mty::runtime
