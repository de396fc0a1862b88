// Program::ReadSourceInput: how `mty repl` reads what was typed (items, or
// the statements of a block body with where each starts), from the parser's
// own AST, so that the REPL never re-implements the grammar.
#include <algorithm>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "mty/frontend/diagnostics.h"
#include "mty/frontend/parser.h"
#include "mty/mty.h"
#include "mty/vocab/utf8.h"

namespace mty {

namespace {

using frontend::Pattern;

// The byte offset of 1-based line `line`, column `col` (columns count
// scalars, as the lexer's do) in `text`; text.size() past its end.
size_t OffsetOf(std::string_view text, uint32_t line, uint32_t col) {
  size_t at = 0;
  for (uint32_t l = 1; l < line; ++l) {
    size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) return text.size();
    at = nl + 1;
  }
  size_t end = text.find('\n', at);
  std::string_view rest =
      text.substr(at, end == std::string_view::npos ? text.size() - at : end - at);
  size_t off = ir::Utf8Offset(rest, col > 0 ? col - 1 : 0);
  return off == std::string_view::npos ? at + rest.size() : at + off;
}

// The names a pattern binds, in order (an alternative binds the same names
// in each branch: the first one's).
void Bindings(const Pattern& p, std::vector<std::pair<std::string, bool>>* out) {
  switch (p.kind) {
    case Pattern::Kind::kBind: out->emplace_back(p.name, p.is_mut); break;
    case Pattern::Kind::kOr:
      if (!p.subs.empty() && p.subs[0]) Bindings(*p.subs[0], out);
      return;
    default: break;
  }
  for (const auto& sub : p.subs)
    if (sub) Bindings(*sub, out);
}

void ItemNames(const frontend::Item& it, std::vector<std::string>* out) {
  using K = frontend::Item::Kind;
  switch (it.kind) {
    case K::kFn: out->push_back(it.fn.name); break;
    case K::kStruct: out->push_back(it.struct_decl->name); break;
    case K::kEnum: out->push_back(it.enum_decl->name); break;
    case K::kTrait: out->push_back(it.trait_decl->name); break;
    case K::kConst: out->push_back(it.const_decl->name); break;
    case K::kTypeAlias: out->push_back(it.alias_decl->name); break;
    case K::kProtocol: out->push_back(it.protocol_decl->name); break;
    case K::kAgent: out->push_back(it.agent_decl->name); break;
    case K::kSupervisor: out->push_back(it.supervisor_decl->name); break;
    case K::kSandbox: out->push_back(it.sandbox_decl->name); break;
    case K::kMacro: out->push_back(it.macro_decl->name); break;
    case K::kImpl:
    case K::kUse: break;
  }
}

// Whether more lines may complete the text: an unclosed delimiter, block
// comment or string, or an expression still wanted at the end (`1 +`).
// (an error at `end_line`, the line after the text: something was still
// expected when it ended).
bool Incomplete(const frontend::Diagnostics& diags, uint32_t end_line) {
  for (const frontend::Diagnostic& d : diags.list()) {
    if (d.severity != frontend::Severity::kError) continue;
    if (d.code == "MT0012" || d.code == "MT0004") return true;
    // (MT0010 there: a `}` of the text closed the block early.)
    if (d.loc.line >= end_line && d.code != "MT0010") return true;
    if (d.code == "MT0002" && d.message.find("string") != std::string::npos) return true;
  }
  return false;
}

// The diagnostics of the wrapped text, moved up `shift` lines, rendered
// against the text itself.
std::string RenderShifted(const frontend::Diagnostics& diags, const frontend::SourceFile& file,
                          uint32_t shift) {
  frontend::Diagnostics out;
  auto up = [shift](frontend::Loc l) {
    if (l.line > shift)
      l.line -= shift;
    else if (l.line != 0)
      l = frontend::Loc{1, 1};
    return l;
  };
  for (const frontend::Diagnostic& d : diags.list()) {
    frontend::Diagnostic& n = d.severity == frontend::Severity::kError
                                  ? out.Error(d.code, up(d.loc), d.message, d.help)
                                  : out.Warning(d.code, up(d.loc), d.message, d.help);
    n.end = d.end.line == 0 ? d.end : up(d.end);
    for (frontend::Label l : d.labels) {
      l.loc = up(l.loc);
      if (l.end.line != 0) l.end = up(l.end);
      n.labels.push_back(std::move(l));
    }
  }
  return out.Render(file);
}

}  // namespace

absl::StatusOr<Program::SourceInput> Program::ReadSourceInput(std::string_view text,
                                                              std::string_view file_name) {
  // No std::bad_alloc leaves the API (runtime.md §2).
  try {
    return ReadSourceInputUnguarded(text, file_name);
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError("out of memory while reading the input");
  } catch (const std::length_error&) {
    return absl::ResourceExhaustedError("out of memory while reading the input");
  }
}

absl::StatusOr<Program::SourceInput> Program::ReadSourceInputUnguarded(std::string_view text,
                                                                       std::string_view file_name) {
  if (text.size() > ir::kMaxProgramBytes)
    return absl::InvalidArgumentError(absl::StrCat(std::string(file_name), ": error: input over ",
                                                   ir::kMaxProgramBytes, " bytes"));
  // A newline after the text: an error at its end is on the line after it.
  const frontend::SourceFile file{std::string(file_name), absl::StrCat(std::string(text), "\n")};
  uint32_t lines = 1;
  for (char ch : text) lines += ch == '\n';
  // As a file of items first.
  frontend::Diagnostics module_diags;
  frontend::Module module = frontend::Parse(file, module_diags);
  SourceInput out;
  if (!module_diags.HasErrors()) {
    out.items = !module.items.empty();
    for (const frontend::Item& it : module.items) ItemNames(it, &out.item_names);
    if (out.items) return out;
  }
  // An item with an error in it (not a statement, which is MT0010 at its
  // first token): the items' errors.
  const bool statement = module_diags.list().empty() || module_diags.list()[0].code == "MT0010";
  if (!statement) {
    std::string msg = module_diags.Render(file);
    return Incomplete(module_diags, lines + 1) ? absl::OutOfRangeError(msg)
                                               : absl::InvalidArgumentError(msg);
  }
  // As the body of a block: `fn _() {` on a line of its own, the text, `}`.
  const frontend::SourceFile wrapped{std::string(file_name),
                                     absl::StrCat("fn __input() {\n", std::string(text), "\n}\n")};
  frontend::Diagnostics diags;
  frontend::Module m = frontend::Parse(wrapped, diags);
  if (diags.HasErrors()) {
    std::string msg = RenderShifted(diags, file, 1);
    return Incomplete(diags, lines + 2) ? absl::OutOfRangeError(msg)
                                        : absl::InvalidArgumentError(msg);
  }
  if (m.items.size() != 1 || m.items[0].kind != frontend::Item::Kind::kFn || !m.items[0].fn.body)
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(file_name), ": error: expected statements or items"));
  for (const frontend::Stmt& s : m.items[0].fn.body->stmts) {
    Statement st;
    st.kind = s.kind == frontend::Stmt::Kind::kLet    ? Statement::Kind::kLet
              : s.kind == frontend::Stmt::Kind::kExpr ? Statement::Kind::kExpr
                                                      : Statement::Kind::kEmpty;
    st.offset = s.loc.line >= 2 ? OffsetOf(text, s.loc.line - 1, s.loc.col) : 0;
    st.offset = std::min(st.offset, text.size());
    if (s.kind == frontend::Stmt::Kind::kLet && s.pat) Bindings(*s.pat, &st.names);
    st.has_semi = s.has_semi;
    out.statements.push_back(std::move(st));
  }
  return out;
}

}  // namespace mty
