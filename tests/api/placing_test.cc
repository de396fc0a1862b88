// What a host that compiles text it put together needs through the public
// API (docs/embedding.md): CompileOptions::line_numbers places every
// location (the diagnostics, structured and rendered, and the program's
// own: backtraces, events, effects), and Program::LocalType reads a
// local's declared type.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mty/mty.h"

namespace {

// An unclosed `(` on line 2, found out at `log` on line 3.
constexpr char kUnclosed[] = "fn main() {\n    let x = max(1, 2\n    log(x)\n}\n";

TEST(LineNumbers, PlaceStructuredAndRenderedDiagnostics) {
  std::vector<mty::Diagnostic> diags;
  mty::CompileOptions o;
  o.diagnostics = &diags;
  o.line_numbers = {7, 8, 9, 10};
  auto p = mty::Program::FromSource(kUnclosed, "bad.mty", o);
  ASSERT_FALSE(p.ok());
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].line, 9);
  EXPECT_EQ(diags[0].column, 5);
  EXPECT_EQ(diags[0].end_line, 9);
  ASSERT_EQ(diags[0].labels.size(), 1u);
  EXPECT_EQ(diags[0].labels[0].line, 8);
  EXPECT_EQ(diags[0].labels[0].end_line, 8);
  EXPECT_EQ(diags[0].labels[0].column, 16);
  // The snippet shows the text's own lines under the numbers given.
  EXPECT_EQ(std::string(p.status().message()),
            "error[MT0001]: expected ')', found 'log'\n"
            " --> bad.mty:9:5\n"
            "  |\n"
            "8 |     let x = max(1, 2\n"
            "  |                - unclosed delimiter\n"
            "9 |     log(x)\n"
            "  |     ^^^\n"
            "\n"
            "error: aborting due to 1 previous error\n");
}

// docs/embedding.md's example.
TEST(LineNumbers, TheDocumentedExample) {
  mty::CompileOptions co;
  co.line_numbers = {1, 1, 2};
  auto p = mty::Program::FromSource("fn main() {\nlet x = 1 +\n  nope\n}\n", "<input>", co);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(std::string(p.status().message())
                .rfind("error[MT1001]: cannot find value `nope` in this scope\n"
                       " --> <input>:2:3\n"
                       "  |\n"
                       "2 |   nope\n",
                       0),
            0u)
      << p.status().message();
}

TEST(LineNumbers, LinesPastTheEndKeepTheirOwn) {
  mty::CompileOptions o;
  o.line_numbers = {5};
  auto p = mty::Program::FromSource(kUnclosed, "bad.mty", o);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(std::string(p.status().message()).find(" --> bad.mty:3:5\n"), std::string::npos)
      << p.status().message();
}

// The gutter is as wide as the widest number shown, the line shown between
// two annotated ones included.
TEST(LineNumbers, GutterFitsTheNumbersShown) {
  const std::string text = "fn main() { let x = max(1,\n  2\n  log(x)\n}\n";
  mty::CompileOptions o;
  o.line_numbers = {1, 1000, 3};
  auto p = mty::Program::FromSource(text, "g.mty", o);
  ASSERT_FALSE(p.ok());
  const std::string m(p.status().message());
  EXPECT_NE(m.find("\n    --> g.mty:3:3\n"), std::string::npos) << m;
  EXPECT_NE(m.find("\n1    | fn main() { let x = max(1,\n"), std::string::npos) << m;
  EXPECT_NE(m.find("\n1000 |   2\n"), std::string::npos) << m;
  EXPECT_NE(m.find("\n3    |   log(x)\n"), std::string::npos) << m;
}

TEST(LineNumbers, PlaceWarnings) {
  std::vector<mty::Diagnostic> diags;
  std::string rendered;
  mty::CompileOptions o;
  o.diagnostics = &diags;
  o.rendered_warnings = &rendered;
  o.line_numbers = {1, 12, 13, 14, 15};
  auto p = mty::Program::FromSource("fn main() {\n    if (1 > 0) {\n        log(1)\n    }\n}\n",
                                    "w.mty", o);
  ASSERT_TRUE(p.ok()) << p.status();
  ASSERT_EQ(diags.size(), 1u);
  EXPECT_EQ(diags[0].severity, mty::Diagnostic::Severity::kWarning);
  EXPECT_EQ(diags[0].line, 12);
  EXPECT_NE(rendered.find(" --> w.mty:12:8\n"), std::string::npos) << rendered;
  EXPECT_NE(rendered.find("12 |     if (1 > 0) {\n"), std::string::npos) << rendered;
}

// The program's own locations: a trap's backtrace, an event, Effects().
TEST(LineNumbers, PlaceTheProgramsLocations) {
  const std::string text =
      "fn boom() -> I64 {\n"
      "  let r = std.fs.read(\"nope.txt\")\n"
      "  panic(\"big\")\n"
      "}\n"
      "fn main() -> I64 { boom() }\n";
  mty::CompileOptions o;
  o.line_numbers = {1, 20, 21, 22, 40};
  auto p = mty::Program::FromSource(text, "p.mty", o);
  ASSERT_TRUE(p.ok()) << p.status();
  std::vector<mty::Event> denied;
  mty::RunOptions ro;
  ro.on_event = [&](const mty::Event& e) {
    if (e.kind == mty::Event::Kind::kDenied) denied.push_back(e);
  };
  mty::RunResult r = (*p)->Run(ro);
  EXPECT_EQ(r.outcome, mty::Outcome::kTrap);
  ASSERT_EQ(r.backtrace.size(), 2u);
  EXPECT_EQ(r.backtrace[0], "boom (p.mty:21:3)");
  EXPECT_EQ(r.backtrace[1], "main (p.mty:40:20)");
  ASSERT_EQ(denied.size(), 1u);
  EXPECT_EQ(denied[0].line, 20);
  std::vector<mty::Program::EffectUse> effects = (*p)->Effects();
  ASSERT_EQ(effects.size(), 1u);
  EXPECT_EQ(effects[0].line, 20);
  ASSERT_EQ((*p)->CheckAgainst(mty::Grants{}).size(), 1u);
  EXPECT_EQ((*p)->CheckAgainst(mty::Grants{})[0].rfind("p.mty:20:3: ", 0), 0u)
      << (*p)->CheckAgainst(mty::Grants{})[0];
}

// The largest number, and a vector longer than the text (the rest unused).
TEST(LineNumbers, LargestNumber) {
  mty::CompileOptions o;
  o.line_numbers = std::vector<int>(100000, 2147483647);
  auto p = mty::Program::FromSource("fn main() {\n    nope\n}\n", "big.mty", o);
  ASSERT_FALSE(p.ok());
  const std::string m(p.status().message());
  EXPECT_NE(m.find("\n          --> big.mty:2147483647:5\n"), std::string::npos) << m;
  EXPECT_NE(m.find("\n2147483647 |     nope\n"), std::string::npos) << m;
}

TEST(LineNumbers, BelowOneIsRefused) {
  mty::CompileOptions o;
  o.line_numbers = {1, 0};
  auto p = mty::Program::FromSource("fn main() {}\n", "z.mty", o);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(p.status().message(), "CompileOptions::line_numbers[1] is 0: line numbers start at 1");
  auto ast = mty::Program::SourceAst("fn main() {}\n", "z.mty", o);
  EXPECT_EQ(ast.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(LocalType, DeclaredTypesOfParametersAndLets) {
  auto p = mty::Program::FromSource(
      "fn f(a: I64, names: [Str]) -> I64 {\n"
      "  let d = 150ms\n"
      "  let mut xs = [1]\n"
      "  xs.push(a)\n"
      "  let o = Some(\"s\")\n"
      "  let s = \"text\"\n"
      "  let s = s.len()\n"
      "  let any: Any = 1\n"
      "  let m = {\"a\": 1}\n"
      "  s + xs.len() + names.len()\n"
      "}\n"
      "fn main() {}\n",
      "t.mty");
  ASSERT_TRUE(p.ok()) << p.status();
  const mty::Program& prog = **p;
  EXPECT_EQ(prog.LocalType("f", "a"), "I64");
  EXPECT_EQ(prog.LocalType("f", "names"), "[Str]");
  EXPECT_EQ(prog.LocalType("f", "d"), "Duration");
  EXPECT_EQ(prog.LocalType("f", "xs"), "[I64]");
  EXPECT_EQ(prog.LocalType("f", "o"), "Option[Str]");
  EXPECT_EQ(prog.LocalType("f", "s"), "I64");  // the last `let s`
  EXPECT_EQ(prog.LocalType("f", "any"), "Any");
  EXPECT_EQ(prog.LocalType("f", "m"), "Map[Str, I64]");
  EXPECT_EQ(prog.LocalType("f", "nope"), std::nullopt);
  EXPECT_EQ(prog.LocalType("main", "a"), std::nullopt);
  EXPECT_EQ(prog.LocalType("g", "a"), std::nullopt);
}

TEST(LocalType, OfAnMtyIrProgram) {
  auto p = mty::Program::FromIrText(
      "fn main(_1: I64 \"n\") -> I64 {\n"
      "  let _2: Bool \"flag\"\n"
      "bb0:\n"
      "  _0 = copy _1\n"
      "  return\n"
      "}\n",
      "m.mtyir");
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ((*p)->LocalType("main", "n"), "I64");
  EXPECT_EQ((*p)->LocalType("main", "flag"), "Bool");
}

}  // namespace
