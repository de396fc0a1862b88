// The Mighty lexer: source text -> tokens with locations. Newlines are tokens
// (the parser decides where they end a statement); comments are dropped.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "mty/frontend/ast.h"
#include "mty/frontend/diagnostics.h"

namespace mty::frontend {

enum class Tok : uint8_t {
  kEof,
  kNewline,
  kError,  // an unexpected character, already reported (MT0005)
  kIdent,
  kKeyword,
  kInt,       // uint_value, suffix
  kFloat,     // float_value, suffix
  kStr,       // text (decoded)
  kChar,      // uint_value = scalar
  kDuration,  // uint_value = nanoseconds
  kSize,      // uint_value = bytes
  kLabel,     // a loop label `'outer` (text = outer)
  // Punctuation.
  kLParen,
  kRParen,
  kLBrace,
  kRBrace,
  kLBracket,
  kRBracket,
  kComma,
  kSemi,
  kColon,
  kColonColon,
  kDot,
  kDotDot,
  kDotDotEq,
  kFatArrow,
  kArrow,
  kAt,
  kQuestion,
  kBang,
  kHash,
  kAmp,
  kAmpAmp,
  kPipe,
  kPipePipe,
  kCaret,
  kEq,
  kEqEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,
  kShl,
  kShr,
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kPercent,
  kPlusEq,
  kMinusEq,
  kStarEq,
  kSlashEq,
  kPercentEq,
  kAmpEq,
  kPipeEq,
  kCaretEq,
  kShlEq,
  kShrEq,
};

// 72 bytes: compile memory is linear in the source, and a token can be one
// source byte (runtime.md §2).
struct Token {
  Tok kind = Tok::kEof;
  bool bad = false;        // a literal already reported as malformed (no cascades)
  uint8_t suffix_len = 0;  // a number's suffix: the last suffix_len bytes of text
  Loc loc;
  Loc end;                  // its last character (inclusive; = loc for a newline)
  uint32_t offset = 0;      // byte offset of the first character
  uint32_t end_offset = 0;  // byte offset just past the token
  std::string text;         // identifier / keyword / decoded string / literal source
  union {
    uint64_t uint_value = 0;  // kInt, kChar, kDuration, kSize
    double float_value;       // kFloat
  };
  // The number suffix: "u8", "i64", "f32", "ms" ("" when none).
  std::string_view suffix() const {
    return std::string_view(text).substr(text.size() - suffix_len);
  }
};

// Tokens in a deque: it grows without copying (a vector's doubling held two
// copies of every token at its peak; compile memory is linear in the
// source, runtime.md §2).
using TokenList = std::deque<Token>;

struct LexResult {
  TokenList tokens;  // always ends with kEof
  // The lexer reported an error that swallowed the rest of the file (an
  // unterminated block comment): the parser stays quiet about end of file.
  bool eof_error = false;
};

// Lexes `text`; errors (MT0002..MT0009) go to `diags`. Text that is not
// UTF-8 is one MT0009 at its first bad byte and no tokens.
LexResult Lex(std::string_view text, Diagnostics& diags);

// The length in bytes of the one token at the start of `text` (0 when
// `text` starts with whitespace, a comment or nothing): what a diagnostic
// without an explicit span underlines. Errors are not reported.
size_t TokenLength(std::string_view text);

// The spelling of a token kind for messages: "')'", "end of file", ...
std::string TokSpelling(Tok kind);
// A token as quoted in "found ..." messages.
std::string Describe(const Token& t);

// Hard keywords (cannot be identifiers).
bool IsKeyword(std::string_view word);

}  // namespace mty::frontend
