// UTF-8, the one home of its rules for the whole tree: encoding, the hardened
// decoder (every text front end, printer and string method decodes through
// it) and validation. Well-formed means Unicode's Table 3-7: no overlong
// form, no surrogate (U+D800..U+DFFF), nothing above U+10FFFF, no truncated
// sequence and no stray continuation byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace mty::ir {

inline constexpr uint32_t kMaxScalar = 0x10FFFF;
// U+FFFD, what a string method makes of a byte sequence that is not UTF-8.
inline constexpr uint32_t kReplacementChar = 0xFFFD;

// Why a sequence is not UTF-8.
enum class Utf8Error : uint8_t {
  kNone,
  kStrayContinuation,  // 80..BF where a scalar should start
  kOverlong,           // C0, C1, E0 80..9F, F0 80..8F: a shorter form exists
  kSurrogate,          // ED A0..BF: U+D800..U+DFFF
  kTooLarge,           // F4 90..BF, F5..F7: above U+10FFFF
  kInvalidByte,        // F8..FF: never in UTF-8
  kTruncated,          // a sequence cut short (by the end or a byte that does not continue it)
};

// The text of an error ("overlong encoding", ...).
const char* Utf8ErrorText(Utf8Error e);

struct Utf8Decoded {
  uint32_t scalar = 0;  // the scalar when ok()
  // Bytes consumed, at least 1 even on an error: the maximal prefix of a
  // well-formed sequence (Unicode's "maximal subpart"), so a decoder that
  // moves on by `length` sees each ill-formed run once.
  uint32_t length = 1;
  Utf8Error error = Utf8Error::kNone;
  bool ok() const { return error == Utf8Error::kNone; }
};

// The sequence led by a byte of 0x80 or more (DecodeUtf8's slow path).
Utf8Decoded DecodeUtf8Multibyte(std::string_view s, size_t pos);

// Decodes the scalar starting at byte `pos` of `s` (pos < s.size()).
inline Utf8Decoded DecodeUtf8(std::string_view s, size_t pos) {
  const unsigned char b = static_cast<unsigned char>(s[pos]);
  if (b < 0x80) {
    Utf8Decoded d;
    d.scalar = b;
    return d;
  }
  return DecodeUtf8Multibyte(s, pos);
}

// The scalar at `pos`, or kReplacementChar for an ill-formed sequence;
// advances *pos past it (by Utf8Decoded::length).
inline uint32_t NextScalar(std::string_view s, size_t* pos) {
  const unsigned char b = static_cast<unsigned char>(s[*pos]);
  if (b < 0x80) {  // ASCII, inline
    ++*pos;
    return b;
  }
  Utf8Decoded d = DecodeUtf8(s, *pos);
  *pos += d.length;
  return d.ok() ? d.scalar : kReplacementChar;
}

// The bytes of the scalar (or ill-formed run) at `pos`: DecodeUtf8's length.
inline uint32_t ScalarLength(std::string_view s, size_t pos) {
  return static_cast<unsigned char>(s[pos]) < 0x80 ? 1 : DecodeUtf8(s, pos).length;
}

// Whether byte `c` starts a scalar (is not a continuation byte 80..BF): in
// valid UTF-8 a column counts the bytes before it that start one.
inline bool StartsScalar(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

// Whether `s` is well-formed UTF-8. When it is not and `bad_offset` is set,
// *bad_offset is the byte offset of the first ill-formed sequence (and
// *error, when set, why).
bool ValidUtf8(std::string_view s, size_t* bad_offset = nullptr, Utf8Error* error = nullptr);

// The number of scalars in `s` (each ill-formed run counts as one, as
// NextScalar steps over it).
size_t Utf8Length(std::string_view s);

// The byte offset of scalar `index` of `s` (s.size() for index == the
// length, npos past it).
size_t Utf8Offset(std::string_view s, size_t index);

// The 1-based line and column of byte `offset` of `text`, columns counting
// scalars (as every located error in the tree does).
void Utf8LineCol(std::string_view text, size_t offset, uint32_t* line, uint32_t* col);

// Appends the UTF-8 encoding of Unicode scalar `c` to `out`.
inline void AppendUtf8(std::string& out, uint32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | (c >> 6));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | (c >> 12));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (c >> 18));
    out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

}  // namespace mty::ir
