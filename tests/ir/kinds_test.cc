// The kind tables (kinds.def, kinds.h) and the walks over them (visit.h):
// every kind of every list, checked against the sample text kinds.def gives.
#include "mty/ir/kinds.h"

#include <cstring>
#include <iterator>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "mty/ir/text.h"
#include "mty/ir/verify.h"
#include "mty/ir/visit.h"

namespace mty::ir {
namespace {

// A program in canonical text whose fn f has `stmt` (if any) and `term` in
// bb0, and declares what the samples name, so that each one verifies.
std::string ProgramText(std::string_view stmt, std::string_view term) {
  std::string s = R"(mtyir 1

enum Shape {
  Rect(I64, I64),
}

sandbox "Tool" { }

fn Point::norm(_1: I64, _2: I64) -> I64 {
bb0:
  return
}

fn helper(_1: I64) -> I64 {
bb0:
  return
}

fn f(_1: Any, _2: Any, _3: Any, _4: Any) -> Any {
bb0:
)";
  if (!stmt.empty()) s += "  " + std::string(stmt) + "\n";
  s += "  " + std::string(term) + "\n";
  for (int b = 1; b <= 3; ++b) s += "bb" + std::to_string(b) + ":\n  return\n";
  return s + "}\n";
}

// The parsed text; on an error, a failure and a program with a `nop` in bb0
// (so the tests' lookups stay in bounds).
Program Parse(const std::string& text) {
  absl::StatusOr<Program> p = ParseText(text, "kinds.mtyir");
  if (p.ok()) return *std::move(p);
  ADD_FAILURE() << p.status() << "\n" << text;
  return *ParseText(ProgramText("nop", "return"), "kinds.mtyir");
}

Block& Bb0(Program& p) { return p.functions.back().blocks[0]; }

// The numbers after `prefix` in the text, in order: `_N` locals or `bbN`.
std::vector<uint32_t> Numbers(std::string_view text, const char* prefix) {
  std::regex re(std::string("\\b") + prefix + "([0-9]+)");
  std::vector<uint32_t> out;
  std::string s(text);
  for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back(static_cast<uint32_t>(std::stoul((*it)[1])));
  return out;
}

// The text with every `prefix`N renumbered to `prefix`(N + 10).
std::string Renumbered(std::string_view text, const char* prefix) {
  std::regex re(std::string("\\b") + prefix + "([0-9]+)");
  std::string s(text), out;
  size_t last = 0;
  for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator(); ++it) {
    out += s.substr(last, it->position() - last);
    out.append(prefix).append(std::to_string(std::stoul((*it)[1]) + 10));
    last = it->position() + it->length();
  }
  return out + s.substr(last);
}

// The samples' operands are all `copy P` or `move P`: how many it has.
size_t OperandCount(std::string_view text) {
  std::string s(text);
  std::regex re("\\b(copy|move) ");
  return std::distance(std::sregex_iterator(s.begin(), s.end(), re), std::sregex_iterator());
}

std::string AllMoves(std::string text) {
  for (size_t at; (at = text.find("copy ")) != std::string::npos;) text.replace(at, 4, "move");
  return text;
}

// Checks that the visited operands, printed, occur in the sample in order.
void ExpectInTextOrder(const std::vector<std::string>& printed, std::string_view sample) {
  size_t at = 0;
  for (const std::string& o : printed) {
    size_t found = sample.find(o, at);
    ASSERT_NE(found, std::string_view::npos) << o << " (in order) in " << sample;
    at = found + o.size();
  }
}

TEST(IrKinds, EveryStatementKeywordAndSampleParseBackToItsKind) {
  for (const StatementKindInfo& k : kStatementKinds) {
    SCOPED_TRACE(k.sample);
    EXPECT_STREQ(Keyword(k.kind), k.keyword);
    if (*k.keyword) {
      EXPECT_TRUE(StatementKindOf(k.keyword) == k.kind);
    }
    std::string text = ProgramText(k.sample, "return");
    Program p = Parse(text);
    ASSERT_EQ(Bb0(p).stmts.size(), 1u);
    EXPECT_EQ(Bb0(p).stmts[0].kind, k.kind);
    EXPECT_EQ(PrintText(p), text);  // the sample is canonical
    EXPECT_TRUE(Verify(p, "kinds.mtyir").ok()) << Verify(p, "kinds.mtyir");
  }
  EXPECT_FALSE(StatementKindOf("").has_value());  // kAssign has no keyword
  EXPECT_FALSE(StatementKindOf("goto").has_value());
}

TEST(IrKinds, EveryRvalueKeywordAndSampleParseBackToItsKind) {
  for (const RvalueKindInfo& k : kRvalueKinds) {
    SCOPED_TRACE(k.sample);
    EXPECT_STREQ(Keyword(k.kind), k.keyword);
    if (*k.keyword) {
      EXPECT_TRUE(RvalueKindOf(k.keyword) == k.kind);
      EXPECT_EQ(std::string_view(k.sample).substr(0, std::strlen(k.keyword)), k.keyword);
    }
    std::string text = ProgramText(std::string("_0 = ") + k.sample, "return");
    Program p = Parse(text);
    ASSERT_EQ(Bb0(p).stmts.size(), 1u);
    const Rvalue& r = Bb0(p).stmts[0].rvalue;
    EXPECT_EQ(r.kind, k.kind);
    EXPECT_EQ(PrintRvalue(r), k.sample);
    EXPECT_EQ(PrintText(p), text);
    EXPECT_TRUE(Verify(p, "kinds.mtyir").ok()) << Verify(p, "kinds.mtyir");
  }
  EXPECT_FALSE(RvalueKindOf("copy").has_value());
  EXPECT_FALSE(RvalueKindOf("-").has_value());  // a unary operator, not a kind
}

TEST(IrKinds, EveryTerminatorKeywordAndSampleParseBackToItsKind) {
  for (const TerminatorKindInfo& k : kTerminatorKinds) {
    SCOPED_TRACE(k.sample);
    EXPECT_STREQ(Keyword(k.kind), k.keyword);
    EXPECT_TRUE(TerminatorKindOf(k.keyword) == k.kind);
    std::string text = ProgramText("", k.sample);
    Program p = Parse(text);
    EXPECT_EQ(Bb0(p).term.kind, k.kind);
    EXPECT_EQ(PrintText(p), text);
    EXPECT_TRUE(Verify(p, "kinds.mtyir").ok()) << Verify(p, "kinds.mtyir");
  }
  EXPECT_FALSE(TerminatorKindOf("then").has_value());
}

TEST(IrKinds, EveryOperatorTextParsesBackToItsOperator) {
  for (const BinOpInfo& o : kBinOps) {
    SCOPED_TRACE(o.text);
    EXPECT_STREQ(BinOpText(o.op), o.text);
    EXPECT_TRUE(BinOpOfText(o.text) == o.op);
    EXPECT_EQ(IsCompare(o.op), o.is_compare);
    std::string sample = std::string("copy _1 ") + o.text + " copy _2";
    std::string text = ProgramText("_0 = " + sample, "return");
    Program p = Parse(text);
    const Rvalue& r = Bb0(p).stmts[0].rvalue;
    EXPECT_EQ(r.kind, Rvalue::Kind::kBinOp);
    EXPECT_EQ(r.bin, o.op);
    EXPECT_EQ(PrintText(p), text);
  }
  for (const UnOpInfo& o : kUnOps) {
    SCOPED_TRACE(o.text);
    EXPECT_STREQ(UnOpText(o.op), o.text);
    EXPECT_TRUE(UnOpOfText(o.text) == o.op);
    std::string text = ProgramText(std::string("_0 = ") + o.text + "copy _1", "return");
    Program p = Parse(text);
    const Rvalue& r = Bb0(p).stmts[0].rvalue;
    EXPECT_EQ(r.kind, Rvalue::Kind::kUnOp);
    EXPECT_EQ(r.un, o.op);
    EXPECT_EQ(PrintText(p), text);
  }
  EXPECT_FALSE(BinOpOfText("=>").has_value());
  EXPECT_FALSE(UnOpOfText("+").has_value());
  // `-5` stays a constant, not a negation.
  Program p = Parse(ProgramText("_0 = -5 * copy _1", "return"));
  EXPECT_EQ(Bb0(p).stmts[0].rvalue.kind, Rvalue::Kind::kBinOp);
}

TEST(IrKinds, TheVerifierWantsEachRvaluesFewestOperands) {
  for (const RvalueKindInfo& k : kRvalueKinds) {
    if (k.min_ops == 0) continue;
    SCOPED_TRACE(k.sample);
    Program p = Parse(ProgramText(std::string("_0 = ") + k.sample, "return"));
    Rvalue& r = Bb0(p).stmts[0].rvalue;
    ASSERT_GE(r.ops.size(), k.min_ops);
    r.ops.resize(k.min_ops - 1);
    r.deadline.reset();
    EXPECT_FALSE(Verify(p, "kinds.mtyir").ok());
  }
}

TEST(IrVisit, ForEachTargetVisitsEveryTerminatorsBlocksInTextOrder) {
  for (const TerminatorKindInfo& k : kTerminatorKinds) {
    SCOPED_TRACE(k.sample);
    Program p = Parse(ProgramText("", k.sample));
    Terminator& t = Bb0(p).term;
    std::vector<uint32_t> seen;
    ForEachTarget(std::as_const(t), [&](uint32_t b) { seen.push_back(b); });
    EXPECT_EQ(seen, Numbers(k.sample, "bb"));
    // The mutable walk renumbers every block the text names.
    ForEachTarget(t, [](uint32_t& b) { b += 10; });
    EXPECT_EQ(PrintText(p), ProgramText("", Renumbered(k.sample, "bb")));
  }
}

TEST(IrVisit, ForEachOperandVisitsEveryTerminatorsOperand) {
  for (const TerminatorKindInfo& k : kTerminatorKinds) {
    SCOPED_TRACE(k.sample);
    Program p = Parse(ProgramText("", k.sample));
    Terminator& t = Bb0(p).term;
    std::vector<std::string> seen;
    ForEachOperand(std::as_const(t), [&](const Operand& o) { seen.push_back(PrintOperand(o)); });
    EXPECT_EQ(seen.size(), OperandCount(k.sample));
    EXPECT_EQ(UsesOperand(k.kind), !seen.empty());
    ExpectInTextOrder(seen, k.sample);
    ForEachOperand(t, [](Operand& o) { o.kind = Operand::Kind::kMove; });
    EXPECT_EQ(PrintText(p), ProgramText("", AllMoves(k.sample)));
  }
}

TEST(IrVisit, ForEachOperandVisitsEveryRvaluesOperand) {
  for (const RvalueKindInfo& k : kRvalueKinds) {
    SCOPED_TRACE(k.sample);
    Program p = Parse(ProgramText(std::string("_0 = ") + k.sample, "return"));
    Rvalue& r = Bb0(p).stmts[0].rvalue;
    std::vector<std::string> seen;
    ForEachOperand(std::as_const(r), [&](const Operand& o) { seen.push_back(PrintOperand(o)); });
    EXPECT_EQ(seen.size(), OperandCount(k.sample));
    ExpectInTextOrder(seen, k.sample);
    // The statement walk sees the same operands.
    size_t via_statement = 0;
    ForEachOperand(std::as_const(Bb0(p).stmts[0]), [&](const Operand&) { ++via_statement; });
    EXPECT_EQ(via_statement, seen.size());
    ForEachOperand(r, [](Operand& o) { o.kind = Operand::Kind::kMove; });
    EXPECT_EQ(PrintRvalue(r), AllMoves(k.sample));
  }
}

TEST(IrVisit, ForEachLocalVisitsEveryRvaluesLocalsInTextOrder) {
  for (const RvalueKindInfo& k : kRvalueKinds) {
    SCOPED_TRACE(k.sample);
    Program p = Parse(ProgramText(std::string("_0 = ") + k.sample, "return"));
    Rvalue& r = Bb0(p).stmts[0].rvalue;
    std::vector<uint32_t> seen;
    ForEachLocal(std::as_const(r), [&](uint32_t l) { seen.push_back(l); });
    EXPECT_EQ(seen, Numbers(k.sample, "_"));
    bool saw_place = false;
    ForEachPlace(std::as_const(r), [&](const Place& pl, PlaceAccess a) {
      EXPECT_EQ(a, PlaceAccess::kRead);
      saw_place |= &pl == &r.place;
    });
    EXPECT_EQ(saw_place, k.uses_place);
    ForEachLocal(r, [](uint32_t& l) { l += 10; });
    EXPECT_EQ(PrintRvalue(r), Renumbered(k.sample, "_"));
  }
}

TEST(IrVisit, EveryStatementsOperandsAndLocalsInTextOrder) {
  for (const StatementKindInfo& k : kStatementKinds) {
    SCOPED_TRACE(k.sample);
    Program p = Parse(ProgramText(k.sample, "return"));
    Statement& s = Bb0(p).stmts[0];
    std::vector<std::string> ops;
    ForEachOperand(std::as_const(s), [&](const Operand& o) { ops.push_back(PrintOperand(o)); });
    EXPECT_EQ(ops.size(), OperandCount(k.sample));
    ExpectInTextOrder(ops, k.sample);
    std::vector<uint32_t> locals;
    ForEachLocal(std::as_const(s), [&](uint32_t l) { locals.push_back(l); });
    EXPECT_EQ(locals, Numbers(k.sample, "_"));
    ForEachLocal(s, [](uint32_t& l) { l += 10; });
    ForEachOperand(s, [](Operand& o) { o.kind = Operand::Kind::kMove; });
    EXPECT_EQ(PrintText(p), ProgramText(AllMoves(Renumbered(k.sample, "_")), "return"));
  }
}

TEST(IrVisit, PlacesComeWithHowTheyAreUsed) {
  auto accesses = [](const std::string& stmt) {
    Program p = Parse(ProgramText(stmt, "return"));
    std::string out;
    ForEachPlace(std::as_const(Bb0(p).stmts[0]), [&](const Place& pl, PlaceAccess a) {
      out += PrintPlace(pl) + (a == PlaceAccess::kRead    ? ":read "
                               : a == PlaceAccess::kWrite ? ":write "
                                                          : ":storage ");
    });
    return out;
  };
  EXPECT_EQ(accesses("_1.f0 = copy _2[_3] + move _4"), "_1.f0:write _2[_3]:read _4:read ");
  EXPECT_EQ(accesses("_1 = &mut _2"), "_1:write _2:read ");
  EXPECT_EQ(accesses("_1 = method _2, push(copy _3)"), "_1:write _2:read _3:read ");
  EXPECT_EQ(accesses("_1 = ask copy _2, Ping(1) within copy _3"), "_1:write _2:read _3:read ");
  EXPECT_EQ(accesses("_1 = effect std.fs.read(copy _2)"), "_1:write _2:read ");
  EXPECT_EQ(accesses("effect std.time.sleep(10ms)"), "");
  EXPECT_EQ(accesses("drop _1"), "_1:storage ");
  EXPECT_EQ(accesses("storage_dead _2"), "_2:storage ");
  EXPECT_EQ(accesses("nop"), "");
}

}  // namespace
}  // namespace mty::ir
