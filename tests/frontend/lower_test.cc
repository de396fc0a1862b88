// Lowering unit tests: small Mighty programs through the front end
// (CompileSource), checked against the printed MtyIR of their functions.
#include "mty/frontend/lower.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "mty/frontend/diagnostics.h"
#include "mty/ir/ir.h"
#include "mty/ir/text.h"

namespace mty::frontend {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

struct Compiled {
  ir::Program program;
  std::string text;  // ir::PrintText of the program ("" after errors)
  std::vector<Diagnostic> diags;
  std::string rendered;
};

Compiled Compile(std::string src) {
  Compiled c;
  SourceFile f{"t.mty", std::move(src)};
  Diagnostics d;
  c.program = CompileSource(f, d);
  c.diags = d.list();
  c.rendered = d.Render(f);
  if (!d.HasErrors()) c.text = ir::PrintText(c.program);
  return c;
}

// Compiles a program that must lower without diagnostics.
Compiled CompileOk(std::string src) {
  Compiled c = Compile(std::move(src));
  EXPECT_TRUE(c.diags.empty()) << c.rendered;
  return c;
}

// The printed function `name`: from its `fn name(` line to its closing `}`.
std::string Fn(const Compiled& c, std::string_view name) {
  std::string head = "\nfn " + std::string(name) + "(";
  size_t a = c.text.find(head);
  if (a == std::string::npos) return "<no fn " + std::string(name) + " in>\n" + c.text;
  size_t b = c.text.find("\n}\n", a);
  return c.text.substr(a + 1, b + 3 - (a + 1));
}

std::vector<std::string> FnNames(const Compiled& c) {
  std::vector<std::string> names;
  for (const ir::Function& f : c.program.functions) names.push_back(f.name);
  return names;
}

// ------------------------------------------------------------ statements

TEST(LowerTest, LetAndArithmetic) {
  Compiled c = CompileOk(R"(fn main() {
  let x = 6
  let y = x * 7 + 1
  log(y)
}
)");
  // Each operator gets a temporary; `let` binds a named local; main returns ().
  EXPECT_EQ(Fn(c, "main"), R"(fn main() -> Unit {
  let _1: I64 "x"
  let mut _2: I64
  let mut _3: I64
  let _4: I64 "y"
  let mut _5: Unit
bb0:
  _1 = 6 @2:3
  _2 = copy _1 * 7 @3:3
  _3 = copy _2 + 1 @3:3
  _4 = copy _3 @3:3
  _5 = call @log(copy _4) @4:3
  _0 = () @1:4
  return @1:4
}
)");
}

TEST(LowerTest, IfElseIsAValue) {
  Compiled c = CompileOk(R"(fn sign(n: I64) -> I64 {
  if n < 0 { -1 } else { 1 }
}
)");
  // Both branches write the result local _2, which the join block returns.
  EXPECT_EQ(Fn(c, "sign"), R"(fn sign(_1: I64 "n") -> I64 {
  let mut _2: I64
  let mut _3: Bool
bb0:
  _3 = copy _1 < 0 @2:3
  if copy _3 then bb1 else bb2 @2:3
bb1:
  _2 = -1 @2:3
  goto bb3 @2:3
bb2:
  _2 = 1 @2:3
  goto bb3 @2:3
bb3:
  _0 = copy _2 @1:4
  return @1:4
}
)");
}

TEST(LowerTest, AndShortCircuits) {
  Compiled c = CompileOk(R"(fn both(a: Bool, b: Bool) -> Bool {
  a && b
}
)");
  // `b` is read only on the path where `a` is true; otherwise the result is false.
  EXPECT_EQ(Fn(c, "both"), R"(fn both(_1: Bool "a", _2: Bool "b") -> Bool {
  let mut _3: Bool
bb0:
  if copy _1 then bb1 else bb2 @2:3
bb1:
  _3 = copy _2 @2:3
  goto bb3 @2:3
bb2:
  _3 = false @2:3
  goto bb3 @2:3
bb3:
  _0 = copy _3 @1:4
  return @1:4
}
)");
}

// ---------------------------------------------------------------- loops

TEST(LowerTest, WhileLoop) {
  Compiled c = CompileOk(R"(fn count(n: I64) -> I64 {
  let mut i = 0
  while i < n {
    i += 1
  }
  i
}
)");
  // bb1 tests the condition, bb3 is the body (back to bb1), bb2 the exit.
  EXPECT_EQ(Fn(c, "count"), R"(fn count(_1: I64 "n") -> I64 {
  let mut _2: I64 "i"
  let mut _3: Any
  let mut _4: Bool
  let mut _5: I64
bb0:
  _2 = 0 @2:3
  _3 = () @3:3
  goto bb1 @3:3
bb1:
  _4 = copy _2 < copy _1 @3:3
  if copy _4 then bb3 else bb2 @3:3
bb2:
  _0 = copy _2 @1:4
  return @1:4
bb3:
  _5 = copy _2 + 1 @4:5
  _2 = copy _5 @4:5
  goto bb1 @3:3
}
)");
}

TEST(LowerTest, ForOverARange) {
  Compiled c = CompileOk(R"(fn sum(n: I64) -> I64 {
  let mut s = 0
  for i in 0..n {
    s += i
  }
  s
}
)");
  // _4 counts from 0 while < n (the bound is read from _1 directly); bb3
  // increments; bb5 is the (unreachable) failure of the loop pattern, bb6
  // the dead block after the return.
  EXPECT_EQ(Fn(c, "sum"), R"(fn sum(_1: I64 "n") -> I64 {
  let mut _2: I64 "s"
  let mut _3: Unit
  let mut _4: I64
  let mut _5: Bool
  let mut _6: I64
  let _7: I64 "i"
  let mut _8: I64
bb0:
  _2 = 0 @2:3
  _3 = () @3:3
  _4 = 0 @3:3
  goto bb1 @3:3
bb1:
  _5 = copy _4 < copy _1 @3:3
  if copy _5 then bb2 else bb4 @3:3
bb2:
  _6 = copy _4 @3:3
  _7 = copy _6 @3:3
  _8 = copy _2 + copy _7 @4:5
  _2 = copy _8 @4:5
  goto bb3 @3:3
bb3:
  _4 = copy _4 + 1 @3:3
  goto bb1 @3:3
bb4:
  _0 = copy _2 @1:4
  return @1:4
bb5:
  unreachable @3:3
bb6:
  unreachable
}
)");
}

TEST(LowerTest, ForOverAnInclusiveRangeStopsBeforeIncrementingPastTheBound) {
  Compiled c = CompileOk(R"(fn sum(n: I64) -> I64 {
  let mut s = 0
  for i in 1..=n { s += i }
  s
}
)");
  std::string f = Fn(c, "sum");
  EXPECT_THAT(f, HasSubstr("  _4 = 1 @3:3\n"));
  EXPECT_THAT(f, HasSubstr("  _5 = copy _4 <= copy _1 @3:3\n"));
  // The step block leaves the loop when the counter reached the bound, so
  // `1..=I64::MAX` never overflows.
  EXPECT_THAT(f, HasSubstr("bb3:\n"
                           "  _9 = copy _4 == copy _1 @3:3\n"
                           "  if copy _9 then bb4 else bb7 @3:3\n"));
  EXPECT_THAT(f, HasSubstr("bb7:\n"
                           "  _4 = copy _4 + 1 @3:3\n"
                           "  goto bb1 @3:3\n"));
}

// ------------------------------------------------------------- patterns

TEST(LowerTest, MatchOnAnEnumBindsVariantFields) {
  Compiled c = CompileOk(R"(enum Shape {
  Circle(I64),
  Rect(I64, I64),
  Empty,
}

fn area(s: Shape) -> I64 {
  match s {
    Shape::Circle(r) => 3 * r * r,
    Shape::Rect(w, h) => w * h,
    Shape::Empty => 0,
  }
}
)");
  EXPECT_THAT(c.text, HasSubstr("enum Shape {\n  Circle(I64),\n  Rect(I64, I64),\n  Empty,\n}\n"));
  // One switch_variant per arm, tried in order; the bindings read the
  // variant's fields (`.vV.fN`); no arm matching is unreachable (bb7).
  EXPECT_EQ(Fn(c, "area"), R"(fn area(_1: Shape "s") -> I64 {
  let mut _2: I64
  let _3: I64 "r"
  let mut _4: I64
  let mut _5: I64
  let _6: I64 "w"
  let _7: I64 "h"
  let mut _8: I64
bb0:
  goto bb2 @8:3
bb1:
  _0 = copy _2 @7:4
  return @7:4
bb2:
  switch_variant copy _1 {0 => bb4, _ => bb3} @8:3
bb3:
  switch_variant copy _1 {1 => bb6, _ => bb5} @8:3
bb4:
  _3 = copy _1.v0.f0 @8:3
  _4 = 3 * copy _3 @8:3
  _5 = copy _4 * copy _3 @8:3
  _2 = copy _5 @8:3
  goto bb1 @8:3
bb5:
  switch_variant copy _1 {2 => bb8, _ => bb7} @8:3
bb6:
  _6 = copy _1.v1.f0 @8:3
  _7 = copy _1.v1.f1 @8:3
  _8 = copy _6 * copy _7 @8:3
  _2 = copy _8 @8:3
  goto bb1 @8:3
bb7:
  unreachable @8:3
bb8:
  _2 = 0 @8:3
  goto bb1 @8:3
bb9:
  unreachable
}
)");
}

TEST(LowerTest, MatchWithALiteralAGuardAndAWildcard) {
  Compiled c = CompileOk(R"(fn classify(n: I64) -> Str {
  match n {
    0 => "zero",
    x if x > 10 => "big",
    _ => "small",
  }
}
)");
  // A literal compares with ==; the guard runs after `x` is bound and falls
  // through to the next arm (bb5) when false.
  EXPECT_EQ(Fn(c, "classify"), R"(fn classify(_1: I64 "n") -> Str {
  let mut _2: Str
  let mut _3: Bool
  let _4: I64 "x"
  let mut _5: Bool
bb0:
  goto bb2 @2:3
bb1:
  _0 = copy _2 @1:4
  return @1:4
bb2:
  _3 = copy _1 == 0 @2:3
  if copy _3 then bb4 else bb3 @2:3
bb3:
  _4 = copy _1 @2:3
  _5 = copy _4 > 10 @2:3
  if copy _5 then bb6 else bb5 @2:3
bb4:
  _2 = "zero" @2:3
  goto bb1 @2:3
bb5:
  _2 = "small" @2:3
  goto bb1 @2:3
bb6:
  _2 = "big" @2:3
  goto bb1 @2:3
bb7:
  unreachable @2:3
bb8:
  unreachable
}
)");
}

TEST(LowerTest, IfLetOnAnOption) {
  Compiled c = CompileOk(R"(fn get(o: Option[I64]) -> I64 {
  if let Some(x) = o { x } else { 0 }
}
)");
  // Some is variant 0; anything else takes the else block (bb2).
  EXPECT_EQ(Fn(c, "get"), R"(fn get(_1: Option[I64] "o") -> I64 {
  let mut _2: I64
  let _3: I64 "x"
bb0:
  goto bb1 @2:3
bb1:
  switch_variant copy _1 {0 => bb4, _ => bb2} @2:3
bb2:
  _2 = 0 @2:3
  goto bb3 @2:3
bb3:
  _0 = copy _2 @1:4
  return @1:4
bb4:
  _3 = copy _1.v0.f0 @2:3
  _2 = copy _3 @2:3
  goto bb3 @2:3
}
)");
}

// ------------------------------------------------ structs, methods, calls

TEST(LowerTest, StructLiteralAndFieldRead) {
  Compiled c = CompileOk(R"(struct Point { x: I64, y: I64 }

fn main() {
  let p = Point { x: 1, y: 2 }
  log(p.y)
}
)");
  EXPECT_THAT(c.text, HasSubstr("\nstruct Point { x: I64, y: I64 }\n"));
  // Fields are initialised in declaration order; `p.y` is field 1.
  EXPECT_EQ(Fn(c, "main"), R"(fn main() -> Unit {
  let mut _1: Point
  let _2: Point "p"
  let mut _3: I64
  let mut _4: Unit
bb0:
  _1 = new Point(1, 2) @4:3
  _2 = copy _1 @4:3
  _3 = copy _2.f1 @5:3
  _4 = call @log(copy _3) @5:3
  _0 = () @3:4
  return @3:4
}
)");
}

TEST(LowerTest, MethodCallsOnAUserStruct) {
  Compiled c = CompileOk(R"(struct Counter { n: I64 }

impl Counter {
  fn get(&self) -> I64 { self.n }
  fn bump(&mut self) { self.n += 1 }
}

fn main() {
  let mut c = Counter { n: 0 }
  c.bump()
  log(c.get())
}
)");
  // `&mut self` gets a reference to the caller's local; `&self` a copy.
  EXPECT_EQ(Fn(c, "main"), R"(fn main() -> Unit {
  let mut _1: Counter
  let mut _2: Counter "c"
  let mut _3: &mut Counter
  let mut _4: Unit
  let mut _5: Counter
  let mut _6: I64
  let mut _7: Unit
bb0:
  _1 = new Counter(0) @9:3
  _2 = copy _1 @9:3
  _3 = &mut _2 @10:3
  _4 = call Counter::bump(copy _3) @10:3
  _5 = copy _2 @11:3
  _6 = call Counter::get(move _5) @11:3
  _7 = call @log(copy _6) @11:3
  _0 = () @8:4
  return @8:4
}
)");
  // The method writes through the reference.
  EXPECT_EQ(Fn(c, "Counter::bump"), R"(fn Counter::bump(_1: &mut Counter "self") -> Unit {
  let mut _2: I64
bb0:
  _2 = copy _1.*.f0 + 1 @5:24
  _1.*.f0 = copy _2 @5:24
  _0 = () @5:6
  return @5:6
}
)");
  EXPECT_THAT(Fn(c, "Counter::get"), HasSubstr("fn Counter::get(_1: Counter \"self\") -> I64 {\n"));
}

TEST(LowerTest, ClosureCapturesBeforeItsParameters) {
  Compiled c = CompileOk(R"(fn main() {
  let k = 10
  let add = |x| x + k
  log(add(5))
}
)");
  // The closure is its own function: the captured `k` is _1, the argument _2.
  EXPECT_EQ(Fn(c, "main::__closure0"), R"(fn main::__closure0(_1: I64 "k", _2: Any "x") -> Any {
  let mut _3: I64
bb0:
  _3 = copy _2 + copy _1 @3:3
  _0 = copy _3 @3:3
  return @3:3
}
)");
  EXPECT_EQ(Fn(c, "main"), R"(fn main() -> Unit {
  let _1: I64 "k"
  let mut _2: Fn
  let _3: Fn "add"
  let mut _4: Any
  let mut _5: Unit
bb0:
  _1 = 10 @2:3
  _2 = closure main::__closure0(copy _1) @3:3
  _3 = copy _2 @3:3
  _4 = call_indirect copy _3(5) @4:3
  _5 = call @log(copy _4) @4:3
  _0 = () @1:4
  return @1:4
}
)");
}

TEST(LowerTest, PreludeMethodCompilesOnlyTheHelpersUsed) {
  Compiled c = CompileOk(R"(fn main() {
  let xs = [1, 2, 3]
  log(xs.map(|x| x * 2))
}
)");
  // `map` takes a guest closure: it calls the prelude's Mighty helper.
  EXPECT_THAT(Fn(c, "main"), HasSubstr("  _3 = closure main::__closure0() @3:3\n"
                                       "  _4 = call __mty_map(copy _2, copy _3) @3:3\n"));
  EXPECT_THAT(FnNames(c), ::testing::ElementsAre("main::__closure0", "main", "__mty_map"));

  Compiled plain = CompileOk("fn main() {\n  log([1, 2].len())\n}\n");
  EXPECT_THAT(plain.text, Not(HasSubstr("__mty_")));
  EXPECT_THAT(Fn(plain, "main"), HasSubstr(" = method _1, len() @2:3\n"));
}

TEST(LowerTest, TryOnAResultReturnsTheError) {
  Compiled c = CompileOk(R"(fn half(n: I64) -> Result[I64, Str] {
  if n % 2 == 0 { Ok(n / 2) } else { Err("odd") }
}

fn quarter(n: I64) -> Result[I64, Str] {
  let h = half(n)?
  half(h)
}
)");
  EXPECT_THAT(Fn(c, "half"), HasSubstr("  _6 = new Result::Ok(copy _5) @2:19\n"));
  EXPECT_THAT(Fn(c, "half"), HasSubstr("  _7 = new Result::Err(\"odd\") @2:38\n"));
  // `?`: Ok (variant 0) continues with the payload, anything else returns it.
  EXPECT_EQ(Fn(c, "quarter"), R"(fn quarter(_1: I64 "n") -> Result[I64, Str] {
  let mut _2: Result[I64, Str]
  let mut _3: I64
  let _4: I64 "h"
  let mut _5: Result[I64, Str]
bb0:
  _2 = call half(copy _1) @6:3
  switch_variant copy _2 {0 => bb1, _ => bb2} @6:3
bb1:
  _3 = copy _2.v0.f0 @6:3
  _4 = copy _3 @6:3
  _5 = call half(copy _4) @7:3
  _0 = copy _5 @5:4
  return @5:4
bb2:
  try_return_err copy _2 @6:3
bb3:
  unreachable
}
)");
}

TEST(LowerTest, FormatMacroConcatenatesItsParts) {
  Compiled c = CompileOk(R"(fn show(x: I64, s: Str) -> Str {
  format!("x={} s={:?}!", x, s)
}
)");
  // `{:?}` goes through debug_str; the literal pieces stay constants.
  EXPECT_EQ(Fn(c, "show"), R"(fn show(_1: I64 "x", _2: Str "s") -> Str {
  let mut _3: Str
  let mut _4: Str
bb0:
  _3 = call @debug_str(copy _2) @2:3
  _4 = call @concat("x=", copy _1, " s=", copy _3, "!") @2:3
  _0 = copy _4 @1:4
  return @1:4
}
)");
}

TEST(LowerTest, StdCallIsAnEffect) {
  Compiled c = CompileOk(R"(fn main() {
  let r = std.fs.read("in.txt")
  log(r.is_ok())
}
)");
  std::string f = Fn(c, "main");
  EXPECT_THAT(f, HasSubstr("  let mut _1: Result[Any, Str]\n"));
  EXPECT_THAT(f, HasSubstr("  _1 = effect std.fs.read(\"in.txt\") @2:3\n"));
  EXPECT_THAT(f, HasSubstr("  _3 = method _2, is_ok() @3:3\n"));
}

// ------------------------------------------------------------- sandboxes

TEST(LowerTest, SandboxBlockWithAnInlineManifest) {
  Compiled c = CompileOk(R"(fn main() {
  sandbox Tool with { steps = 10 } {
    log(1)
  }
}
)");
  // The manifest becomes a declared sandbox; the body runs between
  // sandbox_enter and sandbox_exit.
  EXPECT_EQ(c.text, R"(mtyir 1
source "t.mty"

sandbox "Tool" { steps = 10 }

fn main() -> Unit {
  let mut _1: Unit
bb0:
  sandbox_enter "Tool" @2:3
  _1 = call @log(1) @3:5
  sandbox_exit @2:3
  _0 = () @1:4
  return @1:4
}
)");
}

TEST(LowerTest, SandboxesWithTheSameNameAndDifferentManifestsAreKeptApart) {
  Compiled c = CompileOk(R"(fn main() {
  sandbox Job with { steps = 10 } { log(1) }
  sandbox Job with { steps = 20 } { log(2) }
  sandbox Job with { steps = 10 } { log(3) }
}
)");
  // The second manifest differs: it is named by its location. The third is
  // the same as the first and reuses it.
  ASSERT_EQ(c.program.sandboxes.size(), 2u);
  EXPECT_THAT(c.text, HasSubstr("\nsandbox \"Job\" { steps = 10 }\n\n"
                                "sandbox \"Job@3:3\" { steps = 20 }\n"));
  std::string f = Fn(c, "main");
  EXPECT_THAT(f, HasSubstr("  sandbox_enter \"Job\" @2:3\n"));
  EXPECT_THAT(f, HasSubstr("  sandbox_enter \"Job@3:3\" @3:3\n"));
  EXPECT_THAT(f, HasSubstr("  sandbox_enter \"Job\" @4:3\n"));
}

TEST(LowerTest, BreakOutOfANamedSandboxLeavesItFirst) {
  Compiled c = CompileOk(R"(sandbox Tool { steps = 5 }

fn main() {
  loop {
    sandbox Tool {
      break
    }
  }
  sandbox Tool { log(2) }
}
)");
  // The named item is declared once however often it is entered.
  ASSERT_EQ(c.program.sandboxes.size(), 1u);
  EXPECT_THAT(c.text, HasSubstr("\nsandbox \"Tool\" { steps = 5 }\n"));
  // `break` exits the sandbox before jumping out of the loop (bb2).
  EXPECT_THAT(Fn(c, "main"), HasSubstr("bb1:\n"
                                       "  sandbox_enter \"Tool\" @5:5\n"
                                       "  _1 = () @6:7\n"
                                       "  sandbox_exit @6:7\n"
                                       "  goto bb2 @6:7\n"
                                       "bb2:\n"
                                       "  sandbox_enter \"Tool\" @9:3\n"));
}

// ---------------------------------------------------------------- agents

TEST(LowerTest, AgentSpawnSendAndAsk) {
  Compiled c = CompileOk(R"(agent Counter {
  n = 0
  on Inc() -> { n += 1 }
  on Get() -> n
}

fn main() {
  let c = spawn Counter()
  c!Inc()
  log(c?Get())
}
)");
  EXPECT_THAT(c.text, HasSubstr("\nstruct __agent_Counter { n: Any }\n"));
  EXPECT_THAT(FnNames(c), ::testing::ElementsAre("main", "Counter::__init", "Counter::on_Inc",
                                                 "Counter::__turn_Inc", "Counter::on_Get",
                                                 "Counter::__turn_Get"));
  EXPECT_THAT(Fn(c, "main"), HasSubstr("  _1 = spawn Counter() @8:3\n"
                                       "  _2 = copy _1 @8:3\n"
                                       "  _3 = send copy _2, Inc() @9:3\n"
                                       "  _4 = ask copy _2, Get() @10:3\n"));
  // Handlers see the state through `&mut` (parameter 1): `n` is `_1.*.f0`.
  EXPECT_THAT(Fn(c, "Counter::on_Inc"), HasSubstr("  _2 = copy _1.*.f0 + 1 @3:17\n"
                                                  "  _1.*.f0 = copy _2 @3:17\n"));
  // A turn runs the handler on the state and returns (state, reply).
  EXPECT_THAT(Fn(c, "Counter::__turn_Get"), HasSubstr("  _3 = call Counter::on_Get(move _2) @4:6\n"
                                                      "  _0 = tuple(move _1, move _3) @4:6\n"));
}

// ----------------------------------------------------------- diagnostics

TEST(LowerTest, UnknownFunctionIsMT1002) {
  Compiled c = Compile(R"(fn main() {
  frobnicate(1)
}
)");
  ASSERT_EQ(c.diags.size(), 1u) << c.rendered;
  EXPECT_EQ(c.diags[0].code, "MT1002");
  EXPECT_EQ(c.diags[0].message, "cannot find function `frobnicate` in this scope");
  EXPECT_EQ(c.diags[0].loc.line, 2u);
  EXPECT_EQ(c.diags[0].loc.col, 3u);
  EXPECT_THAT(c.rendered, HasSubstr("error[MT1002]: cannot find function `frobnicate`"));
  // A program with errors lowers to nothing.
  EXPECT_TRUE(c.program.functions.empty());
}

TEST(LowerTest, AssignmentToAnImmutableLocalIsMT3014) {
  Compiled c = Compile(R"(fn main() {
  let x = 1
  x = 2
}
)");
  ASSERT_EQ(c.diags.size(), 1u) << c.rendered;
  EXPECT_EQ(c.diags[0].code, "MT3014");
  EXPECT_EQ(c.diags[0].loc.line, 3u);
  EXPECT_EQ(c.diags[0].help, "make it mutable: `let mut x`");
}

TEST(LowerTest, SandboxManifestEntriesAreChecked) {
  Compiled c = Compile(R"(fn main() {
  sandbox S with { stepz = 1, wall = 5 } { log(1) }
}
)");
  ASSERT_EQ(c.diags.size(), 2u) << c.rendered;
  EXPECT_EQ(c.diags[0].code, "MT1013");
  EXPECT_EQ(c.diags[0].message, "unknown sandbox entry `stepz`");
  EXPECT_EQ(c.diags[1].code, "MT2013");
  EXPECT_EQ(c.diags[1].message, "sandbox entry `wall` needs a duration such as 150ms");
}

// Sizes, durations and counts are written as everywhere else (the policy
// table's units): `TiB`, `MB`, `G` used to be rejected in source only.
TEST(LowerTest, SandboxEntriesTakeTheTablesUnits) {
  Compiled c = CompileOk(R"(fn main() {
  sandbox S with { memory = 1TiB, steps = 1G, output = 2MB, mailbox = 1k, cpu = 1h } { log(1) }
}
)");
  EXPECT_THAT(c.text, HasSubstr("sandbox \"S\" { steps = 1000000000, memory = 1TiB, cpu = 1h, "
                                "mailbox = 1000, output = 2000000B }"));
  // A count takes no byte unit, a size no duration, a duration needs one.
  Compiled bad = Compile(R"(fn main() {
  sandbox T with { mailbox = 1KiB, memory = 2s, wall = 2, depth = 0 } { log(1) }
}
)");
  ASSERT_EQ(bad.diags.size(), 4u) << bad.rendered;
  EXPECT_EQ(bad.diags[0].message, "sandbox entry `mailbox` needs a count such as 1000 or 10k");
  EXPECT_EQ(bad.diags[1].message, "sandbox entry `memory` needs a size such as 64MiB");
  EXPECT_EQ(bad.diags[2].message, "sandbox entry `wall` needs a duration such as 150ms");
  EXPECT_EQ(bad.diags[3].message,
            "sandbox entry `depth` must be at least 1 (leave it out for no limit)");
}

TEST(LowerTest, UnknownEffectAndUnknownMethod) {
  Compiled c = Compile(R"(fn main() {
  std.fs.frob("x")
  "abc".frob()
}
)");
  ASSERT_EQ(c.diags.size(), 2u) << c.rendered;
  EXPECT_EQ(c.diags[0].code, "MT1005");
  EXPECT_EQ(c.diags[0].message, "unknown effect `std.fs.frob`");
  EXPECT_EQ(c.diags[1].code, "MT2004");
  EXPECT_EQ(c.diags[1].message, "no method named `frob` found for `Str`");
}

}  // namespace
}  // namespace mty::frontend
