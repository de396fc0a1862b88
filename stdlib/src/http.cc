// HTTP/1.1 GET and POST for std.net / std.http through libcurl. URLs are
// parsed once with libcurl's URL API; the same parsed handle is used for
// the capability check and for the request, so they can never disagree.
#include "http.h"

#include <curl/curl.h>

#include <mutex>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace mty::stdlib {

namespace {

constexpr size_t kMaxBody = size_t{64} << 20;  // 64 MiB per response
constexpr size_t kMaxHeaders = 10000;          // header lines per response

void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Sink {
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  bool too_big = false;
};

size_t OnBody(char* data, size_t size, size_t n, void* user) {
  auto* s = static_cast<Sink*>(user);
  size_t len = size * n;
  if (s->body.size() + len > kMaxBody) {
    s->too_big = true;
    return 0;  // aborts the transfer
  }
  // No exception may cross libcurl's C frames: a body the real-bytes
  // ceiling refuses (std::bad_alloc) aborts the transfer like one too big.
  try {
    s->body.append(data, len);
  } catch (const std::exception&) {
    s->too_big = true;
    return 0;
  }
  return len;
}

size_t OnHeader(char* data, size_t size, size_t n, void* user) try {
  auto* s = static_cast<Sink*>(user);
  // A hostile server can send headers without end: at most kMaxHeaders.
  if (s->headers.size() >= kMaxHeaders) return 0;  // aborts the transfer
  std::string line(data, size * n);
  size_t colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = absl::AsciiStrToLower(line.substr(0, colon));
    std::string value(absl::StripAsciiWhitespace(line.substr(colon + 1)));
    if (line.rfind("HTTP/", 0) != 0) s->headers.push_back({name, value});
  } else if (line.rfind("HTTP/", 0) == 0) {
    s->headers.clear();  // a new response (e.g. after 100 Continue)
  }
  return size * n;
} catch (const std::exception&) {
  return 0;  // nothing may cross libcurl's C frames; aborts the transfer
}

}  // namespace

struct ParsedUrl::Handle {
  CURLU* u = nullptr;
  ~Handle() {
    if (u) curl_url_cleanup(u);
  }
};

ParsedUrl::ParsedUrl() = default;
ParsedUrl::~ParsedUrl() = default;
ParsedUrl::ParsedUrl(ParsedUrl&&) noexcept = default;

absl::StatusOr<ParsedUrl> ParseHttpUrl(std::string_view url) {
  GlobalInit();
  ParsedUrl p;
  p.handle_ = std::make_unique<ParsedUrl::Handle>();
  p.handle_->u = curl_url();
  std::string s(url);
  if (!p.handle_->u || curl_url_set(p.handle_->u, CURLUPART_URL, s.c_str(), 0) != CURLUE_OK)
    return absl::InvalidArgumentError("io: malformed URL");  // never echo userinfo
  char* scheme = nullptr;
  char* host = nullptr;
  char* port = nullptr;
  curl_url_get(p.handle_->u, CURLUPART_SCHEME, &scheme, 0);
  curl_url_get(p.handle_->u, CURLUPART_HOST, &host, 0);
  curl_url_get(p.handle_->u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT);
  std::string sc = scheme ? absl::AsciiStrToLower(scheme) : "";
  p.host = host ? absl::AsciiStrToLower(host) : "";
  p.port = port ? std::atoi(port) : 0;
  curl_free(scheme);
  curl_free(host);
  curl_free(port);
  if (sc != "http" && sc != "https")
    return absl::InvalidArgumentError(absl::StrCat("io: unsupported URL scheme '", sc, "'"));
  if (p.host.empty() || p.port <= 0 || p.port > 65535)
    return absl::InvalidArgumentError("io: malformed URL");
  return p;
}

absl::StatusOr<HttpResponse> HttpRequest(const ParsedUrl& url, bool post, std::string_view body,
                                         int64_t timeout_ms, const std::atomic<bool>* cancel) {
  GlobalInit();
  CURL* c = curl_easy_init();
  if (!c) return absl::InternalError("io: cannot start an HTTP client");
  Sink sink;
  std::string payload(body);
  curl_easy_setopt(c, CURLOPT_CURLU, url.handle_->u);
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);  // a redirect is returned, never followed
  curl_easy_setopt(c, CURLOPT_NOPROXY, "*");        // no proxy from the environment
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout_ms));
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeout_ms));
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &sink);
  if (post) {
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, payload.c_str());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(payload.size()));
  }
  // The multi interface, polled in slices of 5 ms, so that the host's
  // interrupt (`cancel`) ends a request that waits for a slow server at once.
  CURLcode rc = CURLE_OK;
  bool cancelled = false;
  CURLM* m = curl_multi_init();
  if (!m) {
    curl_easy_cleanup(c);
    return absl::InternalError("io: cannot start an HTTP client");
  }
  curl_multi_add_handle(m, c);
  for (;;) {
    int running = 0;
    if (curl_multi_perform(m, &running) != CURLM_OK) {
      rc = CURLE_FAILED_INIT;
      break;
    }
    if (running == 0) {
      int left = 0;
      while (CURLMsg* msg = curl_multi_info_read(m, &left))
        if (msg->msg == CURLMSG_DONE) rc = msg->data.result;
      break;
    }
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      cancelled = true;
      break;
    }
    curl_multi_poll(m, nullptr, 0, 5, nullptr);
  }
  curl_multi_remove_handle(m, c);
  curl_multi_cleanup(m);
  if (cancelled) {
    curl_easy_cleanup(c);
    return absl::CancelledError("cancelled: the run was interrupted");
  }
  long status = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup(c);
  std::string where = absl::StrCat(url.host, ":", url.port);
  if (rc == CURLE_OPERATION_TIMEDOUT)
    return absl::DeadlineExceededError(absl::StrCat("timeout: ", where));
  if (sink.too_big)
    return absl::InternalError(absl::StrCat(
        "io: ", where, ": response too large (over 64 MiB, or more than the run's heap allows)"));
  if (rc != CURLE_OK)
    return absl::InternalError(absl::StrCat("io: ", where, ": ", curl_easy_strerror(rc)));
  HttpResponse r;
  r.status = static_cast<int>(status);
  r.body = std::move(sink.body);
  r.headers = std::move(sink.headers);
  return r;
}

}  // namespace mty::stdlib
