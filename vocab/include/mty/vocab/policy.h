// The policy table (policy.def) and what is built from it: the one units
// parser, the limit and grant tables, the `Limits`, `Grants` and `Policy`
// values with their tighten/intersect rules, the breach texts, and the one
// implementation of what a grant admits (paths by whole components, host
// patterns, variable names). Every front (source, MtyIR, manifests, flags,
// the API) and every enforcer (runtime trackers, capability checks, the
// static check of `mty check --manifest`) uses these, so they cannot
// disagree.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "mty/vocab/traps.h"

namespace mty::ir {

// ---- Units -----------------------------------------------------------------

enum class Unit : uint8_t { kCount, kSize, kDuration };

struct UnitSuffix {
  const char* text;
  Unit unit;
  uint64_t scale;  // ns per unit for durations; bytes or items for the others
};

// Every unit suffix a quantity may carry. A count takes the decimal
// multipliers k, M, G; a size takes those and the byte units; a duration
// needs one of its own units.
inline constexpr UnitSuffix kUnitSuffixes[] = {
    {"ns", Unit::kDuration, 1},
    {"us", Unit::kDuration, 1000},
    {"ms", Unit::kDuration, 1000000},
    {"s", Unit::kDuration, 1000000000},
    {"m", Unit::kDuration, 60000000000},
    {"h", Unit::kDuration, 3600000000000},
    {"B", Unit::kSize, 1},
    {"KiB", Unit::kSize, uint64_t{1} << 10},
    {"MiB", Unit::kSize, uint64_t{1} << 20},
    {"GiB", Unit::kSize, uint64_t{1} << 30},
    {"TiB", Unit::kSize, uint64_t{1} << 40},
    {"kB", Unit::kSize, 1000},
    {"MB", Unit::kSize, 1000000},
    {"GB", Unit::kSize, 1000000000},
    {"TB", Unit::kSize, 1000000000000},
    {"k", Unit::kCount, 1000},
    {"M", Unit::kCount, 1000000},
    {"G", Unit::kCount, 1000000000},
};

// The suffix row for `text` (nullptr when there is none).
const UnitSuffix* FindUnitSuffix(std::string_view text);
// Whether a suffix of unit `suffix` may be written on a quantity of `want`.
bool SuffixFits(Unit want, Unit suffix);

// The largest quantity (durations are int64 nanoseconds).
inline constexpr uint64_t kMaxQuantity = uint64_t{1} << 62;

// Parses a quantity: digits (`_` allowed between them), then a suffix that
// fits `unit` (a duration needs one; counts and sizes may be bare). Values
// above kMaxQuantity are out of range. Errors say what was expected.
absl::StatusOr<uint64_t> ParseQuantity(Unit unit, std::string_view text);
// The canonical spelling: `1500` for counts, `64KiB` or `100B` for sizes,
// `150ms` for durations. ParseQuantity(u, FormatQuantity(u, v)) == v.
std::string FormatQuantity(Unit unit, uint64_t value);
// What a unit's values are called: in option synopses (`--steps N`) and in
// errors ("expected a size such as 64MiB"). Row i is Unit i.
struct UnitInfo {
  Unit unit;
  const char* placeholder;  // "N", "SIZE", "DUR"
  const char* expectation;  // "a count such as 1000 or 10k", ...
};
inline constexpr UnitInfo kUnits[] = {
    {Unit::kCount, "N", "a count such as 1000 or 10k"},
    {Unit::kSize, "SIZE", "a size such as 64MiB"},
    {Unit::kDuration, "DUR", "a duration such as 150ms"},
};
constexpr const UnitInfo& Info(Unit unit) { return kUnits[static_cast<size_t>(unit)]; }
static_assert(Info(Unit::kDuration).unit == Unit::kDuration);
inline const char* UnitExpectation(Unit unit) { return Info(unit).expectation; }

// ---- The table -------------------------------------------------------------

enum class LimitId : uint8_t {
#define LIMIT(id, key, alias, unit, min, trap, exit, breach, doc) k##id,
#include "mty/vocab/policy.def"
#undef LIMIT
};
enum class GrantId : uint8_t {
#define GRANT(id, key, entry, flag, doc) k##id,
#include "mty/vocab/policy.def"
#undef GRANT
};
enum class MailboxPolicy : uint8_t { kBlock, kDrop, kFail };
enum class EntryKind : uint8_t { kPath, kHost, kName };
// What a grant's entries are called in option synopses (`--allow-read PATH`).
constexpr const char* EntryPlaceholder(EntryKind kind) {
  constexpr const char* kNames[] = {"PATH", "HOST", "NAME"};
  return kNames[static_cast<size_t>(kind)];
}

struct LimitInfo {
  LimitId id;
  const char* key;
  const char* alias;  // "" for none
  Unit unit;
  uint64_t min;
  TrapCode trap;
  int exit_code;
  const char* breach;  // with {limit}, {used}, {subject}
  const char* doc;
};
inline constexpr LimitInfo kLimits[] = {
#define LIMIT(id, key, alias, unit, min, trap, exit, breach, doc) \
  {LimitId::k##id, key, alias, Unit::unit, min, TrapCode::trap, exit, breach, doc},
#include "mty/vocab/policy.def"
#undef LIMIT
};
inline constexpr size_t kNumLimits = sizeof(kLimits) / sizeof(kLimits[0]);

struct GrantInfo {
  GrantId id;
  const char* key;
  EntryKind entry;
  const char* flag;  // without the leading `--`
  const char* doc;
};
inline constexpr GrantInfo kGrants[] = {
#define GRANT(id, key, entry, flag, doc) {GrantId::k##id, key, EntryKind::entry, flag, doc},
#include "mty/vocab/policy.def"
#undef GRANT
};
inline constexpr size_t kNumGrants = sizeof(kGrants) / sizeof(kGrants[0]);

struct ChoiceInfo {
  const char* key;
  const char* values;  // "block|drop|fail"
  const char* doc;
};
inline constexpr ChoiceInfo kMbPolicyChoice = {
#define CHOICE(id, key, values, doc) key, values, doc
#include "mty/vocab/policy.def"
#undef CHOICE
};

inline const LimitInfo& Limit(LimitId id) { return kLimits[static_cast<size_t>(id)]; }
inline const GrantInfo& Grant(GrantId id) { return kGrants[static_cast<size_t>(id)]; }

// ---- Capabilities (the CAPABILITY rows) -------------------------------------

// A grant as a bit of a capability's `serves` column.
enum GrantBit : uint32_t {
#define GRANT(id, key, entry, flag, doc) k##id##Bit = 1u << static_cast<uint32_t>(GrantId::k##id),
#include "mty/vocab/policy.def"
#undef GRANT
};
enum class CapId : uint8_t {
#define CAPABILITY(id, family, type, serves) k##id,
#include "mty/vocab/policy.def"
#undef CAPABILITY
};
struct CapInfo {
  CapId id;
  const char* family;  // the run-time family ("" for a type without values)
  const char* type;    // the type name programs declare it with
  uint32_t serves;     // GrantBits
};
inline constexpr CapInfo kCaps[] = {
#define CAPABILITY(id, family, type, serves) {CapId::k##id, family, type, serves},
#include "mty/vocab/policy.def"
#undef CAPABILITY
};
inline const CapInfo& Cap(CapId id) { return kCaps[static_cast<size_t>(id)]; }
// The row of run-time family `family`, or nullptr ("" is none).
const CapInfo* FindCapFamily(std::string_view family);
// The first (widest) row of capability type `type` ("Fs"), or nullptr.
const CapInfo* FindCapType(std::string_view type);
// The families, comma-separated, for messages: "fs, fs.read, ...".
std::string CapFamilyList();
// Whether a capability value of family `family` serves an effect that needs
// grant `id` (its row's `serves` column: `fs` serves reading and writing,
// `fs.write` reading too, any other family only its own grant).
bool CapValueServes(std::string_view family, GrantId id);

// Defaults that apply when a run leaves a limit unset.
inline constexpr uint64_t kDefaultDepth = 10000;
inline constexpr uint64_t kDefaultMailbox = 1024;

// One entry name of any kind (aliases included): `steps`, `mem`, `mb_policy`,
// `fs.read`, ...
struct Key {
  enum class Kind : uint8_t { kLimit, kMbPolicy, kGrant };
  Kind kind = Kind::kLimit;
  LimitId limit = LimitId::kSteps;
  GrantId grant = GrantId::kFsRead;
  const char* name = "";  // the canonical key
};
std::optional<Key> FindKey(std::string_view key);
// Every key, canonical names, comma-separated (for "known: ..." messages).
std::string KnownKeys();

const char* MailboxPolicyName(MailboxPolicy p);
// The choice's words for messages: `"block", "drop" or "fail"`.
std::string ChoiceList(const ChoiceInfo& choice);
std::optional<MailboxPolicy> ParseMailboxPolicy(std::string_view text);

// ---- Values ----------------------------------------------------------------

// Limits of one run, sandbox or manifest. Unset is unlimited; a value is
// used as given ("use > limit" breaches, so a limit of 0 allows nothing).
class Limits {
 public:
  std::optional<uint64_t> Get(LimitId id) const { return v_[static_cast<size_t>(id)]; }
  void Set(LimitId id, std::optional<uint64_t> value) { v_[static_cast<size_t>(id)] = value; }
  // The tightest of this and `other`: the smaller of each limit; `other`'s
  // mailbox policy when it sets one.
  void Tighten(const Limits& other);
  bool empty() const;
  std::optional<MailboxPolicy> mb_policy;
  bool operator==(const Limits&) const = default;

 private:
  std::array<std::optional<uint64_t>, kNumLimits> v_{};
};

// Allow-lists per family. Unset (nullopt) restricts nothing at this level
// (a run's root treats an unset family as denied: see docs/sandboxing.md);
// an empty list allows nothing.
class Grants {
 public:
  const std::optional<std::vector<std::string>>& Get(GrantId id) const {
    return lists_[static_cast<size_t>(id)];
  }
  void Set(GrantId id, std::optional<std::vector<std::string>> list) {
    lists_[static_cast<size_t>(id)] = std::move(list);
  }
  // Appends an entry, creating the list.
  void Add(GrantId id, std::string entry);
  // Everything in every family (`--allow-all`): fs roots `/`, net `*`, env `*`.
  static Grants All();
  // What both admit: a family set on one side is that side's list; set on
  // both, the intersection (paths by whole components, host patterns by
  // their meet, names exactly).
  static Grants Intersect(const Grants& a, const Grants& b);
  // Whether this level admits `request` for the family (an unset list
  // admits everything): a path (made absolute and normalised), `host:port`
  // (or `host`), or a variable name.
  bool Allows(GrantId id, std::string_view request) const;
  bool operator==(const Grants&) const = default;

 private:
  std::array<std::optional<std::vector<std::string>>, kNumGrants> lists_;
};

struct Policy {
  Limits limits;
  Grants grants;
  // The tightest limits and the intersected grants of both.
  static Policy Intersect(const Policy& a, const Policy& b);
  bool operator==(const Policy&) const = default;
};

// Setting entries from text, for every front. Each checks the value against
// the key's row (unit, minimum, policy words, entry syntax) and names the
// key in its error.
absl::StatusOr<uint64_t> ParseLimitValue(LimitId id, std::string_view text);
absl::Status CheckLimitValue(LimitId id, uint64_t value);
absl::Status CheckGrantEntry(GrantId id, std::string_view entry);
// The entry that admits everything of a family: `/` for paths, `*` else
// (Grants::All, a bare `--allow-read`).
const char* EveryEntry(GrantId id);

// The breach message of runtime.md §1 without the `trap MT5009: ` prefix,
// e.g. "step budget exceeded: 1000 steps". `limit` and `used` are in the
// limit's unit (ns for durations).
std::string BreachText(LimitId id, uint64_t limit, uint64_t used = 0,
                       std::string_view subject = "");

// One limit gone over, or one capability request refused: what a budget
// tracker reports and what a run's result carries.
// The subject of a memory breach at the real-bytes ceiling (runtime.md §2),
// not the estimate: its message says `real heap`.
inline constexpr char kRealHeapSubject[] = "real heap";
// The subject of a memory breach by the copy of the value a run returns to
// its host (docs/embedding.md): observed is the copy's estimate, bound the
// memory limit (or the most that crosses without one).
inline constexpr char kReturnedValueSubject[] = "returned value";

struct Breach {
  std::optional<LimitId> limit;  // exactly one of limit and grant is set
  std::optional<GrantId> grant;
  uint64_t observed = 0;  // the use that went over (ns for durations)
  uint64_t bound = 0;     // the limit it went over
  std::string subject;    // the mailbox's agent; the refused path, host or name
  std::string sandbox;    // the tracker whose limit or grant it was ("" = the run's own)

  static Breach Over(LimitId id, uint64_t observed, uint64_t bound, std::string subject = "",
                     std::string sandbox = "");
  static Breach Denied(GrantId id, std::string subject, std::string sandbox = "");
  // The key of the limit or grant (`steps`, `fs.read`, ...).
  const char* Key() const;
  // The limit's trap code (MT5009, MT5012, MT5018), MT5015 for a grant.
  TrapCode Code() const;
  // `mty run`'s exit code: the limit's row; 1 for a grant.
  int ExitCode() const;
  // BreachText (or `capability not granted: fs.read /etc/passwd`),
  // preceded by `sandbox <name>: ` for a named sandbox.
  std::string Message() const;
  // The code's status (kResourceExhausted, kPermissionDenied); message
  // `MT5009: <Message()>`.
  absl::Status ToStatus() const;
  bool operator==(const Breach&) const = default;
};

// ---- What a grant admits -----------------------------------------------------

// `path` made absolute against the working directory and lexically
// normalised (`.`, `..`, repeated `/`), without resolving symlinks. "" for an
// empty path, a path holding NUL, or a relative path when there is no cwd.
std::string NormalizePath(std::string_view path);
// Whether the normalised `path` is `root` or below it by whole components
// (`/data` holds `/data/x`, not `/database`). Both must be normalised.
bool PathWithin(std::string_view root, std::string_view path);
// Whether a net entry (`host`, `host:port`, `[v6]:port`, `*.suffix`, `*`,
// `*:port`) admits `host_port` (`host:port` or `host`). Hosts compare
// case-insensitively; a trailing `.` (FQDN form) is ignored on both.
bool HostEntryAllows(std::string_view entry, std::string_view host_port);
// Whether any entry of the list admits the request (per family).
bool ListAllows(GrantId id, const std::vector<std::string>& list, std::string_view request);

// The largest program text, MtyIR or Mighty source, that mty compiles
// (runtime.md §2, "Compiling is bounded too"): longer text is an error
// located at 1:1 before anything else is done with it, and `mty run`
// refuses a larger file before reading it.
inline constexpr size_t kMaxProgramBytes = size_t{16} << 20;
std::string ProgramTooLargeMessage(size_t bytes);

}  // namespace mty::ir
