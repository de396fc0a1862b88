// The standard library's host dispatch: every `std.*` effect call of a run
// goes through StdHost, which checks the run's grants (capabilities) before
// touching the outside world and returns the Result values of language.md §6.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "mty/interp/vm.h"
#include "mty/ir/builtins.h"
#include "mty/ir/host_fns.h"
#include "mty/stdlib/fs_cap.h"
#include "mty/vocab/policy.h"

namespace mty::stdlib {

using ir::TrapCode;

// One denied effect (the run's event stream): the effect or host function,
// its family, what it asked for, where the call is.
struct Denial {
  std::string_view effect;
  std::string_view family;
  std::string_view target;
  ir::Loc loc;
  // The sandbox whose grants refused it; "" for the run's own grants (or
  // the host's default file caps).
  std::string_view sandbox;
};

// One effect or host-function call, allowed or denied (the run's event
// stream): the call, its family ("" for std.time and std.env.args; `host
// kv` for a host function), what it asked for (a path, `host:port`, a
// variable name, a sleep's duration, the host family; "" when nothing),
// where, and the innermost sandbox it runs in ("" for none).
struct EffectCall {
  std::string_view effect;
  std::string_view family;
  std::string_view target;
  bool allowed = true;
  ir::Loc loc;
  std::string_view sandbox;
};

// The embedder's host functions (ir/host_fns.h), called once the run's
// grants admit the function's family.
class HostFnDispatch {
 public:
  virtual ~HostFnDispatch() = default;
  virtual const ir::HostFnDecl* Decl(uint32_t index) const = 0;
  virtual std::optional<interp::Value> Call(uint32_t index, std::vector<interp::Value>& args,
                                            interp::Meter& scope, interp::HostError* err) = 0;
};

struct HostOptions {
  std::vector<std::string> args;   // std.env.args()
  bool deny_is_trap = false;       // the first denial traps MT5015
  int64_t net_timeout_ms = 30000;  // per HTTP request
  // Called with one line per denial (`--trace`); may be empty.
  std::function<void(std::string_view)> trace;
  // The run's interrupt flag: a blocking call (HTTP) gives up when it is set.
  const std::atomic<bool>* cancel = nullptr;
  // Called once per denial; may be empty.
  std::function<void(const Denial&)> on_denied;
  // Called once per effect or host-function call, after it (allowed or
  // denied); may be empty.
  std::function<void(const EffectCall&)> on_effect;
  // The embedder's host functions; none when null (calls trap MT5008).
  HostFnDispatch* host_fns = nullptr;
};

// One host serves every task of a run: what a call may touch is the
// calling task's tracker chain (`scope`, runtime/budget.h), whose root holds
// the run's grants. Deny by default: a family no tracker on the chain lists
// allows nothing, except that an fs family the run's root leaves unset
// falls back to the process-wide default cap (fs_cap.h), narrowed by the
// sandboxes' lists.
class StdHost : public interp::Host {
 public:
  // `out` receives the program's stdout/stderr.
  StdHost(interp::Host* out, HostOptions options);

  void Stdout(std::string_view text) override { out_->Stdout(text); }
  void Stderr(std::string_view text) override { out_->Stderr(text); }
  // Dispatches through a handler table indexed by the effect's id (one
  // handler per EFFECT row of ir/builtins.def).
  std::optional<interp::Value> InvokeEffect(ir::EffectId id, std::vector<interp::Value>& args,
                                            interp::Meter& scope, interp::HostError* err) override;
  // Checks the function's family against the chain's `host` lists, then
  // calls the embedder's code (HostOptions::host_fns).
  std::optional<interp::Value> InvokeHostFn(uint32_t index, std::vector<interp::Value>& args,
                                            interp::Meter& scope, interp::HostError* err) override;

  int denials() const { return denials_; }

 private:
  struct Call;
  using Handler = std::optional<interp::Value> (StdHost::*)(Call&);
  // The handlers named by the EFFECT rows. std.time.sleep does not block:
  // it asks the caller to wait (HostError::sleep_ns) for the run's
  // scheduler to end the wait with a timer.
  bool SleepUntil(std::chrono::steady_clock::time_point until) const;
  std::optional<interp::Value> WallBreach(Call& c, std::chrono::steady_clock::time_point deadline);
  std::optional<interp::Value> ReadWithin(Call& c, const FsCap& cap, const std::string& p,
                                          uint64_t per_byte, std::string* out);
  // (Several EFFECT rows may name one handler, so the rows cannot declare
  // them; a handler missing here or from host.cc does not compile.)
  // clang-format off
#define MTY_STD_HANDLERS(X) \
  X(FsRead) \
  X(FsReadBytes) \
  X(FsWrite) \
  X(FsAppend) \
  X(FsExists) \
  X(FsListDir) \
  X(FsMetadata) \
  X(FsCreateDirAll) \
  X(FsRemoveFile) \
  X(FsRemoveDirAll) \
  X(HttpGet) \
  X(HttpPost) \
  X(TimeNow) \
  X(TimeSleep) \
  X(EnvArgs) \
  X(EnvVar)
  // clang-format on
#define MTY_STD_HANDLER(name) std::optional<interp::Value> name(Call& c);
  MTY_STD_HANDLERS(MTY_STD_HANDLER)
#undef MTY_STD_HANDLER
#undef MTY_STD_HANDLERS
  std::optional<interp::Value> FsChange(Call& c, absl::Status (FsCap::*op)(std::string_view) const);
  // Shared steps.
  std::optional<interp::Value> Write(Call& c, bool append);
  std::optional<interp::Value> Http(Call& c, bool post);
  std::optional<interp::Value> FsTarget(Call& c, std::string* path, FsCap* cap);
  std::optional<interp::Value> Denied(Call& c, const std::string& what);
  // Counts and reports a denial; true when it traps (deny_is_trap, *err set).
  // `grant`: the family's row, to name the level of `scope` that refused.
  bool Deny(const std::string& path, const std::string& family, ir::GrantId grant,
            const std::string& what, const interp::Meter& scope, interp::HostError* err);
  std::optional<interp::Value> BadArgs(Call& c, const char* want);
  std::optional<interp::Value> FromStatus(Call& c, const absl::Status& s, const std::string& p);

  // The cap one fs call opens through: the chain's lists (decided already
  // by the chain), on top of the default cap when the run sets no list.
  static FsCap CapFor(const interp::Meter& scope, ir::GrantId family);

  interp::Host* out_;
  HostOptions options_;
  int denials_ = 0;
};

// `host:port` of an http(s) URL as libcurl parses it (the same parse the
// request uses): lower-case host, IPv6 in brackets, default ports 80/443.
// What net grants are checked against, at run time and by `mty check`.
absl::StatusOr<std::string> UrlHostPort(std::string_view url);

}  // namespace mty::stdlib
