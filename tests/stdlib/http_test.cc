// std.net / std.http against an HTTP server on loopback that the test
// starts itself: GET and POST with a grant, denial without one, redirects
// returned (never followed), timeouts, and URL forms that must not slip
// past the host check.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "gtest/gtest.h"
#include "mty/mty.h"

namespace {

// Serves `count` connections with canned responses chosen by the request
// path, then stops. Bounded: each accept waits at most 5 s.
class LoopbackServer {
 public:
  explicit LoopbackServer(int count) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a));
    socklen_t len = sizeof(a);
    getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    listen(fd_, 8);
    timeval tv{5, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    thread_ = std::thread([this, count] {
      for (int i = 0; i < count; ++i) {
        int c = accept(fd_, nullptr, nullptr);
        if (c < 0) return;
        std::string req;
        char buf[4096];
        timeval ctv{5, 0};
        setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &ctv, sizeof(ctv));
        while (req.find("\r\n\r\n") == std::string::npos) {
          ssize_t n = read(c, buf, sizeof(buf));
          if (n <= 0) break;
          req.append(buf, n);
        }
        size_t hdr_end = req.find("\r\n\r\n");
        size_t cl = req.find("Content-Length: ");
        if (cl != std::string::npos && hdr_end != std::string::npos) {
          size_t want = std::stoul(req.substr(cl + 16));
          while (req.size() < hdr_end + 4 + want) {
            ssize_t n = read(c, buf, sizeof(buf));
            if (n <= 0) break;
            req.append(buf, n);
          }
        }
        last_request_ = req;
        std::string resp;
        if (req.rfind("GET /hello", 0) == 0) {
          resp =
              "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Test: yes\r\nConnection: "
              "close\r\n\r\nhello";
        } else if (req.rfind("POST /echo", 0) == 0) {
          std::string body = req.substr(hdr_end + 4);
          resp = "HTTP/1.1 201 Created\r\nContent-Length: " + std::to_string(body.size()) +
                 "\r\nConnection: close\r\n\r\n" + body;
        } else if (req.rfind("GET /big", 0) == 0) {
          // 40 MB: more than a 1 MiB budget's real-bytes ceiling (18 MiB).
          resp = "HTTP/1.1 200 OK\r\nContent-Length: 40000000\r\nConnection: close\r\n\r\n" +
                 std::string(40000000, 'b');
        } else if (req.rfind("GET /redirect", 0) == 0) {
          resp =
              "HTTP/1.1 302 Found\r\nLocation: http://evil.example/\r\nContent-Length: 0\r\n"
              "Connection: close\r\n\r\n";
        } else if (req.rfind("GET /drip", 0) == 0) {
          // Headers at once, then one byte of the body every 50 ms (5 s in
          // all) until the client goes away.
          std::string head = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\nConnection: close\r\n\r\n";
          bool gone = send(c, head.data(), head.size(), MSG_NOSIGNAL) < 0;
          for (int b = 0; b < 100 && !gone; ++b) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
            gone = send(c, "x", 1, MSG_NOSIGNAL) < 0;
          }
          close(c);
          continue;
        } else if (req.rfind("GET /slow", 0) == 0) {
          std::this_thread::sleep_for(std::chrono::milliseconds(1500));
          resp = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        } else {
          resp = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        }
        ssize_t ignored = write(c, resp.data(), resp.size());
        (void)ignored;
        close(c);
      }
    });
  }
  ~LoopbackServer() {
    shutdown(fd_, SHUT_RDWR);
    close(fd_);
    if (thread_.joinable()) thread_.join();
  }
  int port() const { return port_; }
  std::string last_request_;

 private:
  int fd_ = -1;
  int port_ = 0;
  std::thread thread_;
};

std::string RunNet(const std::string& src, std::vector<std::string> allow_net, int* exit_code) {
  auto p = mty::Program::FromSource(src, "net.mty");
  EXPECT_TRUE(p.ok()) << p.status();
  if (!p.ok()) return "";
  std::string out;
  mty::RunOptions o;
  o.policy.grants.Set(mty::GrantId::kNet, std::move(allow_net));
  o.on_stdout = [&](std::string_view s) { out.append(s); };
  mty::RunResult r = (*p)->Run(o);
  if (exit_code) *exit_code = r.exit_code;
  return out + r.Report();
}

// A body the run's real-bytes ceiling cannot hold: the refused allocation
// must not cross libcurl's C frames (it aborted the process); the transfer
// ends with an io error and the run carries on.
TEST(Http, ABodyPastTheHeapCeilingIsAnIoError) {
  LoopbackServer server(1);
  std::string base = "http://127.0.0.1:" + std::to_string(server.port());
  auto p = mty::Program::FromSource("fn main() {\n  let r = std.net.get(\"" + base +
                                        "/big\")\n  log(r.is_err())\n  log(\"after\")\n}\n",
                                    "net.mty");
  ASSERT_TRUE(p.ok()) << p.status();
  std::string out;
  mty::RunOptions o;
  o.policy.grants.Set(mty::GrantId::kNet, {{"127.0.0.1:" + std::to_string(server.port())}});
  o.policy.limits.Set(mty::LimitId::kMemory, 1 << 20);
  o.on_stdout = [&](std::string_view s) { out.append(s); };
  mty::RunResult r = (*p)->Run(o);
  // Either the io error (the run goes on) or the real-heap breach; never a
  // crash, and never the 40 MB.
  if (r.outcome == mty::Outcome::kOk) {
    EXPECT_EQ(out, "true\nafter\n");
  } else {
    EXPECT_EQ(r.outcome, mty::Outcome::kBreach) << r.Report();
    EXPECT_EQ(r.breach->limit, mty::LimitId::kMemory);
  }
  EXPECT_LE(r.heap_peak, uint64_t{20} << 20);
}

TEST(Http, GetAndPostWithAGrant) {
  LoopbackServer server(2);
  std::string base = "http://127.0.0.1:" + std::to_string(server.port());
  std::string src =
      "fn main() {\n"
      "  let r = std.net.get(\"" +
      base +
      "/hello\").unwrap()\n"
      "  log(r.status)\n  log(r.body)\n  log(r.headers.get(\"x-test\"))\n"
      "  let p = std.http.post(\"" +
      base +
      "/echo\", \"ping\").unwrap()\n"
      "  log(p.status)\n  log(p.body)\n}\n";
  int code = -1;
  std::string out = RunNet(src, {"127.0.0.1:" + std::to_string(server.port())}, &code);
  EXPECT_EQ(out, "200\nhello\nSome(\"yes\")\n201\nping\n");
  EXPECT_EQ(code, 0);
}

TEST(Http, DeniedWithoutAGrantAndNothingIsSent) {
  LoopbackServer server(1);
  std::string url = "http://127.0.0.1:" + std::to_string(server.port()) + "/hello";
  std::string src = "fn main() {\n  log(std.net.get(\"" + url + "\"))\n}\n";
  // A grant for another port, and one for another host, both deny.
  EXPECT_EQ(RunNet(src, {"127.0.0.1:1"}, nullptr),
            "Err(\"forbidden: 127.0.0.1:" + std::to_string(server.port()) + "\")\n");
  EXPECT_EQ(RunNet(src, {"localhost"}, nullptr),
            "Err(\"forbidden: 127.0.0.1:" + std::to_string(server.port()) + "\")\n");
  EXPECT_EQ(server.last_request_, "");
}

TEST(Http, RedirectsAreReturnedNotFollowed) {
  LoopbackServer server(1);
  std::string url = "http://127.0.0.1:" + std::to_string(server.port()) + "/redirect";
  std::string src = "fn main() {\n  let r = std.net.get(\"" + url +
                    "\").unwrap()\n  log(r.status)\n  log(r.headers.get(\"location\"))\n}\n";
  EXPECT_EQ(RunNet(src, {"127.0.0.1"}, nullptr), "302\nSome(\"http://evil.example/\")\n");
}

TEST(Http, UrlTricksDoNotPassTheHostCheck) {
  // userinfo and mixed case must not confuse the check: the host is what
  // libcurl would connect to.
  std::string src =
      "fn main() {\n"
      "  log(std.net.get(\"http://127.0.0.1@evil.example:81/\"))\n"
      "  log(std.net.get(\"HTTP://EVIL.Example/\"))\n"
      "  log(std.net.get(\"http://[::1]:9/\"))\n"
      "  log(std.net.get(\"ftp://127.0.0.1/\"))\n"
      "  log(std.net.get(\"http://u:secret@\"))\n"
      "}\n";
  EXPECT_EQ(RunNet(src, {"127.0.0.1"}, nullptr),
            "Err(\"forbidden: evil.example:81\")\n"
            "Err(\"forbidden: evil.example:80\")\n"
            "Err(\"forbidden: [::1]:9\")\n"
            "Err(\"io: unsupported URL scheme 'ftp'\")\n"
            "Err(\"io: malformed URL\")\n");
}

TEST(Http, WildcardSuffixEntries) {
  std::string src = "fn main() {\n  log(std.net.get(\"http://api.evil.example:1/\"))\n}\n";
  // `*.example` allows api.evil.example; the connection then fails (port 1).
  std::string out = RunNet(src, {"*.example"}, nullptr);
  EXPECT_EQ(out.find("forbidden"), std::string::npos) << out;
  EXPECT_EQ(RunNet(src, {"*.other"}, nullptr), "Err(\"forbidden: api.evil.example:1\")\n");
}

// ---- The static check (mty check --manifest) and the run agree ----------
// Both decide with the policy table's one host matcher on the host:port
// that libcurl parses from the URL (issue #10: they used to disagree).

std::vector<std::string> StaticFindings(const std::string& src, std::vector<std::string> net) {
  auto p = mty::Program::FromSource(src, "net.mty");
  EXPECT_TRUE(p.ok()) << p.status();
  if (!p.ok()) return {"does not compile"};
  mty::Grants g;
  g.Set(mty::GrantId::kNet, std::move(net));
  return (*p)->CheckAgainst(g);
}

TEST(Http, StarAdmitsEveryHostInTheCheckAndTheRun) {
  LoopbackServer server(1);
  std::string url = "http://127.0.0.1:" + std::to_string(server.port()) + "/hello";
  std::string src = "fn main() {\n  log(std.net.get(\"" + url + "\").unwrap().body)\n}\n";
  EXPECT_TRUE(StaticFindings(src, {"*"}).empty());
  // The run used to deny every host under `*`.
  EXPECT_EQ(RunNet(src, {"*"}, nullptr), "hello\n");
  // `*:port` is any host on that port only.
  EXPECT_TRUE(StaticFindings(src, {"*:" + std::to_string(server.port())}).empty());
  EXPECT_EQ(StaticFindings(src, {"*:1"}).size(), 1u);
}

TEST(Http, UpperCaseSchemeIsCheckedStaticallyAsAtRunTime) {
  std::string src = "fn main() {\n  log(std.net.get(\"HTTPS://Api.Example.com/x\"))\n}\n";
  // The static check used to skip URLs it did not parse itself.
  std::vector<std::string> f = StaticFindings(src, {"other.example.com"});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].find("api.example.com:443 is outside the manifest's net list"), std::string::npos)
      << f[0];
  EXPECT_EQ(RunNet(src, {"other.example.com"}, nullptr),
            "Err(\"forbidden: api.example.com:443\")\n");
  EXPECT_TRUE(StaticFindings(src, {"api.example.com:443"}).empty());
}

TEST(Http, TrailingDotHostIsTheSameHostInTheCheckAndTheRun) {
  std::string src = "fn main() {\n  log(std.net.get(\"http://localhost.:9/\"))\n}\n";
  EXPECT_TRUE(StaticFindings(src, {"localhost:9"}).empty());
  // The run used to deny `localhost.` under a `localhost:9` grant; now the
  // request goes out (and fails to connect: nothing listens on port 9).
  std::string out = RunNet(src, {"localhost:9"}, nullptr);
  EXPECT_EQ(out.find("forbidden"), std::string::npos) << out;
  EXPECT_EQ(StaticFindings(src, {"localhost:10"}).size(), 1u);
  EXPECT_EQ(RunNet(src, {"localhost:10"}, nullptr), "Err(\"forbidden: localhost.:9\")\n");
}

// A program that GETs the server's slow /drip body, then logs "after".
absl::StatusOr<std::shared_ptr<const mty::Program>> DripProgram(int port) {
  std::string url = "http://127.0.0.1:" + std::to_string(port) + "/drip";
  return mty::Program::FromSource(
      "fn main() {\n  log(std.net.get(\"" + url + "\").is_ok())\n  log(\"after\")\n}\n",
      "drip.mty");
}

// A body that trickles in for 5 s under a 1 s wall budget: the request
// gives up at the deadline and the run ends with the wall breach (exit 5),
// never with the program carrying on after an Err("timeout").
TEST(Http, ASlowBodyPastTheWallDeadlineIsAWallBreach) {
  LoopbackServer server(1);
  auto p = DripProgram(server.port());
  ASSERT_TRUE(p.ok()) << p.status();
  mty::RunOptions o;
  o.policy.grants.Set(mty::GrantId::kNet, std::vector<std::string>{"127.0.0.1"});
  o.policy.limits.Set(mty::LimitId::kWall, int64_t{1000} * 1000 * 1000);
  std::string out;
  o.on_stdout = [&](std::string_view s) { out.append(s); };
  auto start = std::chrono::steady_clock::now();
  mty::RunResult r = (*p)->Run(o);
  auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(r.outcome, mty::Outcome::kBreach) << r.Report();
  ASSERT_TRUE(r.breach.has_value());
  EXPECT_EQ(r.breach->limit, mty::LimitId::kWall);
  EXPECT_EQ(r.exit_code, 5);
  EXPECT_EQ(out, "");
  EXPECT_GE(elapsed, std::chrono::milliseconds(1000));
  EXPECT_LT(elapsed, std::chrono::milliseconds(2000));
}

// Runner::Interrupt() ends a run that waits for a slow server within a few
// milliseconds (the request polls the interrupt every 5 ms).
TEST(Http, InterruptEndsAnHttpWaitAtOnce) {
  LoopbackServer server(1);
  auto p = DripProgram(server.port());
  ASSERT_TRUE(p.ok()) << p.status();
  mty::RunOptions o;
  o.policy.grants.Set(mty::GrantId::kNet, std::vector<std::string>{"127.0.0.1"});
  std::string out;
  o.on_stdout = [&](std::string_view s) { out.append(s); };
  mty::Runner runner(*p, o);
  std::chrono::steady_clock::time_point interrupted;
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    interrupted = std::chrono::steady_clock::now();
    runner.Interrupt();
  });
  mty::RunResult r = runner.Run();
  auto ended = std::chrono::steady_clock::now();
  t.join();
  EXPECT_EQ(r.outcome, mty::Outcome::kCancelled) << r.Report();
  EXPECT_EQ(out, "");
  // 10 ms is the contract; the bound leaves room for a loaded machine.
  EXPECT_LT(ended - interrupted, std::chrono::milliseconds(200));
}

}  // namespace
