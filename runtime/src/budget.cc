// Budget trackers: counters, limits and allow-lists along a tracker chain.
#include "mty/runtime/budget.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <limits>
#include <system_error>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "mty/ir/text.h"

namespace mty::runtime {
namespace {

constexpr std::memory_order kRelaxed = std::memory_order_relaxed;

int64_t SteadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Adds without wrapping: counters stick at the maximum instead.
uint64_t AddSaturating(std::atomic<uint64_t>& counter, uint64_t n) {
  uint64_t cur = counter.load(kRelaxed);
  uint64_t next;
  do {
    next = cur > std::numeric_limits<uint64_t>::max() - n ? std::numeric_limits<uint64_t>::max()
                                                          : cur + n;
  } while (!counter.compare_exchange_weak(cur, next, kRelaxed));
  return next;
}

int64_t AddSaturating(std::atomic<int64_t>& counter, int64_t n) {
  int64_t cur = counter.load(kRelaxed);
  int64_t next;
  do {
    next = cur > std::numeric_limits<int64_t>::max() - n ? std::numeric_limits<int64_t>::max()
                                                         : cur + n;
  } while (!counter.compare_exchange_weak(cur, next, kRelaxed));
  return next;
}

int64_t AddSaturating(int64_t a, int64_t b) {
  if (b > 0 && a > std::numeric_limits<int64_t>::max() - b) {
    return std::numeric_limits<int64_t>::max();
  }
  if (b < 0 && a < std::numeric_limits<int64_t>::min() - b) {
    return std::numeric_limits<int64_t>::min();
  }
  return a + b;
}

// A signed duration as a breach field (negative values become 0).
uint64_t AsField(int64_t v) { return v < 0 ? 0 : static_cast<uint64_t>(v); }

Breach MakeBreach(Breach::Kind kind, uint64_t observed, uint64_t limit, std::string subject,
                  const std::string& sandbox) {
  Breach b;
  b.kind = kind;
  b.observed = observed;
  b.limit = limit;
  b.subject = std::move(subject);
  b.sandbox = sandbox;
  return b;
}

template <typename T>
std::optional<T> MinOpt(const std::optional<T>& a, const std::optional<T>& b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

// ---- Paths ----------------------------------------------------------------

// Normalised roots of an allow-list; an entry that does not normalise (the
// empty string) is dropped, since it allows nothing.
std::vector<std::string> NormalizeRoots(const std::vector<std::string>& roots) {
  std::vector<std::string> out;
  for (const std::string& r : roots) {
    std::string norm = NormalizePath(r);
    if (!norm.empty() && std::find(out.begin(), out.end(), norm) == out.end()) {
      out.push_back(std::move(norm));
    }
  }
  return out;
}

// The roots whose union is the intersection of the two (normalised) root
// sets: every root of one set that lies at or below a root of the other.
// Roots covered by another result root are dropped; the result is sorted.
std::vector<std::string> IntersectRoots(const std::vector<std::string>& a,
                                        const std::vector<std::string>& b) {
  std::vector<std::string> kept;
  auto keep_covered = [&kept](const std::vector<std::string>& from,
                              const std::vector<std::string>& by) {
    for (const std::string& r : from) {
      bool covered = std::any_of(by.begin(), by.end(),
                                 [&r](const std::string& s) { return PathWithin(s, r); });
      if (covered && std::find(kept.begin(), kept.end(), r) == kept.end()) kept.push_back(r);
    }
  };
  keep_covered(a, b);
  keep_covered(b, a);
  std::vector<std::string> out;
  for (const std::string& r : kept) {
    bool redundant = std::any_of(kept.begin(), kept.end(),
                                 [&r](const std::string& s) { return s != r && PathWithin(s, r); });
    if (!redundant) out.push_back(r);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool RootsAllow(const std::vector<std::string>& roots, const std::string& norm) {
  if (norm.empty()) return false;
  return std::any_of(roots.begin(), roots.end(),
                     [&norm](const std::string& r) { return PathWithin(r, norm); });
}

// ---- Hosts ----------------------------------------------------------------

// A parsed net allow-list entry or request. Requests are never wildcards.
struct HostPattern {
  enum class Form { kExact, kSuffix, kAny } form = Form::kExact;
  std::string host;  // lower case; for kSuffix the part after `*.`
  std::optional<uint16_t> port;
};

std::optional<uint16_t> ParsePort(std::string_view s) {
  if (s.empty() || s.size() > 5) return std::nullopt;
  unsigned value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size() || value == 0 || value > 65535) {
    return std::nullopt;
  }
  return static_cast<uint16_t>(value);
}

// `host`, `host:port`, `[v6]`, `[v6]:port`, a bare IPv6 address, and with
// `wildcards` also `*`, `*:port`, `*.suffix`, `*.suffix:port`.
std::optional<HostPattern> ParseHost(std::string_view s, bool wildcards) {
  HostPattern p;
  std::string_view host;
  if (!s.empty() && s[0] == '[') {
    size_t close = s.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    host = s.substr(1, close - 1);
    std::string_view rest = s.substr(close + 1);
    if (!rest.empty()) {
      if (rest[0] != ':') return std::nullopt;
      p.port = ParsePort(rest.substr(1));
      if (!p.port) return std::nullopt;
    }
    if (host.find(':') == std::string_view::npos) return std::nullopt;
  } else {
    size_t colon = s.find(':');
    if (colon != std::string_view::npos && s.find(':', colon + 1) == std::string_view::npos) {
      host = s.substr(0, colon);
      p.port = ParsePort(s.substr(colon + 1));
      if (!p.port) return std::nullopt;
    } else {
      host = s;  // no port, or a bare IPv6 address
    }
  }
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);  // FQDN form
  if (host.empty()) return std::nullopt;
  if (wildcards && host == "*") {
    p.form = HostPattern::Form::kAny;
    return p;
  }
  if (wildcards && host.starts_with("*.") && host.size() > 2) {
    p.form = HostPattern::Form::kSuffix;
    host.remove_prefix(2);
  }
  // Letters, digits, `-`, `_`, `.`, and `:` for IPv6; anything else (`*`,
  // `@`, `/`, `#`, `%`, spaces, non-ASCII) is a malformed entry or request.
  for (char c : host) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.' &&
        c != ':') {
      return std::nullopt;
    }
  }
  if (p.form == HostPattern::Form::kSuffix &&
      (host.front() == '.' || host.back() == '.' || host.find(':') != std::string_view::npos)) {
    return std::nullopt;
  }
  p.host.reserve(host.size());
  for (char c : host) p.host += absl::ascii_tolower(static_cast<unsigned char>(c));
  return p;
}

// `host` is a proper subdomain of `suffix` (label-aligned).
bool IsSubdomain(std::string_view host, std::string_view suffix) {
  return host.size() > suffix.size() + 1 && host.ends_with(suffix) &&
         host[host.size() - suffix.size() - 1] == '.';
}

bool Matches(const HostPattern& entry, const HostPattern& req) {
  if (entry.port && req.port != entry.port) return false;
  switch (entry.form) {
    case HostPattern::Form::kAny: return true;
    case HostPattern::Form::kSuffix: return IsSubdomain(req.host, entry.host);
    case HostPattern::Form::kExact: return req.host == entry.host;
  }
  return false;
}

// The host part admitting exactly what both admit, or nullopt when disjoint.
std::optional<HostPattern> MeetHost(const HostPattern& a, const HostPattern& b) {
  using Form = HostPattern::Form;
  if (a.form == Form::kAny) return b;
  if (b.form == Form::kAny) return a;
  if (a.form == Form::kExact && b.form == Form::kExact) {
    return a.host == b.host ? std::optional<HostPattern>(a) : std::nullopt;
  }
  if (a.form == Form::kExact) {
    return IsSubdomain(a.host, b.host) ? std::optional<HostPattern>(a) : std::nullopt;
  }
  if (b.form == Form::kExact) {
    return IsSubdomain(b.host, a.host) ? std::optional<HostPattern>(b) : std::nullopt;
  }
  // Two suffixes: the longer one, when it lies within the shorter one.
  if (a.host == b.host || IsSubdomain(a.host, b.host)) return a;
  if (IsSubdomain(b.host, a.host)) return b;
  return std::nullopt;
}

// The entry admitting exactly the requests both entries admit.
std::optional<HostPattern> Meet(const HostPattern& a, const HostPattern& b) {
  if (a.port && b.port && *a.port != *b.port) return std::nullopt;
  std::optional<HostPattern> m = MeetHost(a, b);
  if (!m) return std::nullopt;
  m->port = a.port ? a.port : b.port;
  return m;
}

std::string FormatHost(const HostPattern& p) {
  std::string_view open;
  std::string_view close;
  switch (p.form) {
    case HostPattern::Form::kAny: open = "*"; break;
    case HostPattern::Form::kSuffix: open = "*."; break;
    case HostPattern::Form::kExact:
      if (p.host.find(':') != std::string::npos) {
        open = "[";
        close = "]";
      }
      break;
  }
  std::string out(open);
  if (p.form != HostPattern::Form::kAny) out += p.host;
  out += close;
  if (p.port) absl::StrAppend(&out, ":", *p.port);
  return out;
}

bool HostListAllows(const std::vector<std::string>& entries, std::string_view host_port) {
  std::optional<HostPattern> req = ParseHost(host_port, /*wildcards=*/false);
  if (!req) return false;
  for (const std::string& e : entries) {
    std::optional<HostPattern> entry = ParseHost(e, /*wildcards=*/true);
    if (entry && Matches(*entry, *req)) return true;
  }
  return false;
}

std::vector<std::string> IntersectHosts(const std::vector<std::string>& a,
                                        const std::vector<std::string>& b) {
  std::vector<HostPattern> meets;
  std::vector<std::string> texts;
  for (const std::string& x : a) {
    std::optional<HostPattern> px = ParseHost(x, /*wildcards=*/true);
    if (!px) continue;
    for (const std::string& y : b) {
      std::optional<HostPattern> py = ParseHost(y, /*wildcards=*/true);
      if (!py) continue;
      std::optional<HostPattern> m = Meet(*px, *py);
      if (!m) continue;
      std::string text = FormatHost(*m);
      if (std::find(texts.begin(), texts.end(), text) != texts.end()) continue;
      meets.push_back(std::move(*m));
      texts.push_back(std::move(text));
    }
  }
  // Drop entries another result entry already admits.
  std::vector<std::string> out;
  for (size_t i = 0; i < meets.size(); ++i) {
    bool redundant = false;
    for (size_t j = 0; j < meets.size() && !redundant; ++j) {
      if (i == j) continue;
      std::optional<HostPattern> m = Meet(meets[i], meets[j]);
      redundant = m && FormatHost(*m) == texts[i];  // meets[j] admits all of meets[i]
    }
    if (!redundant) out.push_back(texts[i]);
  }
  return out;
}

std::vector<std::string> IntersectNames(const std::vector<std::string>& a,
                                        const std::vector<std::string>& b) {
  std::vector<std::string> out;
  for (const std::string& x : a) {
    if (std::find(b.begin(), b.end(), x) != b.end() &&
        std::find(out.begin(), out.end(), x) == out.end()) {
      out.push_back(x);
    }
  }
  return out;
}

using ListIntersect = std::vector<std::string> (*)(const std::vector<std::string>&,
                                                   const std::vector<std::string>&);

std::optional<std::vector<std::string>> IntersectLists(
    const std::optional<std::vector<std::string>>& a,
    const std::optional<std::vector<std::string>>& b, ListIntersect meet) {
  if (!a) return b;
  if (!b) return a;
  return meet(*a, *b);
}

std::vector<std::string> IntersectPathLists(const std::vector<std::string>& a,
                                            const std::vector<std::string>& b) {
  return IntersectRoots(NormalizeRoots(a), NormalizeRoots(b));
}

}  // namespace

// ---- Breach ---------------------------------------------------------------

std::string_view BreachKindName(Breach::Kind kind) {
  switch (kind) {
    case Breach::Kind::kSteps: return "steps";
    case Breach::Kind::kMemory: return "memory";
    case Breach::Kind::kWall: return "wall";
    case Breach::Kind::kCpu: return "cpu";
    case Breach::Kind::kSpawned: return "spawned";
    case Breach::Kind::kMailbox: return "mailbox";
    case Breach::Kind::kDepth: return "depth";
    case Breach::Kind::kHost: return "host";
    case Breach::Kind::kPath: return "path";
    case Breach::Kind::kEnv: return "env";
  }
  return "unknown";
}

std::string Breach::Code() const {
  switch (kind) {
    case Kind::kMailbox: return "MT5012";
    case Kind::kDepth: return "MT5018";
    case Kind::kHost:
    case Kind::kPath:
    case Kind::kEnv: return "MT5015";
    case Kind::kSteps:
    case Kind::kMemory:
    case Kind::kWall:
    case Kind::kCpu:
    case Kind::kSpawned: return "MT5009";
  }
  return "MT5009";
}

int Breach::ExitCode() const {
  switch (kind) {
    case Kind::kSteps: return 3;
    case Kind::kMemory: return 4;
    case Kind::kWall: return 5;
    case Kind::kCpu: return 6;
    case Kind::kSpawned:
    case Kind::kMailbox: return 7;
    case Kind::kDepth:
    case Kind::kHost:
    case Kind::kPath:
    case Kind::kEnv: return 1;
  }
  return 1;
}

std::string Breach::Message() const {
  std::string text;
  switch (kind) {
    case Kind::kSteps: text = absl::StrCat("step budget exceeded: ", limit, " steps"); break;
    case Kind::kMemory:
      text = absl::StrCat("memory budget exceeded: used ", observed, " B > limit ", limit, " B");
      break;
    case Kind::kWall:
      text = absl::StrCat("wall-clock budget exceeded: ",
                          mty::ir::FormatDuration(static_cast<int64_t>(limit)));
      break;
    case Kind::kCpu:
      text = absl::StrCat("cpu budget exceeded: ",
                          mty::ir::FormatDuration(static_cast<int64_t>(limit)));
      break;
    case Kind::kSpawned: text = absl::StrCat("spawn budget exceeded: ", limit, " agents"); break;
    case Kind::kMailbox: text = absl::StrCat("mailbox full: ", subject); break;
    case Kind::kDepth: text = absl::StrCat("call depth exceeded: ", limit, " frames"); break;
    case Kind::kHost: text = absl::StrCat("capability outside sandbox: net ", subject); break;
    case Kind::kPath: text = absl::StrCat("capability outside sandbox: fs ", subject); break;
    case Kind::kEnv: text = absl::StrCat("capability outside sandbox: env ", subject); break;
  }
  if (sandbox.empty()) return text;
  return absl::StrCat("sandbox ", sandbox, ": ", text);
}

absl::Status Breach::ToStatus() const {
  std::string message = absl::StrCat(Code(), ": ", Message());
  switch (kind) {
    case Kind::kHost:
    case Kind::kPath:
    case Kind::kEnv: return absl::PermissionDeniedError(message);
    default: return absl::ResourceExhaustedError(message);
  }
}

// ---- Paths and hosts ------------------------------------------------------

std::string NormalizePath(std::string_view path) {
  if (path.empty() || path.find('\0') != std::string_view::npos) return "";
  std::string abs;
  if (path[0] == '/') {
    abs = std::string(path);
  } else {
    std::error_code ec;
    std::filesystem::path cwd = std::filesystem::current_path(ec);
    if (ec || cwd.empty()) return "";
    abs = cwd.string();
    abs += '/';
    abs += path;
  }
  std::vector<std::string_view> parts;
  std::string_view rest = abs;
  while (!rest.empty()) {
    size_t slash = rest.find('/');
    std::string_view part = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  if (parts.empty()) return "/";
  std::string out;
  for (std::string_view part : parts) {
    out += '/';
    out += part;
  }
  return out;
}

bool PathWithin(std::string_view root, std::string_view path) {
  if (root.empty() || path.empty()) return false;
  if (root == "/") return path[0] == '/';
  if (path == root) return true;
  return path.size() > root.size() && path.starts_with(root) && path[root.size()] == '/';
}

bool HostEntryAllows(std::string_view entry, std::string_view host_port) {
  std::optional<HostPattern> e = ParseHost(entry, /*wildcards=*/true);
  std::optional<HostPattern> req = ParseHost(host_port, /*wildcards=*/false);
  return e && req && Matches(*e, *req);
}

// ---- BudgetTracker --------------------------------------------------------

BudgetTracker::BudgetTracker(Budget budget, std::string name, BudgetTracker* parent)
    : budget_(std::move(budget)),
      name_(std::move(name)),
      parent_(parent),
      start_ns_(SteadyNowNs()) {
  if (budget_.fs_read) read_roots_ = NormalizeRoots(*budget_.fs_read);
  if (budget_.fs_write) write_roots_ = NormalizeRoots(*budget_.fs_write);
}

Budget BudgetTracker::Intersect(const Budget& parent, const Budget& child) {
  Budget out;
  out.steps = MinOpt(parent.steps, child.steps);
  out.memory = MinOpt(parent.memory, child.memory);
  out.wall_ns = MinOpt(parent.wall_ns, child.wall_ns);
  out.cpu_ns = MinOpt(parent.cpu_ns, child.cpu_ns);
  out.spawned = MinOpt(parent.spawned, child.spawned);
  out.mailbox = MinOpt(parent.mailbox, child.mailbox);
  out.mb_policy = child.mb_policy != MailboxPolicy::kBlock ? child.mb_policy : parent.mb_policy;
  out.depth = MinOpt(parent.depth, child.depth);
  out.fs_read = IntersectLists(parent.fs_read, child.fs_read, &IntersectPathLists);
  out.fs_write = IntersectLists(parent.fs_write, child.fs_write, &IntersectPathLists);
  out.net = IntersectLists(parent.net, child.net, &IntersectHosts);
  out.env = IntersectLists(parent.env, child.env, &IntersectNames);
  return out;
}

std::optional<Breach> BudgetTracker::ChargeSteps(uint64_t n) {
  std::optional<Breach> breach;
  for (BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    uint64_t used = AddSaturating(t->steps_, n);
    if (!breach && t->budget_.steps && used > *t->budget_.steps) {
      breach = MakeBreach(Breach::Kind::kSteps, used, *t->budget_.steps, "", t->name_);
    }
  }
  return breach;
}

std::optional<Breach> BudgetTracker::ChargeMemory(uint64_t bytes) {
  std::optional<Breach> breach;
  for (BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    uint64_t used = AddSaturating(t->memory_, bytes);
    if (!breach && t->budget_.memory && used > *t->budget_.memory) {
      breach = MakeBreach(Breach::Kind::kMemory, used, *t->budget_.memory, "", t->name_);
    }
  }
  return breach;
}

std::optional<Breach> BudgetTracker::RecordCpu(int64_t ns) {
  if (ns < 0) ns = 0;
  std::optional<Breach> breach;
  for (BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    int64_t used = AddSaturating(t->cpu_ns_, ns);
    if (!breach && t->budget_.cpu_ns && used > *t->budget_.cpu_ns) {
      breach =
          MakeBreach(Breach::Kind::kCpu, AsField(used), AsField(*t->budget_.cpu_ns), "", t->name_);
    }
  }
  return breach;
}

std::optional<Breach> BudgetTracker::RecordSpawn() {
  std::optional<Breach> breach;
  for (BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    uint64_t n = AddSaturating(t->spawned_, 1);
    if (!breach && t->budget_.spawned && n > *t->budget_.spawned) {
      breach = MakeBreach(Breach::Kind::kSpawned, n, *t->budget_.spawned, "", t->name_);
    }
  }
  return breach;
}

std::optional<Breach> BudgetTracker::CheckMailboxDepth(uint64_t depth,
                                                       std::string_view agent) const {
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    if (t->budget_.mailbox && depth > *t->budget_.mailbox) {
      return MakeBreach(Breach::Kind::kMailbox, depth, *t->budget_.mailbox, std::string(agent),
                        t->name_);
    }
  }
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::CheckDepth(uint32_t depth) const {
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    if (t->budget_.depth && depth > *t->budget_.depth) {
      return MakeBreach(Breach::Kind::kDepth, depth, *t->budget_.depth, "", t->name_);
    }
  }
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::CheckCpu() const {
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    int64_t used = t->cpu_used_ns();
    if (t->budget_.cpu_ns && used > *t->budget_.cpu_ns) {
      return MakeBreach(Breach::Kind::kCpu, AsField(used), AsField(*t->budget_.cpu_ns), "",
                        t->name_);
    }
  }
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::CheckWall() const {
  int64_t now = SteadyNowNs();
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    int64_t elapsed = now - t->start_ns_;
    if (t->budget_.wall_ns && elapsed > *t->budget_.wall_ns) {
      return MakeBreach(Breach::Kind::kWall, AsField(elapsed), AsField(*t->budget_.wall_ns), "",
                        t->name_);
    }
  }
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::CheckMemory() const {
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    uint64_t used = t->memory_used();
    if (t->budget_.memory && used > *t->budget_.memory) {
      return MakeBreach(Breach::Kind::kMemory, used, *t->budget_.memory, "", t->name_);
    }
  }
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::CheckSteps() const {
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    uint64_t used = t->steps_used();
    if (t->budget_.steps && used > *t->budget_.steps) {
      return MakeBreach(Breach::Kind::kSteps, used, *t->budget_.steps, "", t->name_);
    }
  }
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::Check() const {
  if (std::optional<Breach> b = CheckCpu()) return b;
  if (std::optional<Breach> b = CheckWall()) return b;
  if (std::optional<Breach> b = CheckMemory()) return b;
  return CheckSteps();
}

std::optional<Breach> BudgetTracker::CheckHost(std::string_view host_port) const {
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    if (t->budget_.net && !HostListAllows(*t->budget_.net, host_port)) {
      return MakeBreach(Breach::Kind::kHost, 0, 0, std::string(host_port), t->name_);
    }
  }
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::CheckReadPath(std::string_view path) const {
  std::string norm = NormalizePath(path);
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    if (t->read_roots_ && !RootsAllow(*t->read_roots_, norm)) {
      return MakeBreach(Breach::Kind::kPath, 0, 0, std::string(path), t->name_);
    }
  }
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::CheckWritePath(std::string_view path) const {
  std::string norm = NormalizePath(path);
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    if (t->write_roots_ && !RootsAllow(*t->write_roots_, norm)) {
      return MakeBreach(Breach::Kind::kPath, 0, 0, std::string(path), t->name_);
    }
  }
  return std::nullopt;
}

std::optional<Breach> BudgetTracker::CheckEnv(std::string_view name) const {
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    if (t->budget_.env &&
        std::find(t->budget_.env->begin(), t->budget_.env->end(), name) == t->budget_.env->end()) {
      return MakeBreach(Breach::Kind::kEnv, 0, 0, std::string(name), t->name_);
    }
  }
  return std::nullopt;
}

std::optional<uint64_t> BudgetTracker::RemainingSteps() const {
  std::optional<uint64_t> out;
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    if (!t->budget_.steps) continue;
    uint64_t used = t->steps_used();
    out = MinOpt(out,
                 std::optional<uint64_t>(used >= *t->budget_.steps ? 0 : *t->budget_.steps - used));
  }
  return out;
}

std::optional<uint64_t> BudgetTracker::RemainingMemory() const {
  std::optional<uint64_t> out;
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    if (!t->budget_.memory) continue;
    uint64_t used = t->memory_used();
    out = MinOpt(
        out, std::optional<uint64_t>(used >= *t->budget_.memory ? 0 : *t->budget_.memory - used));
  }
  return out;
}

std::optional<int64_t> BudgetTracker::WallDeadlineNs() const {
  std::optional<int64_t> out;
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    if (t->budget_.wall_ns) {
      out = MinOpt(out, std::optional<int64_t>(AddSaturating(t->start_ns_, *t->budget_.wall_ns)));
    }
  }
  return out;
}

std::optional<uint32_t> BudgetTracker::EffectiveDepth() const {
  std::optional<uint32_t> out;
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    out = MinOpt(out, t->budget_.depth);
  }
  return out;
}

std::optional<uint64_t> BudgetTracker::EffectiveMailbox() const {
  std::optional<uint64_t> out;
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    out = MinOpt(out, t->budget_.mailbox);
  }
  return out;
}

MailboxPolicy BudgetTracker::EffectivePolicy() const { return budget_.mb_policy; }

std::optional<std::vector<std::string>> BudgetTracker::EffectiveReadPaths() const {
  std::optional<std::vector<std::string>> out;
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    if (t->read_roots_) out = out ? IntersectRoots(*out, *t->read_roots_) : *t->read_roots_;
  }
  return out;
}

std::optional<std::vector<std::string>> BudgetTracker::EffectiveWritePaths() const {
  std::optional<std::vector<std::string>> out;
  for (const BudgetTracker* t = this; t != nullptr; t = t->parent_) {
    if (t->write_roots_) out = out ? IntersectRoots(*out, *t->write_roots_) : *t->write_roots_;
  }
  return out;
}

}  // namespace mty::runtime
