// The agent scheduler (runtime.md §5) through the public embedding API:
// deterministic output, a fair FIFO run queue, the run results and exit
// codes of the agent limits and of failed agents, and host interruption of
// a run whose agent spins.
#include <time.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "mty/mty.h"

namespace {

std::optional<mty::LimitId> LimitOf(const mty::RunResult& r) {
  return r.breach ? r.breach->limit : std::nullopt;
}

std::shared_ptr<const mty::Program> Compile(std::string_view source, std::string_view name) {
  auto p = mty::Program::FromSource(source, name);
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : nullptr;
}

// One run's output: stdout, stderr, and both in the order they were written
// (each chunk tagged with its stream).
struct Captured {
  std::string out, err, both;
  mty::RunResult result;
};

Captured RunCapturing(const mty::Program& p, mty::RunOptions o = {}) {
  Captured c;
  o.on_stdout = [&](std::string_view s) {
    c.out.append(s);
    c.both.append("[out] ").append(s);
  };
  o.on_stderr = [&](std::string_view s) {
    c.err.append(s);
    c.both.append("[err] ").append(s);
  };
  c.result = p.Run(o);
  return c;
}

int CountLines(const std::string& text, std::string_view needle) {
  int n = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (std::string_view(text).substr(start, end - start).find(needle) != std::string_view::npos)
      ++n;
    start = end + 1;
  }
  return n;
}

// Five agents in a ring pass tokens around (5 tokens x 40 hops = 200 sends;
// the last hop of each token is reported on stderr) while main polls them
// with asks until every hop was made; then one of them fails (so stderr has
// an agent failure line too) and a send to it is dropped.
constexpr const char* kRing = R"(
agent Node(id) {
    next = None
    seen = 0
    sum = 0
    on Link(n) -> {
        next = Some(n)
        id
    }
    on Token(origin, hops) -> {
        seen += 1
        sum += hops * id
        log(format!("node {id}: token from {origin}, {hops} hops left"))
        if hops > 0 {
            match next {
                Some(n) => n!Token(origin, hops - 1),
                None => panic("unlinked"),
            }
        } else {
            eprint(format!("node {id}: token from {origin} done\n"))
        }
    }
    on Seen() -> seen
    on Stats() -> format!("node {id}: seen {seen}, sum {sum}")
    on Boom() -> {
        panic(format!("node {id} gives up"))
    }
}
fn main() {
    let mut nodes = []
    for i in 0..5 {
        nodes.push(spawn Node(i))
    }
    for i in 0..5 {
        let n = nodes[i]
        n!Link(nodes[(i + 1) % 5])
    }
    for i in 0..5 {
        let n = nodes[i]
        n!Token(i, 39)
    }
    let mut polls = 0
    let mut total = 0
    while total < 200 {
        polls += 1
        total = 0
        for i in 0..5 {
            let n = nodes[i]
            total += n?Seen()
        }
        log(format!("main: poll {polls}: {total} hops"))
    }
    for i in 0..5 {
        let n = nodes[i]
        log(n?Stats())
    }
    let last = nodes[4]
    last!Boom()
    last!Token(99, 0)
    let first = nodes[0]
    log(first?Stats())
    log("main: done")
}
)";

TEST(Scheduler, SameOutputOnEveryRun) {
  auto p = Compile(kRing, "ring.mty");
  ASSERT_TRUE(p);
  Captured first = RunCapturing(*p);
  EXPECT_EQ(first.result.outcome, mty::Outcome::kOk) << first.result.Report();
  EXPECT_EQ(first.result.exit_code, 0);
  // 200 token turns ran (each logs one line), plus the stats lines.
  EXPECT_EQ(CountLines(first.out, "token from"), 200) << first.out;
  EXPECT_EQ(CountLines(first.out, "seen"), 6) << first.out;
  EXPECT_EQ(CountLines(first.err, "done"), 5) << first.err;
  EXPECT_TRUE(first.err.ends_with("agent Node#5 failed: trap MT5001: panic: node 4 gives up\n"))
      << first.err;
  for (int run = 1; run < 5; ++run) {
    Captured again = RunCapturing(*p);
    EXPECT_EQ(again.both, first.both) << "run " << run;
    EXPECT_EQ(again.result.exit_code, first.result.exit_code);
  }
}

TEST(Scheduler, SameOutputWhenRunConcurrently) {
  // A program is immutable: concurrent runs each get fresh agents and the
  // same output as a lone run.
  auto p = Compile(kRing, "ring.mty");
  ASSERT_TRUE(p);
  const Captured want = RunCapturing(*p);
  std::vector<std::string> got(4);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i)
    threads.emplace_back([&, i] {
      for (int k = 0; k < 3; ++k) got[i] += RunCapturing(*p).both;
    });
  for (auto& t : threads) t.join();
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i], want.both + want.both + want.both) << i;
}

std::string Alternating(int n) {
  std::string want;
  for (int i = 0; i < n; ++i) want += "a " + std::to_string(i) + "\nb " + std::to_string(i) + "\n";
  return want;
}

TEST(Scheduler, RunQueueIsFifoAcrossAgents) {
  // Sent alternately, the turns of two agents run alternately.
  auto p = Compile(R"(
agent Worker(name) {
    n = 0
    on Job(i) -> {
        n += 1
        log(format!("{name} {i}"))
    }
    on Count() -> n
}
fn main() {
    let a = spawn Worker("a")
    let b = spawn Worker("b")
    for i in 0..50 {
        a!Job(i)
        b!Job(i)
    }
    log(format!("a={} b={}", a?Count(), b?Count()))
}
)",
                   "alt.mty");
  ASSERT_TRUE(p);
  Captured c = RunCapturing(*p);
  EXPECT_EQ(c.result.exit_code, 0) << c.result.Report();
  EXPECT_EQ(c.out, Alternating(50) + "a=50 b=50\n");
  EXPECT_EQ(c.err, "");
}

TEST(Scheduler, OneTurnPerAgentAtATimeSoNoAgentStarvesAnother) {
  // All 50 messages go to `a` first, then 50 to `b`: an agent has at most
  // one turn in the run queue and requeues behind the others after it, so
  // the turns still alternate (round-robin), and during the drain too.
  auto p = Compile(R"(
agent Worker(name) {
    on Job(i) -> log(format!("{name} {i}"))
}
fn main() {
    let a = spawn Worker("a")
    let b = spawn Worker("b")
    for i in 0..50 {
        a!Job(i)
    }
    for i in 0..50 {
        b!Job(i)
    }
}
)",
                   "batch.mty");
  ASSERT_TRUE(p);
  Captured c = RunCapturing(*p);
  EXPECT_EQ(c.result.exit_code, 0) << c.result.Report();
  EXPECT_EQ(c.out, Alternating(50));
}

constexpr const char* kSink = R"(
agent Sink {
    n = 0
    on Put(i) -> {
        n += 1
    }
}
fn main() {
    let s = spawn Sink()
    for i in 0..10 {
        s!Put(i)
        log(i)
    }
}
)";

TEST(Scheduler, MailboxFailIsABudgetBreachWithExit7) {
  auto p = Compile(kSink, "sink.mty");
  ASSERT_TRUE(p);
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kMailbox, 2);
  o.policy.limits.mb_policy = mty::ir::ParseMailboxPolicy("fail");
  Captured c = RunCapturing(*p, o);
  const mty::RunResult& r = c.result;
  EXPECT_EQ(r.outcome, mty::Outcome::kBreach);
  EXPECT_EQ(LimitOf(r), mty::LimitId::kMailbox);
  EXPECT_STREQ(mty::ir::TrapText(r.code), "MT5012");
  EXPECT_EQ(r.message, "mailbox full: Sink#1");
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(r.Report().starts_with("trap MT5012: mailbox full: Sink#1\n")) << r.Report();
  // A message counts against the mailbox until its turn starts, so the
  // capacity of 2 holds exactly two sends and the third one fails.
  EXPECT_EQ(c.out, "0\n1\n");
}

TEST(Scheduler, MailboxBlockAndDropDoNotFailTheSender) {
  auto p = Compile(kSink, "sink.mty");
  ASSERT_TRUE(p);
  for (const char* policy : {"block", "drop"}) {
    mty::RunOptions o;
    o.policy.limits.Set(mty::LimitId::kMailbox, 2);
    o.policy.limits.mb_policy = mty::ir::ParseMailboxPolicy(policy);
    Captured c = RunCapturing(*p, o);
    EXPECT_EQ(c.result.outcome, mty::Outcome::kOk) << policy << ": " << c.result.Report();
    EXPECT_EQ(c.result.exit_code, 0) << policy;
    EXPECT_EQ(c.out, "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n") << policy;
  }
}

TEST(Scheduler, SpawnBudgetIsABudgetBreachWithExit7) {
  auto p = Compile(R"(
agent Worker(id) {
    on Id() -> id
}
fn main() {
    for i in 0..5 {
        let w = spawn Worker(i)
        log(w?Id())
    }
}
)",
                   "spawn.mty");
  ASSERT_TRUE(p);
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kSpawned, 2);
  Captured c = RunCapturing(*p, o);
  const mty::RunResult& r = c.result;
  EXPECT_EQ(r.outcome, mty::Outcome::kBreach);
  EXPECT_EQ(LimitOf(r), mty::LimitId::kSpawned);
  EXPECT_STREQ(mty::ir::TrapText(r.code), "MT5009");
  EXPECT_EQ(r.message, "spawn budget exceeded: 2 agents");
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(c.out, "0\n1\n");
}

TEST(Scheduler, AskToADeadAgentTrapsMT5021WithExit1) {
  auto p = Compile(R"(
agent Fragile {
    n = 0
    on Inc() -> {
        n += 1
        n
    }
    on Boom() -> {
        panic("kaboom")
    }
}
agent Other {
    on Ping() -> "pong"
}
fn main() {
    let f = spawn Fragile()
    let o = spawn Other()
    log(f?Inc())
    f!Boom()
    log(o?Ping())
    log(f?Inc())
    log("not reached")
}
)",
                   "dead.mty");
  ASSERT_TRUE(p);
  Captured c = RunCapturing(*p);
  const mty::RunResult& r = c.result;
  EXPECT_EQ(r.outcome, mty::Outcome::kTrap);
  EXPECT_FALSE(r.breach.has_value());
  EXPECT_STREQ(mty::ir::TrapText(r.code), "MT5021");
  EXPECT_EQ(r.message, "ask failed: agent Fragile#1 is dead");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kAborted);
  ASSERT_FALSE(r.backtrace.empty());
  EXPECT_TRUE(r.backtrace[0].starts_with("main (dead.mty:21:")) << r.backtrace[0];
  EXPECT_EQ(c.out, "1\npong\n");
  EXPECT_EQ(c.err, "agent Fragile#1 failed: trap MT5001: panic: kaboom\n");
  // The failure is reported when the failing turn runs: after main's ask
  // let it run, before main's reply is logged.
  EXPECT_EQ(c.both,
            "[out] 1\n"
            "[err] agent Fragile#1 failed: trap MT5001: panic: kaboom\n"
            "[out] pong\n");
}

TEST(Scheduler, AskWhoseTurnFailsTrapsMT5021NamingTheFailure) {
  auto p = Compile(R"(
agent Fragile {
    on Div(a, b) -> a / b
}
fn main() {
    let f = spawn Fragile()
    log(f?Div(6, 3))
    log(f?Div(1, 0))
}
)",
                   "div.mty");
  ASSERT_TRUE(p);
  Captured c = RunCapturing(*p);
  const mty::RunResult& r = c.result;
  EXPECT_EQ(r.outcome, mty::Outcome::kTrap);
  EXPECT_STREQ(mty::ir::TrapText(r.code), "MT5021");
  EXPECT_TRUE(r.message.starts_with("ask failed: agent Fragile#1 failed: trap MT5003: "))
      << r.message;
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(c.out, "2\n");
  EXPECT_TRUE(c.err.starts_with("agent Fragile#1 failed: trap MT5003: ")) << c.err;
  EXPECT_EQ(CountLines(c.err, "failed"), 1) << c.err;
}

// The CPU budget holds across many short agent turns: each turn's task
// publishes its fence (the watchdog is woken only when that fence can pass
// before it would look anyway) and the thread's CPU between turns is
// charged to the next task, so the run stops with exit 6 once it has used
// the budget, not seconds later.
TEST(Scheduler, CpuBudgetHoldsAcrossManyShortTurns) {
  auto p = Compile(R"(
agent Spinner {
    n = 0
    on Spin(k) -> {
        let mut i = 0
        while i < k { i += 1 }
        n += 1
        n
    }
}
fn main() {
    let s = spawn Spinner()
    let mut total = 0
    loop {
        total += s?Spin(2000)
    }
}
)",
                   "turns.mty");
  ASSERT_TRUE(p);
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kCpu, 100'000'000);
  o.on_stderr = [](std::string_view) {};
  timespec t0{}, t1{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  const auto start = std::chrono::steady_clock::now();
  mty::RunResult r = p->Run(o);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
  const int64_t cpu_ns = (t1.tv_sec - t0.tv_sec) * 1'000'000'000 + (t1.tv_nsec - t0.tv_nsec);
  EXPECT_EQ(r.outcome, mty::Outcome::kBreach);
  EXPECT_EQ(LimitOf(r), mty::LimitId::kCpu);
  EXPECT_EQ(r.exit_code, 6);
  // Not before the budget is used; the thread's CPU past it (the last
  // watchdog period, 50 ms at most) and the wall time stay bounded.
  EXPECT_GE(cpu_ns, 100'000'000);
  EXPECT_LT(cpu_ns, 400'000'000) << cpu_ns / 1'000'000 << " ms of CPU";
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

TEST(Scheduler, InterruptStopsASpinningAgent) {
  // No budget at all: only the host's interrupt can end this run.
  auto p = Compile(R"(
agent Spinner {
    on Spin() -> {
        loop {}
    }
}
fn main() {
    let s = spawn Spinner()
    log("asking")
    log(s?Spin())
}
)",
                   "spin.mty");
  ASSERT_TRUE(p);
  mty::RunOptions o;
  std::string out;
  o.on_stdout = [&](std::string_view s) { out.append(s); };
  mty::Runner runner(p, o);
  auto start = std::chrono::steady_clock::now();
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    runner.Interrupt();
  });
  mty::RunResult r = runner.Run();
  auto elapsed = std::chrono::steady_clock::now() - start;
  t.join();
  EXPECT_EQ(r.outcome, mty::Outcome::kCancelled) << r.Report();
  EXPECT_FALSE(r.breach.has_value());
  EXPECT_EQ(r.ToStatus().code(), absl::StatusCode::kCancelled);
  // The report says where the run was: in the spinning agent's turn.
  EXPECT_EQ(r.Report(),
            "error: run cancelled by the host\n  at Spinner::on_Spin (spin.mty:4:9)\n"
            "  at Spinner::__turn_Spin (spin.mty:3:8)\n");
  EXPECT_EQ(out, "asking\n");
  EXPECT_GE(elapsed, std::chrono::milliseconds(50));
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

TEST(Scheduler, InterruptStopsASpinningAgentDuringTheDrain) {
  // main has returned; the drain runs the agent's turn, which spins until
  // the host interrupts the run.
  auto p = Compile(R"(
agent Spinner {
    on Spin() -> {
        loop {}
    }
}
fn main() {
    let s = spawn Spinner()
    s!Spin()
}
)",
                   "spin2.mty");
  ASSERT_TRUE(p);
  mty::Runner runner(p, {});
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    runner.Interrupt();
  });
  mty::RunResult r = runner.Run();
  t.join();
  EXPECT_EQ(r.outcome, mty::Outcome::kCancelled) << r.Report();
}

// Runs `p` under a wall budget of `wall_ms`; *elapsed is how long it took.
Captured RunWithWall(const mty::Program& p, int64_t wall_ms,
                     std::chrono::steady_clock::duration* elapsed) {
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kWall, wall_ms * 1000 * 1000);
  auto start = std::chrono::steady_clock::now();
  Captured c = RunCapturing(p, o);
  *elapsed = std::chrono::steady_clock::now() - start;
  return c;
}

TEST(Scheduler, SleepSuspendsOnlyTheSleepingAgent) {
  // The napper's turn starts first (FIFO) and sleeps; while it sleeps the
  // other agent answers main's ask. A sleep that blocked the thread would
  // print "woke" before "pong".
  auto p = Compile(R"(
agent Napper {
    on Nap() -> {
        let _ = std.time.sleep(200ms)
        log("woke")
    }
    on Done() -> { "done" }
}
agent Pinger {
    on Ping() -> { "pong" }
}
fn main() {
    let a = spawn Napper()
    let b = spawn Pinger()
    a!Nap()
    log(b?Ping())
    log(a?Done())
}
)",
                   "nap.mty");
  ASSERT_TRUE(p);
  auto start = std::chrono::steady_clock::now();
  Captured c = RunCapturing(*p);
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(c.result.outcome, mty::Outcome::kOk) << c.result.Report();
  EXPECT_EQ(c.out, "pong\nwoke\ndone\n");
  EXPECT_GE(elapsed, std::chrono::milliseconds(200));
}

TEST(Scheduler, AnAskThatCanNeverBeAnsweredEndsAtTheWallDeadline) {
  // Two agents ask each other inside their turns with an hour's timeout:
  // neither can ever answer, and the pending timeouts keep the deadlock
  // detector quiet. The wall limit ends the run at its deadline as a wall
  // breach instead of after an hour.
  auto p = Compile(R"(
agent Left {
    peer = None
    on Link(p) -> { peer = Some(p) }
    on Go() -> {
        match peer {
            Some(p) => p?Go() @ 1h,
            None => Ok(0),
        }
    }
}
fn main() {
    let a = spawn Left()
    let b = spawn Left()
    a!Link(b)
    b!Link(a)
    b!Go()
    log(a?Go() @ 1h)
}
)",
                   "deadlock.mty");
  ASSERT_TRUE(p);
  std::chrono::steady_clock::duration elapsed;
  Captured c = RunWithWall(*p, 300, &elapsed);
  EXPECT_EQ(c.result.outcome, mty::Outcome::kBreach) << c.result.Report();
  EXPECT_EQ(LimitOf(c.result), mty::LimitId::kWall);
  EXPECT_EQ(c.result.exit_code, 5);
  EXPECT_GE(elapsed, std::chrono::milliseconds(300));
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

TEST(Scheduler, ASleepPastTheWallDeadlineIsAWallBreach) {
  // About the longest Duration a literal can spell (2^62 ns): the sleep is
  // cut at the deadline and the run ends as a wall breach, never as a
  // success.
  auto p = Compile(R"(
fn main() {
    let _ = std.time.sleep(1281023h)
    log("after")
}
)",
                   "longsleep.mty");
  ASSERT_TRUE(p);
  std::chrono::steady_clock::duration elapsed;
  Captured c = RunWithWall(*p, 200, &elapsed);
  EXPECT_EQ(c.result.outcome, mty::Outcome::kBreach) << c.result.Report();
  EXPECT_EQ(LimitOf(c.result), mty::LimitId::kWall);
  EXPECT_EQ(c.out, "");
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

TEST(Scheduler, InterruptEndsASleepAtOnce) {
  auto p = Compile(R"(
fn main() {
    let _ = std.time.sleep(1h)
    log("after")
}
)",
                   "sleep1h.mty");
  ASSERT_TRUE(p);
  mty::Runner runner(p, {});
  auto start = std::chrono::steady_clock::now();
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    runner.Interrupt();
  });
  mty::RunResult r = runner.Run();
  auto elapsed = std::chrono::steady_clock::now() - start;
  t.join();
  EXPECT_EQ(r.outcome, mty::Outcome::kCancelled) << r.Report();
  EXPECT_LT(elapsed, std::chrono::seconds(5));
}

TEST(Scheduler, BlockedSendersAreAdmittedAsRoomAppears) {
  // mailbox=1/block: every send after the first waits for room; all ten
  // messages arrive, in order.
  auto p = Compile(R"(
agent Sink {
    on Put(i) -> { log(i) }
}
fn main() {
    let s = spawn Sink()
    for i in 0..10 { s!Put(i) }
}
)",
                   "block1.mty");
  ASSERT_TRUE(p);
  mty::RunOptions o;
  o.policy.limits.Set(mty::LimitId::kMailbox, 1);
  o.policy.limits.mb_policy = mty::ir::ParseMailboxPolicy("block");
  Captured c = RunCapturing(*p, o);
  EXPECT_EQ(c.result.outcome, mty::Outcome::kOk) << c.result.Report();
  EXPECT_EQ(c.out, "0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n");
}

}  // namespace
