// Internal: the HTTP client behind std.net / std.http (libcurl).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace mty::stdlib {

struct HttpResponse {
  int status = 0;
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;  // lower-case names
};

// A URL parsed by libcurl: the host (lower case, IPv6 in brackets) and port
// (defaults 80/443) that the capability check sees are exactly what the
// request connects to.
class ParsedUrl {
 public:
  ParsedUrl();
  ~ParsedUrl();
  ParsedUrl(ParsedUrl&&) noexcept;
  std::string host;
  int port = 0;
  struct Handle;
  std::unique_ptr<Handle> handle_;
};

absl::StatusOr<ParsedUrl> ParseHttpUrl(std::string_view url);

// Performs the request without following redirects. Errors carry the
// program-visible message: `timeout: host:port` (kDeadlineExceeded) or
// `io: ...`; kCancelled as soon as `*cancel` is set (looked at every 5 ms).
absl::StatusOr<HttpResponse> HttpRequest(const ParsedUrl& url, bool post, std::string_view body,
                                         int64_t timeout_ms,
                                         const std::atomic<bool>* cancel = nullptr);

}  // namespace mty::stdlib
