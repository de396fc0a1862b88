// HTTP/1.1 GET and POST for std.net / std.http through libcurl. URLs are
// parsed once with libcurl's URL API; the same parsed handle is used for
// the capability check and for the request, so they can never disagree.
#include "http.h"

#include <curl/curl.h>
#include <dlfcn.h>

#include <mutex>
#include <type_traits>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace mty::stdlib {

namespace {

constexpr size_t kMaxBody = size_t{64} << 20;  // 64 MiB per response
constexpr size_t kMaxHeaders = 10000;          // header lines per response

// libcurl, loaded at the first use of the network (dlopen): a program that
// never makes a request does not pay for loading libcurl and the ~30
// libraries it needs (TLS, Kerberos, LDAP, ...), which were most of the
// start-up of `mty run hello.mty`. The headers give the types; each entry
// point is looked up once.
struct CurlApi {
  decltype(&curl_global_init) global_init;
  decltype(&curl_url) url;
  decltype(&curl_url_set) url_set;
  decltype(&curl_url_get) url_get;
  decltype(&curl_url_cleanup) url_cleanup;
  decltype(&curl_free) free;
  decltype(&curl_easy_init) easy_init;
  decltype(&curl_easy_setopt) easy_setopt;
  decltype(&curl_easy_getinfo) easy_getinfo;
  decltype(&curl_easy_cleanup) easy_cleanup;
  decltype(&curl_easy_strerror) easy_strerror;
  decltype(&curl_multi_init) multi_init;
  decltype(&curl_multi_add_handle) multi_add_handle;
  decltype(&curl_multi_perform) multi_perform;
  decltype(&curl_multi_info_read) multi_info_read;
  decltype(&curl_multi_poll) multi_poll;
  decltype(&curl_multi_remove_handle) multi_remove_handle;
  decltype(&curl_multi_cleanup) multi_cleanup;
};

// The loaded library, or nullptr with *why set (then no request is made:
// `io: the HTTP client library could not be loaded: ...`).
const CurlApi* Curl(std::string* why) {
  static std::once_flag once;
  static const CurlApi* api = nullptr;
  static std::string error;
  std::call_once(once, [] {
    void* lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char* e = dlerror();
      error = e ? e : "libcurl.so.4 not found";
      return;
    }
    auto* a = new CurlApi();  // lives for the process, as the library does
    bool ok = true;
    auto get = [&](auto& fn, const char* name) {
      void* sym = dlsym(lib, name);
      if (!sym) ok = false;
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(sym);
    };
    get(a->global_init, "curl_global_init");
    get(a->url, "curl_url");
    get(a->url_set, "curl_url_set");
    get(a->url_get, "curl_url_get");
    get(a->url_cleanup, "curl_url_cleanup");
    get(a->free, "curl_free");
    get(a->easy_init, "curl_easy_init");
    get(a->easy_setopt, "curl_easy_setopt");
    get(a->easy_getinfo, "curl_easy_getinfo");
    get(a->easy_cleanup, "curl_easy_cleanup");
    get(a->easy_strerror, "curl_easy_strerror");
    get(a->multi_init, "curl_multi_init");
    get(a->multi_add_handle, "curl_multi_add_handle");
    get(a->multi_perform, "curl_multi_perform");
    get(a->multi_info_read, "curl_multi_info_read");
    get(a->multi_poll, "curl_multi_poll");
    get(a->multi_remove_handle, "curl_multi_remove_handle");
    get(a->multi_cleanup, "curl_multi_cleanup");
    if (!ok) {
      error = "libcurl.so.4 lacks an entry point mty needs (libcurl 7.80 or later)";
      delete a;
      return;
    }
    a->global_init(CURL_GLOBAL_DEFAULT);
    api = a;
  });
  if (!api && why) *why = error;
  return api;
}

absl::Status NoCurl(const std::string& why) {
  return absl::UnavailableError(
      absl::StrCat("io: the HTTP client library could not be loaded: ", why));
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
    if (u) Curl(nullptr)->url_cleanup(u);  // u exists only if libcurl loaded
  }
};

ParsedUrl::ParsedUrl() = default;
ParsedUrl::~ParsedUrl() = default;
ParsedUrl::ParsedUrl(ParsedUrl&&) noexcept = default;

absl::StatusOr<ParsedUrl> ParseHttpUrl(std::string_view url) {
  std::string why;
  const CurlApi* curl = Curl(&why);
  if (!curl) return NoCurl(why);
  ParsedUrl p;
  p.handle_ = std::make_unique<ParsedUrl::Handle>();
  p.handle_->u = curl->url();
  std::string s(url);
  if (!p.handle_->u || curl->url_set(p.handle_->u, CURLUPART_URL, s.c_str(), 0) != CURLUE_OK)
    return absl::InvalidArgumentError("io: malformed URL");  // never echo userinfo
  char* scheme = nullptr;
  char* host = nullptr;
  char* port = nullptr;
  curl->url_get(p.handle_->u, CURLUPART_SCHEME, &scheme, 0);
  curl->url_get(p.handle_->u, CURLUPART_HOST, &host, 0);
  curl->url_get(p.handle_->u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT);
  std::string sc = scheme ? absl::AsciiStrToLower(scheme) : "";
  p.host = host ? absl::AsciiStrToLower(host) : "";
  p.port = port ? std::atoi(port) : 0;
  curl->free(scheme);
  curl->free(host);
  curl->free(port);
  if (sc != "http" && sc != "https")
    return absl::InvalidArgumentError(absl::StrCat("io: unsupported URL scheme '", sc, "'"));
  if (p.host.empty() || p.port <= 0 || p.port > 65535)
    return absl::InvalidArgumentError("io: malformed URL");
  return p;
}

absl::StatusOr<HttpResponse> HttpRequest(const ParsedUrl& url, bool post, std::string_view body,
                                         int64_t timeout_ms, const std::atomic<bool>* cancel) {
  std::string why;
  const CurlApi* curl = Curl(&why);
  if (!curl) return NoCurl(why);
  CURL* c = curl->easy_init();
  if (!c) return absl::InternalError("io: cannot start an HTTP client");
  Sink sink;
  std::string payload(body);
  curl->easy_setopt(c, CURLOPT_CURLU, url.handle_->u);
  curl->easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl->easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);  // a redirect is returned, never followed
  curl->easy_setopt(c, CURLOPT_NOPROXY, "*");        // no proxy from the environment
  curl->easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl->easy_setopt(c, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1);
  curl->easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(timeout_ms));
  curl->easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(timeout_ms));
  curl->easy_setopt(c, CURLOPT_WRITEFUNCTION, OnBody);
  curl->easy_setopt(c, CURLOPT_WRITEDATA, &sink);
  curl->easy_setopt(c, CURLOPT_HEADERFUNCTION, OnHeader);
  curl->easy_setopt(c, CURLOPT_HEADERDATA, &sink);
  if (post) {
    curl->easy_setopt(c, CURLOPT_POST, 1L);
    curl->easy_setopt(c, CURLOPT_POSTFIELDS, payload.c_str());
    curl->easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(payload.size()));
  }
  // The multi interface, polled in slices of 5 ms, so that the host's
  // interrupt (`cancel`) ends a request that waits for a slow server at once.
  CURLcode rc = CURLE_OK;
  bool cancelled = false;
  CURLM* m = curl->multi_init();
  if (!m) {
    curl->easy_cleanup(c);
    return absl::InternalError("io: cannot start an HTTP client");
  }
  curl->multi_add_handle(m, c);
  for (;;) {
    int running = 0;
    if (curl->multi_perform(m, &running) != CURLM_OK) {
      rc = CURLE_FAILED_INIT;
      break;
    }
    if (running == 0) {
      int left = 0;
      while (CURLMsg* msg = curl->multi_info_read(m, &left))
        if (msg->msg == CURLMSG_DONE) rc = msg->data.result;
      break;
    }
    if (cancel && cancel->load(std::memory_order_relaxed)) {
      cancelled = true;
      break;
    }
    curl->multi_poll(m, nullptr, 0, 5, nullptr);
  }
  curl->multi_remove_handle(m, c);
  curl->multi_cleanup(m);
  if (cancelled) {
    curl->easy_cleanup(c);
    return absl::CancelledError("cancelled: the run was interrupted");
  }
  long status = 0;
  curl->easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  curl->easy_cleanup(c);
  std::string where = absl::StrCat(url.host, ":", url.port);
  if (rc == CURLE_OPERATION_TIMEDOUT)
    return absl::DeadlineExceededError(absl::StrCat("timeout: ", where));
  if (sink.too_big)
    return absl::InternalError(absl::StrCat(
        "io: ", where, ": response too large (over 64 MiB, or more than the run's heap allows)"));
  if (rc != CURLE_OK)
    return absl::InternalError(absl::StrCat("io: ", where, ": ", curl->easy_strerror(rc)));
  HttpResponse r;
  r.status = static_cast<int>(status);
  r.body = std::move(sink.body);
  r.headers = std::move(sink.headers);
  return r;
}

}  // namespace mty::stdlib
