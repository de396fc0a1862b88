// The standard library's host dispatch: every `std.*` effect call of a run
// goes through StdHost, which checks the run's grants (capabilities) before
// touching the outside world and returns the Result values of language.md §6.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "mty/interp/vm.h"
#include "mty/ir/policy.h"
#include "mty/stdlib/fs_cap.h"

namespace mty::stdlib {

using ir::TrapCode;

struct HostOptions {
  // What the run may touch (the policy table's grants). Deny by default: an
  // unset `net` or `env` list allows nothing; an unset `fs.read` /
  // `fs.write` list falls back to the process-wide default caps.
  ir::Grants grants;
  std::vector<std::string> args;   // std.env.args()
  bool deny_is_trap = false;       // the first denial traps MT5015
  int64_t net_timeout_ms = 30000;  // per HTTP request
  // The effective wall-clock deadline (steady clock), kept current by the
  // interpreter (Host::SetWallDeadline); blocking calls give up at it.
  // time_point::max() = none.
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  // Called with one line per denial (`--trace`); may be empty.
  std::function<void(std::string_view)> trace;
};

class StdHost : public interp::Host {
 public:
  // `out` receives the program's stdout/stderr.
  StdHost(interp::Host* out, HostOptions options);

  void Stdout(std::string_view text) override { out_->Stdout(text); }
  void Stderr(std::string_view text) override { out_->Stderr(text); }
  std::optional<interp::Value> InvokeEffect(std::string_view path, std::vector<interp::Value>& args,
                                            TrapCode* code, std::string* message) override;

  int denials() const { return denials_; }
  // A host with the same grants and the current capability scopes (an
  // agent's host, made when it is spawned).
  std::unique_ptr<StdHost> Fork() const { return std::make_unique<StdHost>(*this); }
  // Sandbox scopes: capabilities become the intersection of the enclosing
  // scope's and the sandbox's allow-lists (a sandbox can never widen).
  bool EnterSandbox(const ir::SandboxDecl& decl, TrapCode* code, std::string* message) override;
  void ExitSandbox() override;
  void SetWallDeadline(int64_t steady_ns) override;

 private:
  struct Scope {
    FsCap read = FsCap::None();
    FsCap write = FsCap::None();
    std::optional<std::vector<std::string>> net;  // unset: as the enclosing scope
    std::optional<std::vector<std::string>> env;
  };
  bool NetAllowed(std::string_view host_port) const;
  bool EnvAllowed(std::string_view name) const;

  // The cap for one call: the run's grant (or the default cap), narrowed by
  // an explicit capability argument when the program passes one.
  FsCap ReadCap() const;
  FsCap WriteCap() const;

  interp::Host* out_;
  HostOptions options_;
  // The run's fs grants as caps; nullopt: the process-wide default cap.
  std::optional<FsCap> read_, write_;
  int denials_ = 0;
  std::vector<Scope> scopes_;  // innermost last
};

// `host:port` of an http(s) URL as libcurl parses it (the same parse the
// request uses): lower-case host, IPv6 in brackets, default ports 80/443.
// What net grants are checked against, at run time and by `mty check`.
absl::StatusOr<std::string> UrlHostPort(std::string_view url);

}  // namespace mty::stdlib
