// Program::ReadSourceInput: how `mty repl` reads an input (items, or
// statements with where each starts and what its `let`s bind).
#include <gtest/gtest.h>

#include <string>

#include "mty/mty.h"

namespace {

using mty::Program;
using Kind = Program::Statement::Kind;

TEST(SourceInput, Items) {
  auto r = Program::ReadSourceInput("struct P { a: I64 }\nfn f() -> I64 { 1 }\nimpl P {}\n", "<t>");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->items);
  EXPECT_EQ(r->item_names, (std::vector<std::string>{"P", "f"}));
}

TEST(SourceInput, StatementsWithOffsetsAndBindings) {
  const std::string text = "let (a, mut b) = (1, 2); b += a\n  let Some(c) | Some(c) = None\nb";
  auto r = Program::ReadSourceInput(text, "<t>");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->items);
  ASSERT_EQ(r->statements.size(), 4u);
  EXPECT_EQ(r->statements[0].kind, Kind::kLet);
  EXPECT_EQ(r->statements[0].offset, 0u);
  EXPECT_EQ(r->statements[0].names,
            (std::vector<std::pair<std::string, bool>>{{"a", false}, {"b", true}}));
  EXPECT_EQ(r->statements[1].kind, Kind::kExpr);
  EXPECT_EQ(text.substr(r->statements[1].offset, 6), "b += a");
  EXPECT_EQ(r->statements[2].names, (std::vector<std::pair<std::string, bool>>{{"c", false}}));
  EXPECT_EQ(text.substr(r->statements[2].offset, 3), "let");
  EXPECT_EQ(r->statements[3].kind, Kind::kExpr);
  EXPECT_FALSE(r->statements[3].has_semi);
  EXPECT_EQ(r->statements[3].offset, text.size() - 1);
}

TEST(SourceInput, OffsetsCountBytesAfterNonAscii) {
  const std::string text = "let s = \"héllo\"; s";
  auto r = Program::ReadSourceInput(text, "<t>");
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->statements.size(), 2u);
  EXPECT_EQ(text.substr(r->statements[1].offset), "s");
}

TEST(SourceInput, IncompleteIsOutOfRange) {
  for (const char* text : {"[1, 2", "fn f() {", "\"open", "1 +", "/* c", "let x ="}) {
    auto r = Program::ReadSourceInput(text, "<t>");
    EXPECT_EQ(r.status().code(), absl::StatusCode::kOutOfRange) << text << ": " << r.status();
  }
}

TEST(SourceInput, ErrorsAreLocatedInTheText) {
  auto r = Program::ReadSourceInput("1 + 2\n) x", "<t>");
  ASSERT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
  EXPECT_NE(std::string(r.status().message()).find("<t>:2:1"), std::string::npos)
      << r.status().message();
  auto item = Program::ReadSourceInput("fn f( {}", "<t>");
  EXPECT_FALSE(item.ok());
}

}  // namespace
