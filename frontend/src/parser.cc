// The Mighty grammar: tokens -> AST (parser.h) with error recovery. Macro
// expansion is in macros.cc, the AST dump in ast_dump.cc.
#include "mty/frontend/parser.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "lexer.h"
#include "mty/ir/builtins.h"
#include "mty/ir/text.h"
#include "mty/vocab/suggest.h"
#include "parser_internal.h"

namespace mty::frontend {

namespace parser_internal {

namespace {

Tok OpenerOf(Tok close) {
  return close == Tok::kRParen     ? Tok::kLParen
         : close == Tok::kRBracket ? Tok::kLBracket
                                   : Tok::kLBrace;
}

bool IsUpper(std::string_view s) { return !s.empty() && s[0] >= 'A' && s[0] <= 'Z'; }

struct BinInfo {
  int prec = 0;  // 1 `||` .. 9 `* / %`
  BinaryOp op = BinaryOp::kAdd;
  bool cmp = false;
};

bool BinOf(Tok k, BinInfo* b) {
  switch (k) {
    case Tok::kPipePipe: *b = {1, BinaryOp::kOr, false}; return true;
    case Tok::kAmpAmp: *b = {2, BinaryOp::kAnd, false}; return true;
    case Tok::kEqEq: *b = {3, BinaryOp::kEq, true}; return true;
    case Tok::kNe: *b = {3, BinaryOp::kNe, true}; return true;
    case Tok::kLt: *b = {3, BinaryOp::kLt, true}; return true;
    case Tok::kLe: *b = {3, BinaryOp::kLe, true}; return true;
    case Tok::kGt: *b = {3, BinaryOp::kGt, true}; return true;
    case Tok::kGe: *b = {3, BinaryOp::kGe, true}; return true;
    case Tok::kPipe: *b = {4, BinaryOp::kBitOr, false}; return true;
    case Tok::kCaret: *b = {5, BinaryOp::kBitXor, false}; return true;
    case Tok::kAmp: *b = {6, BinaryOp::kBitAnd, false}; return true;
    case Tok::kShl: *b = {7, BinaryOp::kShl, false}; return true;
    case Tok::kShr: *b = {7, BinaryOp::kShr, false}; return true;
    case Tok::kPlus: *b = {8, BinaryOp::kAdd, false}; return true;
    case Tok::kMinus: *b = {8, BinaryOp::kSub, false}; return true;
    case Tok::kStar: *b = {9, BinaryOp::kMul, false}; return true;
    case Tok::kSlash: *b = {9, BinaryOp::kDiv, false}; return true;
    case Tok::kPercent: *b = {9, BinaryOp::kRem, false}; return true;
    default: return false;
  }
}

// `=` (has_op false) or a compound assignment.
bool AssignOf(Tok k, bool* has_op, BinaryOp* op) {
  *has_op = true;
  switch (k) {
    case Tok::kEq: *has_op = false; return true;
    case Tok::kPlusEq: *op = BinaryOp::kAdd; return true;
    case Tok::kMinusEq: *op = BinaryOp::kSub; return true;
    case Tok::kStarEq: *op = BinaryOp::kMul; return true;
    case Tok::kSlashEq: *op = BinaryOp::kDiv; return true;
    case Tok::kPercentEq: *op = BinaryOp::kRem; return true;
    case Tok::kAmpEq: *op = BinaryOp::kBitAnd; return true;
    case Tok::kPipeEq: *op = BinaryOp::kBitOr; return true;
    case Tok::kCaretEq: *op = BinaryOp::kBitXor; return true;
    case Tok::kShlEq: *op = BinaryOp::kShl; return true;
    case Tok::kShrEq: *op = BinaryOp::kShr; return true;
    default: return false;
  }
}

// Rust's spelling of a primitive type (docs/language.md "Rust spellings"):
// the parser writes Mighty's name, so the checker and the lowering know one
// spelling. (`String` and `HashMap` stay as written: a program may name its
// own type so, and both passes know them.)
std::string_view MightyTypeName(std::string_view s) {
  static constexpr std::pair<std::string_view, std::string_view> k[] = {
      {"i8", "I8"},       {"i16", "I16"},     {"i32", "I32"}, {"i64", "I64"}, {"i128", "I128"},
      {"isize", "ISize"}, {"u8", "U8"},       {"u16", "U16"}, {"u32", "U32"}, {"u64", "U64"},
      {"u128", "U128"},   {"usize", "USize"}, {"f32", "F32"}, {"f64", "F64"}, {"bool", "Bool"},
      {"char", "Char"},   {"str", "Str"}};
  for (const auto& [rust, mighty] : k)
    if (s == rust) return mighty;
  return s;
}

bool IsPrimitiveTypeName(std::string_view s) {
  static constexpr std::string_view k[] = {
      "I8",    "I16", "I32", "I64",  "I128", "U8",     "U16",  "U32",  "U64",      "U128", "ISize",
      "USize", "F32", "F64", "Bool", "Str",  "String", "Char", "Unit", "Duration", "Size", "Bytes"};
  return std::find(std::begin(k), std::end(k), s) != std::end(k);
}

// `OneForOne` -> `one_for_one`; snake_case stays as written.
std::string SnakeCase(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c >= 'A' && c <= 'Z') {
      if (i > 0) out += '_';
      out += static_cast<char>(c - 'A' + 'a');
    } else {
      out += c;
    }
  }
  return out;
}

// A path of plain names (`a`, `a.b`, `A::B`) as segments, or false.
bool FlattenPath(const Expr& e, std::vector<PathSeg>* out) {
  if (e.kind == EK::kPath) {
    out->insert(out->end(), e.segs.begin(), e.segs.end());
    return true;
  }
  if (e.kind == EK::kField && e.lhs && FlattenPath(*e.lhs, out)) {
    out->push_back(PathSeg{e.text, e.loc});
    return true;
  }
  return false;
}

}  // namespace

// =================================================================== recovery

void Parser::Close(Tok k, Loc open_loc) {
  const Token& t = Peek();
  if (t.kind != k) {
    if (t.kind == Tok::kEof) {
      if (!eof_silent_) {
        eof_silent_ = true;
        ReportUnclosed(t.loc, "this file contains an unclosed delimiter", open_loc, k,
                       "add the missing " + TokSpelling(k));
      }
      throw SyntaxError{};
    }
    Diagnostic* d = Report("MT0001", t, "expected " + TokSpelling(k) + ", found " + Describe(t));
    // The opener: a closer forgotten at the end of a line is found on a
    // later one.
    if (d && open_loc.line != 0)
      d->labels.push_back(Label{open_loc,
                                {},
                                t.loc.line > open_loc.line
                                    ? "unclosed delimiter"
                                    : "the " + TokSpelling(OpenerOf(k)) + " it would close"});
    throw SyntaxError{};
  }
  nl_ignore_.pop_back();
  open_.pop_back();
  Bump();
}

void Parser::ReportUnclosed(Loc at, std::string message, Loc open_loc, Tok close,
                            std::string help) {
  Diagnostic* d = ReportAt("MT0012", at, std::move(message), std::move(help));
  if (!d) return;
  d->labels.push_back(Label{open_loc, {}, "unclosed delimiter"});
  if (close != Tok::kRBrace) return;
  // The first line of the token at i's line: its indentation.
  auto indent = [&](size_t i) {
    while (i > 0 && Tk(i - 1).kind != Tok::kNewline) --i;
    return Tk(i).loc.col;
  };
  // Pairs of braces inside the unclosed one, matched as written: the first
  // `}` that starts its line at another indentation than its `{`'s line.
  std::vector<size_t> stack;
  bool inside = false;
  for (size_t i = 0; i < end_ && i < pos_; ++i) {
    const Token& t = Tk(i);
    if (!inside) {
      inside = t.kind == Tok::kLBrace && t.loc.line == open_loc.line && t.loc.col == open_loc.col;
      continue;
    }
    if (t.kind == Tok::kLBrace) stack.push_back(i);
    if (t.kind != Tok::kRBrace || stack.empty()) continue;
    const size_t o = stack.back();
    stack.pop_back();
    const bool starts_line = i > 0 && Tk(i - 1).kind == Tok::kNewline;
    if (starts_line && t.loc.col != indent(o)) {
      d->labels.push_back(Label{Tk(o).loc, {}, "this delimiter might not be properly closed..."});
      d->labels.push_back(
          Label{t.loc, {}, "...as it matches this but it has different indentation"});
      return;
    }
  }
}

std::vector<Tok> Parser::Restore(const Saved& sv) {
  std::vector<Tok> open(open_.begin() + static_cast<std::ptrdiff_t>(sv.nl - 1), open_.end());
  nl_ignore_.resize(sv.nl);
  open_.resize(sv.nl - 1);
  no_struct_ = sv.no_struct;
  minus_entry_ = sv.minus_entry;
  block_open_ = sv.block_open;
  pre_primary_.reset();
  return open;
}

bool Parser::CloseInStack(std::vector<Tok>& stack, Tok k) {
  Tok o = k == Tok::kRParen ? Tok::kLParen : k == Tok::kRBracket ? Tok::kLBracket : Tok::kLBrace;
  auto it = std::find(stack.rbegin(), stack.rend(), o);
  if (it == stack.rend()) return k != Tok::kRBrace;  // stray `)`/`]`: skipped
  stack.erase(std::prev(it.base()), stack.end());
  return true;
}

bool Parser::OnlyParens(const std::vector<Tok>& stack) {
  return !stack.empty() && std::find(stack.begin(), stack.end(), Tok::kLBrace) == stack.end();
}

bool Parser::StartsLine(size_t i) const {
  const Token& t = Tk(i);
  if (t.kind == Tok::kKeyword)
    return t.text == "let" || t.text == "fn" || t.text == "pub" || t.text == "return" ||
           t.text == "struct" || t.text == "enum" || t.text == "impl" || t.text == "trait" ||
           t.text == "use" || t.text == "const" || t.text == "type";
  return t.kind == Tok::kIdent && Tk(i + 1).kind == Tok::kIdent &&
         (t.text == "on" || t.text == "child" || t.text == "state" || t.text == "agent" ||
          t.text == "macro" || t.text == "protocol" || t.text == "supervisor" ||
          t.text == "sandbox");
}

void Parser::SyncTo(const Saved& sv, bool comma) {
  std::vector<Tok> stack = Restore(sv);
  // `foo(1, 2` newline `let y = 3`: the error is at the start of a line
  // that starts a statement; resume right there.
  if (OnlyParens(stack) && pos_ > 0 && Tk(pos_ - 1).kind == Tok::kNewline && StartsLine(pos_))
    return;
  while (pos_ < end_) {
    Tok k = Tk(pos_).kind;
    if (k == Tok::kLParen || k == Tok::kLBracket || k == Tok::kLBrace) {
      stack.push_back(k);
    } else if (k == Tok::kRParen || k == Tok::kRBracket || k == Tok::kRBrace) {
      if (!CloseInStack(stack, k)) return;
    } else if (stack.empty() &&
               (k == Tok::kNewline || k == Tok::kSemi || (comma && k == Tok::kComma))) {
      ++pos_;
      return;
    } else if (k == Tok::kNewline && OnlyParens(stack) && StartsLine(pos_ + 1)) {
      // A `(` or `[` left open by the error: the next line starts a new
      // statement or member, so the delimiter was probably never closed.
      ++pos_;
      return;
    }
    ++pos_;
  }
}

bool Parser::IsItemStartAt(size_t i) const {
  const Token& t = Tk(i);
  if (t.kind == Tok::kKeyword)
    return t.text == "fn" || t.text == "struct" || t.text == "enum" || t.text == "impl" ||
           t.text == "trait" || t.text == "const" || t.text == "type" || t.text == "use" ||
           t.text == "pub";
  if (t.kind == Tok::kHash) return Tk(i + 1).kind == Tok::kLBracket;
  if (t.kind != Tok::kIdent || Tk(i + 1).kind != Tok::kIdent) return false;
  return t.text == "agent" || t.text == "protocol" || t.text == "supervisor" || t.text == "sup" ||
         t.text == "sandbox" || t.text == "macro" || t.text == "package";
}

void Parser::SyncItem(const Saved& sv) {
  std::vector<Tok> stack = Restore(sv);
  bool line_start = pos_ == 0 || Tk(pos_ - 1).kind == Tok::kNewline;
  while (pos_ < end_) {
    const Token& t = Tk(pos_);
    if (line_start && IsItemStartAt(pos_) && (stack.empty() || t.loc.col == 1)) return;
    if (t.kind == Tok::kLParen || t.kind == Tok::kLBracket || t.kind == Tok::kLBrace) {
      stack.push_back(t.kind);
    } else if (t.kind == Tok::kRParen || t.kind == Tok::kRBracket || t.kind == Tok::kRBrace) {
      CloseInStack(stack, t.kind);
    }
    line_start = t.kind == Tok::kNewline;
    ++pos_;
  }
}

// ====================================================================== items

void Parser::ParseItems(Module& m) {
  module_ = &m;
  while (true) {
    while (pos_ < end_ && (Cur().kind == Tok::kNewline || Cur().kind == Tok::kSemi)) ++pos_;
    if (Peek().kind == Tok::kEof) break;
    Saved sv = Save();
    size_t before = pos_;
    try {
      ParseItem(m);
    } catch (SyntaxError&) {
      SyncItem(sv);
      if (pos_ == before) ++pos_;
    } catch (UnclosedBlock&) {
      Restore(sv);
    }
  }
}

// The derives a type may name: every value already prints (`{:?}`), copies,
// compares with `==` and `<` and hashes, so these add nothing and are
// accepted; any other name is MT1018.
// `Default` gives the type a default value (`Default::default()`): the
// next struct records it.
static const std::vector<std::string> kKnownDerives = {
    "Debug", "Clone", "Copy", "PartialEq", "Eq", "PartialOrd", "Ord", "Hash", "Default"};

void Parser::CheckDeriveName(const Token& t) {
  if (t.kind != Tok::kIdent) return;
  if (t.text == "Default") derive_default_ = true;
  for (const std::string& k : kKnownDerives)
    if (t.text == k) return;
  std::string known;
  for (const std::string& k : kKnownDerives) known += (known.empty() ? "`" : ", `") + k + "`";
  std::string near = ir::Nearest(t.text, kKnownDerives);
  Diagnostic& d = sh_.diags->Error(
      "MT1018", t.loc, "cannot find derive `" + t.text + "`",
      near.empty() ? "the known derives are " + known
                   : "did you mean `" + near + "`? (the known derives are " + known + ")");
  d.end = Loc{t.loc.line, t.loc.col + static_cast<uint32_t>(t.text.size()) - 1};
}

void Parser::SkipAttributes() {
  while (true) {
    SkipNl();
    const Token& t = Peek();
    if (t.kind == Tok::kHash) {
      Bump();
      Eat(Tok::kBang);
      Loc o = Open(Tok::kLBracket, true);
      int depth = 0;
      const bool derive = IsId(Peek(), "derive") && Look(1).kind == Tok::kLParen;
      while (!(depth == 0 && At(Tok::kRBracket)) && !At(Tok::kEof)) {
        const Token& a = Bump();
        Tok k = a.kind;
        if (derive && depth == 0 && k == Tok::kIdent && a.text != "derive") CheckDeriveName(a);
        if (k == Tok::kLBracket) ++depth;
        if (k == Tok::kRBracket) --depth;
      }
      Close(Tok::kRBracket, o);
    } else if (t.kind == Tok::kAt && Look(1).kind == Tok::kIdent) {
      Bump();
      Bump();
      if (At(Tok::kLParen)) {
        Loc o = Open(Tok::kLParen, true);
        int depth = 0;
        while (!(depth == 0 && At(Tok::kRParen)) && !At(Tok::kEof)) {
          Tok k = Bump().kind;
          if (k == Tok::kLParen) ++depth;
          if (k == Tok::kRParen) --depth;
        }
        Close(Tok::kRParen, o);
      }
    } else if (IsId(t, "derive") && Look(1).kind == Tok::kIdent) {
      while (pos_ < end_ && Cur().kind != Tok::kNewline) {
        if (pos_ > 0 && Cur().kind == Tok::kIdent && &Cur() != &t) CheckDeriveName(Cur());
        ++pos_;
      }
    } else {
      return;
    }
  }
}

// An item ends at a newline, `;`, end of file, or after its closing `}`.
void Parser::ItemEnd() {
  if (pos_ > 0 && Tk(pos_ - 1).kind == Tok::kRBrace) return;
  const Token& t = Peek();
  if (t.kind == Tok::kNewline || t.kind == Tok::kSemi || t.kind == Tok::kEof ||
      t.kind == Tok::kRBrace)
    return;
  FailExpected("';' or a newline", t);
}

void Parser::ParseItem(Module& m) {
  derive_default_ = false;
  half_gt_ = false;  // an item that failed half-way through a `>>` leaves nothing behind
  SkipAttributes();
  bool is_pub = false;
  if (AtKw("pub")) {
    Bump();
    is_pub = true;
  }
  const Token& t = Peek();
  if ((IsKw(t, "unsafe") || IsKw(t, "const")) && IsKw(Look(1), "fn")) Bump();
  const Token& k = Peek();
  if (const Item::Kind* kind = ItemKindAt(k)) {
    if (*kind == Item::Kind::kUse) {
      ParseUse(m);
    } else {
      m.items.push_back(ParseDecl(*kind, is_pub));
    }
    ItemEnd();
    return;
  }
  if (IsId(k, "package") && Look(1).kind == Tok::kIdent) {
    Bump();  // `package name` is informational
    Bump();
    ItemEnd();
    return;
  }
  if (IsId(k, "extern"))
    Fail(k, "`extern` blocks are not supported: a sandboxed program cannot call native code",
         "an embedder gives the program host functions instead (docs/embedding.md)", "MT0010");
  if (IsId(k, "proc") && IsId(Look(1), "macro"))
    Fail(k, "procedural macros are not supported", "use `macro name(args) => { body }`", "MT0010");
  std::string help;
  if (IsKw(k, "let") || k.kind == Tok::kIdent || k.kind == Tok::kInt || k.kind == Tok::kStr)
    help = "statements must be inside a function, e.g. `fn main() { ... }`";
  FailExpected("an item", k, help, "MT0010");
}

// The kind of item the word `k` starts: a keyword (`fn`, `struct`, ...), or
// a contextual word before a name (`agent Name`, `sup Name`, ...).
const Item::Kind* Parser::ItemKindAt(const Token& k) const {
  using IK = Item::Kind;
  struct Word {
    const char* text;
    bool keyword;
    IK kind;
  };
  static constexpr Word kWords[] = {
      {"fn", true, IK::kFn},
      {"struct", true, IK::kStruct},
      {"enum", true, IK::kEnum},
      {"impl", true, IK::kImpl},
      {"trait", true, IK::kTrait},
      {"const", true, IK::kConst},
      {"type", true, IK::kTypeAlias},
      {"use", true, IK::kUse},
      {"protocol", false, IK::kProtocol},
      {"agent", false, IK::kAgent},
      {"supervisor", false, IK::kSupervisor},
      {"sup", false, IK::kSupervisor},
      {"sandbox", false, IK::kSandbox},
      {"macro", false, IK::kMacro},
  };
  for (const Word& w : kWords)
    if (w.keyword ? IsKw(k, w.text) : (IsId(k, w.text) && Look(1).kind == Tok::kIdent))
      return &w.kind;
  return nullptr;
}

// The declaration of an item of `kind` (other than `use`), at its keyword.
Item Parser::ParseDecl(Item::Kind kind, bool is_pub) {
  using IK = Item::Kind;
  Item item;
  item.kind = kind;
  switch (kind) {
    case IK::kFn: item.fn = ParseFn(is_pub, false); break;
    case IK::kStruct: {
      const bool derive_default = derive_default_;
      item.struct_decl = ParseStruct();
      item.struct_decl->derives_default = derive_default;
      break;
    }
    case IK::kEnum: item.enum_decl = ParseEnum(); break;
    case IK::kImpl: item.impl_decl = ParseImpl(); break;
    case IK::kTrait: item.trait_decl = ParseTrait(); break;
    case IK::kConst: item.const_decl = ParseConst(); break;
    case IK::kTypeAlias: item.alias_decl = ParseTypeAlias(); break;
    case IK::kProtocol: item.protocol_decl = ParseProtocol(); break;
    case IK::kAgent: item.agent_decl = ParseAgent(); break;
    case IK::kSupervisor: item.supervisor_decl = ParseSupervisor(); break;
    case IK::kSandbox: item.sandbox_decl = ParseSandboxItem(); break;
    case IK::kMacro: item.macro_decl = ParseMacroItem(); break;
    case IK::kUse: break;  // ParseUse: one item per imported name
  }
  return item;
}

std::vector<std::string> Parser::ParseGenerics(std::vector<std::vector<std::string>>* bounds) {
  // `[T: Bound, U]`, or Rust's `<'a, T: Bound, U>` (lifetimes parsed, not kept).
  std::vector<std::string> names;
  const bool angle = At(Tok::kLt);
  const Tok close = angle ? Tok::kGt : Tok::kRBracket;
  Loc o = angle ? Bump().loc : Open(Tok::kLBracket, true);
  while (!At(close)) {
    if (angle && Peek().kind == Tok::kLabel) {
      Bump();
      if (Eat(Tok::kColon))  // `'a: 'b`
        while (Peek().kind == Tok::kLabel || At(Tok::kPlus)) Bump();
      if (!Eat(Tok::kComma)) break;
      continue;
    }
    names.push_back(ExpectIdent("a generic parameter name"));
    std::vector<std::string> mine;
    if (At(Tok::kColon) && Look(1).kind == Tok::kIdent &&
        (Look(1).text == "Fn" || Look(1).text == "FnMut" || Look(1).text == "FnOnce") &&
        Look(2).kind == Tok::kLParen) {
      // `F: FnMut(A) -> R`: F is that function type (FnGenerics).
      Bump();
      fn_bounds_.push_back({names.back(), ParseType()});
      names.pop_back();
      if (!Eat(Tok::kComma)) break;
      continue;
    }
    if (Eat(Tok::kColon)) {  // bounds: `T: Hash + Eq`; a bound's own arguments are skipped
      int depth = 0;
      while (!At(Tok::kEof) && !(depth == 0 && (At(Tok::kComma) || At(close)))) {
        const Token& k = Bump();
        if (k.kind == Tok::kLBracket || k.kind == Tok::kLt) ++depth;
        if (k.kind == Tok::kRBracket || k.kind == Tok::kGt) --depth;
        if (depth == 0 && k.kind == Tok::kIdent) mine.push_back(k.text);
      }
    }
    if (bounds) bounds->push_back(std::move(mine));
    if (!Eat(Tok::kComma)) break;
  }
  if (angle) {
    if (!Eat(Tok::kGt)) FailExpected("`>` closing the generic parameters", Peek());
  } else {
    Close(Tok::kRBracket, o);
  }
  return names;
}

Param Parser::ParseParam(bool allow_self) {
  Param p;
  p.loc = Peek().loc;
  // Receivers: `self`, `mut self`, `&self`, `&mut self`, `self: &Self`.
  size_t save = pos_;
  bool amp = Eat(Tok::kAmp);
  bool mut = AtKw("mut");
  if (mut) Bump();
  if (AtKw("self")) {
    if (!allow_self) Fail(Peek(), "`self` is only allowed as the first parameter of a method");
    p.loc = Bump().loc;
    p.name = "self";
    p.self_kind =
        amp ? (mut ? Param::SelfKind::kRefMut : Param::SelfKind::kRef) : Param::SelfKind::kValue;
    p.is_mut = !amp && mut;
    if (!amp && Eat(Tok::kColon)) {
      TypeExpr t = ParseType();
      if (t.kind == TypeExpr::Kind::kRef)
        p.self_kind = t.is_mut ? Param::SelfKind::kRefMut : Param::SelfKind::kRef;
    }
    return p;
  }
  if (amp) {
    pos_ = save;
    FailExpected("a parameter name", Peek());
  }
  p.is_mut = mut;
  p.loc = Peek().loc;
  p.name = ExpectIdent("a parameter name");
  if (Eat(Tok::kColon)) p.type = ParseType();
  return p;
}

std::vector<Param> Parser::ParseParams(bool allow_self) {
  std::vector<Param> params;
  CommaList(Tok::kLParen, Tok::kRParen,
            [&] { params.push_back(ParseParam(allow_self && params.empty())); });
  return params;
}

FnDecl Parser::ParseFn(bool is_pub, bool allow_no_body) {
  FnDecl f;
  f.is_pub = is_pub;
  Expect(Tok::kKeyword);  // fn
  f.loc = Peek().loc;
  f.name = ExpectIdent("a function name");
  fn_bounds_.clear();
  if (AtGenerics()) f.generics = ParseGenerics(&f.bounds);
  if (!At(Tok::kLParen)) FailExpected("'('", Peek());
  f.params = ParseParams(true);
  if (PeekPastNl().kind == Tok::kArrow) {
    SkipNl();
    Bump();
    f.ret = ParseType();
  }
  // A generic parameter bounded by `Fn(A) -> R` (also `FnMut`, `FnOnce`) is
  // the function type `fn(A) -> R`, as `impl Fn(A) -> R` is (closures are
  // values, docs/language.md §11).
  std::vector<std::pair<std::string, TypeExpr>> fn_bounds = std::move(fn_bounds_);
  fn_bounds_.clear();
  for (Param& p : f.params) SubstAssoc(p.type, fn_bounds);
  SubstAssoc(f.ret, fn_bounds);
  // Effect, where and requires clauses are documentary and skipped.
  while (true) {
    const Token& t = PeekPastNl();
    if (IsId(t, "effect") || IsId(t, "where")) {
      SkipNl();
      Bump();
      while (!At(Tok::kEof) && !At(Tok::kLBrace) && !At(Tok::kEq) && !At(Tok::kNewline) &&
             !At(Tok::kSemi) && !At(Tok::kRBrace))
        Bump();
    } else if (IsId(t, "requires")) {
      SkipNl();
      Bump();
      ParseExprNoStruct();
    } else {
      break;
    }
  }
  const Token& b = PeekPastNl();
  if (b.kind == Tok::kLBrace) {
    f.body = ParseBlock();
  } else if (b.kind == Tok::kEq) {
    SkipNl();
    Bump();
    SkipNl();
    f.expr_body = ParseExpr();
  } else if (!allow_no_body) {
    FailExpected("'{' or '='", Peek());
  }
  return f;
}

// `{ entry, entry \n entry }`: commas, `;` or newlines separate entries.
// Without `need_sep` (agent, supervisor and manifest bodies) entries may also
// follow each other on one line: `{ n = 0  on Get() -> n }`.
template <typename F>
void Parser::BraceList(F&& entry, bool need_sep) {
  SkipNl();
  Loc o = Open(Tok::kLBrace, false);
  while (true) {
    while (pos_ < end_ &&
           (Cur().kind == Tok::kNewline || Cur().kind == Tok::kComma || Cur().kind == Tok::kSemi))
      ++pos_;
    const Token& t = Peek();
    if (t.kind == Tok::kRBrace || t.kind == Tok::kEof) break;
    Saved sv = Save();
    size_t before = pos_;
    try {
      entry();
      const Token& n = Peek();
      if (need_sep && n.kind != Tok::kComma && n.kind != Tok::kSemi && n.kind != Tok::kNewline &&
          n.kind != Tok::kRBrace && Tk(pos_ - 1).kind != Tok::kRBrace)
        FailExpected("',' or a newline", n);
    } catch (SyntaxError&) {
      SyncTo(sv, true);
      if (pos_ == before) ++pos_;
    }
  }
  Close(Tok::kRBrace, o);
}

StructDecl Parser::ParseStruct() {
  StructDecl s = ParseItemHead<StructDecl>("a struct name");
  if (AtGenerics()) s.generics = ParseGenerics(&s.bounds);
  if (At(Tok::kLParen)) {  // tuple struct: fields "0", "1", ...
    s.is_tuple = true;
    CommaList(Tok::kLParen, Tok::kRParen, [&] {
      if (AtKw("pub")) Bump();
      s.fields.emplace_back(std::to_string(s.fields.size()), ParseType());
    });
    return s;
  }
  if (PeekPastNl().kind != Tok::kLBrace) return s;  // unit struct
  BraceList([&] {
    if (AtKw("pub")) Bump();
    std::string name = ExpectIdent("a field name");
    Expect(Tok::kColon);
    s.fields.emplace_back(std::move(name), ParseType());
  });
  return s;
}

EnumDecl Parser::ParseEnum() {
  EnumDecl e = ParseItemHead<EnumDecl>("an enum name");
  if (AtGenerics()) e.generics = ParseGenerics(&e.bounds);
  BraceList([&] {
    EnumVariant v;
    v.loc = Peek().loc;
    v.name = ExpectIdent("a variant name");
    if (At(Tok::kLParen)) {
      v.fields = ParseTypeList(Tok::kLParen, Tok::kRParen);
    } else if (At(Tok::kLBrace)) {  // struct-like: `Circle { r: F64 }`
      BraceList([&] {
        v.field_locs.push_back(Peek().loc);
        v.field_names.push_back(ExpectIdent("a field name"));
        Expect(Tok::kColon);
        v.fields.push_back(ParseType());
      });
      if (v.fields.empty()) v.field_locs.clear();  // `Empty {}` is a unit variant
    } else if (At(Tok::kEq)) {
      Fail(Peek(), "explicit enum discriminants are not supported");
    }
    e.variants.push_back(std::move(v));
  });
  return e;
}

ImplDecl Parser::ParseImpl() {
  ImplDecl d;
  d.loc = Bump().loc;  // impl
  if (AtGenerics()) d.generics = ParseGenerics(&d.bounds);
  TypeExpr first = ParseType();
  if (AtKw("for")) {
    Bump();
    d.trait_name = LibraryTraitName(first.name);
    d.self_type = ParseType();
  } else {
    d.self_type = std::move(first);
  }
  std::vector<std::pair<std::string, TypeExpr>> assoc;
  BraceList([&] {
    if (AtKw("type")) {  // `type Output = Q;`: `Self::Output` in the impl is `Q`
      Bump();
      std::string n = ExpectIdent("an associated type name");
      ExpectEq();
      assoc.push_back({"Self::" + n, ParseType()});
      return;
    }
    d.fns.push_back(ParseMember(false, "an impl block holds methods"));
  });
  for (FnDecl& f : d.fns) {
    for (Param& p : f.params) SubstAssoc(p.type, assoc);
    SubstAssoc(f.ret, assoc);
    // `fmt` of `Display` and of `Debug` may both be given: each has its own
    // name (what `{}` and `{:?}` call, docs/language.md §11).
    if (f.name == "fmt" && (d.trait_name == "Display" || d.trait_name == "Debug"))
      f.name = d.trait_name == "Display" ? "__display_fmt" : "__debug_fmt";
  }
  return d;
}

// `fmt::Display`, `std::ops::Add`, `ops::AddAssign`, `cmp::PartialOrd`:
// the library's traits by their last name.
std::string Parser::LibraryTraitName(const std::string& n) {
  for (const char* prefix : {"std::fmt::", "fmt::", "std::ops::", "ops::", "std::cmp::", "cmp::"})
    if (n.starts_with(prefix)) return n.substr(std::string_view(prefix).size());
  return n;
}

void Parser::SubstAssoc(TypeExpr& t, const std::vector<std::pair<std::string, TypeExpr>>& assoc) {
  if (t.kind == TypeExpr::Kind::kPath && t.args.empty())
    for (const auto& [n, with] : assoc)
      if (t.name == n) {
        const Loc at = t.loc;
        t = with;
        t.loc = at;
        return;
      }
  for (TypeExpr& a : t.args) SubstAssoc(a, assoc);
}

// A method of an impl or a trait (`in_trait`: its `pub` is not kept, and it
// may be a signature without a body); `help` says what the block holds.
FnDecl Parser::ParseMember(bool in_trait, const char* help) {
  SkipAttributes();
  bool is_pub = false;
  if (AtKw("pub")) {
    Bump();
    is_pub = !in_trait;
  }
  if (!AtKw("fn")) FailExpected("'fn'", Peek(), help);
  return ParseFn(is_pub, in_trait);
}

TraitDecl Parser::ParseTrait() {
  TraitDecl d = ParseItemHead<TraitDecl>("a trait name");
  if (AtGenerics()) ParseGenerics();
  if (Eat(Tok::kColon)) {  // supertraits, ignored
    ParseType();
    while (Eat(Tok::kPlus)) ParseType();
  }
  BraceList([&] {
    if (AtKw("type")) {  // `type Output;`, `type Item: Bound;`: declared by each impl
      Bump();
      ExpectIdent("an associated type name");
      if (Eat(Tok::kColon)) {
        ParseType();
        while (Eat(Tok::kPlus)) ParseType();
      }
      return;
    }
    d.fns.push_back(ParseMember(true, "a trait holds method signatures"));
  });
  return d;
}

ConstDecl Parser::ParseConst() {
  ConstDecl c = ParseItemHead<ConstDecl>("a constant name");
  if (Eat(Tok::kColon)) c.type = ParseType();
  ExpectEq();
  c.value = ParseExpr();
  return c;
}

TypeAliasDecl Parser::ParseTypeAlias() {
  TypeAliasDecl a = ParseItemHead<TypeAliasDecl>("a type name");
  if (AtGenerics()) ParseGenerics();
  ExpectEq();
  a.type = ParseType();
  return a;
}

ProtocolDecl Parser::ParseProtocol() {
  ProtocolDecl d = ParseItemHead<ProtocolDecl>("a protocol name");
  // A version tag `v1` is documentary.
  if (Peek().kind == Tok::kIdent && Peek().text.size() > 1 && Peek().text[0] == 'v' &&
      std::all_of(Peek().text.begin() + 1, Peek().text.end(),
                  [](char c) { return c >= '0' && c <= '9'; }))
    Bump();
  if (At(Tok::kEq))
    Fail(Peek(), "protocol composition is not supported", "list the messages in braces");
  BraceList([&] {
    if (AtId("msg") && Look(1).kind == Tok::kIdent) Bump();
    ProtocolMsg msg;
    msg.loc = Peek().loc;
    msg.name = ExpectIdent("a message name");
    if (At(Tok::kLParen)) msg.params = ParseParams(false);
    if (Eat(Tok::kArrow)) msg.reply = ParseType();
    d.msgs.push_back(std::move(msg));
  });
  return d;
}

AgentDecl Parser::ParseAgent() {
  AgentDecl a = ParseItemHead<AgentDecl>("an agent name");
  if (At(Tok::kLParen)) a.ctor_params = ParseParams(false);
  if (Eat(Tok::kColon)) {
    do {
      a.protocols.push_back(ExpectIdent("a protocol name"));
    } while (Eat(Tok::kPlus));
  }
  BraceList(
      [&] {
        SkipAttributes();
        const Token& t = Peek();
        if (IsId(t, "on") && Look(1).kind == Tok::kIdent) {
          Handler h;
          Bump();
          h.loc = Peek().loc;
          h.msg = ExpectIdent("a message name");
          if (At(Tok::kLParen)) h.params = ParseParams(false);
          if (Eat(Tok::kArrow)) {
            SkipNl();
            // `on Get() -> I64 { n }`: a reply type before a block body.
            if (Peek().kind == Tok::kIdent && IsPrimitiveTypeName(Peek().text) &&
                Look(1).kind == Tok::kLBrace)
              Bump();
            h.body = ParseExpr();
          } else if (PeekPastNl().kind == Tok::kLBrace) {
            h.body = ParseBlockExpr();
          } else {
            FailExpected("'->' or '{'", Peek());
          }
          a.handlers.push_back(std::move(h));
        } else if (IsKw(t, "fn") || (IsKw(t, "pub") && IsKw(Look(1), "fn"))) {
          bool is_pub = IsKw(t, "pub");
          if (is_pub) Bump();
          a.fns.push_back(ParseFn(is_pub, false));
        } else if (t.kind == Tok::kIdent) {
          if (t.text == "state" && Look(1).kind == Tok::kIdent) Bump();
          AgentState s;
          s.loc = Peek().loc;
          s.name = ExpectIdent("a state field name");
          if (Eat(Tok::kColon)) s.type = ParseType();
          if (Eat(Tok::kEq)) {
            SkipNl();
            s.init = ParseExpr();
          } else if (s.type.kind == TypeExpr::Kind::kInfer) {
            FailExpected("'=' or ':'", Peek(),
                         "a state field is `name = init` or `name: Type = init`");
          }
          a.state.push_back(std::move(s));
        } else {
          FailExpected("an agent member (a state field, an `on` handler or a `fn`)", t);
        }
      },
      false);
  return a;
}

SupervisorDecl Parser::ParseSupervisor() {
  SupervisorDecl s = ParseItemHead<SupervisorDecl>("a supervisor name");
  s.strategy = "one_for_one";
  auto strategy = [&] {
    const Token& v = Peek();
    if (v.kind != Tok::kIdent) FailExpected("a strategy name", v);
    std::string name = SnakeCase(v.text);
    if (name != "one_for_one" && name != "one_for_all" && name != "rest_for_one" &&
        name != "escalate")
      Fail(v, "unknown supervisor strategy '" + v.text + "'",
           "use one_for_one, one_for_all, rest_for_one or escalate", "MT0014");
    Bump();
    s.strategy = name;
  };
  if (At(Tok::kLParen)) {
    CommaList(Tok::kLParen, Tok::kRParen, [&] {
      const Token& key = Peek();
      if (!IsId(key, "strategy"))
        FailExpected("'strategy'", key, "supervisor options are `(strategy: one_for_one)`");
      Bump();
      Expect(Tok::kColon);
      strategy();
    });
  }
  if (AtId("strategy")) {  // the spec form `supervisor S strategy OneForOne { ... }`
    Bump();
    strategy();
  }
  BraceList(
      [&] {
        const Token& t = Peek();
        if (IsId(t, "child")) {
          Bump();
          SupervisorChild c;
          c.loc = Peek().loc;
          c.name = ExpectIdent("a child name");
          ExpectEq();
          c.spawn = ParseExpr();
          s.children.push_back(std::move(c));
        } else if (IsId(t, "on_fail")) {
          OnFail f;
          f.loc = Bump().loc;
          Loc o = Open(Tok::kLParen, true);
          f.child = ExpectIdent("a child name");
          Close(Tok::kRParen, o);
          BraceList(
              [&] {
                const Token& a = Peek();
                if (IsId(a, "restart")) {
                  Bump();
                  f.restart = true;
                  if (AtId("up_to")) {
                    Bump();
                    const Token& n = Peek();
                    if (n.kind != Tok::kInt) FailExpected("a restart count", n);
                    Bump();
                    f.up_to = static_cast<int64_t>(std::min<uint64_t>(
                        n.uint_value, static_cast<uint64_t>(std::numeric_limits<int64_t>::max())));
                  }
                  if (AtKw("in")) {
                    Bump();
                    f.within = ParseExpr();
                  }
                } else if (IsId(a, "backoff")) {
                  Bump();
                  ExprPtr r = ParseExpr();
                  if (r->kind == EK::kRange) {
                    f.backoff_lo = std::move(r->lhs);
                    f.backoff_hi = std::move(r->rhs);
                  } else {
                    f.backoff_lo = std::move(r);
                  }
                } else if (IsId(a, "escalate")) {
                  Bump();
                  f.escalate = true;
                } else {
                  FailExpected("'restart', 'backoff' or 'escalate'", a);
                }
              },
              false);
          s.on_fail.push_back(std::move(f));
        } else {
          FailExpected("'child' or 'on_fail'", t);
        }
      },
      false);
  return s;
}

// Entries `key = value`, `fs.read = [..]`, or the RC3 form `key value`.
std::vector<SandboxEntry> Parser::ParseEntries() {
  std::vector<SandboxEntry> entries;
  BraceList(
      [&] {
        SandboxEntry e;
        e.loc = Peek().loc;
        e.key = ExpectIdent("a manifest key");
        while (At(Tok::kDot)) {
          Bump();
          if (!AtName()) FailExpected("a key", Peek());
          e.key += "." + Bump().text;
        }
        const Token& n = Peek();
        if (n.kind == Tok::kEq || n.kind == Tok::kColon) {
          Bump();
          SkipNl();
          e.value = ParseExpr();
        } else if (n.kind != Tok::kComma && n.kind != Tok::kSemi && n.kind != Tok::kNewline &&
                   n.kind != Tok::kRBrace) {
          e.value = ParseExpr();
        }
        entries.push_back(std::move(e));
      },
      false);
  return entries;
}

SandboxDecl Parser::ParseSandboxItem() {
  SandboxDecl d;
  Bump();  // sandbox
  d.loc = Peek().loc;
  if (AtId("with") && Look(1).kind == Tok::kLBrace)
    Fail(Peek(), "a sandbox item needs a name",
         "name it (`sandbox Tool with { .. } { body }`, run by `run Tool`), or write the anonymous "
         "`sandbox with { .. } { body }` inside a function, where it is an expression",
         "MT0010");
  d.name = ExpectIdent("a sandbox name");
  if (AtId("with")) Bump();
  d.entries = ParseEntries();
  if (PeekPastNl().kind == Tok::kLBrace) d.body = ParseBlock();  // its default body
  return d;
}

void Parser::ParseUse(Module& m) {
  Loc loc = Bump().loc;  // use
  std::vector<std::string> path;
  path.push_back(ExpectIdent("a module path"));
  while (At(Tok::kDot) || At(Tok::kColonColon)) {
    Bump();
    if (At(Tok::kLBrace)) {  // `use lib.{a, b as c}`
      Loc o = Open(Tok::kLBrace, true);
      while (!At(Tok::kRBrace)) {
        Item item;
        item.kind = Item::Kind::kUse;
        item.use_decl->loc = Peek().loc;
        item.use_decl->path = path;
        item.use_decl->path.push_back(ExpectIdent("a name"));
        if (AtKw("as")) {
          Bump();
          item.use_decl->alias = ExpectIdent("an alias");
        }
        m.items.push_back(std::move(item));
        if (!Eat(Tok::kComma)) break;
      }
      Close(Tok::kRBrace, o);
      return;
    }
    if (At(Tok::kStar)) {  // `use Shape::*`: an enum's variants (CollectTypeNames)
      Bump();
      path.push_back("*");
      break;
    }
    path.push_back(ExpectIdent("a module path segment"));
  }
  Item item;
  item.kind = Item::Kind::kUse;
  item.use_decl->loc = loc;
  item.use_decl->path = std::move(path);
  if (AtKw("as")) {
    Bump();
    item.use_decl->alias = ExpectIdent("an alias");
  }
  m.items.push_back(std::move(item));
}

// ====================================================================== types

std::vector<TypeExpr> Parser::ParseTurbofish() {
  if (At(Tok::kLt)) return ParseAngleTypes();
  return ParseTypeList(Tok::kLBracket, Tok::kRBracket);
}

std::vector<TypeExpr> Parser::ParseAngleTypes() {
  Bump();  // `<`
  std::vector<TypeExpr> args;
  while (!At(Tok::kGt) && !At(Tok::kShr)) {
    if (Peek().kind == Tok::kLabel) {  // `<'a, T>`: lifetimes are parsed, not kept
      Bump();
    } else {
      args.push_back(ParseType());
    }
    if (!Eat(Tok::kComma)) break;
  }
  // `>>` closes two lists: the first half is taken here, the second by the
  // enclosing list.
  if (half_gt_) {
    half_gt_ = false;
    Bump();
  } else if (At(Tok::kGt)) {
    Bump();
  } else if (At(Tok::kShr)) {
    half_gt_ = true;
  } else {
    FailExpected("`>` closing the type arguments", Peek());
  }
  return args;
}

// `(T, U)`, `[T, U]`: the types between `open` and `close`; `comma` (when
// given) says whether a comma followed one (`(T,)` is a tuple, `(T)` not).
std::vector<TypeExpr> Parser::ParseTypeList(Tok open, Tok close, bool* comma) {
  std::vector<TypeExpr> ts;
  const bool any = CommaList(open, close, [&] { ts.push_back(ParseType()); });
  if (comma) *comma = any;
  return ts;
}

TypeExpr Parser::ParseType() {
  DepthGuard g(this);
  TypeExpr t;
  const Token& s = Peek();
  t.loc = s.loc;
  switch (s.kind) {
    case Tok::kLParen: {
      bool comma = false;
      t.kind = TypeExpr::Kind::kTuple;
      t.args = ParseTypeList(Tok::kLParen, Tok::kRParen, &comma);
      if (t.args.size() == 1 && !comma) return std::move(t.args[0]);  // `(T)`
      break;
    }
    case Tok::kLBracket: {
      Loc o = Open(Tok::kLBracket, true);
      t.kind = TypeExpr::Kind::kArray;
      t.args.push_back(ParseType());
      if (Eat(Tok::kSemi)) ParseExpr();  // `[T; N]`: the length is not kept
      Close(Tok::kRBracket, o);
      break;
    }
    case Tok::kAmp:
    case Tok::kAmpAmp:
    case Tok::kStar:
      ParseRefType(t);
      if (s.kind == Tok::kAmpAmp) {  // `&&T`: a reference to a reference
        TypeExpr outer;
        outer.kind = TypeExpr::Kind::kRef;
        outer.loc = t.loc;
        outer.args.push_back(std::move(t));
        return outer;
      }
      break;
    case Tok::kKeyword:
      if (s.text == "fn") {
        Bump();
        ParseFnType(t);
        break;
      }
      if (s.text == "self") {
        Bump();
        t.kind = TypeExpr::Kind::kPath;
        t.name = "self";
        break;
      }
      if (s.text == "impl" && Look(1).kind == Tok::kIdent) {  // `impl Trait`, as `dyn Trait`
        ParseTypePath(t);
        break;
      }
      FailExpected("a type", s);
    case Tok::kIdent:
      if (s.text == "_") {
        Bump();
        return t;  // kInfer
      }
      ParseTypePath(t);
      break;
    default: FailExpected("a type", s);
  }
  ParseTypeSuffix(t);
  return t;
}

// `&T`, `&mut T`, `*const T` into `t`.
void Parser::ParseRefType(TypeExpr& t) {
  Bump();
  t.kind = TypeExpr::Kind::kRef;
  if (Peek().kind == Tok::kLabel) Bump();  // `&'a T`: lifetimes are parsed, not kept
  if (AtKw("mut")) {
    Bump();
    t.is_mut = true;
  } else if (AtKw("const")) {
    Bump();
  }
  t.args.push_back(ParseType());
}

// `(A, B) -> R` after `fn` or `Fn`: the parameters' types, then the result's (`()` when
// there is no arrow) as the last argument.
void Parser::ParseFnType(TypeExpr& t) {
  t.kind = TypeExpr::Kind::kFn;
  t.args = ParseTypeList(Tok::kLParen, Tok::kRParen);
  TypeExpr ret;
  ret.kind = TypeExpr::Kind::kTuple;
  ret.loc = Peek().loc;
  if (Eat(Tok::kArrow)) ret = ParseType();
  t.args.push_back(std::move(ret));
}

// A named type: `I64`, `dyn Trait`, `std::collections::HashMap[K, V]`,
// Rust's `Vec<T>`.
void Parser::ParseTypePath(TypeExpr& t) {
  if ((Peek().text == "dyn" || Peek().text == "impl") && Look(1).kind == Tok::kIdent) Bump();
  t.kind = TypeExpr::Kind::kPath;
  t.name = Bump().text;
  while ((At(Tok::kDot) || At(Tok::kColonColon)) && Look(1).kind == Tok::kIdent) {
    t.name += Bump().text;
    t.name += Bump().text;
  }
  // `std::fmt::Formatter` is `fmt::Formatter` (below).
  if (t.name.starts_with("std::fmt::")) t.name = t.name.substr(5);
  // `std::collections::HashMap`: the last segment names the type.
  if (size_t c = t.name.rfind("::"); c != std::string::npos && t.name.starts_with("std::"))
    t.name = t.name.substr(c + 2);
  if (FmtType(t)) return;
  t.name = std::string(MightyTypeName(t.name));
  if ((t.name == "Fn" || t.name == "FnMut" || t.name == "FnOnce") && At(Tok::kLParen)) {
    // `Fn(A, B) -> R` (`impl`/`dyn`/`Box<dyn ..>` alike) is the function type
    // `fn(A, B) -> R`: closures are values (docs/language.md §11).
    ParseFnType(t);
    return;
  }
  if (At(Tok::kLBracket)) {
    t.args = ParseTypeList(Tok::kLBracket, Tok::kRBracket);
  } else if (At(Tok::kLt) && !IsPrimitiveTypeName(t.name)) {
    // Rust's `Vec<T>` (a primitive never takes `<`: `x as I64 < y`
    // stays a comparison).
    t.args = ParseAngleTypes();
  }
}

namespace {

TypeExpr NamedType(std::string name, Loc loc) {
  TypeExpr t;
  t.kind = TypeExpr::Kind::kPath;
  t.name = std::move(name);
  t.loc = loc;
  return t;
}

}  // namespace

// Rust's `fmt::Formatter` is the `Str` a `Display`/`Debug` impl writes
// (`write!(f, ..)` appends to it), `fmt::Error` is `()` and `fmt::Result`
// `Result[(), ()]` (docs/language.md §11). True when `t` was one of them.
bool Parser::FmtType(TypeExpr& t) {
  if (t.name != "fmt::Formatter" && t.name != "fmt::Result" && t.name != "fmt::Error") return false;
  if (At(Tok::kLt)) ParseAngleTypes();  // `Formatter<'_>`
  if (t.name == "fmt::Formatter") {
    t.name = "Str";
    return true;
  }
  TypeExpr unit;
  unit.kind = TypeExpr::Kind::kTuple;
  unit.loc = t.loc;
  if (t.name == "fmt::Error") {
    t = unit;
    return true;
  }
  t.name = "Result";
  t.args = {unit, unit};
  return true;
}

namespace {

TypeExpr ResultType(TypeExpr ok, TypeExpr err) {
  TypeExpr r = NamedType("Result", ok.loc);
  r.args.push_back(std::move(ok));
  r.args.push_back(std::move(err));
  return r;
}

}  // namespace

// After a type: `T!E` is Result[T, E]; `T!{A, B}` an error union
// (Result[T, Error]); lowercase names and `|` rows are effects, ignored.
void Parser::ParseTypeSuffix(TypeExpr& t) {
  if (!At(Tok::kBang)) return;
  const Token& n = Look(1);
  if (n.kind == Tok::kLBrace) {
    Bump();
    bool error_union = Look(1).kind == Tok::kIdent && IsUpper(Look(1).text);
    Loc o = Open(Tok::kLBrace, true);
    bool pipe = false;
    while (!At(Tok::kRBrace) && !At(Tok::kEof)) pipe |= Bump().kind == Tok::kPipe;
    Close(Tok::kRBrace, o);
    if (pipe) error_union = false;
    if (error_union) t = ResultType(std::move(t), NamedType("Error", n.loc));
    return;
  }
  if (n.kind == Tok::kIdent) {
    Bump();
    if (!IsUpper(n.text)) {
      Bump();
      return;
    }
    TypeExpr e = ParseType();
    t = ResultType(std::move(t), std::move(e));
  }
}

// ================================================================= statements

std::unique_ptr<Block> Parser::ParseBlock() {
  DepthGuard g(this);
  SkipNl();  // `if c` newline `{` is fine
  auto b = std::make_unique<Block>();
  b->loc = Peek().loc;
  Loc o = Open(Tok::kLBrace, false);
  Restrict r(this, false);
  Loc outer = block_open_;
  block_open_ = o;
  ParseStmts(*b, false);
  block_open_ = outer;
  Close(Tok::kRBrace, o);
  return b;
}

void Parser::ParseStmts(Block& b, bool until_eof) {
  while (true) {
    while (pos_ < end_ && (Cur().kind == Tok::kNewline || Cur().kind == Tok::kSemi)) ++pos_;
    const Token& t = Peek();
    if (t.kind == Tok::kEof) break;
    if (t.kind == Tok::kRBrace) {
      if (!until_eof) break;
      Report("MT0001", t, "unexpected '}'");
      ++pos_;
      continue;
    }
    Saved sv = Save();
    size_t before = pos_;
    try {
      ParseStmt(b);
    } catch (SyntaxError&) {
      SyncTo(sv, false);
      if (pos_ == before) ++pos_;
    }
  }
}

bool Parser::IsNestedItemStart() {
  const Token& t = Peek();
  if (t.kind == Tok::kKeyword)
    return (t.text == "fn" && Look(1).kind == Tok::kIdent) || t.text == "struct" ||
           t.text == "enum" || t.text == "impl" || t.text == "trait" || t.text == "const" ||
           t.text == "type" || t.text == "use" || t.text == "pub";
  return t.kind == Tok::kIdent && Look(1).kind == Tok::kIdent &&
         (t.text == "macro" || t.text == "agent" || t.text == "protocol" || t.text == "supervisor");
}

bool Parser::StartsBlockLike() {
  const Token& t = Peek();
  if (t.kind == Tok::kKeyword)
    return t.text == "if" || t.text == "match" || t.text == "loop" || t.text == "while" ||
           t.text == "for" || (t.text == "unsafe" && Look(1).kind == Tok::kLBrace);
  if (t.kind == Tok::kLBrace) return !IsMapStart();
  if (IsId(t, "arena"))
    return Look(1).kind == Tok::kLBrace ||
           (Look(1).kind == Tok::kIdent && Look(2).kind == Tok::kLBrace);
  if (IsId(t, "sandbox")) return Look(1).kind == Tok::kIdent;
  if (IsId(t, "budget")) return BudgetBlockAhead();
  if (IsId(t, "run"))
    return Look(1).kind == Tok::kLBrace ||
           (Look(1).kind == Tok::kIdent && Look(2).kind == Tok::kLBrace);
  return false;
}

void Parser::ParseStmt(Block& b) {
  const Token& t = Peek();
  Stmt s;
  s.loc = t.loc;
  bool block_like = false;
  if (IsId(t, "task") && IsId(Look(1), "scope"))
    Fail(Look(1), "`task scope` is not supported: concurrency in mty is agents",
         "spawn an agent and ask it (`spawn Worker()`, `w?Job(x)`; docs/agents.md)");
  if (IsKw(t, "let")) {
    Bump();
    s.kind = Stmt::Kind::kLet;
    s.pat = ParsePatternTop();
    if (Eat(Tok::kColon)) s.type = ParseType();
    if (Eat(Tok::kEq)) {
      SkipNl();
      s.expr = ParseExpr();
      if (IsKw(PeekPastNl(), "else")) {  // let-else: `let Some(x) = e else { return }`
        SkipNl();
        Bump();
        s.else_block = ParseBlock();
        block_like = true;
      }
    }
  } else if (IsNestedItemStart()) {
    if (t.loc.col == 1 && block_open_.line != 0 && !macro_body_) {
      // An item in column 1: the enclosing block was most likely never closed.
      ReportUnclosed(t.loc, "unclosed delimiter '{' before this item", block_open_, Tok::kRBrace,
                     "add the missing '}' before the item at line " + std::to_string(t.loc.line));
      throw UnclosedBlock{};
    }
    if (IsKw(t, "use") && module_) {
      // Rust's `use Shape::*;` or `use std::collections::HashMap;` in a
      // function: the names it brings are the program's already (enum
      // variants, built-in types), so it is read as the same `use` at the
      // top level.
      ParseUse(*module_);
      Eat(Tok::kSemi);
      return;
    }
    if (!IsKw(t, "fn"))
      Fail(t, "items other than `fn` are not allowed inside a block",
           "move it to the top level of the file", "MT0013");
    // A nested `fn` item: visible in this block, it cannot capture locals.
    s.kind = Stmt::Kind::kFn;
    s.fn_item = std::make_shared<FnDecl>(ParseFn(false, false));
    block_like = true;
  } else {
    s.kind = Stmt::Kind::kExpr;
    if (t.kind == Tok::kLabel && Look(1).kind == Tok::kColon) TakeLabel();  // `'outer: for ...`
    if (StartsBlockLike()) {
      // Rust's rule: a block-like statement ends at its `}` unless a method
      // call or `?` follows on the same line.
      ExprPtr e = ParsePrimary();
      Tok n = Peek().kind;
      if (n == Tok::kDot || n == Tok::kQuestion) {
        pre_primary_ = std::move(e);
        e = ParseExpr();
      } else {
        block_like = true;
      }
      s.expr = std::move(e);
    } else {
      s.expr = ParseExpr();
    }
  }
  const Token& n = Peek();
  bool ok = true;
  if (n.kind == Tok::kSemi) {
    Bump();
    s.has_semi = s.kind == Stmt::Kind::kExpr;
  } else if (n.kind != Tok::kNewline && n.kind != Tok::kRBrace && n.kind != Tok::kEof &&
             !block_like) {
    ok = false;
  }
  b.stmts.push_back(std::move(s));
  if (!ok) FailExpected("';' or a newline", n);
}

// ================================================================ expressions

ExprPtr Parser::ParseExpr() {
  DepthGuard g(this);
  return ParseAssign();
}

ExprPtr Parser::ParseExprNoStruct() {
  Restrict r(this, true);
  return ParseExpr();
}

bool Parser::ContinuesLine(const Token& t) const {
  switch (t.kind) {
    case Tok::kMinus: return !minus_entry_;  // `-1 => ...` starts the next match arm
    case Tok::kPlus:
    case Tok::kSlash:
    case Tok::kPercent:
    case Tok::kEqEq:
    case Tok::kNe:
    case Tok::kLt:
    case Tok::kLe:
    case Tok::kGt:
    case Tok::kGe:
    case Tok::kAmpAmp:
    case Tok::kPipePipe:
    case Tok::kCaret:
    case Tok::kShl:
    case Tok::kShr:
    case Tok::kEq:
    case Tok::kPlusEq:
    case Tok::kMinusEq:
    case Tok::kStarEq:
    case Tok::kSlashEq:
    case Tok::kPercentEq:
    case Tok::kAmpEq:
    case Tok::kPipeEq:
    case Tok::kCaretEq:
    case Tok::kShlEq:
    case Tok::kShrEq:
    case Tok::kDotDot:
    case Tok::kDotDotEq: return true;
    case Tok::kKeyword: return t.text == "as";
    default: return false;
  }
}

// The next operator; a line starting with a binary operator continues the
// expression (`*`, `&`, `|` and `!` start statements: `*r = x`, closures).
const Token& Parser::PeekOp() {
  const Token& t = Peek();
  if (t.kind != Tok::kNewline) return t;
  size_t j = NextNonNl(pos_);
  if (ContinuesLine(Tk(j))) {
    pos_ = j;
    return Cur();
  }
  return t;
}

bool Parser::CanStartExpr(const Token& t) const {
  switch (t.kind) {
    case Tok::kIdent:
    case Tok::kInt:
    case Tok::kFloat:
    case Tok::kStr:
    case Tok::kChar:
    case Tok::kDuration:
    case Tok::kSize:
    case Tok::kLParen:
    case Tok::kLBracket:
    case Tok::kMinus:
    case Tok::kBang:
    case Tok::kStar:
    case Tok::kAmp:
    case Tok::kAmpAmp:
    case Tok::kPipe:
    case Tok::kPipePipe:
    case Tok::kDotDot:
    case Tok::kDotDotEq: return true;
    case Tok::kLBrace: return !no_struct_;
    case Tok::kKeyword:
      return t.text == "true" || t.text == "false" || t.text == "self" || t.text == "if" ||
             t.text == "match" || t.text == "loop" || t.text == "while" || t.text == "for" ||
             t.text == "return" || t.text == "break" || t.text == "continue" || t.text == "spawn" ||
             t.text == "unsafe" || t.text == "fn";
    default: return false;
  }
}

ExprPtr Parser::ParseAssign() {
  ExprPtr lhs = ParseRange();
  const Token& op = PeekOp();
  bool has_op = false;
  BinaryOp bop = BinaryOp::kAdd;
  if (!AssignOf(op.kind, &has_op, &bop)) return lhs;
  Bump();
  SkipNl();
  DepthGuard g(this);  // right-nested chains `a = b = c = ...`
  auto e = Make(EK::kAssign, op.loc);
  e->has_op = has_op;
  e->binary_op = bop;
  const Loc begin = lhs->begin;
  e->lhs = std::move(lhs);
  e->rhs = ParseAssign();
  return Spanned(std::move(e), begin);
}

ExprPtr Parser::ParseRange() {
  const Token& t = Peek();
  if (t.kind == Tok::kDotDot || t.kind == Tok::kDotDotEq) {
    Bump();
    auto e = Make(EK::kRange, t.loc);
    e->inclusive = t.kind == Tok::kDotDotEq;
    if (CanStartExpr(Peek())) e->rhs = ParseBin(1);
    return Spanned(std::move(e), t.loc);
  }
  ExprPtr lhs = ParseBin(1);
  const Token& op = PeekOp();
  if (op.kind != Tok::kDotDot && op.kind != Tok::kDotDotEq) return lhs;
  Bump();
  auto e = Make(EK::kRange, op.loc);
  e->inclusive = op.kind == Tok::kDotDotEq;
  const Loc begin = lhs->begin;
  e->lhs = std::move(lhs);
  if (CanStartExpr(Peek())) e->rhs = ParseBin(1);
  return Spanned(std::move(e), begin);
}

ExprPtr Parser::ParseBin(int min_prec) {
  ExprPtr lhs = ParseCastLevel();
  int chain = 0;
  bool lhs_is_cmp = false;
  while (true) {
    const Token& op = PeekOp();
    BinInfo info;
    if (!BinOf(op.kind, &info) || info.prec < min_prec) break;
    if (info.cmp && lhs_is_cmp)
      Fail(op, "comparison operators cannot be chained",
           "split the comparison with `&&`: `a < b && b < c`");
    Bump();
    SkipNl();
    if (sh_.depth + ++chain > kMaxDepth) Fatal();
    ExprPtr rhs = ParseBin(info.prec + 1);
    auto e = Make(EK::kBinary, op.loc);
    e->binary_op = info.op;
    const Loc begin = lhs->begin;
    e->lhs = std::move(lhs);
    e->rhs = std::move(rhs);
    lhs = Spanned(std::move(e), begin);
    lhs_is_cmp = info.cmp;
  }
  return lhs;
}

ExprPtr Parser::ParseCastLevel() {
  ExprPtr e = ParseUnary();
  int chain = 0;
  while (IsKw(PeekOp(), "as")) {
    Loc loc = Bump().loc;
    if (sh_.depth + ++chain > kMaxDepth) Fatal();
    auto c = Make(EK::kCast, loc);
    const Loc begin = e->begin;
    c->lhs = std::move(e);
    c->more->type = ParseType();
    e = Spanned(std::move(c), begin);
  }
  return e;
}

ExprPtr Parser::ParseUnary() {
  // A block-like statement continued by `.` or `?` starts where it did.
  const Loc begin = pre_primary_ ? pre_primary_->begin : Peek().loc;
  return Spanned(ParseUnaryUnspanned(), begin);
}

// The operand of a prefix operator at `loc`: a `kind` node (`op` for kUnary).
ExprPtr Parser::ParsePrefixed(EK kind, Loc loc, UnaryOp op) {
  DepthGuard g(this);
  auto e = Make(kind, loc);
  e->unary_op = op;
  e->lhs = ParseUnary();
  return e;
}

ExprPtr Parser::ParseUnaryUnspanned() {
  const Token& t = Peek();
  switch (t.kind) {
    case Tok::kMinus: {
      Bump();
      // `-5`, `-1.5` fold into a literal (so `-9223372036854775808` is in
      // range); not when a postfix follows: `-1.abs()` is `-(1.abs())`.
      const Token& n = Peek();
      Tok after = Tk(NextNonNl(pos_ + 1)).kind;
      if ((n.kind == Tok::kInt || n.kind == Tok::kFloat) && after != Tok::kDot &&
          after != Tok::kLParen && after != Tok::kLBracket && after != Tok::kQuestion &&
          after != Tok::kBang) {
        Bump();
        ExprPtr lit = ParseLiteral(n, true);
        lit->loc = t.loc;
        return lit;
      }
      return ParsePrefixed(EK::kUnary, t.loc, UnaryOp::kNeg);
    }
    case Tok::kBang: Bump(); return ParsePrefixed(EK::kUnary, t.loc, UnaryOp::kNot);
    case Tok::kStar: Bump(); return ParsePrefixed(EK::kDeref, t.loc);
    case Tok::kAmp:
    case Tok::kAmpAmp: {
      Bump();
      const bool is_mut = AtKw("mut");
      if (is_mut) Bump();
      auto e = ParsePrefixed(EK::kRef, t.loc);
      e->is_mut = is_mut;
      if (t.kind == Tok::kAmpAmp) {
        auto outer = Make(EK::kRef, t.loc);
        outer->lhs = std::move(e);
        return outer;
      }
      return e;
    }
    case Tok::kKeyword:
      if (t.text == "spawn") return ParsePostfix(ParseSpawn(), false);
      break;
    case Tok::kIdent:
      if (t.text == "move" && (Look(1).kind == Tok::kPipe || Look(1).kind == Tok::kPipePipe)) {
        Bump();
        ExprPtr c = ParseClosure();
        c->more->is_move = true;
        return ParsePostfix(std::move(c), false);
      }
      break;
    default: break;
  }
  return ParsePostfix(ParsePrimary(), false);
}

std::vector<ExprPtr> Parser::ParseArgs() {
  std::vector<ExprPtr> args;
  Restrict r(this, false);
  CommaList(Tok::kLParen, Tok::kRParen, [&] {
    args.push_back(ParseExpr());
    if (At(Tok::kColon) && args.back()->kind == EK::kPath)
      Fail(Peek(), "named arguments are not supported", "pass the arguments by position");
  });
  return args;
}

ExprPtr Parser::ParsePostfix(ExprPtr e, bool deadline_operand) {
  int chain = 0;
  // Each link of the chain spans from the chain's start to its own end.
  const Loc begin = e->begin.line ? e->begin : e->loc;
  auto span = [&] {
    if (e->begin.line == 0) e = Spanned(std::move(e), begin);
  };
  while (true) {
    span();
    const Token& t = Peek();
    if (t.kind == Tok::kNewline) {
      // A line starting with `.` continues: builder chains.
      size_t j = NextNonNl(pos_);
      if (Tk(j).kind != Tok::kDot) break;
      pos_ = j;
      continue;
    }
    if (sh_.depth + chain > kMaxDepth) Fatal();
    if (t.kind == Tok::kDot) {
      Bump();
      SkipNl();
      const Token& n = Peek();
      if (n.kind == Tok::kInt) {
        Bump();
        auto f = Make(EK::kTupleField, n.loc);
        f->lhs = std::move(e);
        f->int_value = static_cast<int64_t>(std::min<uint64_t>(n.uint_value, 1u << 30));
        e = std::move(f);
        ++chain;
        continue;
      }
      if (!AtName()) FailExpected("a field or method name", n);
      Bump();
      std::vector<TypeExpr> targs;
      bool has_targs = false;
      if (At(Tok::kColonColon) &&
          (Look(1).kind == Tok::kLBracket || Look(1).kind == Tok::kLt)) {  // `.m::[T](..)`
        Bump();
        targs = ParseTurbofish();
        has_targs = true;
      }
      if (At(Tok::kLParen)) {
        auto m = Make(EK::kMethodCall, n.loc);
        m->lhs = std::move(e);
        m->text = n.text;
        if (has_targs) {
          m->more->type_args = std::move(targs);
          m->more->has_type_args = true;
        }
        m->args = ParseArgs();
        e = std::move(m);
      } else {
        auto f = Make(EK::kField, n.loc);
        f->lhs = std::move(e);
        f->text = n.text;
        e = std::move(f);
        // `mod.Point { x: 1 }`: a struct literal with a dotted path.
        std::vector<PathSeg> segs;
        if (At(Tok::kLBrace) && !no_struct_ && IsUpper(n.text) && FlattenPath(*e, &segs))
          e = ParseStructBody(std::move(segs), e->loc);
      }
      ++chain;
      continue;
    }
    if (deadline_operand && t.kind != Tok::kLParen && t.kind != Tok::kLBracket) break;
    if (t.kind == Tok::kLParen) {
      auto c = Make(EK::kCall, e->loc);
      c->lhs = std::move(e);
      c->args = ParseArgs();
      e = std::move(c);
      ++chain;
      continue;
    }
    if (t.kind == Tok::kLBracket) {
      Loc o = Open(Tok::kLBracket, true);
      auto ix = Make(EK::kIndex, o);
      ix->lhs = std::move(e);
      {
        Restrict r(this, false);
        ix->rhs = ParseExpr();
      }
      Close(Tok::kRBracket, o);
      e = std::move(ix);
      ++chain;
      continue;
    }
    if (t.kind == Tok::kQuestion || t.kind == Tok::kBang) {
      // `h?Msg(args) [@ deadline]`, `h!Msg(args)` (same line); else `e?`.
      const Token& name = Look(1);
      if (name.kind == Tok::kIdent && Look(2).kind == Tok::kLParen) {
        Bump();
        Bump();
        auto m = Make(t.kind == Tok::kQuestion ? EK::kAsk : EK::kSend, t.loc);
        m->lhs = std::move(e);
        m->text = name.text;
        m->args = ParseArgs();
        if (t.kind == Tok::kQuestion && At(Tok::kAt)) {
          Bump();
          DepthGuard g(this);
          m->rhs = ParsePostfix(ParsePrimary(), true);
        }
        e = std::move(m);
        ++chain;
        continue;
      }
      if (t.kind == Tok::kBang) {
        if (name.kind == Tok::kIdent)
          Fail(name, "expected '(' after the message name",
               "a send is `handle!" + name.text + "(args)`");
        break;
      }
      Bump();
      auto q = Make(EK::kTry, t.loc);
      q->lhs = std::move(e);
      e = std::move(q);
      ++chain;
      continue;
    }
    if (t.kind == Tok::kLBrace && !no_struct_ && e->kind == EK::kPath) {
      if (e->segs.size() == 1 && e->segs[0].name == "Map") {
        Loc loc = e->loc;
        e = ParseMapBody(loc);
        continue;
      }
      if (IsUpper(e->segs.back().name)) {
        std::vector<PathSeg> segs = e->segs;
        e = ParseStructBody(std::move(segs), e->loc);
        continue;
      }
    }
    break;
  }
  span();
  return e;
}

ExprPtr Parser::ParseLiteral(const Token& t, bool negative) {
  switch (t.kind) {
    case Tok::kFloat: {
      auto e = Make(EK::kFloat, t.loc);
      e->text = std::string(t.suffix());
      e->float_value = negative ? -t.float_value : t.float_value;
      return e;
    }
    case Tok::kInt: {
      auto e = Make(EK::kInt, t.loc);
      e->text = std::string(t.suffix());
      if (t.bad) return e;
      // Ranges by suffix; the runtime integer is 64-bit signed.
      uint64_t max_pos = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
      uint64_t max_neg = max_pos + 1;
      const std::string s(t.suffix());
      if (s == "i8") {
        max_pos = 127;
        max_neg = 128;
      } else if (s == "i16") {
        max_pos = 32767;
        max_neg = 32768;
      } else if (s == "i32") {
        max_pos = 2147483647;
        max_neg = 2147483648u;
      } else if (!s.empty() && s[0] == 'u') {
        max_neg = 0;
        if (s == "u8") max_pos = 255;
        if (s == "u16") max_pos = 65535;
        if (s == "u32") max_pos = 4294967295u;
        if (s == "u64" || s == "usize" || s == "u128") max_pos = UINT64_MAX;
      }
      uint64_t v = t.uint_value;
      if (s.empty() && !negative && v > max_pos) {
        // 2^63..2^64-1 unsuffixed: only where a U64 is expected (lowering
        // checks; see Expr::is_mut on kInt).
        e->int_value = static_cast<int64_t>(v);
        e->is_mut = true;
        return e;
      }
      if (negative ? v > max_neg : v > max_pos) {
        ReportAt("MT0006", t.loc,
                 "integer literal is out of range" +
                     (s.empty() ? std::string(" for a 64-bit integer") : " for `" + s + "`"));
        return e;
      }
      e->int_value = negative ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
      return e;
    }
    case Tok::kStr: {
      auto e = Make(EK::kStr, t.loc);
      e->text = t.text;
      return e;
    }
    case Tok::kChar: {
      auto e = Make(EK::kChar, t.loc);
      e->int_value = static_cast<int64_t>(t.uint_value);
      return e;
    }
    case Tok::kDuration:
    case Tok::kSize: {
      auto e = Make(t.kind == Tok::kDuration ? EK::kDuration : EK::kSize, t.loc);
      e->int_value = static_cast<int64_t>(t.uint_value);
      e->text = std::string(t.suffix());  // the unit as written (a sandbox entry checks it fits)
      return e;
    }
    default: {
      auto e = Make(EK::kBool, t.loc);
      e->int_value = t.text == "true";
      return e;
    }
  }
}

ExprPtr Parser::ParsePrimary() {
  if (pre_primary_) return std::move(pre_primary_);
  const Loc begin = Peek().loc;
  return Spanned(ParsePrimaryUnspanned(), begin);
}

ExprPtr Parser::ParsePrimaryUnspanned() {
  const Token& t = Peek();
  switch (t.kind) {
    case Tok::kInt:
    case Tok::kFloat:
    case Tok::kStr:
    case Tok::kChar:
    case Tok::kDuration:
    case Tok::kSize: Bump(); return ParseLiteral(t, false);
    case Tok::kIdent:
      if (t.text == "sandbox" && Look(1).kind == Tok::kIdent) return ParseSandboxExpr();
      if (t.text == "arena" && (Look(1).kind == Tok::kLBrace ||
                                (Look(1).kind == Tok::kIdent &&
                                 (Look(2).kind == Tok::kLBrace || Look(2).kind == Tok::kColon))))
        return ParseArena();
      // `run Name { body }` runs body in the named sandbox item.
      if (t.text == "run" && Look(1).kind == Tok::kIdent && Look(2).kind == Tok::kLBrace) {
        Bump();
        auto e = Make(EK::kSandbox, t.loc);
        e->text = Bump().text;
        e->then_block = ParseBlock();
        return e;
      }
      // `run Name` alone runs the named sandbox item's own body.
      if (t.text == "run" && Look(1).kind == Tok::kIdent && IsUpper(Look(1).text) &&
          (Look(2).kind == Tok::kNewline || Look(2).kind == Tok::kSemi ||
           Look(2).kind == Tok::kRBrace || Look(2).kind == Tok::kEof ||
           Look(2).kind == Tok::kRParen || Look(2).kind == Tok::kComma)) {
        Bump();
        auto e = Make(EK::kSandbox, t.loc);
        e->loc = Peek().loc;
        e->text = Bump().text;
        return e;  // then_block null: the item's body
      }
      // `run e` (a sandbox body's job) is just `e`.
      if (t.text == "run" && (Look(1).kind == Tok::kIdent || Look(1).kind == Tok::kLBrace)) {
        Bump();
        return ParsePrimary();
      }
      if (t.text == "matches" && Look(1).kind == Tok::kBang && Look(2).kind == Tok::kLParen &&
          !sh_.macros.count(t.text))
        return ParseMatches();
      if (t.text == "budget" && BudgetBlockAhead()) return ParseBudget();
      if (Look(1).kind == Tok::kBang && Look(2).kind == Tok::kLParen) return ParseMacroCall(true);
      // `vec![a, b]`, `vec![x; n]`: the array literal (builtin_macros.h).
      if (t.text == "vec" && Look(1).kind == Tok::kBang && Look(2).kind == Tok::kLBracket &&
          !sh_.macros.count(t.text)) {
        Bump();
        Bump();
        return ParseArray();
      }
      // Upstream compatibility: a plain call of a user macro expands too.
      if (Look(1).kind == Tok::kLParen && sh_.macros.count(t.text)) return ParseMacroCall(false);
      return ParsePathExpr();
    case Tok::kKeyword: {
      const std::string& w = t.text;
      if (w == "true" || w == "false") {
        Bump();
        return ParseLiteral(t, false);
      }
      if (w == "self") {
        Bump();
        auto e = Make(EK::kPath, t.loc);
        e->segs.push_back(PathSeg{"self", t.loc});
        return e;
      }
      if (w == "if") return ParseIf();
      if (w == "match") return ParseMatch();
      if (w == "while") return ParseWhile();
      if (w == "for") return ParseFor();
      if (w == "loop") {
        Bump();
        auto e = Make(EK::kLoop, t.loc);
        LabelLoop(*e);
        e->then_block = ParseBlock();
        return e;
      }
      if (w == "unsafe") {
        Bump();
        auto e = Make(EK::kUnsafe, t.loc);
        e->then_block = ParseBlock();
        return e;
      }
      if (w == "continue") {
        Bump();
        auto e = Make(EK::kContinue, t.loc);
        if (At(Tok::kLabel)) {
          e->more->label = Peek().text;
          e->more->label_loc = Bump().loc;
        }
        return e;
      }
      if (w == "break" || w == "return") {
        Bump();
        auto e = Make(w == "break" ? EK::kBreak : EK::kReturn, t.loc);
        if (w == "break" && At(Tok::kLabel)) {
          e->more->label = Peek().text;
          e->more->label_loc = Bump().loc;
        }
        if (CanStartExpr(Peek()) && !At(Tok::kLBrace)) e->lhs = ParseExpr();
        return e;
      }
      if (w == "spawn") return ParseSpawn();
      if (w == "fn" && Look(1).kind == Tok::kLParen) return ParseLambda();
      FailExpected("an expression", t, "", "MT0011");
    }
    case Tok::kLabel:
      if (Look(1).kind == Tok::kColon) {  // `'a: loop { .. }` as an expression
        TakeLabel();
        return ParsePrimary();
      }
      FailExpected("an expression", t,
                   "a character literal needs its closing quote: `'" + t.text.substr(0, 1) + "'`",
                   "MT0011");
    case Tok::kLParen: return ParseParenOrTuple();
    case Tok::kLBracket: return ParseArray();
    case Tok::kLBrace: return ParseBlockExpr();
    case Tok::kPipe:
    case Tok::kPipePipe: return ParseClosure();
    default: FailExpected("an expression", t, "", "MT0011");
  }
}

ExprPtr Parser::ParsePathExpr() {
  const Token& first = Bump();
  if (!At(Tok::kColonColon)) return NamePath(first.text, first.loc);
  auto e = Make(EK::kPath, first.loc);
  // `u64::MAX`, `i32::from(x)`: a primitive's path takes Mighty's name, as
  // its type does.
  e->segs.push_back(PathSeg{std::string(MightyTypeName(first.text)), first.loc});
  while (At(Tok::kColonColon)) {
    Bump();
    if (AtGenerics()) {  // turbofish `Path::[T, U]` / `Path::<T, U>`
      std::vector<TypeExpr> ts = ParseTurbofish();
      // On the path's last segment (`id::[I64](1)`) they are the callee's;
      // on a type's (`Vec::<I64>::new()`) the type's.
      if (!At(Tok::kColonColon)) {
        e->more->type_args = std::move(ts);
        e->more->has_type_args = true;
      } else {
        e->more->owner_type_args = std::move(ts);
      }
      continue;
    }
    const Token& n = Peek();
    if (n.kind != Tok::kIdent) FailExpected("an identifier", n);
    Bump();
    e->segs.push_back(PathSeg{n.text, n.loc});
  }
  StripRustStdPath(e->segs);
  if (e->segs.size() == 2 && !At(Tok::kLParen) && !e->more->has_type_args)
    if (ExprPtr f = LibraryFnValue(*e)) return f;
  return e;
}

// Rust's full paths of what is built in: `std::cmp::Reverse(x)`,
// `std::collections::HashMap::new()`, `std::i64::MAX` are `Reverse(x)`,
// `HashMap::new()`, `I64::MAX`. (`std::fs` and the other effect modules,
// `std::f64::consts`, and `std::cmp::max`/`min`, which the checker and the lowering read as
// CmpFn, keep their paths.)
void Parser::StripRustStdPath(std::vector<PathSeg>& segs) {
  if (segs.size() < 3 || segs[0].name != "std") return;
  static constexpr std::string_view kModules[] = {"cmp", "collections", "string", "vec",    "num",
                                                  "fmt", "iter",        "ops",    "convert"};
  const std::string m = segs[1].name;
  if (m == "cmp" && segs.size() == 3 && (segs[2].name == "max" || segs[2].name == "min")) return;
  if (std::find(std::begin(kModules), std::end(kModules), m) != std::end(kModules)) {
    segs.erase(segs.begin(), segs.begin() + 2);
  } else if (MightyTypeName(m) != m && m != "f64" && m != "f32") {  // `std::u64::MAX`
    segs.erase(segs.begin());
    segs[0].name = std::string(MightyTypeName(m));
  }
}

namespace {
// How many arguments `T::name` takes as a function value (Rust's
// `String::from`, `i64::max`), its receiver included for a method; -1: not
// a function of a library type this parser knows.
int LibraryFnArity(std::string_view type, std::string_view name, bool* is_method) {
  static constexpr std::string_view kTypes[] = {
      "Vec",  "String", "Str", "HashMap", "Map", "Char", "Bool", "I8",    "I16", "I32", "I64",
      "I128", "ISize",  "U8",  "U16",     "U32", "U64",  "U128", "USize", "F32", "F64", "Option"};
  if (std::find(std::begin(kTypes), std::end(kTypes), type) == std::end(kTypes)) return -1;
  if (name.empty() || !std::islower(static_cast<unsigned char>(name[0]))) return -1;
  *is_method = false;
  if (name == "new" || name == "default") return 0;
  if (name == "from" || name == "with_capacity" || name == "from_u32" || name == "from_utf8" ||
      name == "from_str")
    return 1;
  if (name == "from_digit" || name == "from_str_radix") return 2;
  *is_method = true;
  // A built-in method: its receiver and the arguments its row requires.
  const std::optional<ir::Recv> recv =
      type == "F64" || type == "F32"      ? std::optional(ir::Recv::kFloat)
      : type == "Str" || type == "String" ? std::optional(ir::Recv::kStr)
      : type == "Char"                    ? std::optional(ir::Recv::kChar)
      : type == "Bool"                    ? std::optional(ir::Recv::kBool)
      : type == "Vec"                     ? std::optional(ir::Recv::kArray)
      : type[0] == 'I' || type[0] == 'U'  ? std::optional(ir::Recv::kInt)
                                          : std::nullopt;
  if (std::optional<ir::MethodName> id = ir::FindMethodName(name); recv && id)
    if (const ir::MethodInfo* row = ir::FindMethod(*recv, *id)) return row->min + 1;
  static constexpr std::string_view kBinary[] = {
      "max",        "min",      "cmp",   "partial_cmp", "total_cmp", "pow",  "powi",
      "powf",       "abs_diff", "eq",    "ne",          "lt",        "le",   "gt",
      "ge",         "contains", "push",  "push_str",    "extend",    "get",  "rem_euclid",
      "div_euclid", "atan2",    "hypot", "starts_with", "ends_with", "then", "unwrap_or"};
  if (std::find(std::begin(kBinary), std::end(kBinary), name) != std::end(kBinary) ||
      name.starts_with("wrapping_") || name.starts_with("saturating_") ||
      name.starts_with("checked_") || name.starts_with("overflowing_"))
    return 2;
  return 1;
}
}  // namespace

ExprPtr Parser::LibraryFnValue(const Expr& path) {
  bool is_method = false;
  const int n = LibraryFnArity(path.segs[0].name, path.segs[1].name, &is_method);
  if (n < 0) return nullptr;
  // The closure that calls it: `|a| String::from(a)`, `|a, b| a.max(b)`.
  const Loc at = path.loc;
  auto closure = Make(EK::kClosure, at);
  std::vector<ExprPtr> args;
  for (int i = 0; i < n; ++i) {
    ClosureParam p;
    p.pat = std::make_unique<Pattern>();
    p.pat->kind = Pattern::Kind::kBind;
    p.pat->loc = at;
    p.pat->name = absl::StrCat("__mty_arg", i);
    closure->more->params.push_back(std::move(p));
    args.push_back(NamePath(absl::StrCat("__mty_arg", i), at));
  }
  ExprPtr call;
  if (is_method) {
    call = Make(EK::kMethodCall, at);
    call->lhs = std::move(args[0]);
    call->text = path.segs[1].name;
    for (size_t i = 1; i < args.size(); ++i) call->args.push_back(std::move(args[i]));
  } else {
    call = Make(EK::kCall, at);
    auto callee = Make(EK::kPath, at);
    callee->segs = path.segs;
    call->lhs = std::move(callee);
    call->args = std::move(args);
  }
  closure->more->closure_body = std::move(call);
  return closure;
}

ExprPtr Parser::ParseParenOrTuple() {
  Loc o = Open(Tok::kLParen, true);
  Restrict r(this, false);
  if (At(Tok::kRParen)) {
    Close(Tok::kRParen, o);
    return Make(EK::kUnit, o);
  }
  ExprPtr first = ParseExpr();
  if (!At(Tok::kComma)) {
    Close(Tok::kRParen, o);
    return first;
  }
  auto t = Make(EK::kTuple, o);
  t->args.push_back(std::move(first));
  while (Eat(Tok::kComma)) {
    if (At(Tok::kRParen)) break;
    t->args.push_back(ParseExpr());
  }
  Close(Tok::kRParen, o);
  return t;
}

ExprPtr Parser::ParseArray() {
  Loc o = Open(Tok::kLBracket, true);
  Restrict r(this, false);
  auto a = Make(EK::kArray, o);
  while (!At(Tok::kRBracket)) {
    a->args.push_back(ParseExpr());
    if (a->args.size() == 1 && Eat(Tok::kSemi)) {  // `[x; n]`: n copies of x
      SkipNl();
      a->rhs = ParseExpr();
      SkipNl();
      break;
    }
    if (!Eat(Tok::kComma)) break;
  }
  Close(Tok::kRBracket, o);
  return a;
}

// `{` starts a map literal when followed by a literal (optionally negative)
// and `:`: `{ "k": 1 }`, `{ 1: "a" }`. A block never starts that way.
bool Parser::IsMapStart() const {
  size_t i = NextNonNl(pos_ + 1);
  if (Tk(i).kind == Tok::kMinus) ++i;
  Tok k = Tk(i).kind;
  bool lit = k == Tok::kStr || k == Tok::kInt || k == Tok::kChar || k == Tok::kFloat ||
             IsKw(Tk(i), "true") || IsKw(Tk(i), "false");
  return lit && Tk(i + 1).kind == Tok::kColon;
}

ExprPtr Parser::ParseBlockExpr() {
  SkipNl();
  const Token& t = Peek();
  if (t.kind == Tok::kLBrace && IsMapStart()) return ParseMapBody(t.loc);
  auto e = Make(EK::kBlock, t.loc);
  e->then_block = ParseBlock();
  return e;
}

// `{ k: v, ... }` (newlines or commas between entries).
ExprPtr Parser::ParseMapBody(Loc loc) {
  auto m = Make(EK::kMap, loc);
  Restrict r(this, false);
  BraceList([&] {
    minus_entry_ = false;
    ExprPtr k = ParseExpr();
    Expect(Tok::kColon);
    SkipNl();
    m->args.push_back(std::move(k));
    minus_entry_ = true;  // `-2: v` on the next line is the next entry
    m->args.push_back(ParseExpr());
    minus_entry_ = false;
  });
  return m;
}

ExprPtr Parser::ParseStructBody(std::vector<PathSeg> segs, Loc loc) {
  auto s = Make(EK::kStruct, loc);
  s->segs = std::move(segs);
  Restrict r(this, false);
  BraceList([&] {
    if (At(Tok::kDotDot)) {  // `..base`: the fields not named come from base
      const Token& dd = Bump();
      if (s->rhs) Fail(dd, "a struct literal takes one `..base`");
      s->rhs = ParseExpr();
      if (!At(Tok::kRBrace) && PeekPastNl().kind != Tok::kRBrace)
        Fail(dd, "`..base` must be the last entry of a struct literal",
             "name the fields first: `P { x: 1, ..base }`");
      return;
    }
    FieldInit f;
    const Token& n = Peek();
    f.loc = n.loc;
    f.name = ExpectIdent("a field name");
    if (Eat(Tok::kColon)) {
      SkipNl();
      f.value = ParseExpr();
    } else {
      f.value = NamePath(n.text, n.loc);  // shorthand `Point { x }`
    }
    s->more->fields.push_back(std::move(f));
  });
  return s;
}

void Parser::CheckCondition(ExprPtr& cond, const char* what) {
  if (!cond || cond->kind != EK::kAssign) return;
  const std::string kw = std::string("`") + what + "`";
  const bool spanned = cond->begin.line != 0;
  Diagnostic* d = ReportAt(
      "MT0018", spanned ? cond->begin : cond->loc,
      "expected a condition after " + kw + ", found an assignment",
      cond->has_op ? "a condition is a Bool; assign before the " + kw : "use `==` to compare");
  if (d) {
    if (spanned) d->end = cond->end;
    d->label = "an assignment, not a comparison";
  }
  if (cond->has_op) return;
  cond->kind = EK::kBinary;  // recover as the comparison meant
  cond->binary_op = BinaryOp::kEq;
}

void Parser::CheckParens(size_t start, const Expr& cond, const char* what) {
  size_t last = pos_;
  while (last > start && Tk(last - 1).kind == Tok::kNewline) --last;
  if (last < start + 2 || cond.kind == EK::kTuple || Tk(start).kind != Tok::kLParen ||
      Tk(last - 1).kind != Tok::kRParen)
    return;
  // The `(` must be closed by that last `)`, not before: `(a) + (b)` needs them.
  int depth = 0;
  for (size_t i = start; i + 1 < last; ++i) {
    const Tok k = Tk(i).kind;
    if (k == Tok::kLParen || k == Tok::kLBracket || k == Tok::kLBrace) ++depth;
    if (k == Tok::kRParen || k == Tok::kRBracket || k == Tok::kRBrace) --depth;
    if (depth == 0) return;
  }
  const Loc open = Tk(start).loc;
  if (!sh_.warned.insert({open.line, open.col}).second) return;
  Diagnostic& d = sh_.diags->Warning(
      "MT0040", open, std::string("unnecessary parentheses around `") + what + "` condition",
      "remove these parentheses");
  d.labels.push_back(Label{Tk(last - 1).loc, {}, ""});
}

void Parser::TakeLabel() {
  const Token& t = Bump();  // the label
  Bump();                   // `:`
  const Token& n = PeekPastNl();
  if (!IsKw(n, "loop") && !IsKw(n, "while") && !IsKw(n, "for"))
    Fail(t, "a label must be followed by a loop, found " + Describe(n),
         "labels name `loop`, `while` and `for` loops: `'" + t.text + ": loop { .. }`", "MT0019");
  SkipNl();
  pending_label_ = t.text;
  pending_label_loc_ = t.loc;
}

void Parser::LabelLoop(Expr& e) {
  e.more->label = std::move(pending_label_);
  e.more->label_loc = pending_label_loc_;
  pending_label_.clear();
  pending_label_loc_ = Loc{};
}

// The head of `if`/`while` at `loc` (`what`): `let PAT = e` (a `let_kind`
// node), else a condition (a `kind` node).
ExprPtr Parser::ParseCondHead(Loc loc, EK kind, EK let_kind, const char* what) {
  ExprPtr e;
  if (AtKw("let")) {
    Bump();
    e = Make(let_kind, loc);
    e->more->pat = ParsePatternTop();
    ExpectEq();
    e->lhs = ParseExprNoStruct();
  } else {
    e = Make(kind, loc);
    const size_t start = NextNonNl(pos_);
    e->more->cond = ParseExprNoStruct();
    CheckCondition(e->more->cond, what);
    CheckParens(start, *e->more->cond, what);
  }
  return e;
}

ExprPtr Parser::ParseIf() {
  DepthGuard g(this);  // `else if` chains recurse
  const Token& t = Bump();
  ExprPtr e = ParseCondHead(t.loc, EK::kIf, EK::kIfLet, "if");
  e->then_block = ParseBlock();
  if (IsKw(PeekPastNl(), "else")) {
    SkipNl();
    Bump();
    if (AtKw("if")) {
      e->more->else_expr = ParseIf();
    } else {
      SkipNl();
      auto b = Make(EK::kBlock, Peek().loc);
      b->then_block = ParseBlock();
      e->more->else_expr = std::move(b);
    }
  }
  return e;
}

ExprPtr Parser::ParseWhile() {
  const Token& t = Bump();
  std::string label = std::move(pending_label_);
  const Loc label_loc = pending_label_loc_;
  pending_label_.clear();
  ExprPtr e = ParseCondHead(t.loc, EK::kWhile, EK::kWhileLet, "while");
  e->more->label = std::move(label);
  e->more->label_loc = label_loc;
  e->then_block = ParseBlock();
  return e;
}

ExprPtr Parser::ParseFor() {
  const Token& t = Bump();
  auto e = Make(EK::kFor, t.loc);
  LabelLoop(*e);
  e->more->pat = ParsePatternTop();
  if (!AtKw("in")) FailExpected("'in'", Peek());
  Bump();
  e->lhs = ParseExprNoStruct();
  e->then_block = ParseBlock();
  return e;
}

// A match arm's pattern (after an optional leading `|`) and guard.
MatchArm Parser::ParseArmHead() {
  MatchArm a;
  a.loc = Peek().loc;
  Eat(Tok::kPipe);
  a.pat = ParsePatternTop(true);
  if (AtKw("if")) {
    Bump();
    a.guard = ParseExpr();
  }
  return a;
}

ExprPtr Parser::ParseMatch() {
  const Token& t = Bump();
  auto e = Make(EK::kMatch, t.loc);
  e->lhs = ParseExprNoStruct();
  SkipNl();
  Restrict r(this, false);
  BraceList([&] {
    MatchArm a = ParseArmHead();
    SkipNl();
    Expect(Tok::kFatArrow);
    SkipNl();
    if (At(Tok::kLBrace) && !IsMapStart()) {
      a.body = ParseBlockExpr();
    } else {
      minus_entry_ = true;
      a.body = ParseExpr();
      minus_entry_ = false;
    }
    e->more->arms.push_back(std::move(a));
  });
  return e;
}

ExprPtr Parser::ParseClosure() {
  const Token& t = Bump();
  auto e = Make(EK::kClosure, t.loc);
  if (t.kind == Tok::kPipe) {
    while (true) {
      SkipNl();
      if (At(Tok::kPipe)) break;
      ClosureParam p;
      p.pat = ParsePattern();
      if (Eat(Tok::kColon)) p.type = ParseType();
      e->more->params.push_back(std::move(p));
      SkipNl();
      if (!Eat(Tok::kComma)) break;
    }
    SkipNl();
    Expect(Tok::kPipe);
  }
  if (Eat(Tok::kArrow)) {
    e->more->type = ParseType();  // the declared result
    e->more->closure_body = ParseBlockExpr();
    return e;
  }
  SkipNl();
  e->more->closure_body = ParseExpr();
  return e;
}

ExprPtr Parser::ParseLambda() {
  const Token& t = Bump();  // fn
  auto e = Make(EK::kClosure, t.loc);
  for (Param& p : ParseParams(false)) {
    ClosureParam cp;
    cp.pat = std::make_unique<Pattern>();
    cp.pat->kind = Pattern::Kind::kBind;
    cp.pat->loc = p.loc;
    cp.pat->name = std::move(p.name);
    cp.pat->is_mut = p.is_mut;
    cp.type = std::move(p.type);
    e->more->params.push_back(std::move(cp));
  }
  if (PeekPastNl().kind == Tok::kArrow) {
    SkipNl();
    Bump();
    e->more->type = ParseType();  // the declared result
  }
  SkipNl();
  if (!At(Tok::kLBrace)) FailExpected("'{' (a lambda's body is a block)", Peek());
  e->more->closure_body = ParseBlockExpr();
  return e;
}

ExprPtr Parser::ParseSpawn() {
  const Token& t = Bump();  // spawn
  auto e = Make(EK::kSpawn, t.loc);
  const Token& n = Peek();
  if (n.kind != Tok::kIdent) FailExpected("an agent name", n);
  Bump();
  e->segs.push_back(PathSeg{n.text, n.loc});
  while ((At(Tok::kDot) || At(Tok::kColonColon)) && Look(1).kind == Tok::kIdent) {
    Bump();
    const Token& s = Bump();
    e->segs.push_back(PathSeg{s.text, s.loc});
  }
  if (!At(Tok::kLParen))
    FailExpected("'('", Peek(), "spawn an agent with `spawn " + n.text + "(args)`");
  e->args = ParseArgs();
  return e;
}

// `sandbox Name with { entries } { body }`, `sandbox with { .. } { .. }`, or
// `sandbox Name { body }` (a named sandbox item).
ExprPtr Parser::ParseSandboxExpr() {
  const Token& t = Bump();
  auto e = Make(EK::kSandbox, t.loc);
  if (!AtId("with")) e->text = ExpectIdent("a sandbox name");
  if (AtId("with")) {
    Bump();
    e->more->entries = ParseEntries();
  }
  e->then_block = ParseBlock();
  return e;
}

ExprPtr Parser::ParseArena() {
  const Token& t = Bump();
  auto e = Make(EK::kArena, t.loc);
  if (Peek().kind == Tok::kIdent) e->text = Bump().text;
  if (At(Tok::kColon)) {  // `arena name: e`
    Bump();
    SkipNl();
    e->then_block = ParseExprAsBlock();
    return e;
  }
  e->then_block = ParseBlock();
  return e;
}

// `matches!(e, PAT)` / `matches!(e, PAT if guard)`: sugar for
// `match e { PAT if guard => true, _ => false }`.
ExprPtr Parser::ParseMatches() {
  const Token& name = Bump();
  Bump();  // !
  auto e = Make(EK::kMatch, name.loc);
  Loc o = Open(Tok::kLParen, true);
  {
    Restrict r(this, false);
    e->lhs = ParseExpr();
    if (!Eat(Tok::kComma))
      FailExpected("',' and a pattern", Peek(), "write `matches!(value, PATTERN)`");
    MatchArm a = ParseArmHead();
    Eat(Tok::kComma);
    auto yes = Make(EK::kBool, a.loc);
    yes->int_value = 1;
    a.body = std::move(yes);
    e->more->arms.push_back(std::move(a));
    MatchArm other;
    other.loc = name.loc;
    other.pat = MakePat(PK::kWild, name.loc);
    other.body = Make(EK::kBool, name.loc);
    e->more->arms.push_back(std::move(other));
  }
  Close(Tok::kRParen, o);
  return e;
}

// `budget { cpu 150ms  wall 2s } run { body }` (or `run expr`): the body
// under those limits, in a sandbox of limits only (grants are inherited).
ExprPtr Parser::ParseBudget() {
  const Token& t = Bump();  // budget
  auto e = Make(EK::kBudget, t.loc);
  e->more->entries = ParseEntries();
  SkipNl();
  if (!AtId("run"))
    FailExpected("'run'", Peek(),
                 "a budget applies to the block after it: `budget { .. } run { .. }`");
  Bump();
  if (At(Tok::kLBrace)) {
    e->then_block = ParseBlock();
    return e;
  }
  SkipNl();
  e->then_block = ParseExprAsBlock();
  return e;
}

// A block of the one expression that follows (`arena a: e`, `run e`).
std::unique_ptr<Block> Parser::ParseExprAsBlock() {
  auto b = std::make_unique<Block>();
  b->loc = Peek().loc;
  Stmt st;
  st.loc = Peek().loc;
  st.expr = ParseExpr();
  b->stmts.push_back(std::move(st));
  return b;
}

// =================================================================== patterns

// `p | q`; in a match arm an alternative may start the next line.
PatPtr Parser::ParsePatternTop(bool arm) {
  PatPtr first = ParsePattern();
  auto more = [&] {
    return At(Tok::kPipe) ||
           (arm && Peek().kind == Tok::kNewline && PeekPastNl().kind == Tok::kPipe);
  };
  if (!more()) return first;
  auto p = MakePat(PK::kOr, first->loc);
  p->subs.push_back(std::move(first));
  while (more()) {
    SkipNl();
    Bump();
    SkipNl();
    p->subs.push_back(ParsePattern());
  }
  return p;
}

PatPtr Parser::ParseLiteralPattern() {
  const Token& t = Peek();
  bool negative = false;
  Loc loc = t.loc;
  if (t.kind == Tok::kMinus) {
    Bump();
    negative = true;
    const Token& n = Peek();
    if (n.kind != Tok::kInt && n.kind != Tok::kFloat) FailExpected("a number", n);
  }
  const Token& lit = Bump();
  ExprPtr e = ParseLiteral(lit, negative);
  e->loc = loc;
  if (At(Tok::kDotDot) || At(Tok::kDotDotEq)) {
    auto r = MakePat(PK::kRange, loc);
    r->inclusive = Bump().kind == Tok::kDotDotEq;
    r->lit = std::move(e);
    if (r->inclusive || StartsRangeBound()) r->hi = ParseRangeBound();  // else `5..`
    return r;
  }
  auto p = MakePat(PK::kLit, loc);
  p->lit = std::move(e);
  return p;
}

bool Parser::StartsRangeBound() {
  Tok k = Peek().kind;
  return k == Tok::kMinus || k == Tok::kInt || k == Tok::kFloat || k == Tok::kChar ||
         k == Tok::kIdent;
}

// The upper bound of a range pattern: a number (maybe negative), a char, or
// a constant's path.
ExprPtr Parser::ParseRangeBound() {
  const Token& h = Peek();
  if (h.kind == Tok::kIdent) return ParsePathExpr();
  bool neg = Eat(Tok::kMinus);
  const Token& hv = Peek();
  if (hv.kind != Tok::kInt && hv.kind != Tok::kFloat && (neg || hv.kind != Tok::kChar))
    FailExpected(neg ? "a number" : "the upper bound of the range", hv);
  Bump();
  ExprPtr e = ParseLiteral(hv, neg);
  e->loc = h.loc;
  return e;
}

// `[]`, `[x]`, `[first, ..]`, `[.., last]`, `[a, b, rest @ ..]`: one `..`
// at most, standing for the elements between (bound by `name @ ..`).
PatPtr Parser::ParseSlicePattern() {
  Loc o = Open(Tok::kLBracket, true);
  auto p = MakePat(PK::kSlice, o);
  auto at_rest_end = [&](size_t n) {
    Tok k = Look(n).kind;
    return k == Tok::kComma || k == Tok::kRBracket || k == Tok::kNewline;
  };
  while (!At(Tok::kRBracket)) {
    const Token& t = Peek();
    PatPtr rest;
    if (t.kind == Tok::kDotDot && at_rest_end(1)) {
      Bump();
      rest = MakePat(PK::kWild, t.loc);
    } else if (t.kind == Tok::kIdent && Look(1).kind == Tok::kAt && Look(2).kind == Tok::kDotDot &&
               at_rest_end(3)) {
      Bump();
      Bump();
      Bump();
      rest = MakePat(PK::kBind, t.loc);
      rest->name = Bind(t.text);
    }
    if (rest) {
      if (p->rest_index >= 0)
        Fail(t, "`..` can only be used once per slice pattern",
             "one `..` stands for all the elements between the others");
      p->rest_index = static_cast<int>(p->subs.size());
      p->subs.push_back(std::move(rest));
    } else {
      p->subs.push_back(ParsePatternTop());
    }
    if (!Eat(Tok::kComma)) break;
  }
  Close(Tok::kRBracket, o);
  return p;
}

PatPtr Parser::ParsePattern() {
  DepthGuard g(this);
  const Token& t = Peek();
  switch (t.kind) {
    case Tok::kMinus:
    case Tok::kInt:
    case Tok::kFloat:
    case Tok::kStr:
    case Tok::kChar:
    case Tok::kDuration:
    case Tok::kSize: return ParseLiteralPattern();
    case Tok::kAmp:
    case Tok::kAmpAmp: {
      Bump();
      if (AtKw("mut")) Bump();
      auto p = MakePat(PK::kRef, t.loc);
      p->subs.push_back(ParsePattern());
      if (t.kind == Tok::kAmpAmp) {
        auto outer = MakePat(PK::kRef, t.loc);
        outer->subs.push_back(std::move(p));
        return outer;
      }
      return p;
    }
    case Tok::kLBracket: return ParseSlicePattern();
    case Tok::kDotDot:
    case Tok::kDotDotEq: {  // `..=9`, `..9`: a range open below
      Bump();
      auto r = MakePat(PK::kRange, t.loc);
      r->inclusive = t.kind == Tok::kDotDotEq;
      r->hi = ParseRangeBound();
      return r;
    }
    case Tok::kLParen: {
      auto p = MakePat(PK::kTuple, t.loc);
      const bool comma =
          CommaList(Tok::kLParen, Tok::kRParen, [&] { p->subs.push_back(ParsePatternTop()); });
      if (p->subs.size() == 1 && !comma) return std::move(p->subs[0]);  // `(p)`
      return p;
    }
    case Tok::kKeyword: {
      if (t.text == "true" || t.text == "false") return ParseLiteralPattern();
      if (t.text == "mut") {
        Bump();
        const Token& n = Peek();
        if (n.kind != Tok::kIdent) FailExpected("a binding name", n);
        Bump();
        auto p = BindPat(Bind(n.text), n.loc, true);
        if (Eat(Tok::kAt)) p->subs.push_back(ParsePattern());
        return p;
      }
      if (t.text == "self") {
        Bump();
        return BindPat("self", t.loc, false);
      }
      FailExpected("a pattern", t);
    }
    case Tok::kIdent:
      if (t.text == "_") {
        Bump();
        return MakePat(PK::kWild, t.loc);
      }
      return ParsePathPattern();
    default: FailExpected("a pattern", t);
  }
}

// A pattern that starts with a name: a binding (`x`, `x @ p`), a variant
// (`Some(x)`, `None`, `Shape.Empty`), a struct (`P { x, y: 0, .. }`) or a
// range between constants (`MIN..=MAX`).
PatPtr Parser::ParsePathPattern() {
  const Token& t = Peek();
  if (IsId(t, "ref") && Look(1).kind == Tok::kIdent) Bump();
  std::vector<PathSeg> path;
  const Token& first = Bump();
  path.push_back(PathSeg{first.text, first.loc});
  while ((At(Tok::kDot) || At(Tok::kColonColon)) && Look(1).kind == Tok::kIdent) {
    Bump();
    const Token& s = Bump();
    path.push_back(PathSeg{s.text, s.loc});
  }
  if (At(Tok::kLParen)) {
    auto p = MakePat(PK::kVariant, t.loc);
    p->path = std::move(path);
    p->has_parens = true;
    CommaList(Tok::kLParen, Tok::kRParen, [&] { p->subs.push_back(ParsePatternTop()); });
    return p;
  }
  if (At(Tok::kLBrace)) return ParseStructPattern(std::move(path), t.loc);
  if (path.size() == 1 && At(Tok::kAt)) {
    Bump();
    auto p = BindPat(Bind(first.text), t.loc, false);
    p->subs.push_back(ParsePattern());
    return p;
  }
  if (At(Tok::kDotDot) || At(Tok::kDotDotEq)) {  // `MIN..=MAX` with constants
    auto r = MakePat(PK::kRange, t.loc);
    auto lo = Make(EK::kPath, t.loc);
    lo->segs = std::move(path);
    r->lit = std::move(lo);
    r->inclusive = Bump().kind == Tok::kDotDotEq;
    if (r->inclusive || StartsRangeBound()) r->hi = ParseRangeBound();  // else `MIN..`
    return r;
  }
  if (path.size() == 1 && !IsUpper(first.text)) {
    // A macro parameter in binding position binds the caller's name.
    if (subst_) {
      auto it = subst_->find(first.text);
      if (it != subst_->end() && it->second->kind == EK::kPath && it->second->segs.size() == 1)
        return BindPat(it->second->segs[0].name, t.loc, false);
    }
    return BindPat(Bind(first.text), t.loc, false);
  }
  auto p = MakePat(PK::kVariant, t.loc);  // a bare (unit) variant: `None`, `Shape.Empty`
  p->path = std::move(path);
  return p;
}

// `P { x, mut y, z: pat, .. }`: fields by name, a bare name binding itself.
PatPtr Parser::ParseStructPattern(std::vector<PathSeg> path, Loc loc) {
  auto p = MakePat(PK::kStruct, loc);
  p->path = std::move(path);
  BraceList([&] {
    if (At(Tok::kDotDot)) {
      Bump();
      p->has_rest = true;
      return;
    }
    bool mut = false;
    if (AtKw("mut")) {
      Bump();
      mut = true;
    }
    const Token& f = Peek();
    std::string field = ExpectIdent("a field name");
    if (!mut && Eat(Tok::kColon)) {
      SkipNl();
      p->subs.push_back(ParsePatternTop());
    } else {
      p->subs.push_back(BindPat(Bind(field), f.loc, mut));
    }
    p->field_names.push_back(std::move(field));
  });
  return p;
}

}  // namespace parser_internal

Module Parse(const SourceFile& file, Diagnostics& diags) {
  using parser_internal::FatalError;
  using parser_internal::Parser;
  using parser_internal::Shared;
  if (file.text.size() > ir::kMaxProgramBytes) {
    diags.Error("MT0032", Loc{1, 1}, ir::ProgramTooLargeMessage(file.text.size()));
    Module m;
    m.file = file.name;
    return m;
  }
  Diagnostics lex_diags, parse_diags;
  LexResult lexed = Lex(file.text, lex_diags);
  if (file.library)
    for (auto& t : lexed.tokens) t.loc = Loc{};
  Shared sh;
  sh.diags = &parse_diags;
  for (const Diagnostic& d : lex_diags.list()) sh.reported.insert({d.loc.line, d.loc.col});
  sh.toks = &lexed.tokens;
  sh.src = file.text;
  size_t n = lexed.tokens.size() - 1;  // without the end-of-file token
  parser_internal::PrescanMacros(sh, n);
  Module m;
  m.file = file.name;
  Parser p(sh, 0, n, lexed.tokens.back(), lexed.eof_error);
  try {
    p.ParseItems(m);
  } catch (FatalError&) {
    // MT0007 was reported; what parsed so far is returned.
  }
  // Lexer and parser diagnostics, in source order.
  std::vector<Diagnostic> all = lex_diags.list();
  all.insert(all.end(), parse_diags.list().begin(), parse_diags.list().end());
  std::stable_sort(all.begin(), all.end(), [](const Diagnostic& a, const Diagnostic& b) {
    return a.loc.line != b.loc.line ? a.loc.line < b.loc.line : a.loc.col < b.loc.col;
  });
  for (Diagnostic& d : all) diags.Add(std::move(d));
  return m;
}

}  // namespace mty::frontend
