#include "output.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <streambuf>

#include "absl/strings/str_cat.h"
#include "mty/mty.h"
#include "mty/vocab/traps.h"

namespace mty::driver {

namespace {

// What a file that is not a regular one is, for the message.
const char* NotRegular(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory, not a regular file";
  if (S_ISFIFO(mode)) return "a FIFO, not a regular file";
  if (S_ISCHR(mode)) return "a character device, not a regular file";
  if (S_ISBLK(mode)) return "a block device, not a regular file";
  if (S_ISSOCK(mode)) return "a socket, not a regular file";
  return "not a regular file";
}

absl::Status CannotWrite(const std::string& path, const std::string& why) {
  return absl::FailedPreconditionError(absl::StrCat("cannot write ", path, ": ", why));
}

// mty's own stdout (std::cout: help, dump, caps, the REPL's results):
// buffered like stdio (line by line on a terminal), written with write(2),
// and the first error kept, so its final flush can say why (stdio keeps no
// errno: after a failed write it only knows that one failed).
class StdoutBuffer : public std::streambuf {
 public:
  StdoutBuffer() : line_(::isatty(STDOUT_FILENO) == 1) { setp(buf_, buf_ + sizeof buf_); }
  int error() const { return err_; }

 protected:
  int_type overflow(int_type c) override {
    if (sync() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    std::streamsize done = std::streambuf::xsputn(s, n);
    if (line_ && std::memchr(s, '\n', static_cast<size_t>(n)) && sync() != 0) return 0;
    return done;
  }
  int sync() override {
    const char* p = pbase();
    const size_t n = static_cast<size_t>(pptr() - pbase());
    setp(buf_, buf_ + sizeof buf_);
    // After a failure the rest is dropped (the failure is what counts).
    for (size_t done = 0; err_ == 0 && done < n;) {
      ssize_t w = ::write(STDOUT_FILENO, p + done, n - done);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) err_ = w < 0 ? errno : EIO;
      if (w > 0) done += static_cast<size_t>(w);
    }
    return err_ == 0 ? 0 : -1;
  }

 private:
  char buf_[1 << 14];
  bool line_;
  int err_ = 0;
};

StdoutBuffer* stdout_buffer = nullptr;

}  // namespace

void PrepareProcess() {
  ::signal(SIGPIPE, SIG_IGN);
  ::signal(SIGXFSZ, SIG_IGN);
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
    // The lowest free descriptor: `fd`, since the ones below it are open.
    int got = ::open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
    if (got >= 0 && got != fd) {
      ::dup2(got, fd);
      ::close(got);
    }
  }
  static StdoutBuffer buffer;
  stdout_buffer = &buffer;
  std::cout.rdbuf(&buffer);
}

absl::StatusOr<HostOutput> HostOutput::Create(const std::string& path, const InUse& in_use) {
  // Looked at before it is opened (opening a device may do something), and
  // again after, on what was opened.
  struct stat st;
  if (::stat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) return CannotWrite(path, NotRegular(st.st_mode));
    for (const auto& [other, what] : in_use) {
      struct stat ot;
      if (::stat(other.c_str(), &ot) == 0 && ot.st_dev == st.st_dev && ot.st_ino == st.st_ino)
        return CannotWrite(path, absl::StrCat("the same file as ", other, " (", what, ")"));
    }
  }
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0644);
  if (fd < 0) {
    // ENXIO: a FIFO with no reader, a socket, a device with none behind it.
    const int err = errno;
    return CannotWrite(path, err == ENXIO ? "not a regular file" : std::strerror(err));
  }
  HostOutput out(fd, path);
  out.owned_ = true;
  if (::fstat(fd, &st) != 0) return CannotWrite(path, std::strerror(errno));
  if (!S_ISREG(st.st_mode)) return CannotWrite(path, NotRegular(st.st_mode));
  if (::ftruncate(fd, 0) != 0) return CannotWrite(path, std::strerror(errno));
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  return out;
}

HostOutput::HostOutput(HostOutput&& o) noexcept
    : fd_(o.fd_), name_(std::move(o.name_)), owned_(o.owned_), err_(o.err_) {
  o.owned_ = false;
}

HostOutput::~HostOutput() {
  if (owned_) ::close(fd_);
}

bool HostOutput::Fail(int err) {
  if (err_ == 0) err_ = err != 0 ? err : EIO;
  return false;
}

bool HostOutput::Write(std::string_view text, std::chrono::nanoseconds max_wait) {
  if (err_ != 0) return false;
  errno = 0;
  if (!mty::WriteOutput(fd_, text, max_wait)) return Fail(errno);
  return true;
}

bool HostOutput::Close() {
  if (!owned_) return ok();
  owned_ = false;
  if (::close(fd_) != 0 && errno != EINTR) return Fail(errno);
  return ok();
}

std::string HostOutput::Error() const {
  // mty::WriteOutput's ETIMEDOUT: the descriptor took no bytes in time.
  return absl::StrCat("cannot write ", name_, ": ",
                      err_ == ETIMEDOUT ? "nothing read it in time" : std::strerror(err_));
}

int HostOutput::ExitCode() const { return ir::Trap(ir::OutputTrap(err_)).exit_code; }

int HostOutput::Report() const {
  const int code = ExitCode();
  if (ir::OutputTrap(err_) != ir::TrapCode::kOutputClosed)
    std::cerr << "error: " << Error() << "\n";
  return code;
}

int FinishStdout(int rc) {
  std::cout.flush();
  int err = stdout_buffer ? stdout_buffer->error() : 0;
  // stdio's stdout (libedit's prompts): no errno kept; EIO when it failed.
  if (err == 0 && (std::fflush(stdout) != 0 || std::ferror(stdout))) err = EIO;
  if (err == 0 || rc != 0) return rc;
  HostOutput out(STDOUT_FILENO, "stdout");
  out.Fail(err);
  return out.Report();
}

}  // namespace mty::driver
