// StdHost: dispatch of std.fs / std.time / std.env / std.net effect calls
// with capability checks, producing Result values (language.md §6).
#include "mty/stdlib/host.h"

#include <chrono>
#include <cstdlib>
#include <thread>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "http.h"
#include "mty/interp/bytecode.h"

namespace mty::stdlib {

using interp::AdtObj;
using interp::ArrayObj;
using interp::Tag;
using interp::Value;

namespace {

Value Adt(uint32_t adt, uint32_t variant, std::vector<Value> fields) {
  auto* o = new AdtObj();
  o->adt = adt;
  o->variant = variant;
  o->est = 24;
  for (const Value& f : fields) o->est += interp::Estimate(f);
  o->fields = std::move(fields);
  return Value::Heap(o);
}
Value Ok(Value v) { return Adt(interp::kAdtResult, 0, {std::move(v)}); }
Value Err(std::string msg) { return Adt(interp::kAdtResult, 1, {interp::MakeStr(std::move(msg))}); }
Value Some(Value v) { return Adt(interp::kAdtOption, 0, {std::move(v)}); }
Value None() { return Adt(interp::kAdtOption, 1, {}); }

Value StrArray(const std::vector<std::string>& items) {
  auto* a = new ArrayObj(Tag::kArray);
  a->est = 24;
  for (const std::string& s : items) {
    a->items.push_back(interp::MakeStr(s));
    a->est += 24 + s.size();
  }
  return Value::Heap(a);
}

bool IsStr(const Value& v) { return v.Is(Tag::kStr); }

// The chain's wall-clock deadline, at which blocking calls give up.
std::chrono::steady_clock::time_point Deadline(const interp::Meter& scope) {
  std::optional<int64_t> ns = scope.WallDeadline();
  if (!ns) return std::chrono::steady_clock::time_point::max();
  return std::chrono::steady_clock::time_point(std::chrono::nanoseconds(*ns));
}
const std::string& StrOf(const Value& v) { return static_cast<interp::StrObj*>(v.h())->s; }

}  // namespace

absl::StatusOr<std::string> UrlHostPort(std::string_view url) {
  auto parsed = ParseHttpUrl(url);
  if (!parsed.ok()) return parsed.status();
  return absl::StrCat(parsed->host, ":", parsed->port);
}

StdHost::StdHost(interp::Host* out, HostOptions options)
    : out_(out), options_(std::move(options)) {}

FsCap StdHost::CapFor(const interp::Meter& scope, ir::GrantId family) {
  const interp::Meter* root = &scope;
  while (root->parent()) root = root->parent();
  std::optional<std::vector<std::string>> roots = scope.EffectiveList(family);
  // The run carries a cap: the chain's (intersected) roots. Otherwise the
  // process-wide default cap, one snapshot per call, narrowed by any
  // sandbox's list.
  if (root->policy().grants.Get(family))
    return FsCap::Rooted(roots.value_or(std::vector<std::string>{}));
  FsCap base = family == ir::GrantId::kFsRead ? CurrentDefaultReadCap() : CurrentDefaultWriteCap();
  return roots ? base.Intersect(FsCap::Rooted(*roots)) : base;
}

std::optional<Value> StdHost::InvokeEffect(std::string_view path, std::vector<Value>& args,
                                           interp::Meter& scope, interp::HostError* err) {
  // An explicit capability argument comes first and can only narrow.
  const interp::CapObj* explicit_cap = nullptr;
  if (!args.empty() && args[0].Is(Tag::kCap)) {
    explicit_cap = static_cast<const interp::CapObj*>(args[0].h());
    args.erase(args.begin());
  }
  auto denied = [&](std::string what, std::string family) -> std::optional<Value> {
    ++denials_;
    std::string text = absl::StrCat("forbidden: ", what);
    if (options_.trace)
      options_.trace(absl::StrCat(ir::TrapText(TrapCode::kCapability), " denied ",
                                  std::string(path), " ", what, " (", family, ")"));
    if (options_.deny_is_trap) {
      err->code = TrapCode::kCapability;
      err->message = absl::StrCat("capability outside sandbox: ", std::string(path), ": ", text);
      return std::nullopt;
    }
    return Err(text);
  };
  auto bad_args = [&](const char* want) -> std::optional<Value> {
    err->code = TrapCode::kType;
    err->message = absl::StrCat(std::string(path), " expects ", want);
    return std::nullopt;
  };
  auto from_status = [&](const absl::Status& s, const std::string& p,
                         const char* family) -> std::optional<Value> {
    if (s.code() == absl::StatusCode::kPermissionDenied) return denied(p, family);
    return Err(std::string(s.message()));
  };

  // ---- std.fs ----
  if (path.starts_with("std.fs.")) {
    std::string_view op = path.substr(7);
    if (args.empty() || !IsStr(args[0])) return bad_args("a path (Str)");
    const std::string p = StrOf(args[0]);
    bool writes = op == "write" || op == "write_file" || op == "append" || op == "create_dir_all" ||
                  op == "remove_file" || op == "remove_dir_all";
    const ir::GrantId fam_id = writes ? ir::GrantId::kFsWrite : ir::GrantId::kFsRead;
    const char* family = ir::Grant(fam_id).key;
    // The decision is the chain's (every tracker's list must admit the
    // path); the cap then opens beneath a granted root, so no symlink can
    // lead outside it.
    if (scope.CheckGrant(fam_id, p)) return denied(p, family);
    FsCap cap = CapFor(scope, fam_id);
    if (explicit_cap) {
      const std::string& fam = explicit_cap->family;
      bool family_ok =
          fam == "fs" || (writes ? fam == "fs.write" : fam == "fs.read" || fam == "fs.write");
      if (!family_ok) return denied(p, family);
      if (!explicit_cap->constraint.empty()) cap = cap.Narrow(explicit_cap->constraint);
    }
    if (op == "read" || op == "read_to_string" || op == "read_file" || op == "read_bytes") {
      auto r = cap.ReadFile(p);
      if (!r.ok()) return from_status(r.status(), p, family);
      if (op != "read_bytes") return Ok(interp::MakeStr(std::move(*r)));
      auto* a = new ArrayObj(Tag::kArray);
      Value v = Value::Heap(a);
      for (unsigned char c : *r) a->items.push_back(Value::Int(c));
      a->est = 24 + 16 * r->size();
      return Ok(std::move(v));
    }
    if (op == "write" || op == "write_file" || op == "append") {
      if (args.size() != 2 || !IsStr(args[1])) return bad_args("a path and data (Str)");
      // The output limit: checked before the write, which does not happen
      // when it would pass the limit.
      if (!cap.Check(p)) return denied(p, family);
      if (std::optional<ir::Breach> b = scope.ChargeOutput(StrOf(args[1]).size())) {
        err->breach = std::move(b);
        return std::nullopt;
      }
      absl::Status s = cap.WriteFile(p, StrOf(args[1]), op == "append");
      if (!s.ok()) return from_status(s, p, family);
      return Ok(Value::Unit());
    }
    if (op == "exists") {
      auto r = cap.Exists(p);
      if (!r.ok()) return from_status(r.status(), p, family);
      return Ok(Value::Bool(*r));
    }
    if (op == "list_dir" || op == "read_dir") {
      auto r = cap.ListDir(p);
      if (!r.ok()) return from_status(r.status(), p, family);
      return Ok(StrArray(*r));
    }
    if (op == "metadata" || op == "stat") {
      auto r = cap.Metadata(p);
      if (!r.ok()) return from_status(r.status(), p, family);
      return Ok(Adt(interp::kAdtMetadata, 0,
                    {Value::Int(r->size), Value::Bool(r->is_file), Value::Bool(r->is_dir),
                     Value::Int(r->mtime_ms)}));
    }
    absl::Status s;
    if (op == "create_dir_all") {
      s = cap.CreateDirAll(p);
    } else if (op == "remove_file") {
      s = cap.RemoveFile(p);
    } else if (op == "remove_dir_all") {
      s = cap.RemoveDirAll(p);
    } else {
      return std::nullopt;  // unknown: MT5008
    }
    if (!s.ok()) return from_status(s, p, family);
    return Ok(Value::Unit());
  }

  // ---- std.time ----
  if (path == "std.time.now") {
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                  std::chrono::system_clock::now().time_since_epoch())
                  .count();
    return Ok(Value::Int(ns));
  }
  if (path == "std.time.sleep") {
    if (args.size() != 1 || !(args[0].Is(Tag::kDuration) || args[0].Is(Tag::kInt)))
      return bad_args("a Duration");
    int64_t ns = args[0].i();
    auto until = std::chrono::steady_clock::now() + std::chrono::nanoseconds(ns > 0 ? ns : 0);
    const auto deadline = Deadline(scope);
    if (until >= deadline) {
      // The sleep would outlive the run's wall budget: wait until the
      // deadline, then the run ends with the wall-clock breach.
      std::this_thread::sleep_until(deadline);
      err->code = TrapCode::kBudget;
      err->message = "wall-clock deadline reached during std.time.sleep";
      return std::nullopt;
    }
    if (ns > 0) std::this_thread::sleep_until(until);
    return Ok(Value::Unit());
  }

  // ---- std.env ----
  if (path == "std.env.args") return Ok(StrArray(options_.args));
  if (path == "std.env.var") {
    if (args.size() != 1 || !IsStr(args[0])) return bad_args("a variable name (Str)");
    const std::string& name = StrOf(args[0]);
    bool allowed = !scope.CheckGrant(ir::GrantId::kEnv, name);
    if (explicit_cap && explicit_cap->family != "env") allowed = false;
    if (explicit_cap && !explicit_cap->constraint.empty() && explicit_cap->constraint != name)
      allowed = false;
    if (!allowed) return denied(name, "env");
    const char* v = std::getenv(name.c_str());
    return Ok(v ? Some(interp::MakeStr(v)) : None());
  }

  // ---- std.net / std.http ----
  if (path.starts_with("std.net.") || path.starts_with("std.http.")) {
    if (args.empty() || !IsStr(args[0])) return bad_args("a URL (Str)");
    auto url = ParseHttpUrl(StrOf(args[0]));
    if (!url.ok()) return Err(std::string(url.status().message()));
    const std::string host_port = absl::StrCat(url->host, ":", url->port);
    bool allowed = !scope.CheckGrant(ir::GrantId::kNet, host_port);
    if (explicit_cap && (explicit_cap->family != "net" ||
                         (!explicit_cap->constraint.empty() &&
                          !ir::HostEntryAllows(explicit_cap->constraint, host_port))))
      allowed = false;
    if (!allowed) return denied(host_port, "net");
    bool post = path.ends_with(".post");
    if (post && (args.size() != 2 || !IsStr(args[1]))) return bad_args("a URL and a body (Str)");
    if (!post && args.size() != 1) return bad_args("a URL");
    int64_t timeout_ms = options_.net_timeout_ms;
    const auto deadline = Deadline(scope);
    if (deadline != std::chrono::steady_clock::time_point::max()) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      deadline - std::chrono::steady_clock::now())
                      .count();
      timeout_ms = std::max<int64_t>(1, std::min<int64_t>(timeout_ms, left));
    }
    auto resp = HttpRequest(*url, post, post ? std::string_view(StrOf(args[1])) : "", timeout_ms);
    if (!resp.ok() && std::chrono::steady_clock::now() >= deadline) {
      err->code = TrapCode::kBudget;  // gave up at the wall-clock deadline
      err->message = "wall-clock deadline reached during an HTTP request";
      return std::nullopt;
    }
    if (!resp.ok()) return Err(std::string(resp.status().message()));
    auto* m = new interp::MapObj();
    Value headers = Value::Heap(m);
    m->est = 24;
    for (auto& [k, v] : resp->headers) {
      Value key = interp::MakeStr(k);
      int j = m->Find(key);
      if (j >= 0) {
        m->entries[j].second = interp::MakeStr(v);  // the last of repeated headers
        continue;
      }
      m->entries.emplace_back(key, interp::MakeStr(v));
      m->index.emplace(key, static_cast<uint32_t>(m->entries.size() - 1));
      m->est += 48 + k.size() + v.size();
    }
    std::vector<Value> fields;
    fields.push_back(Value::Int(resp->status));
    fields.push_back(interp::MakeStr(std::move(resp->body)));
    fields.push_back(std::move(headers));
    return Ok(Adt(interp::kAdtResponse, 0, std::move(fields)));
  }
  return std::nullopt;
}

}  // namespace mty::stdlib
