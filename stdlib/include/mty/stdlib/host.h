// The standard library's host dispatch: every `std.*` effect call of a run
// goes through StdHost, which checks the run's grants (capabilities) before
// touching the outside world and returns the Result values of language.md §6.
#pragma once

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
  std::vector<std::string> args;   // std.env.args()
  bool deny_is_trap = false;       // the first denial traps MT5015
  int64_t net_timeout_ms = 30000;  // per HTTP request
  // Called with one line per denial (`--trace`); may be empty.
  std::function<void(std::string_view)> trace;
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
  std::optional<interp::Value> InvokeEffect(std::string_view path, std::vector<interp::Value>& args,
                                            interp::Meter& scope, interp::HostError* err) override;

  int denials() const { return denials_; }

 private:
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
