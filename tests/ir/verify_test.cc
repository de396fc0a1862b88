// The verifier rejects malformed programs with located messages, and the
// builder API assembles programs that verify and print.
#include "mty/ir/verify.h"

#include "gtest/gtest.h"
#include "mty/ir/builder.h"
#include "mty/ir/text.h"

namespace mty::ir {
namespace {

std::string VerifyError(const std::string& body) {
  std::string src =
      "struct P { x: I64 }\nenum E {\n  A(I64),\n  B,\n}\n"
      "fn two(_1: I64, _2: I64) -> I64 {\nbb0:\n  return\n}\n"
      "fn main() -> Unit {\n  let _1: Any\nbb0:\n" +
      body + "}\n";
  auto p = ParseText(src, "v.mtyir");
  EXPECT_TRUE(p.ok()) << p.status();
  if (!p.ok()) return "";
  absl::Status s = Verify(*p, "v.mtyir");
  return s.ok() ? "" : std::string(s.message());
}

TEST(Verify, AcceptsAWellFormedProgram) {
  EXPECT_EQ(VerifyError("  _1 = call two(1, 2)\n  return\n"), "");
}

TEST(Verify, RejectsWithLocation) {
  struct Case {
    const char* body;
    const char* want;
  };
  const Case cases[] = {
      {"  goto bb7\n", "v.mtyir:13:3: error: in fn main: block bb7 does not exist"},
      {"  _9 = 1\n  return\n", "v.mtyir:13:3: error: in fn main: local _9 does not exist"},
      {"  _1 = copy _1[_5]\n  return\n", "local _5 does not exist"},
      {"  _1 = call nothere(1)\n  return\n",
       "v.mtyir:13:3: error: in fn main: unknown function 'nothere'"},
      {"  _1 = call two(1)\n  return\n", "fn two takes 2 argument(s), given 1"},
      {"  _1 = call @nope(1)\n  return\n", "unknown builtin '@nope'"},
      {"  _1 = call @log(1, 2)\n  return\n", "@log takes 1 argument(s), given 2"},
      {"  _1 = new Q(1)\n  return\n", "unknown ADT 'Q'"},
      {"  _1 = new E::C(1)\n  return\n", "enum E has no variant 'C'"},
      {"  _1 = new E::A()\n  return\n", "E::A takes 1 fields, given 0"},
      {"  _1 = new P(1, 2)\n  return\n", "P takes 1 fields, given 2"},
      {"  _1 = new P::P(1)\n  return\n", "struct P has no variants"},
      {"  _1 = cast 1 as Point\n  return\n", "cannot cast to Point"},
      {"  _1 = fn missing\n  return\n", "unknown function 'missing'"},
      {"  _1 = closure two(1, 2, 3)\n  return\n", "captures 3 values but the fn takes only 2"},
      {"  _1 = cap disk \"/\"\n  return\n", "unknown capability family 'disk'"},
      {"  switch_int 1 {1 => bb3, _ => bb0}\n", "block bb3 does not exist"},
      {"  if true then bb0 else bb2\n", "block bb2 does not exist"},
  };
  for (const Case& c : cases) {
    std::string e = VerifyError(c.body);
    EXPECT_NE(e.find(c.want), std::string::npos) << "body: " << c.body << "\ngot: " << e;
  }
}

TEST(Verify, PreludeAdtsNeedNoDeclaration) {
  EXPECT_EQ(VerifyError("  _1 = new Option::Some(1)\n  _1 = new Result::Err(\"e\")\n  return\n"),
            "");
}

TEST(Builder, BuildsAProgramThatVerifiesAndPrints) {
  Program p;
  FunctionBuilder f("add1", Type::Named("I64"));
  uint32_t x = f.Param(Type::Named("I64"), "x");
  uint32_t b0 = f.NewBlock();
  f.SetBlock(b0);
  f.Assign(Place{0, {}}, Bin(BinOp::kAdd, Copy(x), Int(1)));
  f.Return();
  p.functions.push_back(std::move(f).Build());

  FunctionBuilder m("main", Type::Named("I64"));
  uint32_t t = m.Let(Type::Named("I64"));
  m.SetBlock(m.NewBlock());
  m.Assign(Place{t, {}}, Call("add1", {Int(41)}));
  m.Assign(Place{0, {}}, Use(Copy(t)));
  m.Return();
  p.functions.push_back(std::move(m).Build());

  ASSERT_TRUE(Verify(p, "built").ok());
  std::string text = PrintText(p);
  EXPECT_NE(text.find("fn add1(_1: I64 \"x\") -> I64 {"), std::string::npos) << text;
  EXPECT_NE(text.find("_1 = call add1(41)"), std::string::npos) << text;
  auto q = ParseText(text, "built.mtyir");
  ASSERT_TRUE(q.ok()) << q.status();
  EXPECT_EQ(PrintText(*q), text);
}

}  // namespace
}  // namespace mty::ir
