// Diagnostics rendering (spans, labels, multi-line spans, colour, warnings
// and their summary) and the syntax diagnostics that use them: unclosed
// delimiters, a missing `)`, `if x = 3`, loop labels, the parentheses
// warning; the lexer's token extents and the parser's expression spans.
#include "mty/frontend/diagnostics.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lexer.h"
#include "mty/frontend/parser.h"

namespace mty::frontend {
namespace {

struct Parsed {
  SourceFile file;
  Module module;
  Diagnostics diags;
};

std::unique_ptr<Parsed> ParseText(std::string text) {
  auto p = std::make_unique<Parsed>();
  p->file = SourceFile{"t.mty", std::move(text)};
  p->module = Parse(p->file, p->diags);
  return p;
}

// ------------------------------------------------------------- spans

TEST(DiagSpan, WholeTokenWhenNoEndIsGiven) {
  SourceFile f{"a.mty", "fn main() {\n    log(totl + 1)\n    let s = \"ab\\\"c\" + x\n}\n"};
  Diagnostics d;
  d.Error("MT1001", Loc{2, 9}, "cannot find value `totl` in this scope");
  EXPECT_EQ(RenderOne(f, d.list()[0]),
            "error[MT1001]: cannot find value `totl` in this scope\n"
            " --> a.mty:2:9\n"
            "  |\n"
            "2 |     log(totl + 1)\n"
            "  |         ^^^^\n");
  // A string with an escaped quote: the whole literal.
  EXPECT_EQ(SpanEnd(f, Loc{3, 13}, Loc{}).col, 19u);
  // Punctuation: the longest operator; past the end of a line: one column.
  EXPECT_EQ(SpanEnd(f, Loc{2, 14}, Loc{}).col, 14u);
  EXPECT_EQ(SpanEnd(f, Loc{2, 40}, Loc{}).col, 40u);
  // On whitespace: one column; an explicit end wins; never before begin.
  EXPECT_EQ(SpanEnd(f, Loc{2, 1}, Loc{}).col, 1u);
  EXPECT_EQ(SpanEnd(f, Loc{2, 9}, Loc{2, 17}).col, 17u);
  EXPECT_EQ(SpanEnd(f, Loc{2, 9}, Loc{2, 3}).col, 9u);
}

TEST(DiagSpan, ExplicitSpanAndPrimaryLabel) {
  SourceFile f{"a.mty", "    if x = 3 {\n"};
  Diagnostics d;
  Diagnostic& e = d.Error("MT0018", Loc{1, 8}, "expected a condition", "use `==` to compare");
  e.end = Loc{1, 12};
  e.label = "an assignment";
  EXPECT_EQ(RenderOne(f, e),
            "error[MT0018]: expected a condition\n"
            " --> a.mty:1:8\n"
            "  |\n"
            "1 |     if x = 3 {\n"
            "  |        ^^^^^ an assignment\n"
            "  |\n"
            "  = help: use `==` to compare\n");
}

// ------------------------------------------------------------ labels

TEST(DiagLabels, SameLineConnectorsRightmostInline) {
  SourceFile f{"a.mty", "    let x: I64 = \"a\" + 1\n"};
  Diagnostics d;
  Diagnostic& e = d.Error("MT2015", Loc{1, 22}, "mismatched types");
  e.label = "no `+` for Str and I64";
  e.labels.push_back(Label{Loc{1, 12}, {}, "expected due to this"});
  e.labels.push_back(Label{Loc{1, 18}, {}, "Str"});
  e.labels.push_back(Label{Loc{1, 24}, {}, "I64"});
  EXPECT_EQ(RenderOne(f, e),
            "error[MT2015]: mismatched types\n"
            " --> a.mty:1:22\n"
            "  |\n"
            "1 |     let x: I64 = \"a\" + 1\n"
            "  |            ---   --- ^ - I64\n"
            "  |            |     |   |\n"
            "  |            |     |   no `+` for Str and I64\n"
            "  |            |     Str\n"
            "  |            expected due to this\n");
}

TEST(DiagLabels, OtherLinesInOrderWithGaps) {
  SourceFile f{"a.mty", "fn f(a: I64) {\n  1\n  2\n  3\n}\nfn main() {\n  f()\n}\n"};
  Diagnostics d;
  Diagnostic& e = d.Error("MT2001", Loc{7, 3}, "function `f` takes 1 argument(s), given 0");
  e.labels.push_back(Label{Loc{1, 4}, {}, "defined here"});
  e.labels.push_back(Label{Loc{5, 1}, {}, "ends here"});
  // Line 6 (one unannotated line between 5 and 7) is shown; 2..4 are `...`.
  EXPECT_EQ(RenderOne(f, e),
            "error[MT2001]: function `f` takes 1 argument(s), given 0\n"
            " --> a.mty:7:3\n"
            "  |\n"
            "1 | fn f(a: I64) {\n"
            "  |    - defined here\n"
            "...\n"
            "5 | }\n"
            "  | - ends here\n"
            "6 | fn main() {\n"
            "7 |   f()\n"
            "  |   ^\n");
}

TEST(DiagLabels, MessagesAreEscaped) {
  SourceFile f{"a.mty", "let \x1b[31m = 1\n"};
  Diagnostics d;
  Diagnostic& e = d.Error("MT0005", Loc{1, 5}, "bad \x1b");
  e.labels.push_back(Label{Loc{1, 1}, {}, "label \x07 bell"});
  const std::string out = RenderOne(f, e);
  EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
  EXPECT_EQ(out.find('\x07'), std::string::npos) << out;
  EXPECT_NE(out.find("label \\x07 bell"), std::string::npos) << out;
  EXPECT_NE(out.find("let \\x1b[31m = 1"), std::string::npos) << out;
  // With colour, the only escapes are the renderer's colours.
  RenderOptions color;
  color.color = true;
  const std::string painted = RenderOne(f, e, color);
  EXPECT_NE(painted.find("let \\x1b[31m = 1"), std::string::npos) << painted;
  EXPECT_EQ(painted.find("\x1b[31m"), std::string::npos) << painted;
}

// ---------------------------------------------------- multi-line spans

TEST(DiagMultiline, FromTheLineStartWithSlash) {
  SourceFile f{"a.mty", "fn main() {\n    if x {\n        y\n    }\n}\n"};
  Diagnostics d;
  Diagnostic& e = d.Error("MT2006", Loc{2, 5}, "`if` without `else`");
  e.end = Loc{4, 5};
  e.label = "this `if`";
  EXPECT_EQ(RenderOne(f, e),
            "error[MT2006]: `if` without `else`\n"
            " --> a.mty:2:5\n"
            "  |\n"
            "2 | /     if x {\n"
            "3 | |         y\n"
            "4 | |     }\n"
            "  | |_____^ this `if`\n");
}

TEST(DiagMultiline, MidLineStartAndLongSpanElided) {
  std::string text = "let x = foo(\n";
  for (int i = 0; i < 6; ++i) text += "  " + std::to_string(i) + ",\n";
  text += ")\n";
  SourceFile f{"a.mty", text};
  Diagnostics d;
  Diagnostic& e = d.Error("MT2001", Loc{1, 9}, "too many arguments");
  e.end = Loc{8, 1};
  EXPECT_EQ(RenderOne(f, e),
            "error[MT2001]: too many arguments\n"
            " --> a.mty:1:9\n"
            "  |\n"
            "1 |   let x = foo(\n"
            "  |  _________^\n"
            "2 | |   0,\n"
            "...\n"
            "7 | |   5,\n"
            "8 | | )\n"
            "  | |_^\n");
}

// Positions that do not exist (past a line's end, past the last line, an
// end before the start, a line 0 label) render without a huge row or a
// crash, and never echo a control character.
TEST(DiagRobust, WrongPositionsStayBounded) {
  SourceFile f{"a.mty", "ab\tc\x01\n\xff\xfe x\n\n"};
  const uint32_t big = 4000000000u;
  const std::vector<Loc> locs = {{0, 0}, {1, 0}, {1, 1}, {1, 5}, {1, big},
                                 {2, 1}, {2, 4}, {3, 1}, {4, 1}, {big, 2}};
  size_t n = 0;
  for (Loc a : locs)
    for (Loc b : locs) {
      Diagnostics d;
      Diagnostic& e = d.Error("MT0001", a, "m\x1b");
      e.end = b;
      e.labels.push_back(Label{b, a, "l\x9b"});
      e.labels.push_back(Label{a, {}, ""});
      const std::string out = d.Render(f);
      EXPECT_LT(out.size(), 2000u) << out;
      EXPECT_EQ(out.find('\x1b'), std::string::npos) << out;
      EXPECT_EQ(out.find('\x01'), std::string::npos) << out;
      ++n;
    }
  EXPECT_EQ(n, locs.size() * locs.size());
}

// -------------------------------------------------------------- colour

TEST(DiagColor, RustcColoursOnlyWhenAsked) {
  SourceFile f{"a.mty", "fn main() {\n    log(totl)\n}\n"};
  Diagnostics d;
  d.Error("MT1001", Loc{2, 9}, "cannot find value `totl`")
      .labels.push_back(Label{Loc{1, 4}, {}, "in this function"});
  d.Warning("MT0040", Loc{1, 1}, "a warning");
  const std::string plain = d.Render(f);
  EXPECT_EQ(plain.find('\x1b'), std::string::npos) << plain;
  RenderOptions on;
  on.color = true;
  const std::string c = d.Render(f, on);
  EXPECT_NE(c.find("\x1b[1;91merror[MT1001]\x1b[0m\x1b[1m: cannot find value `totl`\x1b[0m"),
            std::string::npos)
      << c;
  EXPECT_NE(c.find("\x1b[1;93mwarning[MT0040]\x1b[0m"), std::string::npos) << c;
  EXPECT_NE(c.find("\x1b[1;94m2 |\x1b[0m"), std::string::npos) << c;   // gutter
  EXPECT_NE(c.find("\x1b[1;91m^^^^\x1b[0m"), std::string::npos) << c;  // primary
  EXPECT_NE(c.find("\x1b[1;94min this function\x1b[0m"), std::string::npos) << c;
  EXPECT_NE(c.find("\x1b[1;91merror\x1b[0m\x1b[1m: aborting due to 1 previous error; 1 warning "
                   "emitted\x1b[0m"),
            std::string::npos)
      << c;
}

// ------------------------------------------------------------ warnings

TEST(DiagWarnings, HeaderSummaryAndDeny) {
  SourceFile f{"a.mty", "fn main() {\n    if (x) {}\n}\n"};
  Diagnostics d;
  d.Warning("MT0040", Loc{2, 8}, "unnecessary parentheses", "remove these parentheses");
  EXPECT_FALSE(d.HasErrors());
  EXPECT_EQ(d.WarningCount(), 1u);
  EXPECT_EQ(d.Render(f),
            "warning[MT0040]: unnecessary parentheses\n"
            " --> a.mty:2:8\n"
            "  |\n"
            "2 |     if (x) {}\n"
            "  |        ^\n"
            "  |\n"
            "  = help: remove these parentheses\n"
            "\n"
            "warning: 1 warning emitted\n");
  d.Warning("MT0040", Loc{2, 10}, "again");
  EXPECT_NE(d.Render(f).find("\nwarning: 2 warnings emitted\n"), std::string::npos);
  d.Error("MT1001", Loc{2, 9}, "cannot find value `x`");
  EXPECT_NE(d.Render(f).find("\nerror: aborting due to 1 previous error; 2 warnings emitted\n"),
            std::string::npos)
      << d.Render(f);
  d.DenyWarnings("warnings are denied");
  EXPECT_EQ(d.Count(), 3u);
  EXPECT_EQ(d.WarningCount(), 0u);
  const std::string out = d.Render(f);
  EXPECT_EQ(out.find("warning["), std::string::npos) << out;
  EXPECT_EQ(out.find("warning:"), std::string::npos) << out;
  EXPECT_NE(out.find("  = note: warnings are denied\n"), std::string::npos) << out;
  EXPECT_NE(out.find("error: aborting due to 3 previous errors\n"), std::string::npos) << out;
}

// ----------------------------------------------------------- the lexer

TEST(DiagLexer, LabelsAndTokenEnds) {
  Diagnostics d;
  LexResult r = Lex("'outer: loop { break 'outer }\nlet c = 'a'\n", d);
  EXPECT_FALSE(d.HasErrors());
  ASSERT_GE(r.tokens.size(), 3u);
  EXPECT_EQ(r.tokens[0].kind, Tok::kLabel);
  EXPECT_EQ(r.tokens[0].text, "outer");
  EXPECT_EQ(r.tokens[0].end.col, 6u);
  bool found_char = false;
  for (const Token& t : r.tokens)
    if (t.kind == Tok::kChar) found_char = t.uint_value == 'a' && t.end.col - t.loc.col == 2;
  EXPECT_TRUE(found_char);
  EXPECT_EQ(TokenLength("foo_1 + x"), 5u);
  EXPECT_EQ(TokenLength("<<= 1"), 3u);
  EXPECT_EQ(TokenLength("  x"), 0u);
  EXPECT_EQ(TokenLength("// c"), 0u);
  EXPECT_EQ(TokenLength(""), 0u);
  EXPECT_EQ(TokenLength("\"a\\\"b\" x"), 6u);
}

// ----------------------------------------------------------- the parser

TEST(DiagParser, UnclosedIfAtEndOfFileLabelsOpenerAndCulprit) {
  auto p = ParseText("fn main() {\n    if x > 2 {\n        log(1)\n    log(2)\n}\n");
  ASSERT_EQ(p->diags.list().size(), 1u) << p->diags.Render(p->file);
  const Diagnostic& e = p->diags.list()[0];
  EXPECT_EQ(e.code, "MT0012");
  EXPECT_EQ(e.loc.line, 5u);  // the end of file, not `fn main() {`
  ASSERT_EQ(e.labels.size(), 3u);
  EXPECT_EQ(e.labels[0].loc.line, 1u);
  EXPECT_EQ(e.labels[0].message, "unclosed delimiter");
  EXPECT_EQ(e.labels[1].loc.line, 2u);
  EXPECT_EQ(e.labels[1].loc.col, 14u);
  EXPECT_EQ(e.labels[2].loc.line, 5u);
  // Well indented, only the opener.
  p = ParseText("fn main() {\n    log(1)\n");
  ASSERT_EQ(p->diags.list().size(), 1u);
  EXPECT_EQ(p->diags.list()[0].labels.size(), 1u);
  p = ParseText("fn main() {\n    let a = [1, 2\n");
  ASSERT_EQ(p->diags.list().size(), 1u);
  EXPECT_EQ(p->diags.list()[0].labels[0].loc.col, 13u);  // the `[`
}

TEST(DiagParser, MissingParenLabelsItsOpener) {
  auto p = ParseText("fn main() {\n    let x = max(1, (2 + 3)\n    log(x)\n}\n");
  ASSERT_EQ(p->diags.list().size(), 1u) << p->diags.Render(p->file);
  const Diagnostic& e = p->diags.list()[0];
  EXPECT_EQ(e.message, "expected ')', found 'log'");
  ASSERT_EQ(e.labels.size(), 1u);
  EXPECT_EQ(e.labels[0].loc.line, 2u);
  EXPECT_EQ(e.labels[0].loc.col, 16u);
  EXPECT_EQ(e.labels[0].message, "unclosed delimiter");
  // On the same line it is the `(` it would close.
  p = ParseText("fn main() {\n    f(1 2)\n}\n");
  ASSERT_EQ(p->diags.list().size(), 1u);
  EXPECT_EQ(p->diags.list()[0].labels[0].message, "the '(' it would close");
}

TEST(DiagParser, AssignmentAsCondition) {
  auto p = ParseText("fn main() {\n    if x = 3 {\n    }\n    while y += 1 { }\n}\n");
  ASSERT_EQ(p->diags.list().size(), 2u) << p->diags.Render(p->file);
  const Diagnostic& e = p->diags.list()[0];
  EXPECT_EQ(e.code, "MT0018");
  EXPECT_EQ(e.loc.col, 8u);
  EXPECT_EQ(e.end.col, 12u);
  EXPECT_EQ(e.help, "use `==` to compare");
  EXPECT_NE(p->diags.list()[1].message.find("`while`"), std::string::npos);
  // Recovered as `==`: the tree holds a comparison.
  ASSERT_EQ(p->module.items.size(), 1u);
  // `if x == 3` and `if let` are fine.
  p = ParseText("fn main() {\n    if x == 3 { }\n    if let Some(a) = b { }\n}\n");
  EXPECT_FALSE(p->diags.HasErrors()) << p->diags.Render(p->file);
}

// Loop labels parse onto their loops and onto `break`/`continue`; a label
// before something that is not a loop is MT0019, spanning the label.
TEST(DiagParser, LoopLabelsParse) {
  auto p = ParseText(
      "fn main() {\n    'outer: for i in 0..3 {\n        loop { continue 'outer }\n"
      "        break 'outer\n    }\n}\n");
  ASSERT_FALSE(p->diags.HasErrors()) << p->diags.Render(p->file);
  const Expr& loop = *p->module.items[0].fn.body->stmts[0].expr;
  EXPECT_EQ(loop.kind, Expr::Kind::kFor);
  EXPECT_EQ(loop.more->label, "outer");
  EXPECT_EQ(loop.more->label_loc.line, 2u);
  EXPECT_EQ(loop.more->label_loc.col, 5u);
  const Expr& brk = *loop.then_block->stmts[1].expr;
  EXPECT_EQ(brk.kind, Expr::Kind::kBreak);
  EXPECT_EQ(brk.more->label, "outer");
  auto q = ParseText("fn main() {\n    let x = 'a: { 3 }\n}\n");
  ASSERT_EQ(q->diags.list().size(), 1u) << q->diags.Render(q->file);
  EXPECT_EQ(q->diags.list()[0].code, "MT0019");
  EXPECT_EQ(SpanEnd(q->file, q->diags.list()[0].loc, q->diags.list()[0].end).col, 14u);
}

TEST(DiagParser, ParenthesesWarning) {
  auto p = ParseText(
      "fn main() {\n    if (x > 2) { }\n    while (a) && (b) { }\n    if (a, b) == c { }\n"
      "    if (a) + (b) > 2 { }\n}\n");
  EXPECT_FALSE(p->diags.HasErrors()) << p->diags.Render(p->file);
  ASSERT_EQ(p->diags.WarningCount(), 1u) << p->diags.Render(p->file);
  const Diagnostic& w = p->diags.list()[0];
  EXPECT_EQ(w.severity, Severity::kWarning);
  EXPECT_EQ(w.code, "MT0040");
  ASSERT_EQ(w.labels.size(), 1u);
  EXPECT_EQ(w.labels[0].loc.col, 14u);  // the `)`
}

// The parser's expression spans: first token to last, whole.
TEST(DiagParser, ExpressionSpans) {
  auto p = ParseText("fn main() {\n    let v = a.b(1, 2)[0] + f(x) * -3\n}\n");
  ASSERT_FALSE(p->diags.HasErrors()) << p->diags.Render(p->file);
  const Expr& sum = *p->module.items[0].fn.body->stmts[0].expr;
  EXPECT_EQ(sum.kind, Expr::Kind::kBinary);
  EXPECT_EQ(sum.begin.col, 13u);
  EXPECT_EQ(sum.end.col, 36u);
  const Expr& index = *sum.lhs;
  EXPECT_EQ(index.begin.col, 13u);
  EXPECT_EQ(index.end.col, 24u);
  EXPECT_EQ(index.lhs->end.col, 21u);  // a.b(1, 2)
  const Expr& product = *sum.rhs;
  EXPECT_EQ(product.begin.col, 28u);
  EXPECT_EQ(product.rhs->begin.col, 35u);  // -3
}

}  // namespace
}  // namespace mty::frontend
