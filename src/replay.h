// Record and replay of a run (RunOptions::record / ::replay): the one tap
// between the scheduler and the standard library's host through which every
// effect and host-function call passes, and the scheduler's clock. Recording
// logs each result and reading; replaying serves them from the log and
// reports the first input the run asks for that the log does not hold next.
// Not installed.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "boost/crc.hpp"
#include "mty/interp/bytecode.h"
#include "mty/interp/vm.h"
#include "mty/mty.h"
#include "mty/runtime/agents.h"
#include "mty/runtime/budget.h"
#include "nlohmann/json.hpp"

namespace mty {

struct Recording::Impl {
  std::string program_hash;
  std::string file;  // the program's source file (locations in messages)
  std::string entry = "main";
  std::vector<std::string> args;
  std::vector<Value> params;
  Policy policy;
  std::vector<nlohmann::json> inputs;  // one per effect call or clock reading
  std::optional<nlohmann::json> end;
};

namespace internal {

// A stable hash of a program (its canonical MtyIR text): 16 hex digits.
std::string ProgramHash(const std::string& ir_text);

// Public values as JSON and back (the recording's value form).
nlohmann::json ValueToJson(const Value& v);
absl::StatusOr<Value> ValueFromJson(const nlohmann::json& j);

class RunTap : public interp::Host, public runtime::SchedulerClock {
 public:
  // `inner`: the run's host (the standard library's); exactly one of
  // `record` and `replay` is set.
  RunTap(interp::Host* inner, std::shared_ptr<const interp::Module> module,
         std::string program_hash, Recording::Impl* record, const Recording::Impl* replay);
  // The run's root tracker (its start is the clock's origin) and what stops
  // the run at a divergence.
  void Bind(const runtime::BudgetTracker* root, std::function<void()> stop);

  void Stdout(std::string_view text) override;
  void Stderr(std::string_view text) override;
  std::optional<interp::Value> InvokeEffect(ir::EffectId id, std::vector<interp::Value>& args,
                                            interp::Meter& scope, interp::HostError* err) override;
  std::optional<interp::Value> InvokeHostFn(uint32_t index, std::vector<interp::Value>& args,
                                            interp::Meter& scope, interp::HostError* err) override;

  int64_t Now() override;
  bool Waits() const override { return replay_ == nullptr; }

  // The run ended with `r`: a recording gets its end line; a replay
  // compares (RunResult::divergence).
  void End(RunResult& r);

 private:
  template <typename F>
  std::optional<interp::Value> Tap(std::string_view name, std::vector<interp::Value>& args,
                                   interp::Meter& scope, interp::HostError* err, F&& call);
  std::optional<interp::Value> Serve(std::string_view name, const nlohmann::json& args,
                                     interp::Meter& scope, interp::HostError* err);
  nlohmann::json ArgsJson(const std::vector<interp::Value>& args) const;
  // The next input of the replay, or nullptr (the log ends there).
  const nlohmann::json* Next();
  // Records the first divergence and stops the run: `had` is the input the
  // replay took (null: the log ended), `now` what the run asked for.
  void Diverge(const nlohmann::json* had, const std::string& now);
  std::string Describe(const nlohmann::json& input) const;
  // `file:line:col` in the recorded program or in the one running now.
  std::string Where(uint32_t line, uint32_t col, bool recorded) const;

  interp::Host* inner_;
  std::shared_ptr<const interp::Module> module_;
  std::string program_hash_;
  Recording::Impl* record_;
  const Recording::Impl* replay_;
  const runtime::BudgetTracker* root_ = nullptr;
  std::function<void()> stop_;
  size_t next_ = 0;  // the replay's next input
  int64_t last_clock_ = 0;
  std::string divergence_;
  struct Stream {
    uint64_t bytes = 0;
    boost::crc_32_type crc;
  };
  Stream out_, err_;
};

}  // namespace internal
}  // namespace mty
