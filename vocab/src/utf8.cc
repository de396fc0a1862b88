// The UTF-8 decoder and validator (utf8.h): Unicode's Table 3-7 of
// well-formed byte sequences, byte by byte.
#include "mty/vocab/utf8.h"

namespace mty::ir {

const char* Utf8ErrorText(Utf8Error e) {
  switch (e) {
    case Utf8Error::kNone: return "valid";
    case Utf8Error::kStrayContinuation: return "stray continuation byte";
    case Utf8Error::kOverlong: return "overlong encoding";
    case Utf8Error::kSurrogate: return "surrogate (U+D800..U+DFFF)";
    case Utf8Error::kTooLarge: return "above U+10FFFF";
    case Utf8Error::kInvalidByte: return "byte never used in UTF-8";
    case Utf8Error::kTruncated: return "truncated sequence";
  }
  return "invalid";
}

Utf8Decoded DecodeUtf8Multibyte(std::string_view s, size_t pos) {
  Utf8Decoded d;
  const unsigned char b0 = static_cast<unsigned char>(s[pos]);
  if (b0 < 0x80) {
    d.scalar = b0;
    return d;
  }
  auto fail = [&](Utf8Error e, uint32_t length) {
    d.error = e;
    d.length = length;
    return d;
  };
  if (b0 < 0xC0) return fail(Utf8Error::kStrayContinuation, 1);
  if (b0 < 0xC2) return fail(Utf8Error::kOverlong, 1);  // C0 and C1 only start overlong forms
  if (b0 >= 0xF8) return fail(Utf8Error::kInvalidByte, 1);
  if (b0 >= 0xF5) return fail(Utf8Error::kTooLarge, 1);
  // The second byte's range narrows for E0 (no overlong), ED (no surrogate),
  // F0 (no overlong) and F4 (nothing above U+10FFFF); the others take 80..BF.
  uint32_t need = 0, cp = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  Utf8Error below = Utf8Error::kTruncated, above = Utf8Error::kTruncated;
  if (b0 < 0xE0) {
    need = 1;
    cp = b0 & 0x1F;
  } else if (b0 < 0xF0) {
    need = 2;
    cp = b0 & 0x0F;
    if (b0 == 0xE0) {
      lo = 0xA0;
      below = Utf8Error::kOverlong;
    }
    if (b0 == 0xED) {
      hi = 0x9F;
      above = Utf8Error::kSurrogate;
    }
  } else {
    need = 3;
    cp = b0 & 0x07;
    if (b0 == 0xF0) {
      lo = 0x90;
      below = Utf8Error::kOverlong;
    }
    if (b0 == 0xF4) {
      hi = 0x8F;
      above = Utf8Error::kTooLarge;
    }
  }
  for (uint32_t k = 1; k <= need; ++k) {
    if (pos + k >= s.size()) return fail(Utf8Error::kTruncated, k);
    const unsigned char b = static_cast<unsigned char>(s[pos + k]);
    if (b < 0x80 || b > 0xBF) return fail(Utf8Error::kTruncated, k);
    if (k == 1 && b < lo) return fail(below, 1);
    if (k == 1 && b > hi) return fail(above, 1);
    cp = (cp << 6) | (b & 0x3F);
  }
  d.scalar = cp;
  d.length = need + 1;
  return d;
}

bool ValidUtf8(std::string_view s, size_t* bad_offset, Utf8Error* error) {
  for (size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    Utf8Decoded d = DecodeUtf8(s, i);
    if (!d.ok()) {
      if (bad_offset) *bad_offset = i;
      if (error) *error = d.error;
      return false;
    }
    i += d.length;
  }
  return true;
}

size_t Utf8Length(std::string_view s) {
  size_t n = 0;
  for (size_t i = 0; i < s.size(); ++n) i += ScalarLength(s, i);
  return n;
}

size_t Utf8Offset(std::string_view s, size_t index) {
  size_t i = 0;
  for (size_t n = 0; n < index; ++n) {
    if (i >= s.size()) return std::string_view::npos;
    i += ScalarLength(s, i);
  }
  return i;
}

void Utf8LineCol(std::string_view text, size_t offset, uint32_t* line, uint32_t* col) {
  if (offset > text.size()) offset = text.size();
  uint32_t l = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++l;
      line_start = i + 1;
    }
  }
  *line = l;
  *col = static_cast<uint32_t>(Utf8Length(text.substr(line_start, offset - line_start)) + 1);
}

}  // namespace mty::ir
