#include "manifest.h"

#include <fcntl.h>
#include <toml++/toml.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <limits>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "mty/mty.h"

namespace mty::driver {
namespace {

constexpr char kKnownKeys[] =
    "fs.read, fs.write, net, env, steps, memory, cpu, wall, spawned, mailbox, mb_policy, depth";
constexpr size_t kMaxManifestBytes = size_t{1} << 20;

enum class Slot {
  kFsRead,
  kFsWrite,
  kNet,
  kEnv,
  kSteps,
  kMemory,
  kCpu,
  kWall,
  kSpawned,
  kMailbox,
  kMbPolicy,
  kDepth,
  kCount,
};

// Keys of [sandbox], aliases included. `"fs.read"` (a quoted key holding a
// dot) is accepted as the dotted key it looks like.
std::optional<Slot> SandboxSlot(std::string_view key) {
  static constexpr std::pair<std::string_view, Slot> kKeys[] = {
      {"fs.read", Slot::kFsRead},
      {"fs.write", Slot::kFsWrite},
      {"net", Slot::kNet},
      {"env", Slot::kEnv},
      {"steps", Slot::kSteps},
      {"memory", Slot::kMemory},
      {"mem", Slot::kMemory},
      {"cpu", Slot::kCpu},
      {"wall", Slot::kWall},
      {"spawned", Slot::kSpawned},
      {"mailbox", Slot::kMailbox},
      {"mb", Slot::kMailbox},
      {"mb_policy", Slot::kMbPolicy},
      {"depth", Slot::kDepth},
  };
  for (const auto& [name, slot] : kKeys) {
    if (name == key) return slot;
  }
  return std::nullopt;
}

std::optional<Slot> FsSlot(std::string_view key) {
  if (key == "read") return Slot::kFsRead;
  if (key == "write") return Slot::kFsWrite;
  return std::nullopt;
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
// those of its `fs` sub-table, visited in source order.
struct Entry {
  enum class Kind {
    kUnknownTop,       // a top-level key other than `sandbox`
    kSandboxNotTable,  // `sandbox = 1`, `[[sandbox]]`
    kFsNotTable,       // `fs = 1` in [sandbox]
    kUnknown,          // an unknown key in [sandbox] or [sandbox.fs]
    kValue,            // a known key
  };
  toml::source_position pos;  // of the key
  Kind kind;
  std::string name;  // dotted, e.g. `sandbox.fs.read`
  Slot slot = Slot::kCount;
  const toml::node* node;
};

class Checker {
 public:
  explicit Checker(std::string_view file_name) : file_name_(std::string(file_name)) {}

  absl::StatusOr<Manifest> Check(const toml::table& root) {
    std::vector<Entry> entries;
    bool has_sandbox = false;
    for (auto&& [key, node] : root) {
      if (key.str() != "sandbox") {
        entries.push_back({key.source().begin, Entry::Kind::kUnknownTop, KeyText(key.str()),
                           Slot::kCount, &node});
        continue;
      }
      has_sandbox = true;
      const toml::table* sandbox = node.as_table();
      if (sandbox == nullptr) {
        entries.push_back(
            {key.source().begin, Entry::Kind::kSandboxNotTable, "sandbox", Slot::kCount, &node});
        continue;
      }
      Flatten(*sandbox, entries);
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
    return std::move(manifest_);
  }

 private:
  static void Flatten(const toml::table& sandbox, std::vector<Entry>& out) {
    for (auto&& [key, node] : sandbox) {
      std::string name = absl::StrCat("sandbox.", KeyText(key.str()));
      if (key.str() == "fs") {
        const toml::table* fs = node.as_table();
        if (fs == nullptr) {
          out.push_back(
              {key.source().begin, Entry::Kind::kFsNotTable, std::move(name), Slot::kCount, &node});
          continue;
        }
        for (auto&& [fs_key, fs_node] : *fs) {
          std::optional<Slot> slot = FsSlot(fs_key.str());
          out.push_back({fs_key.source().begin, slot ? Entry::Kind::kValue : Entry::Kind::kUnknown,
                         absl::StrCat(name, ".", KeyText(fs_key.str())),
                         slot.value_or(Slot::kCount), &fs_node});
        }
        continue;
      }
      std::optional<Slot> slot = SandboxSlot(key.str());
      out.push_back({key.source().begin, slot ? Entry::Kind::kValue : Entry::Kind::kUnknown,
                     std::move(name), slot.value_or(Slot::kCount), &node});
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
      case Entry::Kind::kFsNotTable:
        return KeyError(value_pos, e.name,
                        absl::StrCat("expected a table (write `fs.read = [..]` and `fs.write = "
                                     "[..]`), got ",
                                     TypeName(*e.node)));
      case Entry::Kind::kUnknown:
        return Error(e.pos,
                     absl::StrCat("unknown manifest key `", e.name, "` (known: ", kKnownKeys, ")"));
      case Entry::Kind::kValue: break;
    }
    auto& seen = seen_[static_cast<size_t>(e.slot)];
    if (seen) {
      return KeyError(e.pos, e.name,
                      absl::StrCat("duplicates `", seen->first, "` (line ", seen->second,
                                   "); set only one of them"));
    }
    seen.emplace(e.name, e.pos.line);
    return SetValue(e);
  }

  absl::Status SetValue(const Entry& e) {
    switch (e.slot) {
      case Slot::kFsRead: return Strings(e, manifest_.fs_read);
      case Slot::kFsWrite: return Strings(e, manifest_.fs_write);
      case Slot::kNet: return Strings(e, manifest_.net);
      case Slot::kEnv: return Strings(e, manifest_.env);
      case Slot::kSteps: return Count(e, manifest_.steps);
      case Slot::kSpawned: return Count(e, manifest_.spawned);
      case Slot::kMemory: return Size(e, /*bytes=*/true, manifest_.memory);
      case Slot::kMailbox: return Size(e, /*bytes=*/false, manifest_.mailbox);
      case Slot::kCpu: return Duration(e, manifest_.cpu_ns);
      case Slot::kWall: return Duration(e, manifest_.wall_ns);
      case Slot::kMbPolicy: return Policy(e);
      case Slot::kDepth: return Depth(e);
      case Slot::kCount: break;
    }
    return absl::InternalError("manifest: no slot");
  }

  absl::Status Strings(const Entry& e, std::optional<std::vector<std::string>>& out) {
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
      values.push_back(s->get());
    }
    out = std::move(values);
    return absl::OkStatus();
  }

  // A non-negative integer.
  absl::StatusOr<uint64_t> Unsigned(const Entry& e, const std::string& expected) {
    const toml::value<int64_t>* v = e.node->as_integer();
    if (v == nullptr) {
      return KeyError(e.node->source().begin, e.name,
                      absl::StrCat("expected ", expected, ", got ", TypeName(*e.node)));
    }
    if (v->get() < 0) {
      return KeyError(e.node->source().begin, e.name,
                      absl::StrCat("expected a non-negative integer, got ", v->get()));
    }
    return static_cast<uint64_t>(v->get());
  }

  absl::Status Count(const Entry& e, std::optional<uint64_t>& out) {
    absl::StatusOr<uint64_t> n = Unsigned(e, "an integer");
    if (!n.ok()) return n.status();
    out = *n;
    return absl::OkStatus();
  }

  absl::Status Depth(const Entry& e) {
    absl::StatusOr<uint64_t> n = Unsigned(e, "an integer");
    if (!n.ok()) return n.status();
    if (*n == 0) return KeyError(e.node->source().begin, e.name, "depth must be at least 1");
    if (*n > std::numeric_limits<uint32_t>::max()) {
      return KeyError(e.node->source().begin, e.name,
                      absl::StrCat("depth ", *n, " is out of range (at most ",
                                   std::numeric_limits<uint32_t>::max(), ")"));
    }
    manifest_.depth = static_cast<uint32_t>(*n);
    return absl::OkStatus();
  }

  // `memory`: bytes, an integer or "64MiB". `mailbox`: messages, an integer
  // or a count such as "1k" (decimal suffixes only).
  absl::Status Size(const Entry& e, bool bytes, std::optional<uint64_t>& out) {
    const char* example = bytes ? "\"64MiB\"" : "\"1k\"";
    const char* what = bytes ? "size" : "count";
    if (const toml::value<std::string>* s = e.node->as_string()) {
      std::string_view text = s->get();
      bool ok = true;
      if (!bytes) {
        size_t digits = std::min(text.size(), text.find_first_not_of("0123456789_"));
        std::string_view unit = text.substr(digits);
        ok = unit.empty() || unit == "k" || unit == "M" || unit == "G";
      }
      absl::StatusOr<int64_t> n = ok ? mty::ParseSize(text) : absl::InvalidArgumentError("unit");
      if (!n.ok()) {
        return KeyError(e.node->source().begin, e.name,
                        absl::StrCat("bad ", what, " ", Quoted(text),
                                     " (expected an integer or a string like ", example, ")"));
      }
      out = static_cast<uint64_t>(*n);
      return absl::OkStatus();
    }
    absl::StatusOr<uint64_t> n =
        Unsigned(e, absl::StrCat("an integer or a ", what, " string like ", example));
    if (!n.ok()) return n.status();
    out = *n;
    return absl::OkStatus();
  }

  absl::Status Duration(const Entry& e, std::optional<int64_t>& out) {
    constexpr char kExpected[] = "a string like \"150ms\" or \"2s\"";
    if (const toml::value<int64_t>* i = e.node->as_integer()) {
      return KeyError(e.node->source().begin, e.name,
                      absl::StrCat("a duration needs a unit: got the bare integer ", i->get(),
                                   ", use ", kExpected));
    }
    const toml::value<std::string>* s = e.node->as_string();
    if (s == nullptr) {
      return KeyError(
          e.node->source().begin, e.name,
          absl::StrCat("expected a duration, ", kExpected, ", got ", TypeName(*e.node)));
    }
    absl::StatusOr<int64_t> ns = mty::ParseDuration(s->get());
    if (!ns.ok()) {
      return KeyError(
          e.node->source().begin, e.name,
          absl::StrCat("bad duration ", Quoted(s->get()), " (expected ", kExpected, ")"));
    }
    out = *ns;
    return absl::OkStatus();
  }

  absl::Status Policy(const Entry& e) {
    constexpr char kExpected[] = "\"block\", \"drop\" or \"fail\"";
    const toml::value<std::string>* s = e.node->as_string();
    if (s == nullptr) {
      return KeyError(e.node->source().begin, e.name,
                      absl::StrCat("expected a string (", kExpected, "), got ", TypeName(*e.node)));
    }
    const std::string& p = s->get();
    if (p != "block" && p != "drop" && p != "fail") {
      return KeyError(
          e.node->source().begin, e.name,
          absl::StrCat("bad mailbox policy ", Quoted(p), " (expected ", kExpected, ")"));
    }
    manifest_.mb_policy = p;
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
  Manifest manifest_;
  std::array<std::optional<std::pair<std::string, uint32_t>>, static_cast<size_t>(Slot::kCount)>
      seen_;
};

absl::Status ReadError(const std::string& path, int err) {
  std::string msg = absl::StrCat(
      path, ": error: cannot read manifest file: ", std::generic_category().message(err));
  if (err == ENOENT) return absl::NotFoundError(msg);
  return absl::InvalidArgumentError(msg);
}

}  // namespace

absl::StatusOr<Manifest> ParseManifest(std::string_view text, std::string_view file_name) {
  toml::table root;
#if TOML_EXCEPTIONS
  try {
    root = toml::parse(text, file_name);
  } catch (const toml::parse_error& e) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(file_name), ":", e.source().begin.line, ":",
                     e.source().begin.column, ": error: ", std::string(e.description())));
  }
#else
  toml::parse_result result = toml::parse(text, file_name);
  if (!result) {
    const toml::parse_error& e = result.error();
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(file_name), ":", e.source().begin.line, ":",
                     e.source().begin.column, ": error: ", std::string(e.description())));
  }
  root = std::move(result).table();
#endif
  return Checker(file_name).Check(root);
}

absl::StatusOr<Manifest> LoadManifest(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ReadError(path, errno);
  std::string text;
  char buf[16384];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      close(fd);
      return ReadError(path, err);
    }
    if (n == 0) break;
    text.append(buf, static_cast<size_t>(n));
    if (text.size() > kMaxManifestBytes) {
      close(fd);
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": error: manifest file is too large (over 1 MiB)"));
    }
  }
  close(fd);
  return ParseManifest(text, path);
}

}  // namespace mty::driver
