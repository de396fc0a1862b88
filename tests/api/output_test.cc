// Output that cannot be written, through the public API (docs/runtime.md,
// "Output that cannot be written"): a stdout_fd / stderr_fd that refuses a
// write ends the run with MT5023 (exit 74), or MT5024 (exit 141) when the
// reader of a pipe went away; a replay stopped so is not compared at its
// end; Recording::Records tells the recorded program.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <string>

#include "gtest/gtest.h"
#include "mty/mty.h"

namespace {

std::shared_ptr<const mty::Program> Compile(const std::string& source) {
  auto p = mty::Program::FromSource(source, "out.mty");
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : nullptr;
}

// Prints 200 000 lines (about 1.3 MB: past every buffer), then "finished"
// on stderr.
constexpr const char* kLoop = R"(fn main() {
    let mut i = 0
    while i < 200000 {
        log(i)
        i += 1
    }
    eprint("finished\n")
}
)";

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

TEST(Output, AFullDeviceStopsTheRunWithMT5023) {
  Fd full{open("/dev/full", O_WRONLY | O_CLOEXEC)};
  ASSERT_GE(full.fd, 0);
  mty::RunOptions o;
  o.stdout_fd = full.fd;
  std::string err;
  o.on_stderr = [&](std::string_view s) { err += s; };
  mty::RunResult r = Compile(kLoop)->Run(o);
  EXPECT_EQ(r.outcome, mty::Outcome::kTrap);
  EXPECT_EQ(r.code, mty::TrapCode::kOutput);
  EXPECT_EQ(r.exit_code, 74);
  EXPECT_EQ(r.message, "cannot write stdout: No space left on device");
  EXPECT_FALSE(r.backtrace.empty());  // stopped where it was
  EXPECT_EQ(err, "");                 // never reached the end
  EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kDataLoss);
}

TEST(Output, TheFinalFlushIsChecked) {
  Fd full{open("/dev/full", O_WRONLY | O_CLOEXEC)};
  mty::RunOptions o;
  o.stdout_fd = full.fd;
  mty::RunResult r = Compile("fn main() -> I64 {\n    log(\"hi\")\n    3\n}\n")->Run(o);
  EXPECT_EQ(r.code, mty::TrapCode::kOutput);
  EXPECT_EQ(r.exit_code, 74);
  EXPECT_FALSE(r.returned.has_value());
}

TEST(Output, StderrToo) {
  Fd full{open("/dev/full", O_WRONLY | O_CLOEXEC)};
  mty::RunOptions o;
  o.stderr_fd = full.fd;
  o.on_stdout = [](std::string_view) {};
  mty::RunResult r = Compile("fn main() {\n    eprint(\"oops\\n\")\n}\n")->Run(o);
  EXPECT_EQ(r.code, mty::TrapCode::kOutput);
  EXPECT_EQ(r.message, "cannot write stderr: No space left on device");
}

TEST(Output, AReaderThatWentAwayIsMT5024) {
  ::signal(SIGPIPE, SIG_IGN);  // as docs/embedding.md asks of an embedder
  int p[2];
  ASSERT_EQ(pipe2(p, O_CLOEXEC), 0);
  close(p[0]);
  Fd w{p[1]};
  mty::RunOptions o;
  o.stdout_fd = w.fd;
  mty::RunResult r = Compile(kLoop)->Run(o);
  EXPECT_EQ(r.code, mty::TrapCode::kOutputClosed);
  EXPECT_EQ(r.exit_code, 141);
  EXPECT_EQ(r.message, "cannot write stdout: Broken pipe");
}

TEST(Output, AClosedDescriptorIsMT5023) {
  int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
  close(fd);  // now not open
  mty::RunOptions o;
  o.stdout_fd = fd;
  mty::RunResult r = Compile("fn main() {\n    log(\"hi\")\n}\n")->Run(o);
  EXPECT_EQ(r.code, mty::TrapCode::kOutput);
  EXPECT_EQ(r.message, "cannot write stdout: Bad file descriptor");
}

TEST(Output, AReplayThatCannotWriteIsNotADivergence) {
  auto program = Compile("fn main() {\n    log(std.env.var(\"HOME\"))\n}\n");
  mty::Recording rec;
  mty::RunOptions o;
  o.policy.grants = mty::Grants::All();
  o.record = &rec;
  o.on_stdout = [](std::string_view) {};
  ASSERT_EQ(program->Run(o).exit_code, 0);
  Fd full{open("/dev/full", O_WRONLY | O_CLOEXEC)};
  mty::RunOptions again;
  again.replay = &rec;
  again.stdout_fd = full.fd;
  mty::RunResult r = program->Run(again);
  EXPECT_EQ(r.code, mty::TrapCode::kOutput);
  EXPECT_EQ(r.divergence, "");
}

TEST(Output, RecordsTellsTheRecordedProgram) {
  auto a = Compile("fn main() {\n    log(1)\n}\n");
  auto b = Compile("fn main() {\n    log(2)\n}\n");
  mty::Recording rec;
  mty::RunOptions o;
  o.record = &rec;
  o.on_stdout = [](std::string_view) {};
  a->Run(o);
  EXPECT_TRUE(rec.Records(*a));
  EXPECT_FALSE(rec.Records(*b));
}

}  // namespace
