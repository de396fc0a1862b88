// The .mtyir text format: round trips, constants, and located errors for
// malformed input (never a crash).
#include "mty/ir/text.h"

#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "mty/ir/verify.h"
#include "mty/vocab/utf8.h"

namespace mty::ir {
namespace {

// A program using every construct of the text format.
constexpr const char* kEverything = R"(mtyir 1
source "everything.mty"

struct Point { x: I64, y: I64 }

enum Shape {
  Circle(F64),
  Rect(F64, F64),
  Empty,
}

fn Point::sum(_1: &mut Point "self", _2: I64) -> I64 {
  let _3: I64
bb0:
  _3 = copy _1.*.f0 + copy _1.*.f1
  _1.*.f0 = copy _2
  _0 = copy _3 * copy _2 @3:7
  return @4:1
}

fn helper(_1: I64, _2: (I64, Str)) -> fn(I64) -> [I64] {
  let mut _3: Map[Str, I64]
  let _4: [I64]
  let _5: Option[I64] "opt"
  let _6: &mut I64
bb0:
  storage_live _3
  _3 = map{"a": 1, "b": -2}
  _4 = [1, 2, copy _1]
  _4[_1] = 7
  _5 = new Option::Some(copy _4[_1])
  _6 = &mut _1
  _1 = *copy _6
  drop _5
  storage_dead _3
  arena_push 0
  arena_pop 0
  nop
  _0 = closure fn_like(copy _1)
  switch_int copy _1 {0 => bb1, -5 => bb2, _ => bb3}
bb1:
  effect std.time.sleep(10ms)
  _1 = effect std.fs.read("/tmp/x")
  suspend resume bb2
bb2:
  switch_variant copy _5 {0 => bb3, _ => bb4}
bb3:
  try_return_err copy _5
bb4:
  panic "boom\n\"quoted\" \u{1f600} é"
}

fn fn_like(_1: I64, _2: I64) -> I64 {
  let _3: Point
  let _4: Shape
  let _5: (I64, Bool, Char, F64)
  let _6: Str
bb0:
  _3 = new Point(1, copy _2)
  _4 = new Shape::Empty()
  _4 = new Shape::Rect(1.5, 2.0)
  _5 = tuple(copy _1, true, 'x', -0.25)
  _1 = field copy _3, 1
  _1 = tuple_get copy _5, 0
  _1 = index copy _6, copy _1
  _1 = len copy _6
  _6 = cast copy _1 as Str
  _1 = call fn_like(copy _1, 2)
  _1 = call @log("hi")
  _1 = call_indirect fn fn_like(1, 2)
  _1 = method _6, len()
  _1 = spawn Worker(1)
  _1 = send copy _1, Ping(2)
  _1 = ask copy _1, Ping(3) within 2s
  _1 = cap fs.read "/data"
  _1 = -copy _1
  _1 = !copy _1
  _1 = copy _5.3 / 1e300
  _1 = (), 
  goto bb1
bb1:
  if false then bb2 else bb2
bb2:
  unreachable
}
)";

TEST(IrText, RoundTripIsExact) {
  // The stray `_1 = (), ` line above is a deliberate syntax error; strip it.
  std::string src = kEverything;
  src.erase(src.find("  _1 = (), \n"), 12);
  auto p = ParseText(src, "everything.mtyir");
  ASSERT_TRUE(p.ok()) << p.status();
  std::string once = PrintText(*p);
  auto q = ParseText(once, "printed.mtyir");
  ASSERT_TRUE(q.ok()) << q.status() << "\n" << once;
  EXPECT_EQ(PrintText(*q), once);
  // Explicit locations survive; everything else is structurally equal.
  EXPECT_EQ(q->functions[0].blocks[0].stmts[2].loc, (Loc{3, 7}));
  EXPECT_TRUE(q->functions[0].blocks[0].stmts[2].loc_explicit);
  EXPECT_EQ(q->adts, p->adts);
  ASSERT_EQ(q->functions.size(), p->functions.size());
  for (size_t i = 0; i < p->functions.size(); ++i) {
    EXPECT_EQ(q->functions[i].locals, p->functions[i].locals);
    EXPECT_EQ(q->functions[i].blocks.size(), p->functions[i].blocks.size());
  }
}

TEST(IrText, ParsedLocationsPointIntoTheText) {
  auto p = ParseText("fn main() -> Unit {\nbb0:\n  nop\n  return\n}\n", "m.mtyir");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->functions[0].blocks[0].stmts[0].loc, (Loc{3, 3}));
  EXPECT_EQ(p->functions[0].blocks[0].term.loc, (Loc{4, 3}));
  EXPECT_FALSE(p->functions[0].blocks[0].term.loc_explicit);
}

TEST(IrText, ConstantsPrintCanonically) {
  EXPECT_EQ(PrintConstant(Constant::Float(7.0)), "7.0");
  EXPECT_EQ(PrintConstant(Constant::Float(0.1)), "0.1");
  EXPECT_EQ(PrintConstant(Constant::Float(-1e300)), "-1e+300");
  EXPECT_EQ(PrintConstant(Constant::Int(INT64_MIN)), "-9223372036854775808");
  EXPECT_EQ(PrintConstant(Constant::UInt(UINT64_MAX)), "u64 18446744073709551615");
  EXPECT_EQ(PrintConstant(Constant::UInt(0)), "u64 0");
  EXPECT_EQ(PrintConstant(Constant::Duration(150'000'000)), "150ms");
  EXPECT_EQ(PrintConstant(Constant::Duration(2'000'000'000)), "2s");
  EXPECT_EQ(PrintConstant(Constant::Duration(1'500'000'000)), "1500ms");
  EXPECT_EQ(PrintConstant(Constant::Size(88)), "88B");
  EXPECT_EQ(PrintConstant(Constant::Size(64 * 1024)), "64KiB");
  EXPECT_EQ(PrintConstant(Constant::Size(1 << 20)), "1MiB");
  EXPECT_EQ(PrintConstant(Constant::Char('\'')), "'\\''");
  EXPECT_EQ(PrintConstant(Constant::Str("a\"b\\\n")), "\"a\\\"b\\\\\\n\"");
  EXPECT_EQ(PrintConstant(Constant::Str(std::string("\x01", 1))), "\"\\u{1}\"");
}

TEST(IrText, SizesAndDurations) {
  EXPECT_EQ(*ParseSize("88B"), 88);
  EXPECT_EQ(*ParseSize("64KiB"), 65536);
  EXPECT_EQ(*ParseSize("1MiB"), 1048576);
  EXPECT_EQ(*ParseSize("1k"), 1000);
  EXPECT_EQ(*ParseSize("2M"), 2000000);
  EXPECT_FALSE(ParseSize("12XB").ok());
  EXPECT_FALSE(ParseSize("").ok());
  EXPECT_FALSE(ParseSize("99999999999999999999GiB").ok());
  EXPECT_EQ(*ParseDuration("150ms"), 150000000);
  EXPECT_EQ(*ParseDuration("3m"), 180000000000);
  EXPECT_FALSE(ParseDuration("5parsecs").ok());
}

struct BadCase {
  const char* text;
  const char* want;  // expected prefix "file:line:col: error: ..." (substring)
};

TEST(IrText, MalformedTextGetsALocatedError) {
  const BadCase cases[] = {
      {"mtyir 2\n", "bad.mtyir:1:7: error: unsupported mtyir version 2"},
      {"fn main() -> Unit {\nbb0:\n  _0 = \"abc\n  return\n}\n",
       "bad.mtyir:3:8: error: unterminated string literal"},
      {"fn main() -> Unit {\nbb0:\n  _0 = \"a\\qb\"\n  return\n}\n",
       "bad.mtyir:3:10: error: unknown escape '\\q'"},
      {"fn main() -> Unit {\n  let _2: I64\nbb0:\n  return\n}\n",
       "bad.mtyir:2:7: error: local must be _1"},
      {"fn main() -> Unit {\nbb0:\n  nop\n}\n", "bad.mtyir:4:1: error: expected a statement"},
      {"fn main() -> Unit {\nbb0:\n  nop\nbb1:\n  return\n}\n",
       "bad.mtyir:4:1: error: block ends without a terminator"},
      {"fn main() -> Unit {\nbb1:\n  return\n}\n", "bad.mtyir:2:1: error: block must be bb0"},
      {"fn main() -> Unit {\nbb0:\n  _0 = 5parsecs\n  return\n}\n",
       "bad.mtyir:3:8: error: unknown unit suffix 'parsecs'"},
      {"fn main() -> Unit {\nbb0:\n  _0 = 99999999999999999999\n  return\n}\n",
       "bad.mtyir:3:8: error: integer literal out of range"},
      {"fn main() -> Unit {\nbb0:\n  _0 = 9223372036854775808\n  return\n}\n",
       "bad.mtyir:3:8: error: integer literal out of range for I64"},
      {"fn main() -> Unit {\nbb0:\n  _0 = u64 -1\n  return\n}\n",
       "bad.mtyir:3:12: error: expected an integer after 'u64', found '-'"},
      {"fn main() -> Unit {\nbb0:\n  _0 = $\n  return\n}\n",
       "bad.mtyir:3:8: error: unexpected character '$'"},
      {"fn main() -> Unit {\nbb0:\n  switch_int 1 {0 => bb0}\n}\n",
       "bad.mtyir:3:26: error: a switch needs a default case"},
      {"struct P { x: I64, x: I64 }\n", "bad.mtyir:1:20: error: duplicate field 'x'"},
      {"fn f() -> Unit {\nbb0:\n  return\n}\nfn f() -> Unit {\nbb0:\n  return\n}\n",
       "bad.mtyir:5:4: error: duplicate function 'f'"},
      {"fn main() -> Unit {\nbb0:\n  return extra\n}\n",
       "bad.mtyir:3:10: error: expected end of line, found 'extra'"},
      {"fn main() -> Unit {\nbb0:\n  _0 = '\n  return\n}\n",
       "bad.mtyir:3:8: error: empty or unterminated char literal"},
      {"fn main() -> Unit {\nbb0:\n  _0 = \"\\u{d800}\"\n  return\n}\n",
       "bad.mtyir:3:9: error: \\u{...} is not a Unicode scalar value"},
      {"garbage\n", "bad.mtyir:1:1: error: expected 'struct', 'enum', 'sandbox', 'fn' or 'source'"},
      {"fn main() -> Unit {\nbb0:\n", "bad.mtyir:3:1: error: expected a statement or a terminator"},
      // The text is UTF-8: the first ill-formed byte is located, wherever it is
      // (an overlong "/" in a string, a stray byte in a comment, a surrogate).
      {"fn main() -> Unit {\nbb0:\n  _0 = \"a\xC0\xAF\"\n  return\n}\n",
       "bad.mtyir:3:10: error: invalid UTF-8 (overlong encoding)"},
      {"// \xC3\xA9t\xC3\xA9 \x80\nfn main() -> Unit {\nbb0:\n  return\n}\n",
       "bad.mtyir:1:8: error: invalid UTF-8 (stray continuation byte)"},
      {"fn main() -> Unit {\nbb0:\n  _0 = '\xED\xA0\x80'\n  return\n}\n",
       "bad.mtyir:3:9: error: invalid UTF-8 (surrogate"},
      // An unexpected character is shown whole, a control byte escaped.
      {"fn main() -> Unit {\nbb0:\n  _0 = \xC3\xA9\n  return\n}\n",
       "bad.mtyir:3:8: error: unexpected character '\xC3\xA9'"},
      {"fn main() -> Unit {\nbb0:\n  _0 = \x1B[2J\n  return\n}\n",
       "bad.mtyir:3:8: error: unexpected character '\\x1b'"},
  };
  for (const BadCase& c : cases) {
    auto p = ParseText(c.text, "bad.mtyir");
    ASSERT_FALSE(p.ok()) << c.text;
    EXPECT_NE(std::string(p.status().message()).find(c.want), std::string::npos)
        << "got: " << p.status().message() << "\nwant: " << c.want;
  }
}

// ---- sandboxes: `sandbox "Name" { ... }` declarations and
// sandbox_enter / sandbox_exit statements ----

// Every entry kind, in the printer's canonical order and spelling.
constexpr const char* kAllEntries =
    "sandbox \"Tool\" { steps = 1000, memory = 64MiB, wall = 2s, cpu = 150ms, spawned = 3, "
    "mailbox = 16, depth = 100, mb_policy = \"fail\", fs.read = [\"./in\", \"/data\"], "
    "fs.write = [], net = [\"h:443\", \"*.example.com\"], env = [\"HOME\"] }";

TEST(IrText, SandboxDeclarationWithEveryEntryRoundTrips) {
  // Written out of order, with a size, a trailing comma and line breaks.
  std::string src =
      "mtyir 1\n"
      "sandbox \"Tool\" { env = [\"HOME\"], depth = 100, fs.read = [\"./in\", \"/data\"],\n"
      "  steps = 1000, memory = 64MiB, wall = 2s, cpu = 150ms, spawned = 3, mailbox = 16,\n"
      "  mb_policy = \"fail\", fs.write = [], net = [\"h:443\", \"*.example.com\"], }\n"
      "fn main() -> Unit {\nbb0:\n  return\n}\n";
  auto p = ParseText(src, "sb.mtyir");
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->sandboxes.size(), 1u);
  const SandboxDecl& d = p->sandboxes[0];
  EXPECT_EQ(d.name, "Tool");
  EXPECT_EQ(d.loc, (Loc{2, 1}));
  const Limits& l = d.policy.limits;
  const Grants& g = d.policy.grants;
  EXPECT_EQ(l.Get(LimitId::kSteps), 1000u);
  EXPECT_EQ(l.Get(LimitId::kMemory), 64u << 20);
  EXPECT_EQ(l.Get(LimitId::kWall), 2'000'000'000u);
  EXPECT_EQ(l.Get(LimitId::kCpu), 150'000'000u);
  EXPECT_EQ(l.Get(LimitId::kSpawned), 3u);
  EXPECT_EQ(l.Get(LimitId::kMailbox), 16u);
  EXPECT_EQ(l.mb_policy, MailboxPolicy::kFail);
  EXPECT_EQ(l.Get(LimitId::kDepth), 100u);
  EXPECT_EQ(g.Get(GrantId::kFsRead), (std::vector<std::string>{"./in", "/data"}));
  // An empty list is set (grants nothing), not absent (inherits).
  ASSERT_TRUE(g.Get(GrantId::kFsWrite).has_value());
  EXPECT_TRUE(g.Get(GrantId::kFsWrite)->empty());
  EXPECT_EQ(g.Get(GrantId::kNet), (std::vector<std::string>{"h:443", "*.example.com"}));
  EXPECT_EQ(g.Get(GrantId::kEnv), (std::vector<std::string>{"HOME"}));
  EXPECT_EQ(PrintSandbox(d), kAllEntries);

  std::string once = PrintText(*p);
  EXPECT_NE(once.find(std::string("\n") + kAllEntries + "\n"), std::string::npos) << once;
  auto q = ParseText(once, "printed.mtyir");
  ASSERT_TRUE(q.ok()) << q.status() << "\n" << once;
  EXPECT_EQ(PrintText(*q), once);
  ASSERT_EQ(q->sandboxes.size(), 1u);
  SandboxDecl again = q->sandboxes[0];
  again.loc = d.loc;  // everything but the position is preserved
  EXPECT_EQ(again, d);
}

TEST(IrText, EmptySandboxDeclarationRoundTrips) {
  auto p = ParseText(
      "sandbox \"Empty\" {}\nsandbox \"Spaced\" {\n}\nsandbox \"esc\\\"aped\" { steps = 1 }\n",
      "e.mtyir");
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(p->sandboxes.size(), 3u);
  const SandboxDecl& e = p->sandboxes[0];
  EXPECT_EQ(e.name, "Empty");
  EXPECT_EQ(e.policy, Policy());
  EXPECT_EQ(PrintSandbox(e), "sandbox \"Empty\" { }");
  EXPECT_EQ(PrintSandbox(p->sandboxes[1]), "sandbox \"Spaced\" { }");
  EXPECT_EQ(p->sandboxes[2].name, "esc\"aped");
  EXPECT_EQ(PrintSandbox(p->sandboxes[2]), "sandbox \"esc\\\"aped\" { steps = 1 }");
  EXPECT_NE(p->FindSandbox("Spaced"), nullptr);
  EXPECT_EQ(p->FindSandbox("Nope"), nullptr);

  std::string once = PrintText(*p);
  auto q = ParseText(once, "printed.mtyir");
  ASSERT_TRUE(q.ok()) << q.status() << "\n" << once;
  EXPECT_EQ(PrintText(*q), once);
  ASSERT_EQ(q->sandboxes.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    SandboxDecl a = q->sandboxes[i];
    a.loc = p->sandboxes[i].loc;
    EXPECT_EQ(a, p->sandboxes[i]) << i;
  }
}

TEST(IrText, SandboxStatementsRoundTrip) {
  const std::string src =
      "mtyir 1\n"
      "\n"
      "sandbox \"Outer\" { steps = 100 }\n"
      "\n"
      "sandbox \"Inner\" { wall = 50ms }\n"
      "\n"
      "fn main() -> Unit {\n"
      "bb0:\n"
      "  sandbox_enter \"Outer\"\n"
      "  sandbox_enter \"Inner\" @12:5\n"
      "  nop\n"
      "  sandbox_exit @14:5\n"
      "  sandbox_exit\n"
      "  return\n"
      "}\n";
  auto p = ParseText(src, "st.mtyir");
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_TRUE(Verify(*p, "st.mtyir").ok()) << Verify(*p, "st.mtyir");
  const auto& stmts = p->functions[0].blocks[0].stmts;
  ASSERT_EQ(stmts.size(), 5u);
  EXPECT_EQ(stmts[0].kind, Statement::Kind::kSandboxEnter);
  EXPECT_EQ(stmts[0].path, "Outer");
  EXPECT_EQ(stmts[0].loc, (Loc{9, 3}));
  EXPECT_FALSE(stmts[0].loc_explicit);
  EXPECT_EQ(stmts[1].kind, Statement::Kind::kSandboxEnter);
  EXPECT_EQ(stmts[1].path, "Inner");
  EXPECT_EQ(stmts[1].loc, (Loc{12, 5}));
  EXPECT_TRUE(stmts[1].loc_explicit);
  EXPECT_EQ(stmts[3].kind, Statement::Kind::kSandboxExit);
  EXPECT_EQ(stmts[3].loc, (Loc{14, 5}));
  EXPECT_EQ(stmts[4].kind, Statement::Kind::kSandboxExit);
  // The input is already canonical.
  EXPECT_EQ(PrintText(*p), src);
  auto q = ParseText(PrintText(*p), "printed.mtyir");
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(PrintText(*q), src);
  EXPECT_EQ(q->functions[0].blocks[0].stmts[1].loc, (Loc{12, 5}));
}

TEST(IrText, MalformedSandboxesGetALocatedError) {
  const BadCase cases[] = {
      {"sandbox \"T\" { stepz = 1 }\n",
       "bad.mtyir:1:15: error: unknown sandbox entry 'stepz' (known: steps, memory, wall, cpu, "
       "spawned, mailbox, depth, output, mb_policy, fs.read, fs.write, net, env, host)"},
      {"sandbox \"T\" { fs.exec = [] }\n",
       "bad.mtyir:1:15: error: unknown sandbox entry 'fs.exec'"},
      {"sandbox \"T\" { steps = 1, steps = 2 }\n",
       "bad.mtyir:1:26: error: duplicate sandbox entry 'steps'"},
      {"sandbox \"T\" {\n  fs.read = [],\n  fs.read = [\"/x\"]\n}\n",
       "bad.mtyir:3:3: error: duplicate sandbox entry 'fs.read'"},
      {"sandbox \"T\" {}\nsandbox \"U\" {}\nsandbox \"T\" { steps = 1 }\n",
       "bad.mtyir:3:9: error: duplicate sandbox \"T\""},
      {"sandbox \"T\" { wall = 5 }\n",
       "bad.mtyir:1:22: error: sandbox entry 'wall' needs a duration such as 150ms, found '5'"},
      {"sandbox \"T\" { cpu = \"1s\" }\n",
       "bad.mtyir:1:21: error: sandbox entry 'cpu' needs a duration such as 150ms, found a "
       "string"},
      {"sandbox \"T\" { memory = 2s }\n",
       "bad.mtyir:1:24: error: sandbox entry 'memory' needs a size such as 64MiB, found '2s'"},
      // A count takes the decimal multipliers, not byte units (one units table).
      {"sandbox \"T\" { mailbox = 1KiB }\n",
       "bad.mtyir:1:25: error: sandbox entry 'mailbox' needs a count such as 1000 or 10k, found "
       "'1KiB'"},
      {"sandbox \"T\" { steps = \"many\" }\n",
       "bad.mtyir:1:23: error: sandbox entry 'steps' needs a count such as 1000 or 10k, found a "
       "string"},
      {"sandbox \"T\" { fs.read = [1] }\n",
       "bad.mtyir:1:26: error: sandbox entry 'fs.read' needs a list of strings, found a number"},
      {"sandbox \"T\" { env = \"HOME\" }\n", "bad.mtyir:1:21: error: expected '[', found a string"},
      {"sandbox \"T\" { mb_policy = \"maybe\" }\n",
       "bad.mtyir:1:27: error: sandbox entry 'mb_policy' needs \"block\", \"drop\" or \"fail\", "
       "found a string"},
      {"sandbox \"T\" { mb_policy = fail }\n",
       "bad.mtyir:1:27: error: sandbox entry 'mb_policy' needs \"block\", \"drop\" or \"fail\", "
       "found 'fail'"},
      {"sandbox \"T\" { depth = 0 }\n",
       "bad.mtyir:1:15: error: sandbox entry `depth` must be at least 1 (leave it out for no "
       "limit)"},
      {"sandbox \"T\" { depth = 4611686018427387905 }\n",
       "bad.mtyir:1:23: error: sandbox entry 'depth' needs a count such as 1000 or 10k: "
       "'4611686018427387905' is out of range"},
      {"sandbox Tool { steps = 1 }\n",
       "bad.mtyir:1:9: error: expected a sandbox name string, found 'Tool'"},
      {"sandbox \"\" {}\n", "bad.mtyir:1:9: error: a sandbox name cannot be empty"},
      {"sandbox \"T\" { steps 1 }\n", "bad.mtyir:1:21: error: expected '=', found a number"},
      {"sandbox \"T\" { steps = 1 } extra\n",
       "bad.mtyir:1:27: error: expected end of line, found 'extra'"},
      {"fn main() -> Unit {\nbb0:\n  sandbox_enter Tool\n  return\n}\n",
       "bad.mtyir:3:17: error: expected a sandbox name string, found 'Tool'"},
      {"fn main() -> Unit {\nbb0:\n  sandbox_exit \"Tool\"\n  return\n}\n",
       "bad.mtyir:3:16: error: expected end of line, found a string"},
  };
  for (const BadCase& c : cases) {
    auto p = ParseText(c.text, "bad.mtyir");
    ASSERT_FALSE(p.ok()) << c.text;
    EXPECT_NE(std::string(p.status().message()).find(c.want), std::string::npos)
        << "got: " << p.status().message() << "\nwant: " << c.want;
  }
}

TEST(IrText, VerifierRejectsAnUndeclaredSandbox) {
  const char* src =
      "sandbox \"Tool\" { steps = 10 }\n"
      "fn main() -> Unit {\n"
      "bb0:\n"
      "  sandbox_enter \"Tool\"\n"
      "  sandbox_exit\n"
      "  sandbox_enter \"Nope\"\n"
      "  sandbox_exit\n"
      "  return\n"
      "}\n";
  auto p = ParseText(src, "v.mtyir");
  ASSERT_TRUE(p.ok()) << p.status();
  absl::Status s = Verify(*p, "v.mtyir");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "v.mtyir:6:3: error: in fn main: sandbox \"Nope\" is not declared");
  // Declaring it makes the same body verify.
  auto q = ParseText(std::string("sandbox \"Nope\" {}\n") + src, "v.mtyir");
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_TRUE(Verify(*q, "v.mtyir").ok()) << Verify(*q, "v.mtyir");
}

TEST(IrText, RandomMutationsOfSandboxesNeverCrash) {
  const std::string src =
      std::string("mtyir 1\n") + kAllEntries +
      "\nsandbox \"E\" {}\n"
      "fn main() -> Unit {\nbb0:\n  sandbox_enter \"Tool\"\n"
      "  sandbox_enter \"E\" @3:4\n  sandbox_exit\n  sandbox_exit\n  return\n}\n";
  ASSERT_TRUE(ParseText(src, "fuzz.mtyir").ok()) << ParseText(src, "fuzz.mtyir").status();
  std::mt19937 rng(4321);
  const char alphabet[] = "_0123456789abcxyz{}[]()=,.\"\\\n -+msKiB";
  for (int i = 0; i < 3000; ++i) {
    std::string s = src;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      size_t pos = rng() % s.size();
      switch (rng() % 3) {
        case 0: s[pos] = alphabet[rng() % (sizeof(alphabet) - 1)]; break;
        case 1: s.erase(pos, 1 + rng() % 8); break;
        default: s.insert(pos, 1, alphabet[rng() % (sizeof(alphabet) - 1)]); break;
      }
    }
    auto p = ParseText(s, "fuzz.mtyir");
    if (p.ok()) {
      std::string once = PrintText(*p);
      auto q = ParseText(once, "fuzz2.mtyir");
      ASSERT_TRUE(q.ok()) << q.status() << "\n" << once;
      EXPECT_EQ(PrintText(*q), once);
      (void)Verify(*p, "fuzz.mtyir");  // must not crash either
    } else {
      EXPECT_NE(std::string(p.status().message()).find("fuzz.mtyir:"), std::string::npos);
    }
  }
}

TEST(IrText, DeeplyNestedTypesAreRejectedNotCrashed) {
  std::string ty(100000, '[');
  auto p = ParseText("fn main() -> " + ty + "\n", "deep.mtyir");
  ASSERT_FALSE(p.ok());
  EXPECT_NE(std::string(p.status().message()).find("nested too deeply"), std::string::npos);
}

TEST(IrText, RandomMutationsNeverCrash) {
  std::string src = kEverything;
  std::mt19937 rng(1234);
  const char alphabet[] = "_0123456789abcxyz{}[]()<>=:;,.*&@!\"'\\\n -+";
  for (int i = 0; i < 3000; ++i) {
    std::string s = src;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      size_t pos = rng() % s.size();
      switch (rng() % 3) {
        case 0: s[pos] = alphabet[rng() % (sizeof(alphabet) - 1)]; break;
        case 1: s.erase(pos, 1 + rng() % 8); break;
        default: s.insert(pos, 1, alphabet[rng() % (sizeof(alphabet) - 1)]); break;
      }
    }
    auto p = ParseText(s, "fuzz.mtyir");
    if (p.ok()) {
      // Whatever parses must print and re-parse to the same text.
      std::string once = PrintText(*p);
      auto q = ParseText(once, "fuzz2.mtyir");
      ASSERT_TRUE(q.ok()) << q.status() << "\n" << once;
      EXPECT_EQ(PrintText(*q), once);
    } else {
      EXPECT_NE(std::string(p.status().message()).find("fuzz.mtyir:"), std::string::npos);
    }
  }
}

TEST(IrText, StringsThatAreNotUtf8PrintAsReplacementCharacters) {
  // Only the builder API can make such a constant; the text stays UTF-8.
  EXPECT_EQ(QuoteString("a\xFF"
                        "b\xC3\xA9\xE2\x82"),
            "\"a\\u{fffd}b\xC3\xA9\\u{fffd}\"");
  EXPECT_TRUE(ValidUtf8(QuoteString("\xC0\xAF\xED\xA0\x80")));
}

// ---- UTF-8 (ir/utf8.h): the one decoder of the tree ----

Utf8Decoded Decode(std::string_view bytes) { return DecodeUtf8(bytes, 0); }

TEST(Utf8, RejectsOverlongForms) {
  // '/' (U+2F) written in 2, 3 and 4 bytes, and the longest overlong of each length.
  for (std::string_view s : {"\xC0\xAF", "\xE0\x80\xAF", "\xF0\x80\x80\xAF", "\xC1\xBF",
                             "\xE0\x9F\xBF", "\xF0\x8F\xBF\xBF"}) {
    Utf8Decoded d = Decode(s);
    EXPECT_EQ(d.error, Utf8Error::kOverlong) << testing::PrintToString(s);
    EXPECT_EQ(d.length, 1u);  // the lead byte alone: the next byte does not continue it
    size_t bad = 99;
    Utf8Error why = Utf8Error::kNone;
    EXPECT_FALSE(ValidUtf8(s, &bad, &why));
    EXPECT_EQ(bad, 0u);
    EXPECT_EQ(why, Utf8Error::kOverlong);
  }
}

TEST(Utf8, RejectsSurrogates) {
  for (std::string_view s : {"\xED\xA0\x80", "\xED\xAD\xBF", "\xED\xB0\x80", "\xED\xBF\xBF"}) {
    EXPECT_EQ(Decode(s).error, Utf8Error::kSurrogate) << testing::PrintToString(s);
    EXPECT_FALSE(ValidUtf8(s));
  }
  // The scalars either side of the surrogates.
  EXPECT_EQ(Decode("\xED\x9F\xBF").scalar, 0xD7FFu);
  EXPECT_EQ(Decode("\xEE\x80\x80").scalar, 0xE000u);
}

TEST(Utf8, RejectsValuesAboveTheLastScalar) {
  for (std::string_view s :
       {"\xF4\x90\x80\x80", "\xF4\xBF\xBF\xBF", "\xF5\x80\x80\x80", "\xF7\xBF\xBF\xBF"}) {
    EXPECT_EQ(Decode(s).error, Utf8Error::kTooLarge) << testing::PrintToString(s);
    EXPECT_FALSE(ValidUtf8(s));
  }
  Utf8Decoded max = Decode("\xF4\x8F\xBF\xBF");
  ASSERT_TRUE(max.ok());
  EXPECT_EQ(max.scalar, kMaxScalar);
  for (std::string_view s : {"\xF8\x88\x80\x80\x80", "\xFC\x84\x80\x80\x80\x80", "\xFE", "\xFF"})
    EXPECT_EQ(Decode(s).error, Utf8Error::kInvalidByte) << testing::PrintToString(s);
}

TEST(Utf8, RejectsTruncatedSequences) {
  struct Case {
    std::string_view bytes;
    uint32_t length;  // the maximal subpart consumed
  };
  for (Case c : {Case{"\xE2\x82", 2}, Case{"\xE2", 1}, Case{"\xC2", 1}, Case{"\xF0\x9F\x98", 3},
                 Case{"\xE2\x82"
                      "A",
                      2},
                 Case{"\xC3(", 1},
                 Case{"\xF0\x9F"
                      "A",
                      2},
                 Case{"\xE2\xC2\xA2", 1}}) {
    Utf8Decoded d = Decode(c.bytes);
    EXPECT_EQ(d.error, Utf8Error::kTruncated) << testing::PrintToString(c.bytes);
    EXPECT_EQ(d.length, c.length) << testing::PrintToString(c.bytes);
    EXPECT_FALSE(ValidUtf8(c.bytes));
  }
}

TEST(Utf8, RejectsStrayContinuationBytes) {
  for (std::string_view s : {"\x80", "\xBF", "\x80\x80"}) {
    Utf8Decoded d = Decode(s);
    EXPECT_EQ(d.error, Utf8Error::kStrayContinuation);
    EXPECT_EQ(d.length, 1u);
  }
  size_t bad = 0;
  EXPECT_FALSE(ValidUtf8("\xC3\xA9\xA9", &bad));  // é, then one continuation too many
  EXPECT_EQ(bad, 2u);
}

TEST(Utf8, DecodesEveryWellFormedLength) {
  struct Case {
    std::string_view bytes;
    uint32_t scalar;
  };
  for (Case c : {Case{"A", 0x41}, Case{std::string_view("\0", 1), 0}, Case{"\x7F", 0x7F},
                 Case{"\xC2\x80", 0x80}, Case{"\xC2\xA2", 0xA2}, Case{"\xDF\xBF", 0x7FF},
                 Case{"\xE0\xA0\x80", 0x800}, Case{"\xE2\x82\xAC", 0x20AC},
                 Case{"\xEF\xBF\xBF", 0xFFFF}, Case{"\xF0\x90\x80\x80", 0x10000},
                 Case{"\xF0\x9F\x98\x80", 0x1F600}, Case{"\xF4\x8F\xBF\xBF", 0x10FFFF}}) {
    Utf8Decoded d = Decode(c.bytes);
    ASSERT_TRUE(d.ok()) << testing::PrintToString(c.bytes) << " " << Utf8ErrorText(d.error);
    EXPECT_EQ(d.scalar, c.scalar);
    EXPECT_EQ(d.length, c.bytes.size());
    EXPECT_TRUE(ValidUtf8(c.bytes));
  }
  EXPECT_TRUE(ValidUtf8(""));
  EXPECT_TRUE(ValidUtf8("plain ASCII, then é€😀"));
}

TEST(Utf8, AgreesWithTheEncoderOnEveryScalarAndEveryShortSequence) {
  // Every scalar round-trips through AppendUtf8 and DecodeUtf8.
  std::vector<bool> valid3(1 << 24, false);
  for (uint32_t c = 0; c <= kMaxScalar; ++c) {
    if (c >= 0xD800 && c <= 0xDFFF) continue;
    std::string s;
    AppendUtf8(s, c);
    Utf8Decoded d = Decode(s);
    ASSERT_TRUE(d.ok()) << c;
    ASSERT_EQ(d.scalar, c);
    ASSERT_EQ(d.length, s.size());
    if (s.size() == 3)
      valid3[(static_cast<unsigned char>(s[0]) << 16) | (static_cast<unsigned char>(s[1]) << 8) |
             static_cast<unsigned char>(s[2])] = true;
  }
  // Every 3-byte sequence led by E0..EF decodes whole exactly when the
  // encoder makes it: nothing else is accepted.
  for (uint32_t v = 0xE00000; v <= 0xEFFFFF; ++v) {
    const char b[3] = {static_cast<char>(v >> 16), static_cast<char>(v >> 8), static_cast<char>(v)};
    Utf8Decoded d = Decode(std::string_view(b, 3));
    ASSERT_EQ(d.ok(), valid3[v]) << std::hex << v;
    ASSERT_EQ(ValidUtf8(std::string_view(b, 3)), valid3[v]) << std::hex << v;
  }
}

TEST(Utf8, FindsTheFirstBadByteAndItsLineAndColumn) {
  size_t bad = 0;
  std::string text = "fn main() {\n  log(\"h\xC3\xA9\xFF\")\n}\n";
  ASSERT_FALSE(ValidUtf8(text, &bad));
  EXPECT_EQ(bad, text.find('\xFF'));
  uint32_t line = 0, col = 0;
  Utf8LineCol(text, bad, &line, &col);
  EXPECT_EQ(line, 2u);
  EXPECT_EQ(col, 10u);  // `  log("hé` is 9 scalars
}

TEST(Utf8, CountsAndStepsOverIllFormedRunsAsOneScalarEach) {
  EXPECT_EQ(Utf8Length("a\xC3\xA9\xF0\x9F\x98\x80"), 3u);
  EXPECT_EQ(Utf8Length("a\xFF"
                       "b"),
            3u);
  EXPECT_EQ(Utf8Length("\xE2\x82"), 1u);  // one truncated sequence
  EXPECT_EQ(Utf8Offset("a\xC3\xA9z", 2), 3u);
  EXPECT_EQ(Utf8Offset("a\xC3\xA9z", 3), 4u);
  EXPECT_EQ(Utf8Offset("a\xC3\xA9z", 4), std::string_view::npos);
  std::string_view s =
      "a\xFF"
      "b";
  size_t pos = 0;
  std::vector<uint32_t> got;
  while (pos < s.size()) got.push_back(NextScalar(s, &pos));
  EXPECT_EQ(got, (std::vector<uint32_t>{'a', kReplacementChar, 'b'}));
}

}  // namespace
}  // namespace mty::ir
