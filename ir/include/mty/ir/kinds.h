// The tables of MtyIR's kinds and operators, generated from kinds.def: each
// kind's keyword, text sample and layout facts, and the keyword lookups.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "mty/ir/ir.h"

namespace mty::ir {

// Texts are `const char*`: Debian's Abseil has its own string_view, which
// absl::StrCat takes and std::string_view is not.
struct StatementKindInfo {
  Statement::Kind kind;
  const char* keyword;  // "" for kAssign
  bool storage;         // Statement::place is dropped or marked live/dead
  const char* sample;   // canonical text of one statement
};

struct RvalueKindInfo {
  Rvalue::Kind kind;
  const char* keyword;  // "" when the text starts with an operand or an operator
  uint32_t min_ops;     // the fewest Rvalue::ops the verifier accepts
  bool uses_place;      // Rvalue::place is read (kRef, kMethodCall)
  const char* sample;   // canonical text of one rvalue
};

struct TerminatorKindInfo {
  Terminator::Kind kind;
  const char* keyword;
  const char* sample;  // canonical text of one terminator
};

struct BinOpInfo {
  BinOp op;
  const char* text;  // "+", "=="
  bool is_compare;   // declared with MTY_IR_COMPARE: a Bool result
};

struct UnOpInfo {
  UnOp op;
  const char* text;  // "-", "!"
};

// Every kind and operator, in the order of kinds.def (= enumerator order).
inline constexpr StatementKindInfo kStatementKinds[] = {
#define MTY_IR_STATEMENT(name, keyword, storage, sample) \
  {Statement::Kind::k##name, keyword, storage, sample},
#include "mty/ir/kinds.def"
};
inline constexpr RvalueKindInfo kRvalueKinds[] = {
#define MTY_IR_RVALUE(name, keyword, min_ops, uses_place, sample) \
  {Rvalue::Kind::k##name, keyword, min_ops, uses_place, sample},
#include "mty/ir/kinds.def"
};
inline constexpr TerminatorKindInfo kTerminatorKinds[] = {
#define MTY_IR_TERMINATOR(name, keyword, sample) {Terminator::Kind::k##name, keyword, sample},
#include "mty/ir/kinds.def"
};
inline constexpr BinOpInfo kBinOps[] = {
#define MTY_IR_BINOP(name, text) {BinOp::k##name, text, false},
#define MTY_IR_COMPARE(name, text) {BinOp::k##name, text, true},
#include "mty/ir/kinds.def"
};
inline constexpr UnOpInfo kUnOps[] = {
#define MTY_IR_UNOP(name, text) {UnOp::k##name, text},
#include "mty/ir/kinds.def"
};

namespace kinds_internal {
// Row i describes enumerator i, so Info() can index by the enum value.
template <typename Row, size_t N, typename Get>
constexpr bool RowsInEnumOrder(const Row (&rows)[N], Get get) {
  for (size_t i = 0; i < N; ++i)
    if (static_cast<size_t>(get(rows[i])) != i) return false;
  return true;
}
// No two rows share a keyword or a text ("" may repeat).
template <typename Row, size_t N, typename Get>
constexpr bool TextsUnique(const Row (&rows)[N], Get get) {
  for (size_t i = 0; i < N; ++i)
    for (size_t j = i + 1; j < N; ++j)
      if (std::string_view(get(rows[i])) == get(rows[j]) && *get(rows[i]) != '\0') return false;
  return true;
}
}  // namespace kinds_internal
static_assert(kinds_internal::RowsInEnumOrder(kStatementKinds, [](auto& r) { return r.kind; }));
static_assert(kinds_internal::RowsInEnumOrder(kRvalueKinds, [](auto& r) { return r.kind; }));
static_assert(kinds_internal::RowsInEnumOrder(kTerminatorKinds, [](auto& r) { return r.kind; }));
static_assert(kinds_internal::RowsInEnumOrder(kBinOps, [](auto& r) { return r.op; }));
static_assert(kinds_internal::RowsInEnumOrder(kUnOps, [](auto& r) { return r.op; }));
static_assert(kinds_internal::TextsUnique(kStatementKinds, [](auto& r) { return r.keyword; }));
static_assert(kinds_internal::TextsUnique(kRvalueKinds, [](auto& r) { return r.keyword; }));
static_assert(kinds_internal::TextsUnique(kTerminatorKinds, [](auto& r) { return r.keyword; }));
static_assert(kinds_internal::TextsUnique(kBinOps, [](auto& r) { return r.text; }));
static_assert(kinds_internal::TextsUnique(kUnOps, [](auto& r) { return r.text; }));

constexpr const StatementKindInfo& Info(Statement::Kind k) {
  return kStatementKinds[static_cast<size_t>(k)];
}
constexpr const RvalueKindInfo& Info(Rvalue::Kind k) {
  return kRvalueKinds[static_cast<size_t>(k)];
}
constexpr const TerminatorKindInfo& Info(Terminator::Kind k) {
  return kTerminatorKinds[static_cast<size_t>(k)];
}
constexpr const BinOpInfo& Info(BinOp op) { return kBinOps[static_cast<size_t>(op)]; }
constexpr const UnOpInfo& Info(UnOp op) { return kUnOps[static_cast<size_t>(op)]; }

// The keyword a kind's text starts with ("" for none: kAssign, kUse, ...).
constexpr const char* Keyword(Statement::Kind k) { return Info(k).keyword; }
constexpr const char* Keyword(Rvalue::Kind k) { return Info(k).keyword; }
constexpr const char* Keyword(Terminator::Kind k) { return Info(k).keyword; }

// The kind a keyword starts; nullopt for anything else (and for "").
constexpr std::optional<Statement::Kind> StatementKindOf(std::string_view keyword) {
  for (const StatementKindInfo& k : kStatementKinds)
    if (!keyword.empty() && keyword == k.keyword) return k.kind;
  return std::nullopt;
}
constexpr std::optional<Rvalue::Kind> RvalueKindOf(std::string_view keyword) {
  for (const RvalueKindInfo& k : kRvalueKinds)
    if (!keyword.empty() && keyword == k.keyword) return k.kind;
  return std::nullopt;
}
constexpr std::optional<Terminator::Kind> TerminatorKindOf(std::string_view keyword) {
  for (const TerminatorKindInfo& k : kTerminatorKinds)
    if (!keyword.empty() && keyword == k.keyword) return k.kind;
  return std::nullopt;
}

// The operator spelled `text`; nullopt for anything else.
constexpr std::optional<BinOp> BinOpOfText(std::string_view text) {
  for (const BinOpInfo& o : kBinOps)
    if (text == o.text) return o.op;
  return std::nullopt;
}
constexpr std::optional<UnOp> UnOpOfText(std::string_view text) {
  for (const UnOpInfo& o : kUnOps)
    if (text == o.text) return o.op;
  return std::nullopt;
}

constexpr bool IsCompare(BinOp op) { return Info(op).is_compare; }

}  // namespace mty::ir
