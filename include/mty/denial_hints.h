// The `mty: denied ...` hint lines `mty run` prints on stderr for denied
// effects (docs/cli.md, Denials), shared by the CLI and `mty worker`, whose
// jobs' stderr carries the same lines (docs/scaling.md).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "mty/mty.h"

namespace mty {

// Text from the program (a path, a host) made safe for a terminal: control
// characters as \xNN, a backslash doubled.
std::string PrintableText(std::string_view text);

// A flag value quoted for the shell when it needs it.
std::string ShellWord(std::string_view word);

// The hint line for a denied effect (Event::Kind::kDenied): the call, its
// target, where (`file`), and what would allow it: the flag (`flags`: the
// grants the command line gave), the manifest's key (`manifest`, read from
// `manifest_path`), or the sandbox's list that refused it. Ends in "\n".
std::string DenialHint(const Event& e, const std::string& file, const Policy& flags,
                       const std::string& manifest_path, const std::optional<Policy>& manifest);

// The hints of one run: one per denied target, at most kMaxHints distinct
// targets (then one line saying so), so that a program denied millions of
// computed paths can grow neither memory nor stderr without bound.
class DenialHints {
 public:
  static constexpr size_t kMaxHints = 20;
  DenialHints(std::string file, Policy flags, std::string manifest_path,
              std::optional<Policy> manifest);
  // The text to print for an event: "" for an event that is no denial or a
  // target hinted already.
  std::string Line(const Event& e);

 private:
  std::string file_;
  Policy flags_;
  std::string manifest_path_;
  std::optional<Policy> manifest_;
  std::set<std::pair<std::string, std::string>> hinted_;
  bool capped_ = false;
};

}  // namespace mty
