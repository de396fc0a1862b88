// Macro expansion in the parser: user macro definitions (the prescan and
// the `macro` item), hygienic expansion by AST substitution, built-in macros.
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "builtin_macros.h"
#include "lexer.h"
#include "mty/vocab/suggest.h"
#include "parser_internal.h"

namespace mty::frontend::parser_internal {

namespace {

constexpr int kMaxMacroDepth = 32;
constexpr int kMaxExpansions = 10000;
// Nodes all expansions may create: argument copies plus body tokens.
constexpr uint64_t kMaxExpandedNodes = uint64_t{1} << 18;

// Deep copies of AST nodes: each use of a macro parameter gets its own copy
// of the argument.
ExprPtr CloneExpr(const Expr* e, uint64_t& n);

// Copies the members `ms` (plain values) of `from` into `to`.
template <typename T, typename... M>
void CopyMembers(T& to, const T& from, M T::*... ms) {
  ((to.*ms = from.*ms), ...);
}

PatPtr ClonePat(const Pattern* p, uint64_t& n) {
  if (!p) return nullptr;
  ++n;
  auto c = std::make_unique<Pattern>();
  CopyMembers(*c, *p, &Pattern::kind, &Pattern::loc, &Pattern::name, &Pattern::is_mut,
              &Pattern::path, &Pattern::has_parens, &Pattern::field_names, &Pattern::has_rest,
              &Pattern::inclusive, &Pattern::rest_index);
  for (const PatPtr& s : p->subs) c->subs.push_back(ClonePat(s.get(), n));
  c->lit = CloneExpr(p->lit.get(), n);
  c->hi = CloneExpr(p->hi.get(), n);
  return c;
}

std::unique_ptr<Block> CloneBlock(const Block* b, uint64_t& n) {
  if (!b) return nullptr;
  ++n;
  auto c = std::make_unique<Block>();
  c->loc = b->loc;
  for (const Stmt& s : b->stmts) {
    Stmt t;
    t.kind = s.kind;
    t.loc = s.loc;
    t.pat = ClonePat(s.pat.get(), n);
    t.type = s.type;
    t.expr = CloneExpr(s.expr.get(), n);
    t.has_semi = s.has_semi;
    t.else_block = CloneBlock(s.else_block.get(), n);
    t.fn_item = s.fn_item;  // shared: an item is not rewritten by expansion
    c->stmts.push_back(std::move(t));
  }
  return c;
}

ExprPtr CloneExpr(const Expr* e, uint64_t& n) {
  if (!e) return nullptr;
  ++n;
  auto c = std::make_unique<Expr>();
  CopyMembers(*c, *e, &Expr::kind, &Expr::loc, &Expr::begin, &Expr::end, &Expr::int_value,
              &Expr::float_value, &Expr::text, &Expr::segs, &Expr::unary_op, &Expr::binary_op,
              &Expr::has_op, &Expr::is_mut, &Expr::inclusive);
  c->lhs = CloneExpr(e->lhs.get(), n);
  c->rhs = CloneExpr(e->rhs.get(), n);
  c->then_block = CloneBlock(e->then_block.get(), n);
  for (const ExprPtr& a : e->args) c->args.push_back(CloneExpr(a.get(), n));
  if (!e->more.has_value()) return c;
  const ExprMore& from = *e->more;
  ExprMore& to = *c->more;
  CopyMembers(to, from, &ExprMore::label, &ExprMore::label_loc, &ExprMore::type);
  to.cond = CloneExpr(from.cond.get(), n);
  to.else_expr = CloneExpr(from.else_expr.get(), n);
  to.pat = ClonePat(from.pat.get(), n);
  for (const FieldInit& f : from.fields)
    to.fields.push_back(FieldInit{f.name, CloneExpr(f.value.get(), n), f.loc});
  for (const MatchArm& a : from.arms)
    to.arms.push_back(MatchArm{ClonePat(a.pat.get(), n), CloneExpr(a.guard.get(), n),
                               CloneExpr(a.body.get(), n), a.loc});
  for (const ClosureParam& p : from.params)
    to.params.push_back(ClosureParam{ClonePat(p.pat.get(), n), p.type});
  to.closure_body = CloneExpr(from.closure_body.get(), n);
  for (const SandboxEntry& en : from.entries)
    to.entries.push_back(SandboxEntry{en.key, CloneExpr(en.value.get(), n), en.loc});
  return c;
}

}  // namespace

void PrescanMacros(Shared& sh, size_t n) {
  const TokenList& t = *sh.toks;
  auto skip_nl = [&](size_t j) {
    while (j < n && t[j].kind == Tok::kNewline) ++j;
    return j;
  };
  int depth = 0;
  for (size_t i = 0; i < n; ++i) {
    Tok k = t[i].kind;
    if (k == Tok::kLParen || k == Tok::kLBracket || k == Tok::kLBrace) ++depth;
    if ((k == Tok::kRParen || k == Tok::kRBracket || k == Tok::kRBrace) && depth > 0) --depth;
    if (depth != 0 || k != Tok::kIdent || t[i].text != "macro" || i + 2 >= n ||
        t[i + 1].kind != Tok::kIdent || t[i + 2].kind != Tok::kLParen)
      continue;
    MacroDef def;
    size_t j = i + 3;
    bool ok = true;
    while (true) {
      j = skip_nl(j);
      if (j < n && t[j].kind == Tok::kRParen) break;
      if (j >= n || t[j].kind != Tok::kIdent) {
        ok = false;
        break;
      }
      def.params.push_back(t[j].text);
      j = skip_nl(j + 1);
      if (j < n && t[j].kind == Tok::kComma) ++j;
    }
    if (!ok) continue;
    j = skip_nl(j + 1);
    if (j >= n || t[j].kind != Tok::kFatArrow) continue;
    j = skip_nl(j + 1);
    if (j >= n || t[j].kind != Tok::kLBrace) continue;
    int braces = 0;
    size_t k2 = j;
    for (; k2 < n; ++k2) {
      if (t[k2].kind == Tok::kLBrace) ++braces;
      if (t[k2].kind == Tok::kRBrace && --braces == 0) break;
    }
    if (k2 >= n) continue;
    def.body_begin = j + 1;
    def.body_end = k2;
    def.close_loc = t[k2].loc;
    sh.macros.emplace(t[i + 1].text, std::move(def));  // the first definition wins
  }
}

std::unique_ptr<Block> Parser::ParseMacroBody(
    const std::unordered_map<std::string, const Expr*>* subst, std::string suffix, Loc loc) {
  subst_ = subst;
  macro_body_ = true;
  fresh_suffix_ = std::move(suffix);
  auto b = std::make_unique<Block>();
  b->loc = loc;
  ParseStmts(*b, /*until_eof=*/true);
  return b;
}

ExprPtr Parser::NamePath(const std::string& name, Loc loc) {
  if (subst_) {
    auto it = subst_->find(name);
    if (it != subst_->end()) {
      // Each use of a parameter copies the argument: the copies count
      // towards the expansion limit (doubling macros stop here).
      if (sh_.expansion_overflow) return Make(EK::kUnit, loc);
      ExprPtr c = CloneExpr(it->second, sh_.expanded);
      if (sh_.expanded > kMaxExpandedNodes && !sh_.expansion_overflow) {
        sh_.expansion_overflow = true;
        ReportAt("MT0031", loc, "macro expansion is too large",
                 "the expansions of a program are limited to " + std::to_string(kMaxExpandedNodes) +
                     " nodes in all");
      }
      return c;
    }
  }
  auto e = Make(EK::kPath, loc);
  e->segs.push_back(PathSeg{Renamed(name), loc});
  return e;
}

std::string Parser::Renamed(const std::string& name) const {
  auto it = rename_.find(name);
  return it == rename_.end() ? name : it->second;
}

std::string Parser::Bind(const std::string& name) {
  if (!macro_body_ || name == "_" || name == "self") return name;
  std::string fresh = name + fresh_suffix_;
  rename_[name] = fresh;
  return fresh;
}

MacroDecl Parser::ParseMacroItem() {
  MacroDecl d;
  d.loc = Bump().loc;  // macro
  const Token& name = Peek();
  d.name = ExpectIdent("a macro name");
  CommaList(Tok::kLParen, Tok::kRParen,
            [&] { d.params.push_back(ExpectIdent("a macro parameter name")); });
  SkipNl();
  Expect(Tok::kFatArrow);
  SkipNl();
  const Token& open = Peek();
  Loc ob = Open(Tok::kLBrace, false);
  int depth = 0;
  while (!(depth == 0 && Cur().kind == Tok::kRBrace)) {
    if (Cur().kind == Tok::kEof) Close(Tok::kRBrace, ob);  // reports the unclosed `{`
    Tok k = Cur().kind;
    if (k == Tok::kLBrace) ++depth;
    if (k == Tok::kRBrace) --depth;
    ++pos_;
  }
  const Token& close = Cur();
  Close(Tok::kRBrace, ob);
  d.body_text = std::string(sh_.src.substr(open.end_offset, close.offset - open.end_offset));
  d.body_loc = Loc{open.loc.line, open.loc.col + 1};
  if (!macro_names_.insert(d.name).second)
    ReportAt("MT0015", name.loc, "the macro `" + d.name + "` is defined more than once");
  return d;
}

ExprPtr Parser::ParseMacroCall(bool bang) {
  const Token& name = Bump();
  if (bang) Bump();
  const size_t open_end = Cur().end_offset;  // the `(`
  std::vector<ExprPtr> args = ParseArgs();
  if (name.text == "assert" && args.size() == 1 && !sh_.macros.count(name.text) &&
      Tk(pos_ - 1).kind == Tok::kRParen)
    args.push_back(AssertMessage(open_end, Tk(pos_ - 1).offset, args[0]->loc));
  auto it = sh_.macros.find(name.text);
  if (it != sh_.macros.end()) return Expand(name.text, it->second, std::move(args), name.loc);
  // Built-in macros (builtin_macros.h): parsed into kMacro, expanded by
  // lowering; `vec!(a, b)` is the array literal as `vec![a, b]` is.
  const BuiltinMacro* bm = FindBuiltinMacro(name.text);
  auto e = Make(bm && bm->kind == BuiltinMacro::Kind::kVec ? EK::kArray : EK::kMacro, name.loc);
  if (e->kind == EK::kMacro) e->text = name.text;
  e->args = std::move(args);
  if (!bm) {
    std::string help;
    if (sh_.suggestions_left > 0 && name.text.size() <= 64) {
      --sh_.suggestions_left;
      std::vector<std::string> known;
      for (const BuiltinMacro& m : kBuiltinMacros) known.emplace_back(m.name);
      for (const auto& [n, d] : sh_.macros)
        if (known.size() < 5000) known.push_back(n);
      std::string near = ir::Nearest(name.text, known);
      if (!near.empty()) help = "did you mean `" + near + "!`?";
    }
    if (help.empty()) {
      help = "the built-in macros are";
      for (const BuiltinMacro& m : kBuiltinMacros)
        help += std::string(&m == kBuiltinMacros ? " " : ", ") + std::string(m.name) + "!";
    }
    ReportAt("MT1010", name.loc, "cannot find macro `" + name.text + "!` in this scope", help);
  } else if (const size_t f = FormatArgIndex(bm->kind); bm->kind != BuiltinMacro::Kind::kVec &&
                                                        e->args.size() > f &&
                                                        e->args[f]->kind != EK::kStr) {
    ReportAt("MT0016", e->args[f]->loc,
             name.text + "! requires a string literal as its " +
                 (f == 0 ? std::string("first argument") : "message"),
             "write `" + name.text + "!(\"{}\", x)`");
  } else if (bm->kind == BuiltinMacro::Kind::kFormat && e->args.empty()) {
    ReportAt("MT0016", name.loc, "format! requires a string literal as its first argument",
             "write `format!(\"{}\", x)`");
  }
  return e;
}

// `assert!(c)`'s message, as Rust's: "assertion failed: " and the source
// text of `c` (between `open_end` and `close`), blanks collapsed, braces
// escaped for the format string it becomes.
ExprPtr Parser::AssertMessage(size_t open_end, size_t close, Loc loc) {
  std::string text = "assertion failed: ";
  bool blank = false;
  for (size_t i = open_end; i < close && i < sh_.src.size(); ++i) {
    const char c = sh_.src[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      blank = true;
      continue;
    }
    if (blank && text.back() != ' ') text += ' ';
    blank = false;
    text += c;
    if (c == '{' || c == '}') text += c;
  }
  while (!text.empty() && (text.back() == ',' || text.back() == ' ')) text.pop_back();
  auto s = Make(EK::kStr, loc);
  s->text = std::move(text);
  return s;
}

// Parses the body of `def` with its parameters bound to `args` (AST
// substitution: `m!(1 + 2)` with body `x * 2` is `(1 + 2) * 2`). Names bound
// in the body get a fresh suffix, so they neither capture nor clash with the
// caller's names.
ExprPtr Parser::Expand(const std::string& name, const MacroDef& def, std::vector<ExprPtr> args,
                       Loc loc) {
  auto unit = Make(EK::kUnit, loc);
  if (sh_.expansion_overflow) return unit;
  if (sh_.macro_depth >= kMaxMacroDepth || ++sh_.expansions > kMaxExpansions) {
    sh_.expansion_overflow = true;
    ReportAt("MT0030", loc, "recursion limit reached while expanding `" + name + "!`",
             "macro expansion is limited to " + std::to_string(kMaxMacroDepth) + " nested levels");
    return unit;
  }
  sh_.expanded += def.body_end - def.body_begin;
  if (sh_.expanded > kMaxExpandedNodes) {
    sh_.expansion_overflow = true;
    ReportAt("MT0031", loc, "macro expansion is too large",
             "the expansions of a program are limited to " + std::to_string(kMaxExpandedNodes) +
                 " nodes in all");
    return unit;
  }
  if (args.size() != def.params.size()) {
    ReportAt("MT0017", loc,
             "macro `" + name + "!` takes " + std::to_string(def.params.size()) +
                 " argument(s) but " + std::to_string(args.size()) + " were supplied");
    return unit;
  }
  std::unordered_map<std::string, const Expr*> subst;
  for (size_t i = 0; i < args.size(); ++i) subst[def.params[i]] = args[i].get();
  Token eof;
  eof.loc = def.close_loc;
  Parser sub(sh_, def.body_begin, def.body_end, eof, false);
  struct DepthScope {
    int& depth;
    explicit DepthScope(int& d) : depth(++d) {}
    ~DepthScope() { --depth; }
  } scope(sh_.macro_depth);
  std::unique_ptr<Block> body = sub.ParseMacroBody(&subst, "#" + std::to_string(++sh_.fresh), loc);
  auto e = Make(EK::kBlock, loc);
  e->then_block = std::move(body);
  return e;
}

}  // namespace mty::frontend::parser_internal
