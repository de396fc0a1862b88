// The policy table's values and rules: units, keys, limits, grants, breach
// texts, and what a path, host or name entry admits.
#include "mty/vocab/policy.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"

namespace mty::ir {

// ---- Units -----------------------------------------------------------------

const UnitSuffix* FindUnitSuffix(std::string_view text) {
  for (const UnitSuffix& s : kUnitSuffixes)
    if (text == s.text) return &s;
  return nullptr;
}

bool SuffixFits(Unit want, Unit suffix) {
  switch (want) {
    case Unit::kCount: return suffix == Unit::kCount;
    case Unit::kSize: return suffix == Unit::kSize || suffix == Unit::kCount;
    case Unit::kDuration: return suffix == Unit::kDuration;
  }
  return false;
}

namespace {

std::string SuffixList(Unit unit) {
  std::vector<std::string> names;
  for (const UnitSuffix& s : kUnitSuffixes)
    if (SuffixFits(unit, s.unit)) names.push_back(s.text);
  return absl::StrJoin(names, " ");
}

}  // namespace

absl::StatusOr<uint64_t> ParseQuantity(Unit unit, std::string_view text) {
  size_t i = 0;
  uint64_t v = 0;
  bool digit_last = false;
  while (i < text.size() &&
         (absl::ascii_isdigit(static_cast<unsigned char>(text[i])) || text[i] == '_')) {
    if (text[i] == '_') {
      if (!digit_last) break;  // `_` only between digits
      digit_last = false;
    } else {
      if (v > kMaxQuantity / 10)
        return absl::OutOfRangeError(absl::StrCat("'", std::string(text), "' is out of range"));
      v = v * 10 + static_cast<uint64_t>(text[i] - '0');
      digit_last = true;
    }
    ++i;
  }
  if (i == 0 || !digit_last)
    return absl::InvalidArgumentError(absl::StrCat("malformed quantity '", std::string(text),
                                                   "': expected ", UnitExpectation(unit)));
  std::string_view suffix = text.substr(i);
  uint64_t scale = 1;
  if (suffix.empty()) {
    if (unit == Unit::kDuration)
      return absl::InvalidArgumentError(absl::StrCat(
          "'", std::string(text), "' needs a unit: a duration takes ", SuffixList(unit)));
  } else {
    const UnitSuffix* s = FindUnitSuffix(suffix);
    if (!s || !SuffixFits(unit, s->unit))
      return absl::InvalidArgumentError(absl::StrCat("malformed quantity '", std::string(text),
                                                     "': ", UnitExpectation(unit), " takes ",
                                                     SuffixList(unit)));
    scale = s->scale;
  }
  if (v != 0 && scale > kMaxQuantity / v)
    return absl::OutOfRangeError(absl::StrCat("'", std::string(text), "' is out of range"));
  return v * scale;
}

std::string FormatQuantity(Unit unit, uint64_t value) {
  if (unit == Unit::kCount || value == 0) {
    if (unit == Unit::kDuration) return "0ns";
    if (unit == Unit::kSize) return absl::StrCat(value, "B");
    return absl::StrCat(value);
  }
  // The largest unit of the kind that divides the value exactly; sizes
  // prefer binary units (as the memory estimates are written).
  const char* best = nullptr;
  uint64_t best_scale = 0;
  for (const UnitSuffix& s : kUnitSuffixes) {
    if (s.unit != unit) continue;
    if (unit == Unit::kSize && s.scale % 1024 != 0 && s.scale != 1) continue;  // decimal sizes
    if (value % s.scale == 0 && s.scale > best_scale) {
      best = s.text;
      best_scale = s.scale;
    }
  }
  if (!best) return absl::StrCat(value, unit == Unit::kSize ? "B" : "ns");
  return absl::StrCat(value / best_scale, best);
}

// ---- Keys --------------------------------------------------------------------

std::optional<Key> FindKey(std::string_view key) {
  for (const LimitInfo& l : kLimits)
    if (key == l.key || (l.alias[0] != '\0' && key == l.alias))
      return Key{Key::Kind::kLimit, l.id, GrantId::kFsRead, l.key};
  if (key == kMbPolicyChoice.key)
    return Key{Key::Kind::kMbPolicy, LimitId::kSteps, GrantId::kFsRead, kMbPolicyChoice.key};
  for (const GrantInfo& g : kGrants)
    if (key == g.key) return Key{Key::Kind::kGrant, LimitId::kSteps, g.id, g.key};
  return std::nullopt;
}

std::string KnownKeys() {
  std::vector<std::string> keys;
  for (const LimitInfo& l : kLimits) keys.push_back(l.key);
  keys.push_back(kMbPolicyChoice.key);
  for (const GrantInfo& g : kGrants) keys.push_back(g.key);
  return absl::StrJoin(keys, ", ");
}

const char* MailboxPolicyName(MailboxPolicy p) {
  switch (p) {
    case MailboxPolicy::kBlock: return "block";
    case MailboxPolicy::kDrop: return "drop";
    case MailboxPolicy::kFail: return "fail";
  }
  return "block";
}

std::string ChoiceList(const ChoiceInfo& choice) {
  std::vector<std::string> words = absl::StrSplit(choice.values, '|');
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i > 0) out += i + 1 == words.size() ? " or " : ", ";
    absl::StrAppend(&out, "\"", words[i], "\"");
  }
  return out;
}

std::optional<MailboxPolicy> ParseMailboxPolicy(std::string_view text) {
  for (MailboxPolicy p : {MailboxPolicy::kBlock, MailboxPolicy::kDrop, MailboxPolicy::kFail})
    if (text == MailboxPolicyName(p)) return p;
  return std::nullopt;
}

// ---- Limits ------------------------------------------------------------------

void Limits::Tighten(const Limits& other) {
  for (size_t i = 0; i < kNumLimits; ++i) {
    const std::optional<uint64_t>& o = other.v_[i];
    if (o && (!v_[i] || *o < *v_[i])) v_[i] = o;
  }
  if (other.mb_policy) mb_policy = other.mb_policy;
}

bool Limits::empty() const {
  return !mb_policy && std::none_of(v_.begin(), v_.end(), [](const auto& v) { return v; });
}

absl::Status CheckLimitValue(LimitId id, uint64_t value) {
  const LimitInfo& l = Limit(id);
  if (value < l.min)
    return absl::InvalidArgumentError(absl::StrCat("`", l.key, "` must be at least ",
                                                   FormatQuantity(l.unit, l.min),
                                                   " (leave it out for no limit)"));
  if (value > kMaxQuantity)
    return absl::OutOfRangeError(absl::StrCat("`", l.key, "` is out of range"));
  return absl::OkStatus();
}

absl::StatusOr<uint64_t> ParseLimitValue(LimitId id, std::string_view text) {
  const LimitInfo& l = Limit(id);
  absl::StatusOr<uint64_t> v = ParseQuantity(l.unit, text);
  if (!v.ok())
    return absl::Status(v.status().code(), absl::StrCat("`", l.key, "`: ", v.status().message()));
  if (absl::Status s = CheckLimitValue(id, *v); !s.ok()) return s;
  return *v;
}

std::string BreachText(LimitId id, uint64_t limit, uint64_t used, std::string_view subject) {
  const LimitInfo& l = Limit(id);
  std::string limit_text =
      l.unit == Unit::kDuration ? FormatQuantity(Unit::kDuration, limit) : absl::StrCat(limit);
  return absl::StrReplaceAll(std::string(l.breach), {{"{limit}", limit_text},
                                                     {"{used}", absl::StrCat(used)},
                                                     {"{subject}", std::string(subject)}});
}

Breach Breach::Over(LimitId id, uint64_t observed, uint64_t bound, std::string subject,
                    std::string sandbox) {
  Breach b;
  b.limit = id;
  b.observed = observed;
  b.bound = bound;
  b.subject = std::move(subject);
  b.sandbox = std::move(sandbox);
  return b;
}

Breach Breach::Denied(GrantId id, std::string subject, std::string sandbox) {
  Breach b;
  b.grant = id;
  b.subject = std::move(subject);
  b.sandbox = std::move(sandbox);
  return b;
}

const char* Breach::Key() const { return limit ? Limit(*limit).key : Grant(*grant).key; }

TrapCode Breach::Code() const { return limit ? Limit(*limit).trap : TrapCode::kCapability; }

int Breach::ExitCode() const { return limit ? Limit(*limit).exit_code : Trap(Code()).exit_code; }

std::string Breach::Message() const {
  std::string text = limit ? BreachText(*limit, bound, observed, subject)
                           : absl::StrCat("capability not granted: ", Key(), " ", subject);
  // The real-bytes ceiling of the memory limit (runtime.md §2); under it,
  // the host could not allocate.
  if (limit == LimitId::kMemory && subject == kRealHeapSubject)
    text = observed > bound
               ? absl::StrCat("memory budget exceeded: real heap ", observed, " B > ceiling ",
                              bound, " B")
               : absl::StrCat("memory budget exceeded: real heap ", observed,
                              " B: the host could not allocate it (ceiling ", bound, " B)");
  if (limit == LimitId::kMemory && subject == kReturnedValueSubject)
    text =
        absl::StrCat("memory budget exceeded: the returned value is ", observed,
                     " B (estimated) as a copy, over the ", bound, " B that may cross to the host");
  if (sandbox.empty()) return text;
  return absl::StrCat("sandbox ", sandbox, ": ", text);
}

absl::Status Breach::ToStatus() const {
  return absl::Status(Trap(Code()).status, absl::StrCat(TrapText(Code()), ": ", Message()));
}

// ---- Paths -------------------------------------------------------------------

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

const CapInfo* FindCapFamily(std::string_view family) {
  if (family.empty()) return nullptr;
  for (const CapInfo& c : kCaps)
    if (family == c.family) return &c;
  return nullptr;
}

const CapInfo* FindCapType(std::string_view type) {
  for (const CapInfo& c : kCaps)
    if (type == c.type) return &c;
  return nullptr;
}

std::string CapFamilyList() {
  std::string out;
  for (const CapInfo& c : kCaps) {
    if (*c.family == '\0') continue;
    if (!out.empty()) out += ", ";
    out += c.family;
  }
  return out;
}

bool CapValueServes(std::string_view family, GrantId id) {
  const CapInfo* c = FindCapFamily(family);
  return c && (c->serves & (1u << static_cast<uint32_t>(id))) != 0;
}

bool PathWithin(std::string_view root, std::string_view path) {
  if (root.empty() || path.empty()) return false;
  if (root == "/") return path[0] == '/';
  if (path == root) return true;
  return path.size() > root.size() && path.starts_with(root) && path[root.size()] == '/';
}

namespace {

// Normalised roots of a list; entries that do not normalise are dropped
// (they allow nothing).
std::vector<std::string> NormalizeRoots(const std::vector<std::string>& roots) {
  std::vector<std::string> out;
  for (const std::string& r : roots) {
    std::string norm = NormalizePath(r);
    if (!norm.empty() && std::find(out.begin(), out.end(), norm) == out.end())
      out.push_back(std::move(norm));
  }
  return out;
}

// The roots whose union is the intersection of two normalised root sets:
// every root of one set at or below a root of the other, without those
// another result root covers; sorted.
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

// ---- Hosts -------------------------------------------------------------------

// A parsed net entry or request. Requests are never wildcards.
struct HostPattern {
  enum class Form { kExact, kSuffix, kAny } form = Form::kExact;
  std::string host;  // lower case; for kSuffix the part after `*.`
  std::optional<uint16_t> port;
};

std::optional<uint16_t> ParsePort(std::string_view s) {
  if (s.empty() || s.size() > 5) return std::nullopt;
  unsigned value = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || ptr != s.data() + s.size() || value == 0 || value > 65535)
    return std::nullopt;
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
        c != ':')
      return std::nullopt;
  }
  if (p.form == HostPattern::Form::kSuffix &&
      (host.front() == '.' || host.back() == '.' || host.find(':') != std::string_view::npos))
    return std::nullopt;
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
  if (a.form == Form::kExact && b.form == Form::kExact)
    return a.host == b.host ? std::optional<HostPattern>(a) : std::nullopt;
  if (a.form == Form::kExact)
    return IsSubdomain(a.host, b.host) ? std::optional<HostPattern>(a) : std::nullopt;
  if (b.form == Form::kExact)
    return IsSubdomain(b.host, a.host) ? std::optional<HostPattern>(b) : std::nullopt;
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

// ---- Names -------------------------------------------------------------------

bool NameAllows(std::string_view entry, std::string_view name) {
  return entry == "*" || entry == name;
}

std::vector<std::string> IntersectNames(const std::vector<std::string>& a,
                                        const std::vector<std::string>& b) {
  auto has_all = [](const std::vector<std::string>& l) {
    return std::find(l.begin(), l.end(), "*") != l.end();
  };
  if (has_all(a)) return b;
  if (has_all(b)) return a;
  std::vector<std::string> out;
  for (const std::string& x : a)
    if (std::find(b.begin(), b.end(), x) != b.end() &&
        std::find(out.begin(), out.end(), x) == out.end())
      out.push_back(x);
  return out;
}

}  // namespace

bool HostEntryAllows(std::string_view entry, std::string_view host_port) {
  std::optional<HostPattern> e = ParseHost(entry, /*wildcards=*/true);
  std::optional<HostPattern> req = ParseHost(host_port, /*wildcards=*/false);
  return e && req && Matches(*e, *req);
}

bool ListAllows(GrantId id, const std::vector<std::string>& list, std::string_view request) {
  switch (Grant(id).entry) {
    case EntryKind::kPath: {
      std::string norm = NormalizePath(request);
      if (norm.empty()) return false;
      for (const std::string& r : list) {
        std::string root = NormalizePath(r);
        if (PathWithin(root, norm)) return true;
      }
      return false;
    }
    case EntryKind::kHost:
      for (const std::string& e : list)
        if (HostEntryAllows(e, request)) return true;
      return false;
    case EntryKind::kName:
      for (const std::string& e : list)
        if (NameAllows(e, request)) return true;
      return false;
  }
  return false;
}

absl::Status CheckGrantEntry(GrantId id, std::string_view entry) {
  const GrantInfo& g = Grant(id);
  switch (g.entry) {
    case EntryKind::kPath:
      if (entry.empty() || entry.find('\0') != std::string_view::npos)
        return absl::InvalidArgumentError(
            absl::StrCat("`", g.key,
                         "` entries are file paths; an empty path or a NUL byte is "
                         "not one"));
      return absl::OkStatus();
    case EntryKind::kHost:
      if (!ParseHost(entry, /*wildcards=*/true))
        return absl::InvalidArgumentError(absl::StrCat(
            "`", g.key, "` entry '", std::string(entry),
            "' is not a host pattern (host, host:port, [v6]:port, *.suffix, * or *:port; no "
            "scheme or path)"));
      return absl::OkStatus();
    case EntryKind::kName:
      if (entry.empty() || entry.find_first_of("=\0", 0, 2) != std::string_view::npos)
        return absl::InvalidArgumentError(
            absl::StrCat("`", g.key, "` entry '", std::string(entry),
                         "' is not a variable name (or `*` for every variable)"));
      return absl::OkStatus();
  }
  return absl::OkStatus();
}

// ---- Grants ------------------------------------------------------------------

void Grants::Add(GrantId id, std::string entry) {
  auto& l = lists_[static_cast<size_t>(id)];
  if (!l) l.emplace();
  l->push_back(std::move(entry));
}

const char* EveryEntry(GrantId id) { return Grant(id).entry == EntryKind::kPath ? "/" : "*"; }

Grants Grants::All() {
  Grants g;
  for (const GrantInfo& info : kGrants)
    g.Set(info.id, std::vector<std::string>{EveryEntry(info.id)});
  return g;
}

Grants Grants::Intersect(const Grants& a, const Grants& b) {
  Grants out;
  for (const GrantInfo& info : kGrants) {
    const auto& x = a.Get(info.id);
    const auto& y = b.Get(info.id);
    if (!x || !y) {
      out.Set(info.id, x ? x : y);
      continue;
    }
    switch (info.entry) {
      case EntryKind::kPath:
        out.Set(info.id, IntersectRoots(NormalizeRoots(*x), NormalizeRoots(*y)));
        break;
      case EntryKind::kHost: out.Set(info.id, IntersectHosts(*x, *y)); break;
      case EntryKind::kName: out.Set(info.id, IntersectNames(*x, *y)); break;
    }
  }
  return out;
}

bool Grants::Allows(GrantId id, std::string_view request) const {
  const auto& l = Get(id);
  return !l || ListAllows(id, *l, request);
}

Policy Policy::Intersect(const Policy& a, const Policy& b) {
  Policy out;
  out.limits = a.limits;
  out.limits.Tighten(b.limits);
  out.grants = Grants::Intersect(a.grants, b.grants);
  return out;
}

std::string ProgramTooLargeMessage(size_t bytes) {
  return absl::StrCat("the program is too large: ", bytes, " bytes, over the limit of ",
                      FormatQuantity(Unit::kSize, kMaxProgramBytes));
}

}  // namespace mty::ir
