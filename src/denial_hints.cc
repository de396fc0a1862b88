// The `mty: denied ...` hints (include/mty/denial_hints.h).
#include "mty/denial_hints.h"

#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "mty/vocab/policy.h"

namespace mty {

// Text from the program (a path, a host) made safe for a terminal: control
// characters as \xNN, a backslash doubled.
std::string PrintableText(std::string_view text) {
  std::string out;
  for (unsigned char ch : text) {
    if (ch < 0x20 || ch == 0x7f || ch == '\\')
      absl::StrAppend(&out, ch == '\\' ? "\\\\" : absl::StrFormat("\\x%02x", ch));
    else
      out += static_cast<char>(ch);
  }
  return out;
}

// A flag value quoted for the shell when it needs it.
std::string ShellWord(std::string_view word) {
  bool plain = !word.empty();
  for (char ch : word)
    plain = plain && (absl::ascii_isalnum(static_cast<unsigned char>(ch)) ||
                      std::string_view("_./:@+-=").find(ch) != std::string_view::npos);
  if (plain) return std::string(word);
  std::string out = "'";
  for (char ch : word) out += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
  return out + "'";
}

// The line `mty run` prints on stderr for a denied effect (docs/cli.md,
// Denials): the call, its target, where, and what would allow it: the
// flag, the manifest's key, or the sandbox's list that refused it.
std::string DenialHint(const Event& e, const std::string& file, const Policy& flags,
                       const std::string& manifest_path, const std::optional<Policy>& manifest) {
  const bool host_fn = e.family.rfind("host ", 0) == 0;
  std::optional<ir::Key> key = ir::FindKey(host_fn ? "host" : e.family);
  std::string target = PrintableText(e.target);
  std::string out = absl::StrCat(
      "mty: denied ", e.effect,
      host_fn ? absl::StrCat(" (host family ", target, ")") : absl::StrCat("(\"", target, "\")"),
      " at ", file, ":", e.line, ":", e.column);
  if (!key || key->kind != ir::Key::Kind::kGrant) return out + "\n";
  const ir::GrantInfo& g = ir::Grant(key->grant);
  if (!e.sandbox.empty())
    return absl::StrCat(out, ": sandbox ", e.sandbox, " does not grant it (add it to its `", g.key,
                        "` list)\n");
  std::vector<std::string> ways;
  // An unset list of the flags grants nothing (the run's root denies).
  if (!flags.grants.Get(g.id) || !flags.grants.Allows(g.id, e.target))
    ways.push_back(absl::StrCat("run with --", g.flag, "=", ShellWord(target)));
  if (manifest && manifest->grants.Get(g.id) && !manifest->grants.Allows(g.id, e.target))
    ways.push_back(absl::StrCat("add it to `", g.key, "` in ", manifest_path));
  if (ways.empty()) return out + "\n";
  return absl::StrCat(out, "; to allow it, ", absl::StrJoin(ways, " and "), "\n");
}

DenialHints::DenialHints(std::string file, Policy flags, std::string manifest_path,
                         std::optional<Policy> manifest)
    : file_(std::move(file)),
      flags_(std::move(flags)),
      manifest_path_(std::move(manifest_path)),
      manifest_(std::move(manifest)) {}

std::string DenialHints::Line(const Event& e) {
  if (e.kind != Event::Kind::kDenied || capped_) return "";
  if (hinted_.size() == kMaxHints && !hinted_.count({e.family, e.target})) {
    capped_ = true;
    return absl::StrCat("mty: more than ", kMaxHints,
                        " denied targets: no more hints (--trace lists them all)\n");
  }
  if (!hinted_.emplace(e.family, e.target).second) return "";
  return DenialHint(e, file_, flags_, manifest_path_, manifest_);
}

}  // namespace mty
