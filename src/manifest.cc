// The manifest loader (include/mty/manifest.h), shared by the embedding
// API and the `mty` command: toml++ for the syntax, the policy table
// (ir/policy.h) for every key, unit, choice and message.
#include "mty/manifest.h"

#include <toml++/toml.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "mty/vocab/policy.h"

namespace mty {
namespace {

// The keys of [sandbox] are the policy table's (ir/policy.h). `fs.read` is
// TOML's dotted key, so `fs` is a group: the table keys that start `fs.`.
bool IsGroup(std::string_view prefix) {
  for (const ir::GrantInfo& g : ir::kGrants) {
    std::string_view key = g.key;
    if (key.size() > prefix.size() && key.starts_with(prefix) && key[prefix.size()] == '.')
      return true;
  }
  return false;
}

std::string GroupHint(std::string_view prefix) {
  std::vector<std::string> parts;
  for (const ir::GrantInfo& g : ir::kGrants) {
    std::string_view key = g.key;
    if (key.starts_with(prefix) && key.size() > prefix.size() && key[prefix.size()] == '.')
      parts.push_back(absl::StrCat("`", g.key, " = [..]`"));
  }
  return absl::StrJoin(parts, " and ");
}

// A key as it would be written in TOML: bare when it can be, quoted otherwise.
std::string KeyText(std::string_view key) {
  bool bare = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
  if (bare) return std::string(key);
  return absl::StrCat("\"", absl::Utf8SafeCHexEscape(std::string(key)), "\"");
}

std::string Quoted(std::string_view s) {
  return absl::StrCat("\"", absl::Utf8SafeCHexEscape(std::string(s)), "\"");
}

const char* TypeName(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::none: return "nothing";
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
  }
  return "a value";
}

// One key of the file, flattened: top-level keys, the keys of [sandbox] and
// those of its groups (`fs`), visited in source order.
struct Entry {
  enum class Kind {
    kUnknownTop,       // a top-level key other than `sandbox`
    kSandboxNotTable,  // `sandbox = 1`, `[[sandbox]]`
    kGroupNotTable,    // `fs = 1` in [sandbox]
    kUnknown,          // an unknown key in [sandbox] or a group
    kValue,            // a known key
  };
  toml::source_position pos;  // of the key
  Kind kind;
  std::string name;   // as written, dotted, e.g. `sandbox.fs.read`
  std::string group;  // kGroupNotTable: the group (`fs`)
  std::optional<ir::Key> key;
  const toml::node* node;
};

class Checker {
 public:
  explicit Checker(std::string_view file_name) : file_name_(std::string(file_name)) {}

  absl::StatusOr<ir::Policy> Check(const toml::table& root) {
    std::vector<Entry> entries;
    bool has_sandbox = false;
    for (auto&& [key, node] : root) {
      if (key.str() != "sandbox") {
        entries.push_back({key.source().begin, Entry::Kind::kUnknownTop, KeyText(key.str()), "",
                           std::nullopt, &node});
        continue;
      }
      has_sandbox = true;
      const toml::table* sandbox = node.as_table();
      if (sandbox == nullptr) {
        entries.push_back({key.source().begin, Entry::Kind::kSandboxNotTable, "sandbox", "",
                           std::nullopt, &node});
        continue;
      }
      Flatten(*sandbox, "", "sandbox", entries);
    }
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
      return std::pair(a.pos.line, a.pos.column) < std::pair(b.pos.line, b.pos.column);
    });
    for (const Entry& e : entries) {
      if (absl::Status s = Visit(e); !s.ok()) return s;
    }
    if (!has_sandbox) {
      return Error({1, 1}, "a manifest needs a [sandbox] table, and this file has none");
    }
    return std::move(policy_);
  }

 private:
  // `prefix` is the dotted key so far (`fs`), `shown` how the file wrote it.
  static void Flatten(const toml::table& table, const std::string& prefix, const std::string& shown,
                      std::vector<Entry>& out) {
    for (auto&& [key, node] : table) {
      std::string dotted = prefix.empty() ? std::string(key.str())
                                          : absl::StrCat(prefix, ".", std::string(key.str()));
      std::string name = absl::StrCat(shown, ".", KeyText(key.str()));
      std::optional<ir::Key> k = ir::FindKey(dotted);
      if (!k && IsGroup(dotted)) {
        if (const toml::table* sub = node.as_table()) {
          Flatten(*sub, dotted, name, out);
        } else {
          out.push_back({key.source().begin, Entry::Kind::kGroupNotTable, std::move(name), dotted,
                         std::nullopt, &node});
        }
        continue;
      }
      out.push_back({key.source().begin, k ? Entry::Kind::kValue : Entry::Kind::kUnknown,
                     std::move(name), "", k, &node});
    }
  }

  absl::Status Visit(const Entry& e) {
    const toml::source_position value_pos = e.node->source().begin;
    switch (e.kind) {
      case Entry::Kind::kUnknownTop:
        return Error(e.pos, absl::StrCat("unknown manifest key `", e.name,
                                         "` (a manifest has one [sandbox] table)"));
      case Entry::Kind::kSandboxNotTable:
        return KeyError(value_pos, e.name,
                        absl::StrCat("expected a table, got ", TypeName(*e.node)));
      case Entry::Kind::kGroupNotTable:
        return KeyError(value_pos, e.name,
                        absl::StrCat("expected a table (write ", GroupHint(e.group), "), got ",
                                     TypeName(*e.node)));
      case Entry::Kind::kUnknown:
        return Error(e.pos, absl::StrCat("unknown manifest key `", e.name,
                                         "` (known: ", ir::KnownKeys(), ")"));
      case Entry::Kind::kValue: break;
    }
    auto [seen, fresh] = seen_.try_emplace(e.key->name, e.name, e.pos.line);
    if (!fresh) {
      return KeyError(e.pos, e.name,
                      absl::StrCat("duplicates `", seen->second.first, "` (line ",
                                   seen->second.second, "); set only one of them"));
    }
    switch (e.key->kind) {
      case ir::Key::Kind::kLimit: return LimitValue(e);
      case ir::Key::Kind::kMbPolicy: return MbPolicy(e);
      case ir::Key::Kind::kGrant: return Strings(e);
    }
    return absl::InternalError("manifest: no key kind");
  }

  absl::Status Strings(const Entry& e) {
    const toml::array* array = e.node->as_array();
    if (array == nullptr) {
      return KeyError(e.node->source().begin, e.name,
                      absl::StrCat("expected an array of strings, got ", TypeName(*e.node)));
    }
    std::vector<std::string> values;
    for (size_t i = 0; i < array->size(); ++i) {
      const toml::node& element = (*array)[i];
      const toml::value<std::string>* s = element.as_string();
      if (s == nullptr) {
        return KeyError(element.source().begin, e.name,
                        absl::StrCat("expected an array of strings, but element ", i + 1, " is ",
                                     TypeName(element)));
      }
      if (absl::Status ok = ir::CheckGrantEntry(e.key->grant, s->get()); !ok.ok())
        return KeyError(element.source().begin, e.name, std::string(ok.message()));
      values.push_back(s->get());
    }
    policy_.grants.Set(e.key->grant, std::move(values));
    return absl::OkStatus();
  }

  // A limit: a TOML integer (counts and sizes) or a string in the policy
  // table's units ("64MiB", "1k", "150ms"), as everywhere else.
  absl::Status LimitValue(const Entry& e) {
    const ir::LimitInfo& info = ir::Limit(e.key->limit);
    const char* example = info.unit == ir::Unit::kDuration ? "\"150ms\" or \"2s\""
                          : info.unit == ir::Unit::kSize   ? "\"64MiB\""
                                                           : "\"1k\"";
    const char* what = info.unit == ir::Unit::kDuration ? "duration"
                       : info.unit == ir::Unit::kSize   ? "size"
                                                        : "count";
    std::string expected = info.unit == ir::Unit::kDuration
                               ? absl::StrCat("a string like ", example)
                               : absl::StrCat("an integer or a ", what, " string like ", example);
    uint64_t value = 0;
    if (const toml::value<int64_t>* i = e.node->as_integer()) {
      if (info.unit == ir::Unit::kDuration)
        return KeyError(e.node->source().begin, e.name,
                        absl::StrCat("a duration needs a unit: got the bare integer ", i->get(),
                                     ", use ", expected));
      if (i->get() < 0)
        return KeyError(e.node->source().begin, e.name,
                        absl::StrCat("expected a non-negative integer, got ", i->get()));
      value = static_cast<uint64_t>(i->get());
      if (absl::Status s = ir::CheckLimitValue(e.key->limit, value); !s.ok())
        return KeyError(e.node->source().begin, e.name, std::string(s.message()));
    } else if (const toml::value<std::string>* str = e.node->as_string()) {
      absl::StatusOr<uint64_t> v = ir::ParseLimitValue(e.key->limit, str->get());
      if (!v.ok())
        return KeyError(e.node->source().begin, e.name,
                        absl::StrCat("bad ", what, " ", Quoted(str->get()), " (expected ",
                                     info.unit == ir::Unit::kDuration
                                         ? expected
                                         : absl::StrCat("an integer or a string like ", example),
                                     ")"));
      value = *v;
    } else {
      return KeyError(
          e.node->source().begin, e.name,
          absl::StrCat(
              "expected ",
              info.unit == ir::Unit::kDuration ? absl::StrCat("a duration, ", expected) : expected,
              ", got ", TypeName(*e.node)));
    }
    policy_.limits.Set(e.key->limit, value);
    return absl::OkStatus();
  }

  absl::Status MbPolicy(const Entry& e) {
    std::string expected = ir::ChoiceList(ir::kMbPolicyChoice);
    const toml::value<std::string>* s = e.node->as_string();
    if (s == nullptr) {
      return KeyError(e.node->source().begin, e.name,
                      absl::StrCat("expected a string (", expected, "), got ", TypeName(*e.node)));
    }
    std::optional<ir::MailboxPolicy> p = ir::ParseMailboxPolicy(s->get());
    if (!p) {
      return KeyError(
          e.node->source().begin, e.name,
          absl::StrCat("bad mailbox policy ", Quoted(s->get()), " (expected ", expected, ")"));
    }
    policy_.limits.mb_policy = p;
    return absl::OkStatus();
  }

  absl::Status KeyError(toml::source_position pos, const std::string& key, const std::string& msg) {
    return Error(pos, absl::StrCat("manifest key `", key, "`: ", msg));
  }

  absl::Status Error(toml::source_position pos, const std::string& msg) {
    return absl::InvalidArgumentError(
        absl::StrCat(file_name_, ":", pos.line, ":", pos.column, ": error: ", msg));
  }

  std::string file_name_;
  ir::Policy policy_;
  // Canonical key -> (the key as written, its line).
  std::map<std::string, std::pair<std::string, uint32_t>> seen_;
};

// toml++ parses dotted keys and nested arrays and tables by recursion, so
// a hostile manifest (`a.a.a...a = 1` with 50 000 parts) could overflow the
// stack. This scan bounds both before toml++ sees the text: at most
// kMaxKeyParts parts in a key (dots since the last `=`, `,`, bracket, brace
// or newline, outside strings and comments) and kMaxNesting open brackets
// and braces.
constexpr int kMaxKeyParts = 64;
constexpr int kMaxNesting = 64;

absl::Status CheckShape(std::string_view text, std::string_view file_name) {
  uint32_t line = 1, col = 0;
  int dots = 0, depth = 0;
  auto error = [&](const std::string& msg) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(file_name), ":", line, ":", col, ": error: ", msg));
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    ++col;
    if (c == '\n') {
      ++line;
      col = 0;
      dots = 0;
      continue;
    }
    if (c == '#') {  // a comment, to the end of the line
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
      continue;
    }
    if (c == '"' || c == '\'') {
      const bool triple = text.substr(i, 3) == std::string(3, c);
      const std::string_view close = triple ? text.substr(i, 3) : text.substr(i, 1);
      size_t j = i + close.size();
      for (; j < text.size(); ++j) {
        if (c == '"' && text[j] == '\\') {
          ++j;
          continue;
        }
        if (text.substr(j, close.size()) == close) break;
        if (!triple && text[j] == '\n') break;  // unterminated: toml++ reports it
      }
      for (size_t k = i; k < j && k < text.size(); ++k)
        if (text[k] == '\n') {
          ++line;
          col = 0;
        }
      i = std::min(text.size(), j + close.size()) - 1;
      continue;
    }
    if (c == '.' && ++dots >= kMaxKeyParts)
      return error(absl::StrCat("a key of more than ", kMaxKeyParts, " dotted parts"));
    if (c == '=' || c == ',') dots = 0;
    if (c == '[' || c == '{') {
      dots = 0;
      if (++depth > kMaxNesting)
        return error(absl::StrCat("nesting deeper than ", kMaxNesting, " levels"));
    }
    if (c == ']' || c == '}') {
      dots = 0;
      if (depth > 0) --depth;
    }
  }
  return absl::OkStatus();
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// The parts of a dotted key as written (`sandbox . "fs.read"`): split at
// the dots outside quotes, trimmed, quotes removed.
std::vector<std::string> KeyParts(std::string_view key) {
  std::vector<std::string> parts;
  size_t start = 0;
  char quote = 0;
  for (size_t i = 0; i <= key.size(); ++i) {
    const char c = i < key.size() ? key[i] : '.';
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      continue;
    }
    if (c != '.') continue;
    std::string_view part = Trim(key.substr(start, i - start));
    if (part.size() >= 2 && (part.front() == '"' || part.front() == '\'') &&
        part.back() == part.front())
      part = part.substr(1, part.size() - 2);
    parts.emplace_back(part);
    start = i + 1;
  }
  return parts;
}

// Where a value toml++ could not parse sits: the parts of the dotted key it
// is the value of (the table header above, any inline tables it is in, its
// own key: `sandbox`, `steps`), found from its line up to the error's
// column; empty when that holds no `key =`.
std::vector<std::string> KeyOfValue(std::string_view text, uint32_t line, uint32_t col,
                                    std::string_view* row_out) {
  std::vector<std::string> header;
  uint32_t n = 1;
  std::string_view row;
  bool found = false;
  for (size_t at = 0; at <= text.size(); ++n) {
    size_t nl = std::min(text.find('\n', at), text.size());
    std::string_view l = text.substr(at, nl - at);
    at = nl + 1;
    if (n == line) {
      row = l;
      found = true;
      break;
    }
    std::string_view t = Trim(l);
    if (t.starts_with('[')) {  // [table] or [[array of tables]]
      while (t.starts_with('[')) t.remove_prefix(1);
      header = KeyParts(t.substr(0, t.find(']')));
    }
  }
  *row_out = row;
  if (!found) return {};
  std::string_view before = row.substr(0, std::min<size_t>(row.size(), col > 0 ? col - 1 : 0));
  std::vector<std::vector<std::string>> open;  // keys of the inline tables the value is in
  std::vector<std::string> current;
  size_t start = 0;
  bool in_value = false;
  int brackets = 0;
  for (size_t i = 0; i < before.size(); ++i) {
    const char c = before[i];
    if (c == '"' || c == '\'') {  // a quoted key or string: skip to its end
      size_t end = before.find(c, i + 1);
      if (end == std::string_view::npos) break;
      i = end;
    } else if (c == '=' && brackets == 0) {
      current = KeyParts(before.substr(start, i - start));
      in_value = true;
    } else if (c == '{') {
      open.push_back(current);
      start = i + 1;
      in_value = false;
    } else if (c == '}') {
      if (!open.empty()) open.pop_back();
    } else if (c == '[') {
      ++brackets;
    } else if (c == ']') {
      if (brackets > 0) --brackets;
    } else if (c == ',' && brackets == 0) {
      start = i + 1;
      in_value = false;
    }
  }
  if (!in_value || current.empty()) return {};
  std::vector<std::string> parts = header;
  for (const std::vector<std::string>& o : open) parts.insert(parts.end(), o.begin(), o.end());
  parts.insert(parts.end(), current.begin(), current.end());
  return parts;
}

// toml++'s error, located. An integer TOML cannot hold (outside 64 bits)
// fails in toml++ before any key is seen: that error names the key it is the
// value of, at the integer, when its line shows one.
absl::Status TomlError(std::string_view text, std::string_view file_name,
                       const toml::parse_error& e) {
  const uint32_t line = e.source().begin.line, col = e.source().begin.column;
  const std::string description(e.description());
  auto error = [&](uint32_t at, const std::string& msg) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(file_name), ":", line, ":", at, ": error: ", msg));
  };
  const size_t q1 = description.find('\'');
  const size_t q2 = q1 == std::string::npos ? q1 : description.find('\'', q1 + 1);
  if (description.find("not representable") == std::string::npos || q2 == std::string::npos)
    return error(col, description);
  std::string number = description.substr(q1 + 1, q2 - q1 - 1);
  std::string_view row;
  std::vector<std::string> parts = KeyOfValue(text, line, col, &row);
  if (parts.empty()) return error(col, description);
  std::vector<std::string> shown;
  for (const std::string& p : parts) shown.push_back(KeyText(p));
  const std::string name = absl::StrJoin(shown, ".");
  size_t at = row.substr(0, std::min<size_t>(row.size(), col)).rfind(number);
  if (at != std::string_view::npos && at > 0 && (row[at - 1] == '-' || row[at - 1] == '+')) {
    --at;  // toml++ quotes the digits without their sign
    if (row[at] == '-') number = "-" + number;
  }
  const uint32_t number_col = at == std::string_view::npos ? col : static_cast<uint32_t>(at + 1);
  std::optional<ir::Key> key;
  if (parts.size() >= 2 && parts[0] == "sandbox")
    key = ir::FindKey(absl::StrJoin(parts.begin() + 1, parts.end(), "."));
  std::string why;
  if (key && key->kind == ir::Key::Kind::kLimit && number.starts_with('-'))
    why = absl::StrCat("expected a non-negative integer, got ", number);
  else if (key && key->kind == ir::Key::Kind::kLimit)
    why = absl::StrCat("`", key->name, "` is out of range: the integer ", number,
                       " is above the largest limit, ", ir::kMaxQuantity);
  else
    why = absl::StrCat("the integer ", number, " does not fit in 64 bits");
  return error(number_col, absl::StrCat("manifest key `", name, "`: ", why));
}

}  // namespace

absl::StatusOr<Policy> LoadManifest(std::string_view text, std::string_view file_name) {
  if (text.size() > kMaxManifestBytes)
    return absl::OutOfRangeError(
        absl::StrCat(std::string(file_name), ": error: manifest larger than the limit of ",
                     ir::FormatQuantity(ir::Unit::kSize, kMaxManifestBytes)));
  if (absl::Status shape = CheckShape(text, file_name); !shape.ok()) return shape;
  toml::table root;
#if TOML_EXCEPTIONS
  try {
    root = toml::parse(text, file_name);
  } catch (const toml::parse_error& e) {
    return TomlError(text, file_name, e);
  }
#else
  toml::parse_result result = toml::parse(text, file_name);
  if (!result) return TomlError(text, file_name, result.error());
  root = std::move(result).table();
#endif
  return Checker(file_name).Check(root);
}

}  // namespace mty
