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
#include "mty/ir/text.h"
#include "mty/vocab/utf8.h"

namespace mty::stdlib {

using interp::AdtObj;
using interp::ArrayObj;
using interp::Tag;
using interp::Value;

namespace {

using interp::MakeNone;
using interp::MakeOk;
using interp::MakeSome;
Value Err(std::string msg) { return interp::MakeErr(interp::MakeStr(std::move(msg))); }

Value StrArray(const std::vector<std::string>& items) {
  auto* a = new ArrayObj(Tag::kArray);
  Value v = Value::Heap(a);  // owns a if push_back throws
  a->est = interp::cost::kHeader;
  for (const std::string& s : items) {
    a->items.push_back(interp::MakeStr(s));
    a->est += interp::cost::StrBytes(s.size());
  }
  return v;
}

bool IsStr(const Value& v) { return v.Is(Tag::kStr); }

// The chain's wall-clock deadline, at which blocking calls give up.
std::chrono::steady_clock::time_point Deadline(const interp::Meter& scope) {
  std::optional<int64_t> ns = scope.WallDeadline();
  if (!ns) return std::chrono::steady_clock::time_point::max();
  return std::chrono::steady_clock::time_point(std::chrono::nanoseconds(*ns));
}
const std::string& StrOf(const Value& v) { return static_cast<interp::StrObj*>(v.h())->s; }

// Before a call writes `bytes` to a file or changes the tree (0 bytes):
// the output limit and the wall deadline (runtime.md §2: nothing is
// written after it). True, with the breach in *err, when it must not happen.
bool WriteRefused(interp::Meter& scope, interp::HostError* err, uint64_t bytes) {
  std::optional<ir::Breach> b = scope.ChargeOutput(bytes);
  if (!b) return false;
  err->breach = std::move(b);
  return true;
}

}  // namespace

absl::StatusOr<std::string> UrlHostPort(std::string_view url) {
  auto parsed = ParseHttpUrl(url);
  if (!parsed.ok()) return parsed.status();
  return absl::StrCat(parsed->host, ":", parsed->port);
}

StdHost::StdHost(interp::Host* out, HostOptions options)
    : out_(out), options_(std::move(options)) {}

FsCap StdHost::CapFor(const interp::Meter& scope, ir::GrantId family) {
  // The chain's grant, each level resolved beneath the one above when its
  // tracker was made; with no list on the chain, the process-wide default
  // cap (one snapshot per call).
  return CapOf(scope.FsGrantOf(family).get());
}

// One effect call as its handler sees it.
struct StdHost::Call {
  const ir::EffectInfo& effect;
  std::vector<Value>& args;  // the explicit capability removed
  Value cap_value;           // kept alive while `cap` points into it
  const interp::CapObj* cap = nullptr;
  interp::Meter& scope;
  interp::HostError* err;
  std::string target;   // what the call asks for (EffectCall::target; set only for on_effect)
  bool denied = false;  // the grants refused it
};

std::optional<Value> StdHost::InvokeEffect(ir::EffectId id, std::vector<Value>& args,
                                           interp::Meter& scope, interp::HostError* err) {
  // The handler of each row of the builtin table, by id.
  static constexpr Handler kHandlers[] = {
#define EFFECT(id, path, family, min, max, handler, sig) &StdHost::handler,
#include "mty/ir/builtins.def"
#undef EFFECT
  };
  static_assert(sizeof(kHandlers) / sizeof(kHandlers[0]) == ir::kNumEffects);
  Call c{ir::Effect(id), args, Value(), nullptr, scope, err, {}, false};
  // An explicit capability argument comes first and can only narrow.
  if (!args.empty() && args[0].Is(Tag::kCap)) {
    c.cap_value = std::move(args[0]);
    c.cap = static_cast<const interp::CapObj*>(c.cap_value.h());
    args.erase(args.begin());
  }
  std::optional<Value> out = (this->*kHandlers[static_cast<size_t>(id)])(c);
  if (options_.on_effect)
    options_.on_effect(
        EffectCall{c.effect.path, c.effect.family, c.target, !c.denied, err->loc, scope.name()});
  return out;
}

namespace {

// The grant row of an effect's family (`fs.read`); every denied effect has one.
ir::GrantId FamilyGrant(std::string_view family) {
  std::optional<ir::Key> key = ir::FindKey(family);
  return key && key->kind == ir::Key::Kind::kGrant ? key->grant : ir::GrantId::kFsRead;
}

}  // namespace

bool StdHost::Deny(const std::string& path, const std::string& family, ir::GrantId grant,
                   const std::string& what, const interp::Meter& scope, interp::HostError* err) {
  ++denials_;
  std::optional<ir::Breach> refused = scope.CheckGrant(grant, what);
  const std::string sandbox = refused ? refused->sandbox : "";
  if (options_.trace)
    options_.trace(absl::StrCat(ir::TrapText(TrapCode::kCapability), " denied ", path, " ", what,
                                " (", family, sandbox.empty() ? "" : ", sandbox ", sandbox, ")"));
  if (options_.on_denied) options_.on_denied(Denial{path, family, what, err->loc, sandbox});
  if (!options_.deny_is_trap) return false;
  err->code = TrapCode::kCapability;
  err->message =
      absl::StrCat(sandbox.empty() ? "capability not granted"
                                   : absl::StrCat("sandbox ", sandbox, " does not grant it"),
                   ": ", path, ": forbidden: ", what);
  return true;
}

std::optional<Value> StdHost::Denied(Call& c, const std::string& what) {
  c.denied = true;
  if (Deny(c.effect.path, c.effect.family, FamilyGrant(c.effect.family), what, c.scope, c.err))
    return std::nullopt;
  return Err(absl::StrCat("forbidden: ", what));
}

std::optional<Value> StdHost::InvokeHostFn(uint32_t index, std::vector<Value>& args,
                                           interp::Meter& scope, interp::HostError* err) {
  const ir::HostFnDecl* decl = options_.host_fns ? options_.host_fns->Decl(index) : nullptr;
  if (!decl) {
    err->code = TrapCode::kUnknown;
    err->message = "no host function provides this call";
    return std::nullopt;
  }
  // Deny by default: the family must be on every list of the chain (the
  // run's `host` grant and each sandbox's). A host function's result need
  // not be a Result, so a denial traps (MT5015) instead of returning Err.
  const std::string family = absl::StrCat("host ", decl->family);
  if (scope.CheckGrant(ir::GrantId::kHost, decl->family)) {
    if (!Deny(decl->path, family, ir::GrantId::kHost, decl->family, scope, err)) {
      err->code = TrapCode::kCapability;
      err->message = absl::StrCat("capability denied: ", decl->path, " needs host family `",
                                  decl->family, "`, which the run does not grant");
    }
    if (options_.on_effect)
      options_.on_effect(
          EffectCall{decl->path, family, decl->family, false, err->loc, scope.name()});
    return std::nullopt;
  }
  std::optional<Value> out = options_.host_fns->Call(index, args, scope, err);
  if (options_.on_effect)
    options_.on_effect(EffectCall{decl->path, family, decl->family, true, err->loc, scope.name()});
  return out;
}

std::optional<Value> StdHost::BadArgs(Call& c, const char* want) {
  c.err->code = TrapCode::kType;
  c.err->message = absl::StrCat(c.effect.path, " expects ", want);
  return std::nullopt;
}

std::optional<Value> StdHost::FromStatus(Call& c, const absl::Status& s, const std::string& p) {
  if (s.code() == absl::StatusCode::kPermissionDenied) return Denied(c, p);
  return Err(std::string(s.message()));
}

// ---- std.fs ----

// The path of an fs call and the cap it opens through: the chain's grant,
// narrowed by an explicit capability value's. The operation decides, once,
// opening beneath a granted root's handle, so no symlink can lead outside
// it.
std::optional<Value> StdHost::FsTarget(Call& c, std::string* path, FsCap* cap) {
  if (c.args.empty() || !IsStr(c.args[0])) return BadArgs(c, "a path (Str)");
  *path = StrOf(c.args[0]);
  if (options_.on_effect) c.target = *path;
  // A path the kernel would cut short (a NUL) is no path: refused before
  // any grant is asked, whatever the call.
  if (absl::Status text = CheckPathText(*path); !text.ok()) return Err(std::string(text.message()));
  std::optional<ir::Key> key = ir::FindKey(c.effect.family);
  const ir::GrantId family = key ? key->grant : ir::GrantId::kFsRead;
  *cap = CapFor(c.scope, family);
  if (c.cap) {
    if (!ir::CapValueServes(c.cap->family, family)) return Denied(c, *path);
    const bool writes = family == ir::GrantId::kFsWrite;
    // A narrowed value carries its grants, resolved when it was made.
    if (!c.cap->constraint.empty())
      *cap = cap->Intersect(CapOf((writes ? c.cap->fs_write : c.cap->fs_read).get()));
  }
  return std::nullopt;
}

#define FS_TARGET(c, p, cap)                                                                       \
  std::string p;                                                                                   \
  FsCap cap = FsCap::None();                                                                       \
  if (std::optional<Value> fail_ = FsTarget(c, &p, &cap); fail_ || c.err->code != TrapCode::kNone) \
  return fail_

// A file's result charged before it is read (runtime.md §2): a file whose
// value would take more than the memory budget has left is never read; the
// caller charges its estimate instead, which is the breach. `per_byte` is
// what each byte costs in the result, 24 B its header.
std::optional<Value> StdHost::ReadWithin(Call& c, const FsCap& cap, const std::string& p,
                                         uint64_t per_byte, std::string* out) {
  const uint64_t left = c.err->memory_left;
  const uint64_t max_bytes =
      left == UINT64_MAX
          ? UINT64_MAX
          : (left > interp::cost::kHeader ? left - interp::cost::kHeader : 0) / per_byte;
  uint64_t size = 0;
  auto r = cap.ReadFile(p, max_bytes, &size);
  if (r.status().code() == absl::StatusCode::kResourceExhausted) {
    c.err->memory_needed = interp::cost::StrBytes(size * per_byte);
    return std::nullopt;
  }
  if (!r.ok()) return FromStatus(c, r.status(), p);
  *out = std::move(*r);
  return std::nullopt;
}

std::optional<Value> StdHost::FsRead(Call& c) {
  FS_TARGET(c, p, cap);
  std::string r;
  std::optional<Value> fail = ReadWithin(c, cap, p, 1, &r);
  if (fail || c.err->memory_needed || c.err->code != TrapCode::kNone) return fail;
  // A Str is UTF-8 (docs/stdlib.md): other bytes are read_bytes' to give.
  if (!ir::ValidUtf8(r)) return Err(absl::StrCat("io: not valid UTF-8: ", p));
  return MakeOk(interp::MakeStr(std::move(r)));
}

std::optional<Value> StdHost::FsReadBytes(Call& c) {
  FS_TARGET(c, p, cap);
  std::string bytes;
  std::optional<Value> fail = ReadWithin(c, cap, p, 1, &bytes);
  if (fail || c.err->memory_needed || c.err->code != TrapCode::kNone) return fail;
  // Held compactly, one byte per element (interp::BytesObj): a [U8].
  return MakeOk(Value::Heap(new interp::BytesObj(std::move(bytes))));
}

std::optional<Value> StdHost::Write(Call& c, bool append) {
  FS_TARGET(c, p, cap);
  if (c.args.size() != 2 || !IsStr(c.args[1])) return BadArgs(c, "a path and data (Str)");
  // One check: the write locates the path inside the grant, then the
  // output limit is charged (a denied write counts nothing), then the file
  // is opened and written; nothing is written when the limit refuses.
  const std::string& data = StrOf(c.args[1]);
  absl::Status s =
      cap.WriteFile(p, data, append, [&] { return !WriteRefused(c.scope, c.err, data.size()); });
  if (c.err->breach) return std::nullopt;
  if (!s.ok()) return FromStatus(c, s, p);
  return MakeOk(Value::Unit());
}

std::optional<Value> StdHost::FsWrite(Call& c) { return Write(c, false); }
std::optional<Value> StdHost::FsAppend(Call& c) { return Write(c, true); }

std::optional<Value> StdHost::FsExists(Call& c) {
  FS_TARGET(c, p, cap);
  auto r = cap.Exists(p);
  if (!r.ok()) return FromStatus(c, r.status(), p);
  return MakeOk(Value::Bool(*r));
}

std::optional<Value> StdHost::FsListDir(Call& c) {
  FS_TARGET(c, p, cap);
  auto r = cap.ListDir(p);
  if (!r.ok()) return FromStatus(c, r.status(), p);
  return MakeOk(StrArray(*r));
}

std::optional<Value> StdHost::FsMetadata(Call& c) {
  FS_TARGET(c, p, cap);
  auto r = cap.Metadata(p);
  if (!r.ok()) return FromStatus(c, r.status(), p);
  return MakeOk(interp::MakeAdt(interp::kAdtMetadata, 0,
                                {Value::Int(r->size), Value::Bool(r->is_file),
                                 Value::Bool(r->is_dir), Value::Int(r->mtime_ms)}));
}

// A change to the file system (create a directory, remove a file or a
// tree): the grant checked, then `op` on the path beneath it.
std::optional<Value> StdHost::FsChange(Call& c, absl::Status (FsCap::*op)(std::string_view) const) {
  FS_TARGET(c, p, cap);
  if (WriteRefused(c.scope, c.err, 0)) return std::nullopt;
  absl::Status s = (cap.*op)(p);
  if (!s.ok()) return FromStatus(c, s, p);
  return MakeOk(Value::Unit());
}
std::optional<Value> StdHost::FsCreateDirAll(Call& c) { return FsChange(c, &FsCap::CreateDirAll); }
std::optional<Value> StdHost::FsRemoveFile(Call& c) { return FsChange(c, &FsCap::RemoveFile); }
std::optional<Value> StdHost::FsRemoveDirAll(Call& c) { return FsChange(c, &FsCap::RemoveDirAll); }

#undef FS_TARGET

// ---- std.time ----

// Waits until `deadline` (a host call that gave up a little before it) and
// reports the wall breach of the calling scope's chain.
// Sleeps until `until`, in slices of 5 ms so that the run's interrupt ends
// it at once; false when interrupted.
bool StdHost::SleepUntil(std::chrono::steady_clock::time_point until) const {
  for (;;) {
    if (options_.cancel && options_.cancel->load(std::memory_order_relaxed)) return false;
    auto now = std::chrono::steady_clock::now();
    if (now >= until) return true;
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(until - now, std::chrono::milliseconds(5)));
  }
}

std::optional<Value> StdHost::WallBreach(Call& c, std::chrono::steady_clock::time_point deadline) {
  if (!SleepUntil(deadline)) return MakeOk(Value::Unit());  // interrupted: ends at the safepoint
  if (std::optional<ir::Breach> b = c.scope.Exhausted(ir::LimitId::kWall)) {
    c.err->breach = std::move(b);
  } else {
    c.err->code = TrapCode::kBudget;
    c.err->message = "wall-clock deadline reached during a host call";
  }
  return std::nullopt;
}

std::optional<Value> StdHost::TimeNow(Call&) {
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                std::chrono::system_clock::now().time_since_epoch())
                .count();
  return MakeOk(Value::Int(ns));
}

std::optional<Value> StdHost::TimeSleep(Call& c) {
  if (c.args.size() != 1 || !(c.args[0].Is(Tag::kDuration) || c.args[0].Is(Tag::kInt)))
    return BadArgs(c, "a Duration");
  const int64_t ns = std::max<int64_t>(0, c.args[0].i());
  if (options_.on_effect) c.target = ir::FormatDuration(ns);
  // Only the sleeping task waits: the run's scheduler ends the wait with a
  // timer (runtime.md §5), at the wall deadline at the latest.
  c.err->wait = true;
  c.err->sleep_ns = ns;
  return std::nullopt;
}

// ---- std.env ----

std::optional<Value> StdHost::EnvArgs(Call&) { return MakeOk(StrArray(options_.args)); }

std::optional<Value> StdHost::EnvVar(Call& c) {
  if (c.args.size() != 1 || !IsStr(c.args[0])) return BadArgs(c, "a variable name (Str)");
  const std::string& name = StrOf(c.args[0]);
  if (options_.on_effect) c.target = name;
  bool allowed = !c.scope.CheckGrant(ir::GrantId::kEnv, name);
  if (c.cap && !ir::CapValueServes(c.cap->family, ir::GrantId::kEnv)) allowed = false;
  if (c.cap && !c.cap->constraint.empty() && c.cap->constraint != name) allowed = false;
  if (!allowed) return Denied(c, name);
  const char* v = std::getenv(name.c_str());
  return MakeOk(v ? MakeSome(interp::MakeStr(v)) : MakeNone());
}

// ---- std.net / std.http ----

std::optional<Value> StdHost::HttpGet(Call& c) { return Http(c, false); }
std::optional<Value> StdHost::HttpPost(Call& c) { return Http(c, true); }

std::optional<Value> StdHost::Http(Call& c, bool post) {
  if (c.args.empty() || !IsStr(c.args[0])) return BadArgs(c, "a URL (Str)");
  auto url = ParseHttpUrl(StrOf(c.args[0]));
  if (!url.ok()) return Err(std::string(url.status().message()));
  const std::string host_port = absl::StrCat(url->host, ":", url->port);
  if (options_.on_effect) c.target = host_port;
  bool allowed = !c.scope.CheckGrant(ir::GrantId::kNet, host_port);
  if (c.cap && (!ir::CapValueServes(c.cap->family, ir::GrantId::kNet) ||
                (!c.cap->constraint.empty() && !ir::HostEntryAllows(c.cap->constraint, host_port))))
    allowed = false;
  if (!allowed) return Denied(c, host_port);
  if (post && (c.args.size() != 2 || !IsStr(c.args[1])))
    return BadArgs(c, "a URL and a body (Str)");
  if (!post && c.args.size() != 1) return BadArgs(c, "a URL");
  int64_t timeout_ms = options_.net_timeout_ms;
  const auto deadline = Deadline(c.scope);
  if (deadline != std::chrono::steady_clock::time_point::max()) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    timeout_ms = std::max<int64_t>(1, std::min<int64_t>(timeout_ms, left));
  }
  const bool cut = timeout_ms < options_.net_timeout_ms;  // the deadline is nearer
  auto resp = HttpRequest(*url, post, post ? std::string_view(StrOf(c.args[1])) : "", timeout_ms,
                          options_.cancel);
  if (!resp.ok() && (std::chrono::steady_clock::now() >= deadline ||
                     (cut && absl::IsDeadlineExceeded(resp.status())))) {
    // Gave up at the wall-clock deadline (libcurl's timeout, in whole ms,
    // may end a little before it): the run ends with the wall breach.
    return WallBreach(c, deadline);
  }
  if (!resp.ok()) return Err(std::string(resp.status().message()));
  auto* m = new interp::MapObj();
  Value headers = Value::Heap(m);
  m->est = interp::cost::kHeader;
  for (auto& [k, v] : resp->headers) {
    Value key = interp::MakeStr(k);
    int j = m->Find(key);
    if (j >= 0) {
      m->entries[j].second = interp::MakeStr(v);  // the last of repeated headers
      continue;
    }
    m->Append(key, interp::MakeStr(v));
    m->est += interp::cost::kMapEntry + k.size() + v.size();
  }
  std::vector<Value> fields;
  fields.push_back(Value::Int(resp->status));
  fields.push_back(interp::MakeStr(std::move(resp->body)));
  fields.push_back(std::move(headers));
  return MakeOk(interp::MakeAdt(interp::kAdtResponse, 0, std::move(fields)));
}

}  // namespace mty::stdlib
