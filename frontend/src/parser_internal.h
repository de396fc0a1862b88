// The parser's internals, shared by the grammar (parser.cc) and macro
// expansion (macros.cc): the Parser class and the state its sub-parsers share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lexer.h"
#include "mty/frontend/ast.h"
#include "mty/frontend/diagnostics.h"

namespace mty::frontend::parser_internal {

using EK = Expr::Kind;
using PK = Pattern::Kind;

// Recursion guard: nested expressions, blocks, patterns and types (and long
// left-nested operator chains, which nest the tree as deeply) stop here with
// MT0007, so no later pass recurses deeper either.
constexpr int kMaxDepth = 512;

struct SyntaxError {};    // reported; caught at a statement / entry / item boundary
struct FatalError {};     // MT0007: parsing stops
struct UnclosedBlock {};  // MT0012 at an item in column 1: resume at that item

struct MacroDef {
  std::vector<std::string> params;
  size_t body_begin = 0;  // token indices: the tokens between the braces
  size_t body_end = 0;
  Loc close_loc;  // the closing brace
};

// State shared by the file's parser and the sub-parsers of macro bodies.
struct Shared {
  Diagnostics* diags = nullptr;
  const TokenList* toks = nullptr;
  std::string_view src;
  std::unordered_map<std::string, MacroDef> macros;
  std::set<std::pair<uint32_t, uint32_t>> reported;  // one diagnostic per location
  std::set<std::pair<uint32_t, uint32_t>> warned;    // one warning per location (macro bodies)
  int depth = 0;
  int macro_depth = 0;
  int expansions = 0;
  uint64_t expanded = 0;  // nodes made by expansion (macros.cc)
  bool expansion_overflow = false;
  int fresh = 0;
  int suggestions_left = 32;  // "did you mean" lookups left (macros.cc; cf. lower's SuggestBudget)
};

// Registers every well-formed top-level `macro name(a, b) => { ... }` before
// parsing, so a macro may be used above its definition. Errors in malformed
// definitions are reported when the item itself is parsed.
void PrescanMacros(Shared& sh, size_t n);

class Parser {
 public:
  Parser(Shared& sh, size_t begin, size_t end, const Token& eof, bool eof_silent)
      : sh_(sh), pos_(begin), end_(end), eof_(eof), eof_silent_(eof_silent) {
    eof_.kind = Tok::kEof;
  }

  void ParseItems(Module& m);

  // A macro body: the statements of the expansion block (macros.cc).
  std::unique_ptr<Block> ParseMacroBody(const std::unordered_map<std::string, const Expr*>* subst,
                                        std::string suffix, Loc loc);

 private:
  struct Saved {
    size_t nl = 0;
    bool no_struct = false;
    bool minus_entry = false;
    Loc block_open;
  };

  // Sets the expression restrictions for a nested construct (brackets and
  // blocks lift them, heads add `no_struct`); restores them on exit.
  class Restrict {
   public:
    Restrict(Parser* p, bool no_struct, bool minus_entry = false)
        : p_(p), no_struct_(p->no_struct_), minus_entry_(p->minus_entry_) {
      p_->no_struct_ = no_struct;
      p_->minus_entry_ = minus_entry;
    }
    ~Restrict() {
      p_->no_struct_ = no_struct_;
      p_->minus_entry_ = minus_entry_;
    }
    Restrict(const Restrict&) = delete;
    Restrict& operator=(const Restrict&) = delete;

   private:
    Parser* p_;
    bool no_struct_;
    bool minus_entry_;
  };

  class DepthGuard {
   public:
    explicit DepthGuard(Parser* p) : p_(p) {
      if (++p_->sh_.depth > kMaxDepth) {
        --p_->sh_.depth;
        p_->Fatal();
      }
    }
    ~DepthGuard() { --p_->sh_.depth; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

   private:
    Parser* p_;
  };

  // ------------------------------------------------------------- tokens

  const Token& Tk(size_t i) const { return i < end_ ? (*sh_.toks)[i] : eof_; }
  const Token& Cur() const { return Tk(pos_); }
  // Peek past newlines where they are insignificant (inside `(` and `[`).
  const Token& Peek() {
    if (nl_ignore_.back())
      while (pos_ < end_ && Tk(pos_).kind == Tok::kNewline) ++pos_;
    return Cur();
  }
  // The raw token n places after the current one (call Peek() first).
  const Token& Look(size_t n) const { return Tk(pos_ + n); }
  // At `budget {`: whether it is a budget block. In a condition (`if
  // budget > 0 {` ... `if cost > budget { .. }`) a local named `budget`
  // may stand before a block, so there it is one only when the braces'
  // close is followed by `run` (looked for over at most 4096 tokens).
  bool BudgetBlockAhead() const {
    if (Look(1).kind != Tok::kLBrace) return false;
    if (!no_struct_) return true;
    int depth = 0;
    for (size_t i = pos_ + 1; i < end_ && i < pos_ + 4096; ++i) {
      const Tok k = Tk(i).kind;
      if (k == Tok::kLBrace) ++depth;
      if (k == Tok::kRBrace && --depth == 0) {
        const Token& after = Tk(NextNonNl(i + 1));
        return after.kind == Tok::kIdent && after.text == "run";
      }
    }
    return false;
  }
  size_t NextNonNl(size_t i) const {
    while (i < end_ && Tk(i).kind == Tok::kNewline) ++i;
    return i;
  }
  const Token& PeekPastNl() const { return Tk(NextNonNl(pos_)); }
  const Token& Bump() {
    Peek();
    const Token& t = Cur();
    if (pos_ < end_) ++pos_;
    return t;
  }
  // The last column of the last token consumed (newlines aside): where the
  // expression just parsed ends.
  Loc PrevEnd() const {
    size_t i = pos_;
    while (i > 0 && Tk(i - 1).kind == Tok::kNewline) --i;
    return i > 0 ? Tk(i - 1).end : Loc{};
  }
  ExprPtr Spanned(ExprPtr e, Loc begin) const {
    e->begin = begin;
    e->end = PrevEnd();
    return e;
  }
  void SkipNl() {
    while (pos_ < end_ && Tk(pos_).kind == Tok::kNewline) ++pos_;
  }
  bool At(Tok k) { return Peek().kind == k; }
  bool Eat(Tok k) {
    if (!At(k)) return false;
    Bump();
    return true;
  }
  static bool IsKw(const Token& t, std::string_view w) {
    return t.kind == Tok::kKeyword && t.text == w;
  }
  static bool IsId(const Token& t, std::string_view w) {
    return t.kind == Tok::kIdent && t.text == w;
  }
  bool AtKw(std::string_view w) { return IsKw(Peek(), w); }
  bool AtId(std::string_view w) { return IsId(Peek(), w); }

  // --------------------------------------------------------- diagnostics

  // Each returns the diagnostic added (to give it labels), or nullptr when
  // it was not (already reported there, or after the lexer's error).
  Diagnostic* ReportAt(const char* code, Loc loc, std::string msg, std::string help = "") {
    if (!sh_.reported.insert({loc.line, loc.col}).second) return nullptr;  // no cascades
    return &sh_.diags->Error(code, loc, std::move(msg), std::move(help));
  }
  // Reports unless the token was already reported by the lexer.
  Diagnostic* Report(const char* code, const Token& t, std::string msg, std::string help = "") {
    if (t.kind == Tok::kError || t.bad) return nullptr;
    if (t.kind == Tok::kEof) {
      if (eof_silent_) return nullptr;
      eof_silent_ = true;
    }
    return ReportAt(code, t.loc, std::move(msg), std::move(help));
  }
  [[noreturn]] void Fail(const Token& t, std::string msg, std::string help = "",
                         const char* code = "MT0001") {
    Report(code, t, std::move(msg), std::move(help));
    throw SyntaxError{};
  }
  [[noreturn]] void FailExpected(const std::string& what, const Token& t, std::string help = "",
                                 const char* code = "MT0001") {
    Fail(t, "expected " + what + ", found " + Describe(t), std::move(help), code);
  }
  [[noreturn]] void Fatal() {
    ReportAt("MT0007", Cur().loc, "nesting too deep",
             "the parser accepts at most " + std::to_string(kMaxDepth) + " levels of nesting");
    throw FatalError{};
  }
  const Token& Expect(Tok k) {
    if (!At(k)) FailExpected(TokSpelling(k), Peek());
    return Bump();
  }
  std::string ExpectIdent(const char* what) {
    const Token& t = Peek();
    if (t.kind != Tok::kIdent) FailExpected(what, t);
    Bump();
    return t.text;
  }
  // An identifier or any keyword (field and method names after `.`).
  // `=` and the newlines after it.
  void ExpectEq() {
    Expect(Tok::kEq);
    SkipNl();
  }
  bool AtName() {
    Tok k = Peek().kind;
    return k == Tok::kIdent || k == Tok::kKeyword;
  }

  // ------------------------------------------------- delimiters, recovery

  Loc Open(Tok k, bool ignore_nl) {
    Loc loc = Expect(k).loc;
    nl_ignore_.push_back(ignore_nl);
    open_.push_back(k);
    return loc;
  }
  void Close(Tok k, Loc open_loc);
  // `(a, b, c)`: the entries between `open` and `close`, each read by
  // `entry`, separated by commas (a trailing one allowed). True when a comma
  // followed an entry.
  template <typename F>
  bool CommaList(Tok open, Tok close, F&& entry) {
    Loc o = Open(open, true);
    bool comma = false;
    while (!At(close)) {
      entry();
      if (!Eat(Tok::kComma)) break;
      comma = true;
    }
    Close(close, o);
    return comma;
  }
  // MT0012 at `at` (end of file, or an item in column 1 inside a block):
  // the delimiter opened at `open_loc` is never closed. Labels the opener
  // and, when a `}` between them closes a `{` of another indentation (the
  // likely culprit), that pair, as rustc does.
  void ReportUnclosed(Loc at, std::string message, Loc open_loc, Tok close, std::string help);

  Saved Save() const { return Saved{nl_ignore_.size(), no_struct_, minus_entry_, block_open_}; }

  // Restores the parser state of `sv` and returns the delimiters opened (and
  // not closed) since then, innermost last.
  std::vector<Tok> Restore(const Saved& sv);

  // Applies a closing delimiter to the recovery stack. Returns false for a
  // `}` that closes the enclosing construct (the caller stops before it).
  static bool CloseInStack(std::vector<Tok>& stack, Tok k);

  static bool OnlyParens(const std::vector<Tok>& stack);
  // Tokens that begin a statement or a member, never a continuation line.
  bool StartsLine(size_t i) const;

  // Skips the rest of a failed statement (or list entry when `comma`): up to
  // and including the next newline / `;` (`,`) outside brackets, or up to the
  // `}` that closes the enclosing block.
  void SyncTo(const Saved& sv, bool comma);

  bool IsItemStartAt(size_t i) const;

  // Skips to the next item start at the beginning of a line (outside
  // brackets, or in column 1 whatever the nesting).
  void SyncItem(const Saved& sv);

  // ----------------------------------------------------------- builders

  static ExprPtr Make(EK kind, Loc loc) {
    auto e = std::make_unique<Expr>();
    e->kind = kind;
    e->loc = loc;
    return e;
  }
  static PatPtr MakePat(PK kind, Loc loc) {
    auto p = std::make_unique<Pattern>();
    p->kind = kind;
    p->loc = loc;
    return p;
  }
  static PatPtr BindPat(std::string name, Loc loc, bool is_mut) {
    auto p = MakePat(PK::kBind, loc);
    p->name = std::move(name);
    p->is_mut = is_mut;
    return p;
  }

  // Macro substitution and hygiene (macros.cc).
  // A one-segment path expression, after macro substitution and renaming.
  ExprPtr NamePath(const std::string& name, Loc loc);
  std::string Renamed(const std::string& name) const;
  // A name bound by a pattern: fresh inside a macro body (hygiene).
  std::string Bind(const std::string& name);

  // -------------------------------------------------------------- items

  void SkipAttributes();
  // A name in `#[derive(..)]` or `derive ..`: MT1018 unless it is one of
  // kKnownDerives (what every value already has: printing, copies, `==`,
  // ordering, hashing), with a did-you-mean.
  void CheckDeriveName(const Token& t);
  void ItemEnd();
  void ParseItem(Module& m);
  const Item::Kind* ItemKindAt(const Token& k) const;
  Item ParseDecl(Item::Kind kind, bool is_pub);
  // A declaration of the item at its keyword (`struct`, `enum`, ...): the
  // name after it (`what` when missing) and its location.
  template <typename D>
  D ParseItemHead(const char* what) {
    D d;
    Bump();  // the keyword
    d.loc = Peek().loc;
    d.name = ExpectIdent(what);
    return d;
  }
  // `[T, U]` or `<T, U>` follows: generic parameters, or a turbofish.
  bool AtGenerics() { return At(Tok::kLBracket) || At(Tok::kLt); }
  FnDecl ParseFn(bool is_pub, bool allow_no_body);
  // `[T: A + B, U]`: the names; each one's bound trait names into `bounds`.
  std::vector<std::string> ParseGenerics(std::vector<std::vector<std::string>>* bounds = nullptr);
  std::vector<Param> ParseParams(bool allow_self);
  Param ParseParam(bool allow_self);
  StructDecl ParseStruct();
  EnumDecl ParseEnum();
  ImplDecl ParseImpl();
  TraitDecl ParseTrait();
  FnDecl ParseMember(bool in_trait, const char* help);
  ConstDecl ParseConst();
  TypeAliasDecl ParseTypeAlias();
  ProtocolDecl ParseProtocol();
  AgentDecl ParseAgent();
  SupervisorDecl ParseSupervisor();
  SandboxDecl ParseSandboxItem();
  void ParseUse(Module& m);
  MacroDecl ParseMacroItem();  // macros.cc
  std::vector<SandboxEntry> ParseEntries();
  template <typename F>
  void BraceList(F&& entry, bool need_sep = true);

  // -------------------------------------------------------------- types

  TypeExpr ParseType();
  std::vector<TypeExpr> ParseTypeList(Tok open, Tok close, bool* comma = nullptr);
  // The parts of ParseType, each filling `t` (located at the type's start).
  void ParseRefType(TypeExpr& t);
  void ParseFnType(TypeExpr& t);
  void ParseTypePath(TypeExpr& t);
  void ParseTypeSuffix(TypeExpr& t);
  // `<T, U>` after a type's name or `::` (Rust's generic arguments).
  std::vector<TypeExpr> ParseAngleTypes();
  // `[T, U]` or `<T, U>` after `::` in an expression (a turbofish).
  std::vector<TypeExpr> ParseTurbofish();

  // --------------------------------------------------------- statements

  std::unique_ptr<Block> ParseBlock();
  void ParseStmts(Block& b, bool until_eof);
  void ParseStmt(Block& b);
  bool StartsBlockLike();
  bool IsNestedItemStart();

  // -------------------------------------------------------- expressions

  ExprPtr ParseExpr();
  ExprPtr ParseExprNoStruct();
  ExprPtr ParseAssign();
  ExprPtr ParseRange();
  ExprPtr ParseBin(int min_prec);
  ExprPtr ParseCastLevel();
  ExprPtr ParseUnary();
  ExprPtr ParseUnaryUnspanned();
  ExprPtr ParsePrefixed(EK kind, Loc loc, UnaryOp op = UnaryOp::kNeg);
  ExprPtr ParsePostfix(ExprPtr e, bool deadline_operand);
  ExprPtr ParsePrimary();
  ExprPtr ParsePrimaryUnspanned();
  ExprPtr ParseLiteral(const Token& t, bool negative);
  ExprPtr ParsePathExpr();
  // `Vec::new`, `String::from`, `i64::max` as a value: the closure calling it
  // (null: not a library type's function).
  ExprPtr LibraryFnValue(const Expr& path);
  ExprPtr ParseParenOrTuple();
  ExprPtr ParseArray();
  ExprPtr ParseBlockExpr();
  ExprPtr ParseMapBody(Loc loc);
  ExprPtr ParseStructBody(std::vector<PathSeg> segs, Loc loc);
  // MT0018 for `if x = 3`: an assignment where a condition goes (`what`:
  // "if" or "while"); a plain `=` is then read as `==`, so no error follows.
  void CheckCondition(ExprPtr& cond, const char* what);
  // Warning MT0040 when the condition that starts at token `start` and
  // ends before pos_ is one parenthesized expression: `if (x > 3) {`.
  void CheckParens(size_t start, const Expr& cond, const char* what);
  // `'outer:` before a loop: kept in pending_label_ for the loop that
  // follows (MT0019 when no `loop`/`while`/`for` follows).
  void TakeLabel();
  // Gives `e` (a loop) the pending label, if any.
  void LabelLoop(Expr& e);
  ExprPtr ParseCondHead(Loc loc, EK kind, EK let_kind, const char* what);
  ExprPtr ParseIf();
  MatchArm ParseArmHead();
  ExprPtr ParseMatch();
  ExprPtr ParseWhile();
  ExprPtr ParseFor();
  ExprPtr ParseClosure();
  bool FmtType(TypeExpr& t);
  static std::string LibraryTraitName(const std::string& n);
  static void SubstAssoc(TypeExpr& t, const std::vector<std::pair<std::string, TypeExpr>>& assoc);
  // `fn(x: I64) -> I64 { x + 1 }`: upstream's closure syntax, the same
  // kClosure node as `|x: I64| -> I64 { x + 1 }`.
  ExprPtr ParseLambda();
  ExprPtr ParseSpawn();
  ExprPtr ParseSandboxExpr();
  ExprPtr ParseArena();
  std::unique_ptr<Block> ParseExprAsBlock();
  ExprPtr ParseMatches();
  ExprPtr ParseBudget();
  // A macro call and the expansion of a user macro (macros.cc).
  ExprPtr ParseMacroCall(bool bang);
  ExprPtr AssertMessage(size_t open_end, size_t close, Loc loc);
  ExprPtr Expand(const std::string& name, const MacroDef& def, std::vector<ExprPtr> args, Loc loc);
  std::vector<ExprPtr> ParseArgs();
  const Token& PeekOp();
  bool ContinuesLine(const Token& t) const;
  bool CanStartExpr(const Token& t) const;
  bool IsMapStart() const;

  // ----------------------------------------------------------- patterns

  PatPtr ParsePatternTop(bool arm = false);
  PatPtr ParsePattern();
  PatPtr ParsePathPattern();
  PatPtr ParseStructPattern(std::vector<PathSeg> path, Loc loc);
  PatPtr ParseLiteralPattern();
  PatPtr ParseSlicePattern();
  bool StartsRangeBound();
  ExprPtr ParseRangeBound();

  Shared& sh_;
  size_t pos_;
  size_t end_;
  Token eof_;
  bool eof_silent_;
  std::vector<bool> nl_ignore_{false};  // one entry per open delimiter, plus the base
  std::vector<Tok> open_;
  bool no_struct_ = false;  // `if`/`while`/`match`/`for` heads: no struct literals
  // The first `>` of a `>>` closed an inner `<..>` list; the next close
  // takes the token.
  bool half_gt_ = false;
  Module* module_ = nullptr;     // the module ParseItems fills (a `use` in a block adds to it)
  bool derive_default_ = false;  // the attributes before this item derive `Default`
  bool minus_entry_ = false;     // match arms, map entries: `-1 => ..` on the next line is an entry
  ExprPtr pre_primary_;          // a block-like statement continued by `.` or `?`
  Loc block_open_;               // the `{` of the innermost block being parsed
  std::string pending_label_;    // TakeLabel's label, for the loop parsed next
  Loc pending_label_loc_;
  std::set<std::string> macro_names_;
  // Macro expansion.
  const std::unordered_map<std::string, const Expr*>* subst_ = nullptr;
  std::unordered_map<std::string, std::string> rename_;
  bool macro_body_ = false;
  std::string fresh_suffix_;
};

}  // namespace mty::frontend::parser_internal
