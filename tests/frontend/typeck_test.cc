// The type checker (docs/language.md §6) through CompileSource: each
// rejected program's first error (its code and line), accepted programs
// (no error), and the signature rows (ir/include/mty/ir/signatures.def)
// against the method table.
#include "typeck.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mty/frontend/diagnostics.h"
#include "mty/frontend/lower.h"

namespace mty::frontend {
namespace {

// The first error, as "CODE@LINE: message", or "" when none.
std::string FirstError(std::string src) {
  SourceFile f{"t.mty", std::move(src)};
  Diagnostics d;
  CompileSource(f, d);
  const Diagnostic* first = nullptr;
  for (const Diagnostic& x : d.list())
    if (x.severity == Severity::kError &&
        (!first || x.loc.line < first->loc.line ||
         (x.loc.line == first->loc.line && x.loc.col < first->loc.col)))
      first = &x;
  if (!first) return "";
  return first->code + "@" + std::to_string(first->loc.line) + ": " + first->message;
}

struct Rejected {
  const char* name;
  const char* src;
  const char* code_at;  // "MT2017@3"
};

class Rejects : public ::testing::TestWithParam<Rejected> {};

TEST_P(Rejects, AtTheLineOfTheMistake) {
  const Rejected& r = GetParam();
  std::string got = FirstError(r.src);
  EXPECT_EQ(got.substr(0, got.find(':')), r.code_at) << got;
}

const Rejected kRejected[] = {
    {"arg", "fn want(s: Str) -> Str { s }\nfn main() {\n  log(want(42))\n}\n", "MT2017@3"},
    {"let_annotation", "fn main() {\n  let t = \"a\"\n  let y: I64 = t\n  log(y)\n}\n", "MT2016@3"},
    {"return_tail", "fn f() -> I64 {\n  let s = \"sum\"\n  s\n}\nfn main() { log(f()) }\n",
     "MT2019@3"},
    {"binop", "fn main() {\n  let x = 1 + \"hi\"\n  log(x)\n}\n", "MT2029@2"},
    {"int_float", "fn main() {\n  let a: I64 = 1\n  let b = 2.5\n  log(a + b)\n}\n", "MT2029@4"},
    {"not_callable", "fn main() {\n  let x: I64 = 5\n  log(x(1))\n}\n", "MT2026@3"},
    {"try_in_i64", "fn g(r: Result[I64, Str]) -> I64 {\n  let v = r?\n  v\n}\n", "MT2027@2"},
    {"try_error_type",
     "fn g(r: Result[I64, Str]) -> Result[I64, I64] {\n  let v = r?\n  Ok(v)\n}\n", "MT2028@2"},
    {"closure_arity", "fn main() {\n  let f: fn(I64) -> I64 = |a, b| a + b\n  log(f(1))\n}\n",
     "MT2001@2"},
    {"closure_call_arity", "fn main() {\n  let f = |a: I64, b: I64| a + b\n  log(f(1))\n}\n",
     "MT2001@3"},
    {"if_branches", "fn main() {\n  let c = true\n  let v = if c { 1 } else { \"two\" }\n}\n",
     "MT2023@3"},
    {"match_arms",
     "fn main() {\n  let n = 3\n  let v = match n {\n    1 => \"one\",\n    _ => 2,\n  }\n}\n",
     "MT2023@5"},
    {"missing_variant",
     "enum C { R, G, B }\nfn f(c: C) -> I64 {\n  match c {\n    C::R => 1,\n    C::G => 2,\n  "
     "}\n}\n",
     "MT2031@3"},
    {"missing_none", "fn f(o: Option[I64]) -> I64 {\n  match o {\n    Some(x) => x,\n  }\n}\n",
     "MT2031@2"},
    {"missing_false", "fn f(b: Bool) -> I64 {\n  match b {\n    true => 1,\n  }\n}\n", "MT2031@2"},
    {"refutable_let", "fn main() {\n  let o = Some(1)\n  let Some(x) = o\n  log(x)\n}\n",
     "MT2031@3"},
    {"vec_element", "fn main() {\n  let v: Vec[I64] = [1, 2]\n  let w = [1, \"a\"]\n}\n",
     "MT2023@3"},
    {"push_wrong", "fn main() {\n  let mut v = [1, 2]\n  v.push(\"x\")\n  log(v)\n}\n", "MT2017@3"},
    {"map_value",
     "fn main() {\n  let mut m: Map[Str, I64] = Map.new()\n  m.insert(\"a\", \"b\")\n}\n",
     "MT2017@3"},
    {"struct_field", "struct U { age: I64 }\nfn main() {\n  let u = U { age: \"forty\" }\n}\n",
     "MT2018@3"},
    {"returns_some", "fn f() -> I64 {\n  Some(1)\n}\nfn main() { log(f()) }\n", "MT2019@2"},
    {"closure_param_field",
     "struct User { name: Str, age: I64 }\nstruct Account { email: Str }\nfn main() {\n  let "
     "users = [User { name: \"a\", age: 3 }]\n  log(users.map(|u| u.email))\n}\n",
     "MT2002@5"},
    {"method_without_bound", "fn f[T](x: T) -> Str {\n  x.describe()\n}\n", "MT2032@2"},
    {"bound_not_met",
     "trait Area { fn area(self) -> F64 }\nstruct Sq { s: F64 }\nfn show[T: Area](x: T) -> F64 "
     "{ x.area() }\nfn main() {\n  log(show(5))\n}\n",
     "MT2032@5"},
    {"impl_missing",
     "trait Area { fn area(self) -> F64 }\nstruct Sq { s: F64 }\nimpl Area for Sq {\n}\n",
     "MT2033@3"},
    {"impl_wrong_type",
     "trait Area { fn area(self) -> F64 }\nstruct Sq { s: F64 }\nimpl Area for Sq {\n  fn "
     "area(self) -> Str { \"x\" }\n}\n",
     "MT2033@4"},
    {"generic_arity", "fn f(m: Map[Str]) -> I64 { 1 }\n", "MT2025@1"},
    {"cannot_infer", "fn main() {\n  let xs = []\n  log(1)\n}\n", "MT2024@2"},
    {"handler_payload",
     "agent C {\n  n = 0\n  on Add(by: I64) -> { n += by\n n }\n}\nfn main() {\n  let c = spawn "
     "C()\n  log(c?Add(\"x\"))\n}\n",
     "MT2034@8"},
    {"protocol_param",
     "protocol P { Add(n: Str) -> I64 }\nagent A: P {\n  total = 0\n  on Add(n) -> {\n    let v: "
     "I64 = n\n    total + v\n  }\n}\n",
     "MT2016@5"},
    {"protocol_missing_handler",
     "protocol P { Ping(m: Str) -> Str\n Bye() -> Unit }\nagent A: P {\n  on Ping(m) -> m\n}\n",
     "MT1019@3"},
    {"dyn_not_impl",
     "trait Area { fn area(self) -> F64 }\nstruct Sq { s: F64 }\nfn main() {\n  let v: "
     "Vec[dyn Area] = [Sq { s: 1.0 }]\n}\n",
     "MT2032@4"},
};

INSTANTIATE_TEST_SUITE_P(Checker, Rejects, ::testing::ValuesIn(kRejected),
                         [](const auto& info) { return std::string(info.param.name); });

struct Accepted {
  const char* name;
  const char* src;
};

class Accepts : public ::testing::TestWithParam<Accepted> {};

TEST_P(Accepts, WithoutAnError) { EXPECT_EQ(FirstError(GetParam().src), ""); }

const Accepted kAccepted[] = {
    {"literal_by_context",
     "fn main() {\n  let x: U8 = 5\n  let acc: U64 = 0\n  log(acc | (1 << "
     "63))\n  log(x)\n}\n"},
    {"empty_vec_by_use", "fn main() {\n  let mut v = Vec.new()\n  v.push(\"a\")\n  log(v)\n}\n"},
    {"closure_param_from_map",
     "struct User { name: Str, age: I64 }\nstruct Account { email: Str, name: Str }\nfn main() "
     "{\n  let users = [User { name: \"a\", age: 3 }]\n  log(users.map(|u| u.name))\n}\n"},
    {"ranges_cover_i64",
     "fn f(n: I64) -> Str {\n  match n {\n    ..0 => \"neg\",\n    0 => \"zero\",\n    1.. => "
     "\"pos\",\n  }\n}\nfn main() { log(f(1)) }\n"},
    {"generic_with_bound",
     "trait Area { fn area(self) -> F64 }\nstruct Sq { s: F64 }\nimpl Area for Sq { fn "
     "area(self) -> F64 { self.s * self.s } }\nfn show[T: Area](x: T) -> F64 { x.area() "
     "}\nfn main() { log(show(Sq { s: 2.0 })) }\n"},
    {"dyn_collection",
     "trait A { fn n(self) -> Str }\nstruct X {}\nstruct Y {}\nimpl A for X { fn n(self) -> "
     "Str { \"x\" } }\nimpl A for Y { fn n(self) -> Str { \"y\" } }\nfn main() {\n  let v: "
     "Vec[dyn A] = [X {}, Y {}]\n  for a in v { log(a.n()) }\n}\n"},
    {"try_same_error",
     "fn p(s: Str) -> Result[I64, Str] { s.parse_int() }\nfn q(s: Str) -> Result[I64, Str] {\n  "
     "let v = p(s)?\n  Ok(v + 1)\n}\nfn main() { log(q(\"4\")) }\n"},
    {"option_match_complete",
     "fn f(o: Option[I64]) -> I64 {\n  match o {\n    Some(x) if x > 0 => x,\n    Some(_) => "
     "0,\n    None => -1,\n  }\n}\nfn main() { log(f(None)) }\n"},
    {"any_is_dynamic", "fn f(x: Any) -> Any { x }\nfn main() {\n  log(f(1))\n  log(f(\"a\"))\n}\n"},
    {"agent_typed",
     "agent C {\n  n = 0\n  on Add(by: I64) -> {\n    n += by\n    n\n  }\n}\nfn main() {\n  "
     "let c = spawn C()\n  let r: I64 = c?Add(2)\n  log(r)\n}\n"},
};

INSTANTIATE_TEST_SUITE_P(Checker, Accepts, ::testing::ValuesIn(kAccepted),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(Signatures, EveryRowNamesAMethodOfTheTable) {
  EXPECT_EQ(tc::SignatureRowsWithoutMethod(), std::vector<std::string>{});
}

}  // namespace
}  // namespace mty::frontend
