// Unicode character properties and case mappings, the one home of them for
// the string and char methods: answered by ICU's common library (libicuuc,
// Debian's libicu-dev; Unicode 15.0 in ICU 72).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace mty::interp::unicode {

// Rust's char predicates: the derived properties Alphabetic, White_Space,
// Uppercase and Lowercase; numeric is general category Nd, Nl or No,
// control is Cc.
bool IsAlphabetic(uint32_t c);
bool IsNumeric(uint32_t c);
bool IsWhitespace(uint32_t c);
bool IsUppercase(uint32_t c);
bool IsLowercase(uint32_t c);
bool IsControl(uint32_t c);

// The full case mapping of `s` (root locale; ß -> SS, a final Σ -> ς),
// appended to *out. Well-formed runs are mapped; a byte that is not part of
// well-formed UTF-8 is copied as it is.
void AppendUpper(std::string_view s, std::string* out);
void AppendLower(std::string_view s, std::string* out);

}  // namespace mty::interp::unicode
