// The semantic diagnostics of the lowering, as data: "did you mean" help,
// secondary labels (a wrongly called function's definition, an immutable
// local's binding), the type checks the front end can be sure of
// (MT2016-MT2019) and the warnings (MT8001-MT8003). The corpus test
// compiles every example and golden program: none may warn.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "mty/frontend/diagnostics.h"
#include "mty/frontend/lower.h"

namespace mty::frontend {
namespace {

std::vector<Diagnostic> Diags(std::string src) {
  SourceFile f{"t.mty", std::move(src)};
  Diagnostics d;
  CompileSource(f, d);
  return d.list();
}

std::string Show(const std::vector<Diagnostic>& ds) {
  std::string s;
  for (const Diagnostic& d : ds)
    s += (d.severity == Severity::kError ? "error[" : "warning[") + d.code + "] " +
         std::to_string(d.loc.line) + ":" + std::to_string(d.loc.col) + " " + d.message +
         (d.help.empty() ? "" : " | help: " + d.help) + "\n";
  return s;
}

std::string ReadFile(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The diagnostics of `code` (in order).
std::vector<Diagnostic> Of(const std::vector<Diagnostic>& ds, const std::string& code) {
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : ds)
    if (d.code == code) out.push_back(d);
  return out;
}

// The one diagnostic of a program that must report exactly one.
Diagnostic One(std::string src) {
  std::vector<Diagnostic> ds = Diags(std::move(src));
  EXPECT_EQ(ds.size(), 1u) << Show(ds);
  return ds.empty() ? Diagnostic{} : ds[0];
}

void ExpectClean(std::string src) {
  std::vector<Diagnostic> ds = Diags(std::move(src));
  EXPECT_TRUE(ds.empty()) << Show(ds);
}

// ------------------------------------------------------ did you mean ----

TEST(SemaHelpTest, UnknownLocalSuggestsANameInScope) {
  Diagnostic d = One("fn main() {\n  let total = 1\n  log(totl + 1)\n}\n");
  EXPECT_EQ(d.code, "MT1001");
  EXPECT_EQ(d.help, "did you mean `total`?");
  EXPECT_EQ(d.loc.line, 3u);
  EXPECT_EQ(d.loc.col, 7u);
  EXPECT_EQ(d.end.col, 10u);  // the span covers `totl`
}

TEST(SemaHelpTest, UnknownFunctionSuggestsFunctionsAndBuiltins) {
  EXPECT_EQ(One("fn helper() -> I64 { 1 }\nfn main() { log(helpr()) }\n").help,
            "did you mean `helper`?");
  EXPECT_EQ(One("fn main() { lgo(1) }\n").help, "did you mean `log`?");
  // Nothing near: no help.
  EXPECT_EQ(One("fn main() { frobnicate(1) }\n").help, "");
}

TEST(SemaHelpTest, UnknownFieldSuggestsTheStructsFields) {
  Diagnostic d =
      One("struct P { name: Str, age: I64 }\nfn main() {\n  let p = P { name: \"a\", age: 1 }\n"
          "  log(p.nme)\n}\n");
  EXPECT_EQ(d.code, "MT2002");
  EXPECT_EQ(d.help, "did you mean `name`?");
  // The literal names an unknown field; the missing one is then MT2007 too.
  std::vector<Diagnostic> ds =
      Diags("struct P { name: Str }\nfn main() {\n  let p = P { nmae: \"a\" }\n  log(p)\n}\n");
  ASSERT_FALSE(Of(ds, "MT2002").empty()) << Show(ds);
  EXPECT_EQ(Of(ds, "MT2002")[0].help, "did you mean `name`?");
}

TEST(SemaHelpTest, UnknownMethodSuggestsBuiltinAndUserMethods) {
  EXPECT_EQ(One("fn main() {\n  let s = \"abc\"\n  log(s.lenght())\n}\n").help,
            "did you mean `len`?");
  EXPECT_EQ(One("fn main() {\n  let s = \"abc\"\n  log(s.length())\n}\n").help,
            "did you mean `len`?");
  EXPECT_EQ(One("fn main() {\n  let mut v = [1]\n  v.pusj(2)\n  log(v)\n}\n").help,
            "did you mean `push`?");
  EXPECT_EQ(One("fn main() {\n  let o = Some(1)\n  log(o.unwarp())\n}\n").help,
            "did you mean `unwrap`?");
  Diagnostic d =
      One("struct P { x: I64 }\nimpl P { fn norm(&self) -> I64 { self.x } }\n"
          "fn main() {\n  let p = P { x: 1 }\n  log(p.nrom())\n}\n");
  EXPECT_EQ(d.code, "MT2004");
  EXPECT_EQ(d.help, "did you mean `norm`?");
  EXPECT_EQ(One("struct P { x: I64 }\nimpl P { fn new() -> P { P { x: 1 } } }\n"
                "fn main() { log(P::nwe()) }\n")
                .help,
            "did you mean `new`?");
}

TEST(SemaHelpTest, UnknownEffectSuggestsTheStandardLibrary) {
  Diagnostic d = One("fn main() {\n  let r = std.fs.raed(\"x\")\n  log(r)\n}\n");
  EXPECT_EQ(d.code, "MT1005");
  EXPECT_EQ(d.help, "did you mean `std.fs.read`?");
}

TEST(SemaHelpTest, UnknownTypesVariantsAndMacrosSuggest) {
  EXPECT_EQ(One("struct Point { x: I64 }\nfn main() {\n  let p: Pont = Point { x: 1 }\n"
                "  log(p)\n}\n")
                .help,
            "did you mean `Point`?");
  EXPECT_EQ(One("fn main() {\n  let s: Strr = \"a\"\n  log(s)\n}\n").help, "did you mean `Str`?");
  EXPECT_EQ(One("enum Shape { Circle(F64), Empty }\nfn main() { log(Shape::Circel(1.0)) }\n").help,
            "did you mean `Circle`?");
  EXPECT_EQ(One("fn main() { asert!(true) }\n").help, "did you mean `assert!`?");
  EXPECT_EQ(One("fn main() {\n  sandbox S with { stepz = 1 } { log(1) }\n}\n").help,
            "did you mean `steps`?");
}

// ---------------------------------------------------------- labels ----

TEST(SemaLabelTest, WrongArityPointsAtTheDefinition) {
  Diagnostic d = One("fn add(a: I64, b: I64) -> I64 { a + b }\nfn main() { log(add(1)) }\n");
  EXPECT_EQ(d.code, "MT2001");
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(d.labels[0].loc.line, 1u);
  EXPECT_EQ(d.labels[0].loc.col, 4u);
  EXPECT_EQ(d.labels[0].end.col, 6u);
  EXPECT_EQ(d.labels[0].message, "defined here: `fn add(a: I64, b: I64) -> I64`");
  d =
      One("struct P { x: I64 }\nimpl P { fn shift(&mut self, dx: I64) { self.x += dx } }\n"
          "fn main() {\n  let mut p = P { x: 1 }\n  p.shift(1, 2)\n  log(p)\n}\n");
  EXPECT_EQ(d.code, "MT2001");
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(d.labels[0].loc.line, 2u);
  EXPECT_EQ(d.labels[0].message, "defined here: `fn shift(&mut self, dx: I64)`");
}

TEST(SemaLabelTest, VariantPayloadCountsAndDuplicatesPointAtTheDeclaration) {
  Diagnostic d = One("enum Shape {\n  Rect(F64, F64),\n}\nfn main() { log(Shape::Rect(1.0)) }\n");
  EXPECT_EQ(d.code, "MT2008");
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(d.labels[0].loc.line, 2u);
  EXPECT_EQ(d.labels[0].message, "`Shape::Rect` is declared here with 2 field(s)");
  d = One("fn f() {}\nfn f() {}\nfn main() { f() }\n");
  EXPECT_EQ(d.code, "MT1008");
  EXPECT_EQ(d.loc.line, 2u);
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(d.labels[0].loc.line, 1u);
  EXPECT_EQ(d.labels[0].message, "the first definition of `f` is here");
}

TEST(SemaLabelTest, AssignmentToAnImmutableLocalPointsAtItsLet) {
  Diagnostic d = One("fn main() {\n  let count = 1\n  count = 2\n  log(count)\n}\n");
  EXPECT_EQ(d.code, "MT3014");
  EXPECT_EQ(d.help, "make it mutable: `let mut count`");
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(d.labels[0].loc.line, 2u);
  EXPECT_EQ(d.labels[0].loc.col, 7u);
  EXPECT_EQ(d.labels[0].end.col, 11u);
  EXPECT_EQ(d.labels[0].message, "`count` is declared here, without `mut`");
  // A parameter, a loop variable, a mutating method, a captured name.
  EXPECT_EQ(One("fn f(x: I64) -> I64 {\n  x = 2\n  x\n}\nfn main() { log(f(1)) }\n").help,
            "make the parameter mutable: `mut x`");
  EXPECT_EQ(One("fn main() {\n  for i in 0..3 {\n    i += 1\n    log(i)\n  }\n}\n").help,
            "bind it mutably: `mut i`");
  d = One("fn main() {\n  let v = [1]\n  v.push(2)\n  log(v)\n}\n");
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(d.labels[0].loc.line, 2u);
}

TEST(SemaLabelTest, AMutParameterIsAssignable) {
  ExpectClean("fn f(mut x: I64) -> I64 {\n  x = x + 1\n  x\n}\nfn main() { log(f(1)) }\n");
}

// ------------------------------------------------------ type checks ----

TEST(SemaTypeTest, AnnotatedLetAgainstALiteral) {
  Diagnostic d = One("fn main() {\n  let s: Str = 5\n  log(s)\n}\n");
  EXPECT_EQ(d.code, "MT2016");
  EXPECT_EQ(d.message, "mismatched types: expected `Str`, found an integer");
  EXPECT_EQ(d.loc.line, 2u);
  EXPECT_EQ(d.loc.col, 16u);
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(d.labels[0].loc.col, 10u);
  EXPECT_EQ(d.labels[0].message, "expected `Str` because of this annotation");
  d = One("fn main() {\n  let x: F64 = 1\n  log(x / 2.0)\n}\n");
  EXPECT_EQ(d.code, "MT2016");
  EXPECT_EQ(d.help, "write `1.0` for a float");
  EXPECT_EQ(One("fn main() {\n  let c: Char = \"a\"\n  log(c)\n}\n").code, "MT2016");
  EXPECT_EQ(One("fn main() {\n  let b: I64 = 1 < 2 && true\n  log(b)\n}\n").code, "MT2016");
  EXPECT_EQ(One("fn main() {\n  let n: I64 = -2.5\n  log(n)\n}\n").code, "MT2016");
  EXPECT_EQ(One("fn main() {\n  let n: I64 = format!(\"{}\", 1)\n  log(n)\n}\n").code, "MT2016");
  EXPECT_EQ(One("fn main() {\n  let n: I64 = Some(1)\n  log(n)\n}\n").code, "MT2016");
}

TEST(SemaTypeTest, ConstantsAndAgentStateAgainstTheirTypes) {
  Diagnostic d = One("const MAX: I64 = \"big\"\nfn main() { log(MAX) }\n");
  EXPECT_EQ(d.code, "MT2016");
  EXPECT_EQ(d.loc.line, 1u);
  d =
      One("agent A {\n  count: I64 = 1.5\n  on Get() -> count\n}\nfn main() {\n"
          "  let a = spawn A()\n  log(a ? Get())\n}\n");
  EXPECT_EQ(d.code, "MT2016");
  EXPECT_EQ(d.loc.line, 2u);
  ExpectClean(
      "const MAX: I64 = 10\nagent A {\n  count: I64 = MAX\n  on Get() -> count\n}\n"
      "fn main() {\n  let a = spawn A()\n  log(a ? Get())\n}\n");
}

TEST(SemaTypeTest, LiteralsThatFit) {
  ExpectClean(
      "type Id = I64\nfn main() {\n  let a: I64 = 1\n  let b: U8 = 255\n  let c: F64 = 1.5\n"
      "  let d: Duration = 5ms\n  let e: Size = 4KiB\n  let f: Str = \"s\"\n  let g: String = "
      "\"t\"\n"
      "  let h: Char = 'c'\n  let i: Id = -3\n  let j: Option[I64] = None\n"
      "  let k: Result[I64, Str] = Ok(1)\n  let l: Bool = !true\n  let m: () = ()\n"
      "  log((a, b, c, d, e, f, g, h, i, j, k, l, m))\n}\n");
}

TEST(SemaTypeTest, CallArgumentsAgainstDeclaredParameters) {
  Diagnostic d =
      One("fn takes_int(x: I64) -> I64 { x + 1 }\nfn main() { log(takes_int(\"hello\")) }\n");
  EXPECT_EQ(d.code, "MT2017");
  EXPECT_EQ(d.message,
            "mismatched types in argument 1 of `takes_int`: expected `I64`, found a string");
  EXPECT_EQ(d.loc.col, 27u);
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(d.labels[0].loc.line, 1u);
  EXPECT_EQ(d.labels[0].message, "parameter `x: I64`");
  // Methods and associated functions: `self` is not a declared parameter.
  EXPECT_EQ(One("struct P { x: I64 }\nimpl P {\n  fn new(x: I64) -> P { P { x } }\n"
                "  fn add(&self, d: I64) -> I64 { self.x + d }\n}\n"
                "fn main() {\n  let p = P::new(1)\n  log(p.add(true))\n}\n")
                .code,
            "MT2017");
  EXPECT_EQ(One("struct P { x: I64 }\nimpl P { fn new(x: I64) -> P { P { x } } }\n"
                "fn main() { log(P.new(\"1\")) }\n")
                .code,
            "MT2017");
  EXPECT_EQ(One("struct P { x: I64 }\nimpl P { fn get(self, k: I64) -> I64 { self.x + k } }\n"
                "fn main() { log(P::get(P { x: 1 }, \"k\")) }\n")
                .message,
            "mismatched types in argument 2 of `P::get`: expected `I64`, found a string");
}

TEST(SemaTypeTest, StructLiteralFieldsAgainstDeclaredTypes) {
  Diagnostic d =
      One("struct Point { x: I64, y: I64 }\nfn main() { log(Point { x: 1, y: \"2\" }) }\n");
  EXPECT_EQ(d.code, "MT2018");
  EXPECT_EQ(d.message, "mismatched types in field `y` of `Point`: expected `I64`, found a string");
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(d.labels[0].loc.line, 1u);
  EXPECT_EQ(d.labels[0].loc.col, 27u);
  // A field of a generic parameter's type takes anything.
  ExpectClean("struct Box[T] { v: T, n: I64 }\nfn main() { log(Box { v: \"s\", n: 1 }) }\n");
}

TEST(SemaTypeTest, ReturnValuesAgainstTheDeclaredResult) {
  Diagnostic d = One("fn f() -> I64 {\n  \"s\"\n}\nfn main() { log(f()) }\n");
  EXPECT_EQ(d.code, "MT2019");
  EXPECT_EQ(d.message, "mismatched types in the result of `f`: expected `I64`, found a string");
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(d.labels[0].loc.line, 1u);
  EXPECT_EQ(d.labels[0].loc.col, 11u);
  EXPECT_EQ(
      One("fn f(c: Bool) -> Str {\n  if c { return 1 }\n  \"s\"\n}\nfn main() { log(f(true)) }\n")
          .code,
      "MT2019");
  EXPECT_EQ(
      One("fn f(c: Bool) -> Str {\n  if c { return }\n  \"s\"\n}\nfn main() { log(f(true)) }\n")
          .code,
      "MT2019");
  EXPECT_EQ(One("fn f() -> F64 = 2\nfn main() { log(f()) }\n").code, "MT2019");
  EXPECT_EQ(One("fn g() {}\nfn f() -> I64 {\n  g()\n}\nfn main() { log(f()) }\n").code, "MT2019");
}

TEST(SemaTypeTest, KnownResultsAssignedToAnnotatedLets) {
  Diagnostic d =
      One("fn name() -> Str { \"a\" }\nfn main() {\n  let n: I64 = name()\n  log(n)\n}\n");
  EXPECT_EQ(d.code, "MT2016");
  EXPECT_EQ(d.message, "mismatched types: expected `I64`, found `Str` (the result of `name(..)`)");
  EXPECT_EQ(One("struct P { x: I64 }\nimpl P { fn new() -> P { P { x: 1 } } }\n"
                "fn main() {\n  let n: I64 = P::new()\n  log(n)\n}\n")
                .code,
            "MT2016");
}

// The checks report only what is certain: generic results, shadowing
// locals, references, `-> Never` and closures are not checked.
TEST(SemaTypeTest, NoErrorWhenTheTypeIsNotCertain) {
  ExpectClean(
      "fn id[T](x: T) -> T { x }\nfn f() -> I64 { 1 }\nfn show(s: &Str) -> Str { s }\n"
      "fn die() -> Never { panic(\"x\") }\n"
      "fn main() {\n  let s: Str = id(\"a\")\n  let f = || \"shadow\"\n  let t: Str = f()\n"
      "  let u: Str = show(\"r\")\n  let c = |x: I64| -> I64 { x }\n  log((s, t, u, c(1)))\n"
      "  if s == \"b\" {\n    let n: I64 = die()\n    log(n)\n  }\n}\n");
  // A user struct named like a built-in type is not what `: Size` means.
  ExpectClean("struct Size { w: I64 }\nfn main() {\n  let s: Size = Size { w: 2 }\n  log(s)\n}\n");
  ExpectClean(
      "trait Name { fn name(&self) -> Str }\nstruct A {}\nimpl Name for A { fn name(&self) -> Str "
      "{ \"a\" } }\nfn main() {\n  let a = A {}\n  let n: Str = a.name()\n  log(n)\n}\n");
}

// --------------------------------------------------------- warnings ----

TEST(SemaWarnTest, UnusedVariablesAndParameters) {
  std::vector<Diagnostic> ds = Diags(
      "fn f(x: I64, _y: I64) -> I64 { 1 }\nfn main() {\n  let unused = 1\n  let _quiet = 2\n"
      "  log(f(1, 2))\n}\n");
  ASSERT_EQ(ds.size(), 2u) << Show(ds);
  EXPECT_EQ(ds[0].severity, Severity::kWarning);
  EXPECT_EQ(ds[0].code, "MT8001");
  EXPECT_EQ(ds[0].message, "unused parameter: `x`");
  EXPECT_EQ(ds[0].loc.line, 1u);
  EXPECT_EQ(ds[0].loc.col, 6u);
  EXPECT_EQ(ds[1].message, "unused variable: `unused`");
  EXPECT_EQ(ds[1].help, "if this is intentional, prefix it with an underscore: `_unused`");
  EXPECT_EQ(ds[1].loc.col, 7u);
  EXPECT_EQ(ds[1].end.col, 12u);
}

TEST(SemaWarnTest, AssignedButNeverRead) {
  std::vector<Diagnostic> ds =
      Diags("fn main() {\n  let mut n = 0\n  loop {\n    n += 1\n  }\n}\n");
  ASSERT_EQ(ds.size(), 1u) << Show(ds);
  EXPECT_EQ(ds[0].message, "variable `n` is assigned to, but never read");
  EXPECT_EQ(ds[0].loc.line, 2u);
}

TEST(SemaWarnTest, PatternAndLoopBindings) {
  std::vector<Diagnostic> ds = Diags(
      "fn main() {\n  for i in 0..3 { log(1) }\n  match Some(1) {\n    Some(v) => log(2),\n"
      "    None => log(3),\n  }\n  let (a, b) = (1, 2)\n  log(a)\n}\n");
  ASSERT_EQ(ds.size(), 3u) << Show(ds);
  EXPECT_EQ(ds[0].message, "unused variable: `i`");
  EXPECT_EQ(ds[1].message, "unused variable: `v`");
  EXPECT_EQ(ds[2].message, "unused variable: `b`");
}

// Reads the checks must see: format! strings, closure captures (also in a
// closure's format! string), guards, `unreachable!` arguments, shorthand
// struct fields, agent state and constructor parameters, macro bodies.
TEST(SemaWarnTest, NoFalsePositives) {
  ExpectClean(
      "struct P { x: I64 }\nmacro twice(e) => { let t = e\n t * 2 }\n"
      "agent Counter(start: I64) {\n  n = 0\n  on Inc(by) -> { n += by; n }\n}\n"
      "fn main() {\n  let name = \"w\"\n  log(format!(\"{name}\"))\n  let k = 3\n"
      "  let add = |v| v + k\n  log(add(1))\n  let w = 4\n  let g = || format!(\"{w:?}\")\n"
      "  log(g())\n  let x = 5\n  log(P { x })\n  let lim = 2\n"
      "  match 1 {\n    n if n < lim => log(n),\n    _ => log(0),\n  }\n  log(twice!(2))\n"
      "  let c = spawn Counter(1)\n  log(c ? Inc(1))\n  let m = 6\n"
      "  if m > 100 { unreachable!(\"{}\", m) }\n}\n");
}

TEST(SemaWarnTest, UnreachableStatements) {
  std::vector<Diagnostic> ds =
      Diags("fn f() -> I64 {\n  return 1\n  log(2)\n  log(3);\n}\nfn main() { log(f()) }\n");
  ASSERT_EQ(ds.size(), 1u) << Show(ds);  // once per block
  EXPECT_EQ(ds[0].code, "MT8002");
  EXPECT_EQ(ds[0].severity, Severity::kWarning);
  EXPECT_EQ(ds[0].loc.line, 3u);
  ASSERT_EQ(ds[0].labels.size(), 1u);
  EXPECT_EQ(ds[0].labels[0].loc.line, 2u);
  EXPECT_EQ(ds[0].labels[0].message, "any code following this is unreachable");
  EXPECT_EQ(One("fn main() {\n  loop {\n    break\n    log(1)\n  }\n}\n").code, "MT8002");
  EXPECT_EQ(One("fn main() {\n  panic(\"x\")\n  log(1)\n}\n").code, "MT8002");
  EXPECT_EQ(One("fn main() {\n  for i in 0..2 {\n    continue\n    log(i)\n  }\n}\n").code,
            "MT8002");
  // A user function named like a built-in does not diverge; a last return is fine.
  ExpectClean(
      "fn f(c: Bool) -> I64 {\n  if c { return 1 }\n  return 2\n}\nfn main() { log(f(true)) }\n");
}

TEST(SemaWarnTest, UnusedResultOfAnEffect) {
  std::vector<Diagnostic> ds = Diags("fn main() {\n  std.fs.write(\"a\", \"b\")\n  log(1)\n}\n");
  ASSERT_EQ(ds.size(), 1u) << Show(ds);
  EXPECT_EQ(ds[0].code, "MT8003");
  EXPECT_EQ(ds[0].message, "unused `Result` of `std.fs.write`");
  EXPECT_EQ(ds[0].loc.line, 2u);
  // As the last expression of a function without a result, too.
  EXPECT_EQ(One("use std.fs\nfn main() {\n  fs.append(\"a\", \"b\")\n}\n").code, "MT8003");
  EXPECT_EQ(
      One("fn main() {\n  for i in 0..2 {\n    std.fs.write(\"a\", i.to_str())\n  }\n}\n").code,
      "MT8003");
  // A user function's declared Result, too (Rust's `#[must_use]` on Result).
  Diagnostic d =
      One("fn save() -> Result[I64, Str] { Ok(1) }\nfn main() {\n  save()\n  log(1)\n}\n");
  EXPECT_EQ(d.code, "MT8003");
  EXPECT_EQ(d.message, "unused `Result` of `save`");
  // Handled, dropped explicitly, returned, or an effect whose Result says nothing.
  ExpectClean(
      "fn save() -> Result[(), Str] {\n  std.fs.write(\"a\", \"b\")?\n  std.fs.write(\"c\", "
      "\"d\")\n}\n"
      "fn main() {\n  let _ = std.fs.write(\"a\", \"b\")\n  std.time.sleep(1ms)\n"
      "  match save() {\n    Ok(_) => log(1),\n    Err(e) => log(e),\n  }\n}\n");
}

TEST(SemaWarnTest, NoWarningsWhenThereAreErrors) {
  // `total` is never read because the call with the wrong arity is not lowered.
  std::vector<Diagnostic> ds =
      Diags("fn f(a: I64) -> I64 { a }\nfn main() {\n  let total = 1\n  log(f(total, 2))\n}\n");
  ASSERT_EQ(ds.size(), 1u) << Show(ds);
  EXPECT_EQ(ds[0].code, "MT2001");
}

TEST(SemaWarnTest, ATraitDefaultMethodWarnsOnce) {
  std::vector<Diagnostic> ds = Diags(
      "trait T { fn f(&self, unused: I64) -> I64 { 1 } }\nstruct A {}\nstruct B {}\n"
      "impl T for A {}\nimpl T for B {}\nfn main() {\n  log(A {}.f(1))\n  log(B {}.f(1))\n}\n");
  ASSERT_EQ(ds.size(), 1u) << Show(ds);
  EXPECT_EQ(ds[0].message, "unused parameter: `unused`");
}

TEST(SemaWarnTest, AtMost200WarningsThenACount) {
  std::string src = "fn main() {\n";
  for (int i = 0; i < 300; ++i) src += "  let v" + std::to_string(i) + " = 1\n";
  src += "}\n";
  std::vector<Diagnostic> ds = Diags(src);
  ASSERT_EQ(ds.size(), 201u);
  EXPECT_EQ(Of(ds, "MT8001").size(), 200u);
  EXPECT_EQ(ds[0].message, "unused variable: `v0`");  // the first ones, in source order
  EXPECT_EQ(ds.back().code, "MT8000");
  EXPECT_EQ(ds.back().message, "100 more warning(s) not shown (at most 200 are reported)");
}

// 20 000 calls of misspelt names among 20 000 functions: the suggestions
// are budgeted (the first 32 lookups), not 400 million comparisons.
TEST(SemaHelpTest, SuggestionsAreBudgeted) {
  std::string src;
  for (int i = 0; i < 20000; ++i) src += "fn func" + std::to_string(i) + "() {}\n";
  src += "fn main() {\n";
  for (int i = 0; i < 20000; ++i) src += "  funk" + std::to_string(i) + "()\n";
  src += "}\n";
  std::vector<Diagnostic> ds = Diags(src);
  ASSERT_EQ(ds.size(), 20000u);
  EXPECT_EQ(ds[0].help, "did you mean `func0`?");
  EXPECT_NE(ds[31].help, "");  // (among the first 5000 candidates)
  EXPECT_EQ(ds[32].help, "");
}

TEST(SemaWarnTest, ThePreludeNeverWarns) {
  ExpectClean(
      "fn main() {\n  let v = [3, 1, 2]\n  log(v.map(|x| x * 2).filter(|x| x > 2).fold(0, |a, b| a "
      "+ b))\n"
      "  let mut w = v\n  w.sort_by(|a, b| a - b)\n  log(w)\n  log(v.any(|x| x > 2))\n"
      "  log(v.find(|x| x > 1))\n  log(v.position(|x| x == 2))\n  log(v.count(|x| x > 0))\n"
      "  v.for_each(|x| log(x))\n  log(Some(1).and_then(|x| Some(x)).unwrap_or_else(|| 0))\n}\n");
}

// Every example, golden, hostile, benchmark and work-corpus program compiles
// without a warning (the fuzz seeds may warn; the prelude is checked by
// ThePreludeNeverWarns). A warning golden would be named warn_*.mty.
TEST(SemaCorpusTest, NoSpuriousWarnings) {
  namespace fs = std::filesystem;
  const fs::path root = MTY_SOURCE_ROOT;
  std::vector<fs::path> files;
  for (const char* dir : {"examples", "tests/conformance/mty", "bench/mty",
                          "tests/conformance/hostile", "tests/work_corpus"})
    for (const auto& e : fs::recursive_directory_iterator(root / dir))
      if (e.path().extension() == ".mty" && e.path().filename().string().rfind("warn_", 0) != 0)
        files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GT(files.size(), 100u);
  size_t compiled = 0;
  std::string report;
  for (const fs::path& p : files) {
    std::vector<Diagnostic> ds = Diags(ReadFile(p));
    bool errors = false;
    for (const Diagnostic& d : ds) errors |= d.severity == Severity::kError;
    if (!errors) ++compiled;
    for (const Diagnostic& d : ds)
      if (d.severity == Severity::kWarning)
        report += p.lexically_relative(root).string() + ":" + std::to_string(d.loc.line) + ":" +
                  std::to_string(d.loc.col) + ": " + d.code + " " + d.message + "\n";
  }
  EXPECT_EQ(report, "");
  EXPECT_GT(compiled, 100u);
}

}  // namespace
}  // namespace mty::frontend
