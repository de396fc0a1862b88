// Front-end unit tests: lexer, parser (precedence, newlines, items, patterns,
// agents), macro expansion, error recovery, diagnostics rendering, robustness.
#include "mty/frontend/parser.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "lexer.h"
#include "mty/frontend/diagnostics.h"

namespace mty::frontend {
namespace {

std::string Collapse(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\n') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

struct Result {
  Module module;
  Diagnostics diags;
  std::string rendered;
};

Result ParseText(std::string text) {
  Result r;
  SourceFile f{"t.mty", std::move(text)};
  r.module = Parse(f, r.diags);
  r.rendered = r.diags.Render(f);
  return r;
}

// The whole module, whitespace-collapsed; expects no diagnostics.
std::string Dump(const std::string& text) {
  Result r = ParseText(text);
  EXPECT_FALSE(r.diags.HasErrors()) << r.rendered;
  return Collapse(DumpAst(r.module));
}

// The statements of `fn main() { body }`, whitespace-collapsed.
std::string Body(const std::string& body) {
  std::string d = Dump("fn main() {\n" + body + "\n}\n");
  const std::string prefix = "(module \"t.mty\" (fn main (params) (block ";
  if (d.rfind(prefix, 0) != 0 || d.size() < prefix.size() + 3) return "<bad dump> " + d;
  return d.substr(prefix.size(), d.size() - prefix.size() - 3);
}

std::vector<std::string> Codes(const Result& r) {
  std::vector<std::string> out;
  for (const Diagnostic& d : r.diags.list()) out.push_back(d.code);
  return out;
}

// ------------------------------------------------------------------ lexer

std::vector<Token> LexOk(std::string_view text) {
  Diagnostics d;
  LexResult r = Lex(text, d);
  EXPECT_FALSE(d.HasErrors());
  return std::vector<Token>(r.tokens.begin(), r.tokens.end());
}

TEST(Lexer, NumbersDurationsSizes) {
  auto t = LexOk("42 0x1F 0o17 0b1010 1_000 42_u8 7i64 1.5 2.0e-3 3f32 10ns 5us 150ms 2s 3m 1h");
  ASSERT_EQ(t.size(), 17u);
  EXPECT_EQ(t[0].uint_value, 42u);
  EXPECT_EQ(t[1].uint_value, 31u);
  EXPECT_EQ(t[2].uint_value, 15u);
  EXPECT_EQ(t[3].uint_value, 10u);
  EXPECT_EQ(t[4].uint_value, 1000u);
  EXPECT_EQ(t[5].suffix(), "u8");
  EXPECT_EQ(t[5].uint_value, 42u);
  EXPECT_EQ(t[6].suffix(), "i64");
  EXPECT_EQ(t[7].kind, Tok::kFloat);
  EXPECT_DOUBLE_EQ(t[7].float_value, 1.5);
  EXPECT_DOUBLE_EQ(t[8].float_value, 2.0e-3);
  EXPECT_EQ(t[9].kind, Tok::kFloat);
  EXPECT_EQ(t[9].suffix(), "f32");
  EXPECT_EQ(t[10].kind, Tok::kDuration);
  EXPECT_EQ(t[10].uint_value, 10u);
  EXPECT_EQ(t[11].uint_value, 5000u);
  EXPECT_EQ(t[12].uint_value, 150000000u);
  EXPECT_EQ(t[13].uint_value, 2000000000u);
  EXPECT_EQ(t[14].uint_value, 180000000000u);
  EXPECT_EQ(t[15].uint_value, 3600000000000u);
  auto s = LexOk("16B 4KiB 128MiB 1GiB 1k 2M 0xFF_u8");
  EXPECT_EQ(s[0].kind, Tok::kSize);
  EXPECT_EQ(s[0].uint_value, 16u);
  EXPECT_EQ(s[1].uint_value, 4096u);
  EXPECT_EQ(s[2].uint_value, 128u << 20);
  EXPECT_EQ(s[3].uint_value, 1u << 30);
  EXPECT_EQ(s[4].uint_value, 1000u);
  EXPECT_EQ(s[5].uint_value, 2000000u);
  EXPECT_EQ(s[6].uint_value, 255u);
  EXPECT_EQ(s[6].suffix(), "u8");
}

TEST(Lexer, RangeIsNotAFloat) {
  auto t = LexOk("1..5 t.0.1");
  ASSERT_EQ(t.size(), 9u);
  EXPECT_EQ(t[0].kind, Tok::kInt);
  EXPECT_EQ(t[1].kind, Tok::kDotDot);
  EXPECT_EQ(t[2].kind, Tok::kInt);
  EXPECT_EQ(t[5].kind, Tok::kInt);  // `t.0.1` is two tuple fields
  EXPECT_EQ(t[7].kind, Tok::kInt);
}

TEST(Lexer, StringsCharsRaw) {
  auto t = LexOk(R"("a\n\t\r\\\"\'\0\u{1F600}" r"raw\n" r#"has "quotes""# 'c' '\n' '\u{e9}')");
  ASSERT_EQ(t.size(), 7u);
  EXPECT_EQ(t[0].text, std::string("a\n\t\r\\\"'\0\xF0\x9F\x98\x80", 12));
  EXPECT_EQ(t[1].text, "raw\\n");
  EXPECT_EQ(t[2].text, "has \"quotes\"");
  EXPECT_EQ(t[3].uint_value, 'c');
  EXPECT_EQ(t[4].uint_value, '\n');
  EXPECT_EQ(t[5].uint_value, 0xE9u);
}

TEST(Lexer, CommentsAndNewlines) {
  auto t = LexOk("a /* x /* nested */ y */ b // line\r\n/// doc\n\n c");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].text, "a");
  EXPECT_EQ(t[1].text, "b");
  EXPECT_EQ(t[2].kind, Tok::kNewline);  // CRLF, comment and blank lines: one newline
  EXPECT_EQ(t[3].text, "c");
  EXPECT_EQ(t[3].loc.line, 4u);
  EXPECT_EQ(t[3].loc.col, 2u);
}

TEST(Lexer, ColumnsCountScalars) {
  auto t = LexOk("\"héllo\" x");
  EXPECT_EQ(t[1].loc.col, 9u);
}

TEST(Lexer, Errors) {
  struct Case {
    const char* src;
    const char* code;
  };
  const Case cases[] = {
      {"\"abc", "MT0002"},
      {"\"a\\q\"", "MT0003"},
      {"/* open", "MT0004"},
      {"a $ b", "MT0005"},
      {"0x", "MT0006"},
      {"1_", "MT0006"},
      {"5K", "MT0006"},
      {"99999999999999999999", "MT0006"},
      {"''", "MT0008"},
      {"'ab'", "MT0008"},
      {"\"\\u{D800}\"", "MT0003"},
  };
  for (const Case& c : cases) {
    Diagnostics d;
    Lex(c.src, d);
    ASSERT_EQ(d.Count(), 1u) << c.src;
    EXPECT_EQ(d.list()[0].code, c.code) << c.src;
  }
}

// ------------------------------------------------------------- precedence

TEST(Precedence, Arithmetic) {
  EXPECT_EQ(Body("1 + 2 * 3"), "(+ 1 (* 2 3))");
  EXPECT_EQ(Body("(1 + 2) * 3"), "(* (+ 1 2) 3)");
  EXPECT_EQ(Body("a - b - c"), "(- (- a b) c)");
  EXPECT_EQ(Body("a / b % c"), "(% (/ a b) c)");
  EXPECT_EQ(Body("1 << 2 + 3"), "(<< 1 (+ 2 3))");
  EXPECT_EQ(Body("a | b ^ c & d"), "(| a (^ b (& c d)))");
  EXPECT_EQ(Body("a & b == c"), "(== (& a b) c)");
}

TEST(Precedence, Logic) {
  EXPECT_EQ(Body("a || b && c"), "(|| a (&& b c))");
  EXPECT_EQ(Body("a && b || c"), "(|| (&& a b) c)");
  EXPECT_EQ(Body("!a && b"), "(&& (not a) b)");
  EXPECT_EQ(Body("a < b && c >= d"), "(&& (< a b) (>= c d))");
}

TEST(Precedence, PrefixPostfixCast) {
  EXPECT_EQ(Body("-x.y"), "(neg (field x y))");
  EXPECT_EQ(Body("&mut v[0]"), "(ref-mut (index v 0))");
  EXPECT_EQ(Body("&x"), "(ref x)");
  EXPECT_EQ(Body("*r"), "(deref r)");
  EXPECT_EQ(Body("a as I64 + 1"), "(+ (as a I64) 1)");
  EXPECT_EQ(Body("-x as I64"), "(as (neg x) I64)");
  EXPECT_EQ(Body("x as U8 as I64"), "(as (as x U8) I64)");
  EXPECT_EQ(Body("-5"), "-5");
  EXPECT_EQ(Body("-1.5"), "-1.5");
  EXPECT_EQ(Body("-2.abs()"), "(neg (mcall 2 abs))");
  EXPECT_EQ(Body("-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(Body("f(x)?.y"), "(field (try (call f x)) y)");
  EXPECT_EQ(Body("a.b.c(1)[2]"), "(index (mcall (field a b) c 1) 2)");
  EXPECT_EQ(Body("t.0.1"), "(tfield (tfield t 0) 1)");
  EXPECT_EQ(Body("!!x"), "(not (not x))");
}

TEST(Precedence, RangesAndAssignment) {
  EXPECT_EQ(Body("0..n"), "(range 0 n)");
  EXPECT_EQ(Body("a..=b + 1"), "(range= a (+ b 1))");
  EXPECT_EQ(Body("..5"), "(range _ 5)");
  EXPECT_EQ(Body("3.."), "(range 3 _)");
  EXPECT_EQ(Body("x = 1..2"), "(= x (range 1 2))");
  EXPECT_EQ(Body("x = y = 1"), "(= x (= y 1))");
  EXPECT_EQ(Body("a += b -= c"), "(+= a (-= b c))");
  EXPECT_EQ(Body("x <<= 2"), "(<<= x 2)");
  EXPECT_EQ(Body("*r = 5"), "(= (deref r) 5)");
  EXPECT_EQ(Body("p.x = a || b"), "(= (field p x) (|| a b))");
  EXPECT_EQ(Body("m[\"k\"] = v"), "(= (index m \"k\") v)");
}

TEST(Precedence, ComparisonsDoNotChain) {
  for (const char* src : {"a < b < c", "a == b == c", "a < b > c", "a == b != c"}) {
    Result r = ParseText(std::string("fn main() { ") + src + " }");
    ASSERT_EQ(Codes(r), std::vector<std::string>{"MT0001"}) << src;
    EXPECT_EQ(r.diags.list()[0].message, "comparison operators cannot be chained");
  }
  EXPECT_EQ(Body("(a < b) == c"), "(== (< a b) c)");
}

// --------------------------------------------------------------- newlines

TEST(Newlines, EndStatements) {
  EXPECT_EQ(Body("let a = 1\nlet b = 2\na + b"), "(let a 1) (let b 2) (+ a b)");
  EXPECT_EQ(Body("f(); g()"), "(call f); (call g)");
  EXPECT_EQ(Body("x\n(1, 2)"), "x (tuple 1 2)");  // `(` on a new line is not a call
  EXPECT_EQ(Body("let a = b\n*r = 1"), "(let a b) (= (deref r) 1)");
}

TEST(Newlines, TrailingOperatorContinues) {
  EXPECT_EQ(Body("let a = 1 +\n  2"), "(let a (+ 1 2))");
  EXPECT_EQ(Body("let a =\n  2"), "(let a 2)");
  EXPECT_EQ(Body("a &&\n b"), "(&& a b)");
  EXPECT_EQ(Body("x.\n y"), "(field x y)");
}

TEST(Newlines, LeadingOperatorContinues) {
  EXPECT_EQ(Body("let total = a\n  + b\n  - c"), "(let total (- (+ a b) c))");
  EXPECT_EQ(Body("let ok = a\n  && b\n  || c"), "(let ok (|| (&& a b) c))");
  EXPECT_EQ(Body("let v = items\n  .iter()\n  .map(f)"),
            "(let v (mcall (mcall items iter) map f))");
}

TEST(Newlines, InsideParensAndBrackets) {
  EXPECT_EQ(Body("f(\n  1,\n  2\n)"), "(call f 1 2)");
  EXPECT_EQ(Body("let v = [\n 1,\n 2,\n]"), "(let v (array 1 2))");
  EXPECT_EQ(Body("let x = (a\n + b\n * c)"), "(let x (+ a (* b c)))");
  EXPECT_EQ(Body("f(|x| {\n let y = x\n y\n})"),
            "(call f (closure (params x) (block (let y x) y)))");
}

TEST(Newlines, BlocksAndElse) {
  EXPECT_EQ(Body("if a { 1 }\nelse { 2 }"), "(if a (block 1) (else (block 2)))");
  EXPECT_EQ(Body("if a\n{ 1 }"), "(if a (block 1))");
  EXPECT_EQ(Body("if a { 1 } else { 2 }.to_str()"),
            "(mcall (if a (block 1) (else (block 2))) to_str)");
  EXPECT_EQ(Body("match x { _ => 1 } f()"), "(match x (arm _ 1)) (call f)");
}

TEST(Newlines, MatchArmsOnSeparateLines) {
  EXPECT_EQ(Body("match x {\n 1 => a\n -1 => b\n _ => c\n}"),
            "(match x (arm 1 a) (arm -1 b) (arm _ c))");
}

// ------------------------------------------------------------------ items

TEST(Items, Functions) {
  EXPECT_EQ(Dump("fn add(a: I64, b: Str) -> I64 { a }"),
            "(module \"t.mty\" (fn add (params (a I64) (b Str)) -> I64 (block a)))");
  EXPECT_EQ(Dump("pub fn f[T, U: Hash + Eq](x: T) -> Option[T] = Some(x)"),
            "(module \"t.mty\" (fn f pub (generics T U) (params (x T)) -> Option[T] (= (call "
            "Some x))))");
  EXPECT_EQ(Dump("fn g(mut v: [I64], t: (I64, Str), r: &mut Map[Str, I64], f: fn(I64) -> "
                 "Bool, e: I64!Str) {}"),
            "(module \"t.mty\" (fn g (params (mut v [I64]) (t (I64, Str)) (r &mut Map[Str, I64]) "
            "(f fn(I64) -> Bool) (e Result[I64, Str])) (block)))");
  EXPECT_EQ(Dump("fn h() -> [I64; 4] effect net, fs { }"),
            "(module \"t.mty\" (fn h (params) -> [I64] (block)))");
}

TEST(Items, StructEnumConstTypeUse) {
  EXPECT_EQ(Dump("struct Point { x: I64, y: I64 }\nstruct P2 {\n  pub a: F64\n  b: Str,\n}"),
            "(module \"t.mty\" (struct Point (x I64) (y I64)) (struct P2 (a F64) (b Str)))");
  EXPECT_EQ(Dump("enum Shape { Circle(F64), Rect(F64, F64), Empty }"),
            "(module \"t.mty\" (enum Shape (Circle F64) (Rect F64 F64) Empty))");
  EXPECT_EQ(Dump("const MAX: I64 = 1024\ntype UserId = I64"),
            "(module \"t.mty\" (const MAX :I64 1024) (type UserId I64))");
  EXPECT_EQ(Dump("use std.fs\nuse std.fs as f\nuse std::net\nuse lib.{a, b as c}"),
            "(module \"t.mty\" (use std.fs) (use std.fs as f) (use std.net) (use lib.a) (use "
            "lib.b as c))");
}

TEST(Items, ImplAndTrait) {
  EXPECT_EQ(Dump("impl Point {\n fn norm(self) -> I64 { 1 }\n fn new(x: I64) -> Point { p }\n"
                 " pub fn bump(&mut self) {}\n fn look(&self) {}\n}"),
            "(module \"t.mty\" (impl Point (fn norm (params self) -> I64 (block 1)) (fn new "
            "(params (x I64)) -> Point (block p)) (fn bump pub (params &mut self) (block)) (fn "
            "look (params &self) (block))))");
  EXPECT_EQ(Dump("trait Area {\n fn area(self) -> F64\n fn twice(self) -> F64 { 2.0 }\n}\n"
                 "impl Area for Shape { fn area(self) -> F64 { 1.0 } }"),
            "(module \"t.mty\" (trait Area (fn area (params self) -> F64) (fn twice (params self) "
            "-> F64 (block 2.0))) (impl Area for Shape (fn area (params self) -> F64 (block "
            "1.0))))");
  Result r = ParseText("impl Area for Shape { fn area(self) -> F64 { 1.0 } }");
  ASSERT_EQ(r.module.items.size(), 1u);
  EXPECT_EQ(r.module.items[0].impl_decl->trait_name, "Area");
  EXPECT_EQ(r.module.items[0].impl_decl->self_type.name, "Shape");
  EXPECT_EQ(r.module.items[0].impl_decl->fns[0].params[0].self_kind, Param::SelfKind::kValue);
}

TEST(Items, ProtocolAgent) {
  EXPECT_EQ(Dump("protocol Counter { Inc(by: I64) -> I64; Get() -> I64 }"),
            "(module \"t.mty\" (protocol Counter (Inc (params (by I64)) -> I64) (Get (params) -> "
            "I64)))");
  EXPECT_EQ(Dump("agent Counter: Counter { n = 0  on Inc(by) -> { n += by; n }  on Get() -> n }"),
            "(module \"t.mty\" (agent Counter (protocols Counter) (state n 0) (on Inc (params by) "
            "(block (+= n by); n)) (on Get (params) n)))");
  EXPECT_EQ(Dump("agent Worker(id, limit: I64): A + B {\n  state count: I64 = 0\n  total: I64\n"
                 "  on Work(x: I64) { count += x }\n  on Peek() -> I64 { count }\n"
                 "  fn helper(self) -> I64 { 1 }\n}"),
            "(module \"t.mty\" (agent Worker (ctor id (limit I64)) (protocols A B) (state count "
            ":I64 0) (state total :I64) (on Work (params (x I64)) (block (+= count x))) (on Peek "
            "(params) (block count)) (fn helper (params self) -> I64 (block 1))))");
}

TEST(Items, Supervisor) {
  EXPECT_EQ(Dump("supervisor Sup(strategy: one_for_one) { child w = spawn Worker(1)  on_fail(w) "
                 "{ restart up_to 3 in 30s } }"),
            "(module \"t.mty\" (supervisor Sup one_for_one (child w (spawn Worker 1)) (on_fail w "
            "restart (up_to 3) (in 30000000000ns))))");
  EXPECT_EQ(Dump("sup S strategy OneForAll {\n child a = spawn A()\n child b = spawn B()\n "
                 "on_fail(a) { backoff 10ms..1s; restart }\n on_fail(b) { escalate }\n}"),
            "(module \"t.mty\" (supervisor S one_for_all (child a (spawn A)) (child b (spawn B)) "
            "(on_fail a restart (backoff 10000000ns 1000000000ns)) (on_fail b escalate)))");
  Result r = ParseText("supervisor S(strategy: sideways) {}");
  EXPECT_EQ(Codes(r), std::vector<std::string>{"MT0014"});
}

TEST(Items, SandboxAndMacro) {
  EXPECT_EQ(Dump("sandbox Tool with {\n  fs.read = [\"/models\", \"/tmp/in\"]\n  net = "
                 "[\"h:443\"]\n  cpu = 150ms, wall = 2s, memory = 128MiB, mailbox = 1k\n  "
                 "mb_policy = fail\n}"),
            "(module \"t.mty\" (sandbox Tool (with (fs.read (array \"/models\" \"/tmp/in\")) (net "
            "(array \"h:443\")) (cpu 150000000ns) (wall 2000000000ns) (memory 134217728B) "
            "(mailbox 1000B) (mb_policy fail))))");
  Result r = ParseText("macro sq(a) => { a * a }");
  ASSERT_EQ(r.module.items.size(), 1u);
  const MacroDecl& m = r.module.items[0].macro_decl;
  EXPECT_EQ(m.name, "sq");
  EXPECT_EQ(m.params, std::vector<std::string>{"a"});
  EXPECT_EQ(m.body_text, " a * a ");
  EXPECT_EQ(m.body_loc.col, 17u);
}

// ------------------------------------------------------------ expressions

TEST(Exprs, Literals) {
  EXPECT_EQ(Body("\"a\\n\""), "\"a\\n\"");
  EXPECT_EQ(Body("'c'"), "'c'");
  EXPECT_EQ(Body("true"), "true");
  EXPECT_EQ(Body("()"), "()");
  EXPECT_EQ(Body("150ms"), "150000000ns");
  EXPECT_EQ(Body("4KiB"), "4096B");
  EXPECT_EQ(Body("42_u8"), "42u8");
  EXPECT_EQ(Body("2.0e-3"), "0.002");
}

TEST(Exprs, Collections) {
  EXPECT_EQ(Body("(x,)"), "(tuple x)");
  EXPECT_EQ(Body("(1, \"a\")"), "(tuple 1 \"a\")");
  EXPECT_EQ(Body("[1, 2, 3]"), "(array 1 2 3)");
  EXPECT_EQ(Body("[]"), "(array)");
  EXPECT_EQ(Body("let m = { \"a\": 1, \"b\": 2 }"), "(let m (map \"a\" 1 \"b\" 2))");
  EXPECT_EQ(Body("let m = {\n 1: 'a'\n -2: 'b'\n}"), "(let m (map 1 'a' -2 'b'))");
  EXPECT_EQ(Body("let m = Map { k: v, (1, 2): 3 }"), "(let m (map k v (tuple 1 2) 3))");
  EXPECT_EQ(Body("let m = Map {}"), "(let m (map))");
  EXPECT_EQ(Body("{ x }"), "(block x)");
}

TEST(Exprs, PathsFieldsStructs) {
  EXPECT_EQ(Body("Shape.Circle(1.0)"), "(mcall Shape Circle 1.0)");
  EXPECT_EQ(Body("Shape::Circle(1.0)"), "(call Shape::Circle 1.0)");
  EXPECT_EQ(Body("std.fs.read(p)"), "(mcall (field std fs) read p)");
  EXPECT_EQ(Body("Point.new(1)"), "(mcall Point new 1)");
  EXPECT_EQ(Body("Shape.Empty"), "(field Shape Empty)");
  EXPECT_EQ(Body("I64::MAX"), "I64::MAX");
  EXPECT_EQ(Body("Map::[Str, I64]::new()"), "(call Map::new)");
  EXPECT_EQ(Body("Point { x: 1, y }"), "(struct Point (x 1) (y y))");
  EXPECT_EQ(Body("Point {\n  x: 1\n  y: 2,\n}"), "(struct Point (x 1) (y 2))");
  EXPECT_EQ(Body("geo.Point { x: 1 }"), "(struct geo::Point (x 1))");
  // As in Rust, no struct literal in a condition: `Point` ends the condition.
  EXPECT_TRUE(ParseText("fn main() { if p == Point { x: 1 } { } }").diags.HasErrors());
  EXPECT_EQ(Body("if p == (Point { x: 1 }) { }"), "(if (== p (struct Point (x 1))) (block))");
  EXPECT_EQ(Body("if a == b { 1 }"), "(if (== a b) (block 1))");
  EXPECT_EQ(Body("for p in ps { }"), "(for p ps (block))");
  EXPECT_EQ(Body("match p { _ => Point { x: 1 } }"), "(match p (arm _ (struct Point (x 1))))");
}

TEST(Exprs, ControlFlow) {
  EXPECT_EQ(Body("if a { 1 } else if b { 2 } else { 3 }"),
            "(if a (block 1) (else (if b (block 2) (else (block 3)))))");
  EXPECT_EQ(Body("if let Some(x) = o { x } else { 0 }"),
            "(if-let (variant Some x) o (block x) (else (block 0)))");
  EXPECT_EQ(Body("while i < n { i += 1 }"), "(while (< i n) (block (+= i 1)))");
  EXPECT_EQ(Body("while let Some(x) = it.next() { }"),
            "(while-let (variant Some x) (mcall it next) (block))");
  EXPECT_EQ(Body("loop { break 5 }"), "(loop (block (break 5)))");
  EXPECT_EQ(Body("for (k, v) in m { continue }"), "(for (tuple k v) m (block (continue)))");
  EXPECT_EQ(Body("for x in 0..=n { }"), "(for x (range= 0 n) (block))");
  EXPECT_EQ(Body("return"), "(return)");
  EXPECT_EQ(Body("return x + 1"), "(return (+ x 1))");
  EXPECT_EQ(Body("break"), "(break)");
  EXPECT_EQ(Body("unsafe { x }"), "(unsafe (block x))");
  EXPECT_EQ(Body("arena a { x }"), "(arena a (block x))");
  EXPECT_EQ(Body("match e {\n  Ok(v) if v > 0 => { v }\n  Err(e) => 0,\n}"),
            "(match e (arm (variant Ok v) (if (> v 0)) (block v)) (arm (variant Err e) 0))");
}

TEST(Exprs, Closures) {
  EXPECT_EQ(Body("|x| x + 1"), "(closure (params x) (+ x 1))");
  EXPECT_EQ(Body("|a, b| { a }"), "(closure (params a b) (block a))");
  EXPECT_EQ(Body("|x: I64| x"), "(closure (params (: x I64)) x)");
  EXPECT_EQ(Body("|| 42"), "(closure (params) 42)");
  EXPECT_EQ(Body("|(a, b)| a"), "(closure (params (tuple a b)) a)");
  EXPECT_EQ(Body("move |x| x"), "(closure (params x) x)");
  EXPECT_EQ(Body("v.map(|x| x * 2).filter(|x| x > 1)"),
            "(mcall (mcall v map (closure (params x) (* x 2))) filter (closure (params x) (> x "
            "1)))");
}

TEST(Exprs, AgentsAndSandboxes) {
  EXPECT_EQ(Body("let h = spawn Counter(1, 2)"), "(let h (spawn Counter 1 2))");
  EXPECT_EQ(Body("h!Inc(1)"), "(send h Inc 1)");
  EXPECT_EQ(Body("h ! Inc(1)"), "(send h Inc 1)");
  EXPECT_EQ(Body("h?Get()"), "(ask h Get)");
  EXPECT_EQ(Body("h?Get() @ 2s"), "(ask h Get (@ 2000000000ns))");
  EXPECT_EQ(Body("fetcher?Page(url) @2s?"), "(try (ask fetcher Page url (@ 2000000000ns)))");
  EXPECT_EQ(Body("sup.w!Stop()"), "(send (field sup w) Stop)");
  EXPECT_EQ(Body("x?"), "(try x)");
  EXPECT_EQ(Body("sandbox Tool { run() }"), "(sandbox Tool (block (call run)))");
  EXPECT_EQ(Body("sandbox Job with { fs.read = [\"./in\"], steps = 1000 } { work() }"),
            "(sandbox Job (with (fs.read (array \"./in\")) (steps 1000)) (block (call work)))");
}

TEST(Exprs, UpstreamForms) {
  EXPECT_EQ(Body("run Tool { x }"), "(sandbox Tool (block x))");
  EXPECT_EQ(Body("run job(input)?"), "(try (call job input))");
  EXPECT_EQ(Body("arena turn: lower(x)?"), "(arena turn (block (try (call lower x))))");
  EXPECT_EQ(Body("Map::[Str, I64]::new()"), "(call Map::new)");
  EXPECT_EQ(Dump("package kv\nfn main() {}"), "(module \"t.mty\" (fn main (params) (block)))");
}

TEST(Exprs, BuiltinMacros) {
  EXPECT_EQ(Body("format!(\"{} {}\", a, b)"), "(format! \"{} {}\" a b)");
  EXPECT_EQ(Body("assert!(x)"), "(assert! x \"assertion failed: x\")");
  EXPECT_EQ(Body("assert!(m[{1}]\n  ==  2,)"),
            "(assert! (== (index m (block 1)) 2) \"assertion failed: m[{{1}}] == 2\")");
  EXPECT_EQ(Body("println!(\"{}\", a)"), "(println! \"{}\" a)");
  EXPECT_EQ(Body("panic!()"), "(panic!)");
  EXPECT_EQ(Body("assert_eq!(a, b + 1)"), "(assert_eq! a (+ b 1))");
  EXPECT_EQ(Body("assert_ne!(a, b)"), "(assert_ne! a b)");
  EXPECT_EQ(Body("unreachable!()"), "(unreachable!)");
  EXPECT_EQ(Body("vec![a, b]"), Body("[a, b]"));
  EXPECT_EQ(Body("vec!(a, b)"), Body("[a, b]"));
  EXPECT_EQ(Body("vec![x; n]"), Body("[x; n]"));
  EXPECT_EQ(Body("vec![]"), Body("[]"));
  Result r = ParseText("fn main() { printn!(\"x\") }");
  EXPECT_EQ(Codes(r), std::vector<std::string>{"MT1010"});
  r = ParseText("fn main() { println!(x) }");
  EXPECT_EQ(Codes(r), std::vector<std::string>{"MT0016"});
  r = ParseText("fn main() { assert!(c, x) }");
  EXPECT_EQ(Codes(r), std::vector<std::string>{"MT0016"});
  r = ParseText("fn main() { format!(x) }");
  EXPECT_EQ(Codes(r), std::vector<std::string>{"MT0016"});
}

// --------------------------------------------------------------- patterns

std::string Arm(const std::string& pat) {
  std::string b = Body("match x { " + pat + " => 0 }");
  const std::string prefix = "(match x (arm ";
  if (b.rfind(prefix, 0) != 0) return "<bad> " + b;
  return b.substr(prefix.size(), b.size() - prefix.size() - std::string(" 0))").size());
}

TEST(Patterns, Forms) {
  EXPECT_EQ(Arm("1"), "1");
  EXPECT_EQ(Arm("-1"), "-1");
  EXPECT_EQ(Arm("1.5"), "1.5");
  EXPECT_EQ(Arm("'c'"), "'c'");
  EXPECT_EQ(Arm("\"s\""), "\"s\"");
  EXPECT_EQ(Arm("true"), "true");
  EXPECT_EQ(Arm("1..10"), "(range 1 10)");
  EXPECT_EQ(Arm("-5..=-1"), "(range= -5 -1)");
  EXPECT_EQ(Arm("'a'..='z'"), "(range= 'a' 'z')");
  EXPECT_EQ(Arm("_"), "_");
  EXPECT_EQ(Arm("y"), "y");
  EXPECT_EQ(Arm("mut y"), "(mut y)");
  EXPECT_EQ(Arm("n @ 1..=9"), "(@ n (range= 1 9))");
  EXPECT_EQ(Arm("(a, _, 3)"), "(tuple a _ 3)");
  EXPECT_EQ(Arm("()"), "(tuple)");
  EXPECT_EQ(Arm("Some(v)"), "(variant Some v)");
  EXPECT_EQ(Arm("Rect(w, h)"), "(variant Rect w h)");
  EXPECT_EQ(Arm("Shape.Circle(r)"), "(variant Shape::Circle r)");
  EXPECT_EQ(Arm("Shape::Circle(r)"), "(variant Shape::Circle r)");
  EXPECT_EQ(Arm("None"), "(path None)");
  EXPECT_EQ(Arm("Shape.Empty"), "(path Shape::Empty)");
  EXPECT_EQ(Arm("Point { x, y: 0, .. }"), "(struct-pat Point (x x) (y 0) ..)");
  EXPECT_EQ(Arm("1 | 2 | 3"), "(or 1 2 3)");
  EXPECT_EQ(Arm("&p"), "(ref p)");
  EXPECT_EQ(Arm("Some((a, Ok(b)))"), "(variant Some (tuple a (variant Ok b)))");

  Result r = ParseText("fn main() { match x { y => 0 } }");
  const Pattern& p = *r.module.items[0].fn.body->stmts[0].expr->more->arms[0].pat;
  EXPECT_EQ(p.kind, Pattern::Kind::kBind);
  r = ParseText("fn main() { match x { Empty => 0, Some(a) => 1 } }");
  const Pattern& q = *r.module.items[0].fn.body->stmts[0].expr->more->arms[0].pat;
  EXPECT_EQ(q.kind, Pattern::Kind::kVariant);
  EXPECT_FALSE(q.has_parens);
  EXPECT_TRUE(r.module.items[0].fn.body->stmts[0].expr->more->arms[1].pat->has_parens);
}

TEST(Patterns, LetForms) {
  EXPECT_EQ(Body("let (a, b) = pair"), "(let (tuple a b) pair)");
  EXPECT_EQ(Body("let Point { x, y } = p"), "(let (struct-pat Point (x x) (y y)) p)");
  EXPECT_EQ(Body("let mut x: I64 = 0"), "(let (mut x) :I64 0)");
  EXPECT_EQ(Body("let x"), "(let x)");
}

// ----------------------------------------------------------------- macros

TEST(Macros, SubstitutesAst) {
  EXPECT_EQ(Dump("macro sq(a) => { a * a }\nfn main() { sq!(1 + 2) }"),
            "(module \"t.mty\" (macro sq (params a) \" a * a \") (fn main (params) (block (block "
            "(* (+ 1 2) (+ 1 2))))))");
  // Used before its definition; nested expansion.
  EXPECT_EQ(Dump("fn main() { quad!(x) }\nmacro quad(a) => { sq!(sq!(a)) }\n"
                 "macro sq(a) => { a * a }"),
            "(module \"t.mty\" (fn main (params) (block (block (block (* (block (* x x)) (block (* "
            "x x))))))) (macro quad (params a) \" sq!(sq!(a)) \") (macro sq (params a) \" a * a "
            "\"))");
}

TEST(Macros, Hygiene) {
  // The macro's `let tmp` does not capture the caller's `tmp`.
  EXPECT_EQ(Dump("macro twice(e) => { let tmp = e; tmp + tmp }\n"
                 "fn main() { let tmp = 5\n let y = twice!(tmp + 1) }"),
            "(module \"t.mty\" (macro twice (params e) \" let tmp = e; tmp + tmp \") (fn main "
            "(params) (block (let tmp 5) (let y (block (let tmp#1 (+ tmp 1)) (+ tmp#1 "
            "tmp#1))))))");
  // Closure parameters and match bindings are renamed as well; free names
  // (functions, the caller's variables) are not.
  EXPECT_EQ(Dump("macro m(v) => { match v { Some(x) => f(|y| x + y + z), None => 0 } }\n"
                 "fn main() { m!(x) }"),
            "(module \"t.mty\" (macro m (params v) \" match v { Some(x) => f(|y| x + y + z), None "
            "=> 0 } \") (fn main (params) (block (block (match x (arm (variant Some x#1) (call f "
            "(closure (params y#1) (+ (+ x#1 y#1) z)))) (arm (path None) 0))))))");
  // A plain call of a user macro expands too (upstream compatibility).
  EXPECT_EQ(Dump("macro sq(a) => { a * a }\nfn main() { sq(3) }"),
            "(module \"t.mty\" (macro sq (params a) \" a * a \") (fn main (params) (block (block "
            "(* 3 3)))))");
  // A user macro may shadow a built-in one.
  EXPECT_EQ(Dump("macro assert_eq(a, b) => { if a != b { panic(\"no\") } }\n"
                 "fn main() { assert_eq!(1, 2) }"),
            "(module \"t.mty\" (macro assert_eq (params a b) \" if a != b { panic(\\\"no\\\") } "
            "\") (fn main (params) (block (block (if (!= 1 2) (block (call panic \"no\")))))))");
}

TEST(Macros, Errors) {
  Result r = ParseText("macro f(x) => { f!(x) }\nfn main() { f!(1) }");
  EXPECT_EQ(Codes(r), std::vector<std::string>{"MT0030"});
  r = ParseText("macro g(x) => { g!(x) + g!(x) }\nfn main() { g!(1) }");  // exponential
  EXPECT_EQ(Codes(r), std::vector<std::string>{"MT0030"});
  r = ParseText("fn main() { nope!(1) }");
  EXPECT_EQ(Codes(r), std::vector<std::string>{"MT1010"});
  r = ParseText("macro two(a, b) => { a }\nfn main() { two!(1) }");
  EXPECT_EQ(Codes(r), std::vector<std::string>{"MT0017"});
  r = ParseText("macro d(a) => { a }\nmacro d(b) => { b }");
  EXPECT_EQ(Codes(r), std::vector<std::string>{"MT0015"});
  // A syntax error inside a macro body is reported once, at the body.
  r = ParseText("macro bad(a) => { a + }\nfn main() { bad!(1)\n bad!(2) }");
  ASSERT_EQ(Codes(r), std::vector<std::string>{"MT0011"});
  EXPECT_EQ(r.diags.list()[0].loc.line, 1u);
}

// --------------------------------------------------------------- recovery

TEST(Recovery, TwoIndependentErrors) {
  Result r = ParseText(
      "fn main() {\n"
      "    let x = (1, 2\n"
      "}\n"
      "\n"
      "fn other() {\n"
      "    let ok = 1\n"
      "    let y = 3 + / 4\n"
      "    let z = 5\n"
      "}\n");
  ASSERT_EQ(Codes(r), (std::vector<std::string>{"MT0001", "MT0011"})) << r.rendered;
  EXPECT_EQ(r.diags.list()[0].message, "expected ')', found '}'");
  EXPECT_EQ(r.diags.list()[0].loc.line, 3u);
  EXPECT_EQ(r.diags.list()[0].loc.col, 1u);
  EXPECT_EQ(r.diags.list()[1].loc.line, 7u);
  EXPECT_EQ(r.diags.list()[1].loc.col, 17u);
  // Both functions exist; the statements after each error survive.
  ASSERT_EQ(r.module.items.size(), 2u);
  EXPECT_EQ(r.module.items[1].fn.body->stmts.size(), 2u);
}

TEST(Recovery, ItemsAndEntries) {
  Result r = ParseText(
      "fn f( {\n  1\n}\n"
      "fn g() { 2 }\n"
      "let x = 5\n"
      "struct S { a: , b: I64 }\n"
      "agent A { n = 0\n on Inc( -> n\n on Get() -> n }\n"
      "fn ok() {}\n");
  EXPECT_EQ(Codes(r), (std::vector<std::string>{"MT0001", "MT0010", "MT0001", "MT0001"}))
      << r.rendered;
  std::vector<std::string> names;
  for (const Item& it : r.module.items) {
    if (it.kind == Item::Kind::kFn) names.push_back(it.fn.name);
    if (it.kind == Item::Kind::kStruct) {
      EXPECT_EQ(it.struct_decl->fields.size(), 1u);
    }
    if (it.kind == Item::Kind::kAgent) {
      EXPECT_EQ(it.agent_decl->handlers.size(), 1u);
    }
  }
  EXPECT_EQ(names, (std::vector<std::string>{"g", "ok"}));
}

TEST(Recovery, UnclosedParenBeforeStatement) {
  Result r = ParseText("fn main() {\n  foo(1, 2\n  let y = 3\n  y\n}\n");
  ASSERT_EQ(Codes(r), std::vector<std::string>{"MT0001"}) << r.rendered;
  EXPECT_EQ(r.diags.list()[0].message, "expected ')', found 'let'");
  EXPECT_EQ(r.module.items[0].fn.body->stmts.size(), 2u);  // `let y`, `y`
}

TEST(Recovery, NoCascades) {
  // One unclosed delimiter: one diagnostic.
  Result r = ParseText("fn main() {\n  if x {\n    let y = [1,\n");
  EXPECT_EQ(r.diags.Count(), 1u) << r.rendered;
  // A lexer error is not reported again by the parser.
  r = ParseText("fn main() {\n  let a = 5 $ 3\n  let b = \"x\\q\"\n}");
  EXPECT_EQ(Codes(r), (std::vector<std::string>{"MT0005", "MT0003"})) << r.rendered;
  r = ParseText("fn main() {\n /* never closed\n let a = 1\n");
  EXPECT_EQ(Codes(r), (std::vector<std::string>{"MT0004"})) << r.rendered;
  r = ParseText("fn main() {\n  let s = \"abc\n  let t = 1\n}\n");
  EXPECT_EQ(Codes(r), (std::vector<std::string>{"MT0002"})) << r.rendered;
  r = ParseText("fn main() { let a = 1 }\nfn g() {\n  nested {\n}\nfn h() {}\n");
  EXPECT_LE(r.diags.Count(), 2u) << r.rendered;
}

// -------------------------------------------------------------- rendering

TEST(Render, Format) {
  SourceFile f{"prog.mty", "fn main() {\n\n    let x = (1, 2\n}\n"};
  Diagnostics d;
  d.Error("MT0001", Loc{3, 14}, "expected ')', found '}'");
  EXPECT_EQ(d.Render(f),
            "error[MT0001]: expected ')', found '}'\n"
            " --> prog.mty:3:14\n"
            "  |\n"
            "3 |     let x = (1, 2\n"
            "  |              ^\n"
            "\n"
            "error: aborting due to 1 previous error\n");
  d.Error("MT0002", Loc{12, 3}, "unterminated double quote string", "add a closing `\"`");
  EXPECT_EQ(RenderOne(f, d.list()[1]),
            "error[MT0002]: unterminated double quote string\n"
            "  --> prog.mty:12:3\n"
            "   |\n"
            "12 |\n"
            "   | ^\n"  // past the end of its line (here: of the file): just after it
            "   |\n"
            "   = help: add a closing `\"`\n");
  EXPECT_NE(d.Render(f).find("error: aborting due to 2 previous errors\n"), std::string::npos);
  EXPECT_EQ(Diagnostics().Render(f), "");
}

TEST(Render, Utf8AndTabs) {
  SourceFile f{"u.mty", "\tlet é = \"ü\" $\r\n"};
  Diagnostics d;
  d.Error("MT0005", Loc{1, 14}, "unexpected character '$'");
  EXPECT_EQ(RenderOne(f, d.list()[0]),
            "error[MT0005]: unexpected character '$'\n"
            " --> u.mty:1:14\n"
            "  |\n"
            "1 | \tlet é = \"ü\" $\n"
            "  | \t            ^\n");
  EXPECT_EQ(f.Line(1), "\tlet é = \"ü\" $");
  EXPECT_EQ(f.Line(2), "");
  EXPECT_EQ(f.Line(3), "");
}

TEST(Render, EndToEnd) {
  Result r = ParseText("fn main() {\n    let x = (1, 2\n}\n");
  EXPECT_EQ(r.rendered,
            "error[MT0001]: expected ')', found '}'\n"
            " --> t.mty:3:1\n"
            "  |\n"
            "2 |     let x = (1, 2\n"
            "  |             - unclosed delimiter\n"
            "3 | }\n"
            "  | ^\n"
            "\n"
            "error: aborting due to 1 previous error\n");
}

// ------------------------------------------------------------- robustness

const char* kValidProgram = R"(use std.fs
const MAX: I64 = 10
struct Point { x: I64, y: I64 }
enum Shape { Circle(F64), Rect(F64, F64), Empty }
impl Point { fn norm(&self) -> I64 { self.x * self.x + self.y * self.y } }
protocol P { Inc(by: I64) -> I64; Get() -> I64 }
agent Counter: P { n = 0  on Inc(by) -> { n += by; n }  on Get() -> n }
supervisor Sup(strategy: one_for_one) { child c = spawn Counter()  on_fail(c) { restart up_to 3 in 30s } }
sandbox Box with { fs.read = ["./in"], wall = 2s }
macro twice(e) => { let t = e; t + t }
fn main() {
    let mut v = [1, 2, 3]
    v[0] = twice!(v[1]) * -2
    let m = { "a": 1 }
    for (i, x) in v.iter().enumerate() { if x > 1 && i < 2 { log(format!("{}", x)) } }
    match Shape.Circle(1.0) {
        Shape.Circle(r) if r > 0.0 => log(r),
        Point { x, .. } | Empty => {}
        _ => unreachable!(),
    }
    let h = spawn Counter()
    h!Inc(2)
    let r = h?Get() @ 2s
    let f = |a: I64, b| a + b
    sandbox Box { std.fs.read("./in/x")? }
    while let Some(x) = v.pop() { continue }
    let total = 1
        + 2
    return
}
)";

TEST(Robustness, ValidProgramParses) {
  Result r = ParseText(kValidProgram);
  EXPECT_FALSE(r.diags.HasErrors()) << r.rendered;
  EXPECT_EQ(r.module.items.size(), 11u);
}

TEST(Robustness, RandomMutationsNeverCrash) {
  std::mt19937 rng(12345);
  const std::string base = kValidProgram;
  const std::string alphabet = "(){}[],;:.!?@|&=<>+-*/%\"'\n \\#$0a_é";
  for (int iter = 0; iter < 3000; ++iter) {
    std::string s = base;
    int edits = 1 + static_cast<int>(rng() % 6);
    for (int e = 0; e < edits; ++e) {
      size_t pos = rng() % (s.size() + 1);
      switch (rng() % 4) {
        case 0:
          if (pos < s.size()) s.erase(pos, 1 + rng() % 8);
          break;
        case 1: s.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
        case 2:
          if (pos < s.size()) s[pos] = alphabet[rng() % alphabet.size()];
          break;
        default: {
          size_t from = rng() % s.size();
          s.insert(pos, s.substr(from, rng() % 20));
        }
      }
    }
    Result r = ParseText(s);
    DumpAst(r.module);
  }
}

TEST(Robustness, DeepNestingIsReportedNotCrashing) {
  for (const std::string& open :
       {std::string("("), std::string("["), std::string("{"), std::string("-"), std::string("!"),
        std::string("&"), std::string("|x| "), std::string("if x { "), std::string("Some(")}) {
    std::string src = "fn main() { let a = ";
    for (int i = 0; i < 100000; ++i) src += open;
    src += "1";
    Result r = ParseText(src);
    ASSERT_TRUE(r.diags.HasErrors()) << open;
    EXPECT_EQ(r.diags.list()[0].code, "MT0007") << open;
    EXPECT_EQ(r.diags.Count(), 1u) << open;
  }
  // Deep patterns, types and long operator chains.
  std::string pat = "fn main() { let ";
  for (int i = 0; i < 100000; ++i) pat += "(";
  EXPECT_EQ(ParseText(pat).diags.list()[0].code, "MT0007");
  std::string ty = "fn f(x: ";
  for (int i = 0; i < 100000; ++i) ty += "[";
  EXPECT_EQ(ParseText(ty).diags.list()[0].code, "MT0007");
  std::string chain = "fn main() { 1";
  for (int i = 0; i < 100000; ++i) chain += " + 1";
  EXPECT_EQ(ParseText(chain + " }").diags.list()[0].code, "MT0007");
  std::string calls = "fn main() { f";
  for (int i = 0; i < 100000; ++i) calls += "()";
  EXPECT_EQ(ParseText(calls + " }").diags.list()[0].code, "MT0007");
  std::string assigns = "fn main() { a";
  for (int i = 0; i < 100000; ++i) assigns += " = a";
  EXPECT_EQ(ParseText(assigns + " }").diags.list()[0].code, "MT0007");
  // Moderately deep input is fine.
  std::string ok = "fn main() { ";
  for (int i = 0; i < 200; ++i) ok += "(";
  ok += "1";
  for (int i = 0; i < 200; ++i) ok += ")";
  EXPECT_FALSE(ParseText(ok + " }").diags.HasErrors());
}

TEST(Robustness, EmptyAndOddInputs) {
  EXPECT_EQ(Dump(""), "(module \"t.mty\")");
  EXPECT_EQ(Dump("\n\n// only a comment\n"), "(module \"t.mty\")");
  EXPECT_EQ(Dump("\xEF\xBB\xBF"
                 "fn main() {}"),
            "(module \"t.mty\" (fn main (params) (block)))");
  for (const char* src :
       {"}", ")", "fn", "fn main(", "fn main() {", "struct", "agent A {", "\"", "'", "/*", "match",
        "fn main() { match x {", "macro m(", "macro m(a) => {", "fn main() { h?", "fn main() { x!",
        "@", "#[", "fn main() { let x = |"}) {
    Result r = ParseText(src);
    EXPECT_TRUE(r.diags.HasErrors()) << src;
    EXPECT_LE(r.diags.Count(), 2u) << src << "\n" << r.rendered;
  }
}

}  // namespace
}  // namespace mty::frontend
