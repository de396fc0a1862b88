// The policy, trap and builtin tables: every row is reachable by its name,
// the units parser reads back what it prints, and the lookups the layers
// use agree with the rows.
#include <set>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "mty/ir/builtins.h"
#include "mty/vocab/policy.h"
#include "mty/vocab/traps.h"

namespace mty::ir {
namespace {

TEST(TrapTable, EveryCodeHasItsTextAndBack) {
  std::set<std::string> texts;
  for (const TrapInfo& t : kTraps) {
    EXPECT_EQ(std::string(t.text).substr(0, 2), "MT");
    EXPECT_EQ(std::string(TrapText(t.code)), t.text);
    EXPECT_EQ(ParseTrapCode(t.text), t.code);
    EXPECT_TRUE(texts.insert(t.text).second) << t.text;
    EXPECT_NE(t.status, absl::StatusCode::kOk) << t.text;
  }
  EXPECT_EQ(ParseTrapCode("MT5999"), std::nullopt);
  EXPECT_STREQ(TrapText(TrapCode::kNone), "");
  EXPECT_EQ(Trap(TrapCode::kEscalated).exit_code, 8);
}

TEST(PolicyTable, EveryKeyAndAliasFindsItsRow) {
  for (const LimitInfo& l : kLimits) {
    std::optional<Key> k = FindKey(l.key);
    ASSERT_TRUE(k.has_value()) << l.key;
    EXPECT_EQ(k->kind, Key::Kind::kLimit);
    EXPECT_EQ(k->limit, l.id);
    if (l.alias[0] != '\0') {
      EXPECT_EQ(FindKey(l.alias)->limit, l.id) << l.alias;
    }
    // Each limit's breach names it: steps 3 ... output 9.
    Breach b = Breach::Over(l.id, 2, 1, "A#1");
    EXPECT_EQ(b.ExitCode(), l.exit_code);
    EXPECT_EQ(b.Code(), l.trap);
    EXPECT_FALSE(b.Message().empty());
  }
  for (const GrantInfo& g : kGrants) {
    std::optional<Key> k = FindKey(g.key);
    ASSERT_TRUE(k.has_value()) << g.key;
    EXPECT_EQ(k->grant, g.id);
  }
  EXPECT_EQ(FindKey("mb_policy")->kind, Key::Kind::kMbPolicy);
  EXPECT_FALSE(FindKey("stepz").has_value());
}

TEST(PolicyTable, UnitsReadBackWhatTheyPrint) {
  for (Unit u : {Unit::kCount, Unit::kSize, Unit::kDuration})
    for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{1000}, uint64_t{1024}, uint64_t{1500},
                       uint64_t{3} << 40, uint64_t{7200000000000}}) {
      std::string text = FormatQuantity(u, v);
      absl::StatusOr<uint64_t> back = ParseQuantity(u, text);
      ASSERT_TRUE(back.ok()) << text << ": " << back.status();
      EXPECT_EQ(*back, v) << text;
    }
  EXPECT_EQ(*ParseQuantity(Unit::kSize, "1TiB"), uint64_t{1} << 40);
  EXPECT_EQ(*ParseQuantity(Unit::kSize, "2MB"), 2000000u);
  EXPECT_EQ(*ParseQuantity(Unit::kSize, "1k"), 1000u);
  EXPECT_EQ(*ParseQuantity(Unit::kCount, "10k"), 10000u);
  EXPECT_EQ(*ParseQuantity(Unit::kCount, "1_000"), 1000u);
  EXPECT_FALSE(ParseQuantity(Unit::kCount, "1KiB").ok());  // a count takes no byte unit
  EXPECT_FALSE(ParseQuantity(Unit::kDuration, "5").ok());  // a duration needs a unit
  EXPECT_FALSE(ParseQuantity(Unit::kSize, "2s").ok());
  EXPECT_FALSE(ParseQuantity(Unit::kCount, "1__0").ok());
  EXPECT_FALSE(ParseQuantity(Unit::kCount, "_1").ok());
  EXPECT_FALSE(ParseQuantity(Unit::kCount, "99999999999999999999").ok());
  EXPECT_FALSE(ParseQuantity(Unit::kSize, "5000000TiB").ok());  // above 2^62
}

// Overflow, for every unit suffix: the largest multiple of the suffix that
// is at most kMaxQuantity parses exactly, one more is out of range, and so
// is every spelling whose product would wrap around 2^64 to a small number
// (`16777216TiB` is 2^64 B, naively 0).
TEST(PolicyTable, EveryUnitRefusesValuesBeyondItsRange) {
  for (const UnitSuffix& suffix : kUnitSuffixes) {
    for (Unit u : {Unit::kCount, Unit::kSize, Unit::kDuration}) {
      if (!SuffixFits(u, suffix.unit)) continue;
      const uint64_t top = kMaxQuantity / suffix.scale;
      const std::string at_top = absl::StrCat(top, suffix.text);
      absl::StatusOr<uint64_t> v = ParseQuantity(u, at_top);
      ASSERT_TRUE(v.ok()) << at_top << ": " << v.status();
      EXPECT_EQ(*v, top * suffix.scale) << at_top;
      for (uint64_t n : {top + 1, UINT64_MAX / suffix.scale + 1, UINT64_MAX / suffix.scale,
                         uint64_t{UINT64_MAX}}) {
        if (n <= top) continue;
        const std::string text = absl::StrCat(n, suffix.text);
        absl::StatusOr<uint64_t> bad = ParseQuantity(u, text);
        ASSERT_FALSE(bad.ok()) << text << " = " << *bad;
        EXPECT_EQ(bad.status().code(), absl::StatusCode::kOutOfRange) << text;
        EXPECT_EQ(bad.status().message(), absl::StrCat("'", text, "' is out of range"));
      }
      // More digits than 64 bits hold, before the suffix.
      const std::string huge = absl::StrCat("99999999999999999999999", suffix.text);
      EXPECT_EQ(ParseQuantity(u, huge).status().code(), absl::StatusCode::kOutOfRange) << huge;
    }
  }
  // Bare numbers: 2^62 is the largest; 2^64 and 2^64 + 1 would wrap.
  EXPECT_EQ(*ParseQuantity(Unit::kCount, "4611686018427387904"), kMaxQuantity);
  for (const char* text : {"4611686018427387905", "18446744073709551615", "18446744073709551616",
                           "18446744073709551617", "99999999999999999999"})
    EXPECT_EQ(ParseQuantity(Unit::kCount, text).status().code(), absl::StatusCode::kOutOfRange)
        << text;
  EXPECT_FALSE(ParseQuantity(Unit::kSize, "99999999999TiB").ok());
  EXPECT_FALSE(ParseQuantity(Unit::kDuration, "999999999999h").ok());
  // Every limit's parser names its key.
  for (const LimitInfo& l : kLimits) {
    const char* text = l.unit == Unit::kDuration ? "999999999999h"
                       : l.unit == Unit::kSize   ? "99999999999TiB"
                                                 : "99999999999999999999";
    absl::StatusOr<uint64_t> v = ParseLimitValue(l.id, text);
    ASSERT_FALSE(v.ok()) << l.key;
    EXPECT_TRUE(absl::StartsWith(v.status().message(), absl::StrCat("`", l.key, "`: ")))
        << v.status();
    EXPECT_TRUE(absl::EndsWith(v.status().message(), absl::StrCat("'", text, "' is out of range")))
        << v.status();
  }
}

TEST(PolicyTable, TightenTakesTheSmallerAndIntersectNarrows) {
  Policy a, b;
  a.limits.Set(LimitId::kSteps, 100);
  b.limits.Set(LimitId::kSteps, 50);
  b.limits.Set(LimitId::kOutput, 10);
  a.grants.Set(GrantId::kNet, std::vector<std::string>{"*.example.com"});
  b.grants.Set(GrantId::kNet, std::vector<std::string>{"api.example.com:443", "other.org"});
  Policy c = Policy::Intersect(a, b);
  EXPECT_EQ(c.limits.Get(LimitId::kSteps), 50u);
  EXPECT_EQ(c.limits.Get(LimitId::kOutput), 10u);
  EXPECT_EQ(c.grants.Get(GrantId::kNet), (std::vector<std::string>{"api.example.com:443"}));
  // `*` admits every host; Grants::All() everything.
  EXPECT_TRUE(ListAllows(GrantId::kNet, {"*"}, "anything.example:1"));
  EXPECT_TRUE(Grants::All().Allows(GrantId::kEnv, "HOME"));
  EXPECT_TRUE(Grants::All().Allows(GrantId::kFsWrite, "/etc/x"));
  // An unset list restricts nothing at its level; an empty one admits nothing.
  EXPECT_TRUE(Grants().Allows(GrantId::kNet, "h:1"));
  EXPECT_FALSE(ListAllows(GrantId::kNet, {}, "h:1"));
}

// Every reader of capability families and types goes through the
// CAPABILITY rows: a family is found by its name and serves exactly the
// grants of its `serves` column; a type finds its first (widest) row; a
// capability method fits exactly the families of its type.
TEST(CapabilityTable, FamiliesTypesAndGrantsComeFromTheRows) {
  std::set<std::string> families;
  for (const CapInfo& c : kCaps) {
    EXPECT_NE(FindCapType(c.type), nullptr) << c.type;
    EXPECT_STREQ(FindCapType(c.type)->type, c.type);
    if (*c.family == '\0') {
      EXPECT_EQ(c.serves, 0u) << c.type;
      continue;
    }
    EXPECT_TRUE(families.insert(c.family).second) << c.family;
    ASSERT_EQ(FindCapFamily(c.family), &c) << c.family;
    EXPECT_TRUE(absl::StrContains(CapFamilyList(), c.family));
    for (const GrantInfo& g : kGrants)
      EXPECT_EQ(CapValueServes(c.family, g.id), (c.serves >> static_cast<int>(g.id)) & 1)
          << c.family << " " << g.key;
    for (const CapMethodInfo& m : kCapMethods)
      EXPECT_EQ(CapFamilyFits(m, c.family), std::string(m.type) == c.type)
          << c.family << " " << MethodNameText(m.name);
  }
  EXPECT_EQ(FindCapFamily(""), nullptr);
  EXPECT_EQ(FindCapFamily("disk"), nullptr);
  EXPECT_FALSE(CapValueServes("fs.read", GrantId::kFsWrite));
  EXPECT_TRUE(CapValueServes("fs.write", GrantId::kFsRead));
  EXPECT_TRUE(CapValueServes("fs", GrantId::kFsWrite));
  EXPECT_FALSE(CapValueServes("net", GrantId::kEnv));
}

TEST(BuiltinTable, EveryRowIsFoundByItsName) {
  for (const BuiltinFnInfo& f : kBuiltinFns) {
    ASSERT_NE(FindBuiltinFn(f.name), nullptr) << f.name;
    EXPECT_EQ(FindBuiltinFn(f.name)->id, f.id);
    if (f.source[0] != '\0') {
      EXPECT_EQ(FindSourceBuiltin(f.source)->id, f.id);
    }
  }
  std::set<std::pair<int, int>> rows;
  for (const MethodInfo& m : kMethods) {
    EXPECT_EQ(FindMethodName(MethodNameText(m.name)), m.name);
    EXPECT_EQ(FindMethod(m.recv, m.name), &m);
    EXPECT_TRUE(rows.insert({static_cast<int>(m.recv), static_cast<int>(m.name)}).second)
        << MethodNameText(m.name) << " twice for one receiver";
    EXPECT_LE(m.min, m.max);
  }
  for (const PreludeInfo& p : kPreludeMethods)
    EXPECT_EQ(FindPreludeMethod(p.recv, p.name), &p) << MethodNameText(p.name);
  for (const EffectInfo& e : kEffects) {
    EXPECT_EQ(FindEffect(e.path), &e);
    std::string family = e.family;
    if (!family.empty()) {
      std::optional<Key> k = FindKey(family);  // a capability family is a grant of the policy table
      ASSERT_TRUE(k.has_value()) << e.path;
      EXPECT_EQ(k->kind, Key::Kind::kGrant);
    }
  }
  for (const CastInfo& c : kCasts) EXPECT_EQ(FindCast(c.name), &c);
  EXPECT_EQ(FindEffect("std.fs.nope"), nullptr);
  EXPECT_FALSE(FindMethodName("frobnicate").has_value());
}

}  // namespace
}  // namespace mty::ir
