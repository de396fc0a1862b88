#include "unicode.h"

#include <unicode/ucasemap.h>
#include <unicode/uchar.h>

#include <memory>

#include "mty/vocab/utf8.h"

namespace mty::interp::unicode {

bool IsAlphabetic(uint32_t c) {
  return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_ALPHABETIC);
}
bool IsWhitespace(uint32_t c) {
  return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_WHITE_SPACE);
}
bool IsUppercase(uint32_t c) {
  return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_UPPERCASE);
}
bool IsLowercase(uint32_t c) {
  return u_hasBinaryProperty(static_cast<UChar32>(c), UCHAR_LOWERCASE);
}
bool IsNumeric(uint32_t c) {
  const int8_t t = u_charType(static_cast<UChar32>(c));
  return t == U_DECIMAL_DIGIT_NUMBER || t == U_LETTER_NUMBER || t == U_OTHER_NUMBER;
}
bool IsControl(uint32_t c) { return u_charType(static_cast<UChar32>(c)) == U_CONTROL_CHAR; }

namespace {

struct CaseMapCloser {
  void operator()(UCaseMap* m) const { ucasemap_close(m); }
};

UCaseMap* RootCaseMap() {
  thread_local std::unique_ptr<UCaseMap, CaseMapCloser> map = [] {
    UErrorCode err = U_ZERO_ERROR;
    return std::unique_ptr<UCaseMap, CaseMapCloser>(ucasemap_open("", 0, &err));
  }();
  return map.get();
}

// Maps one well-formed run with ICU (a mapping grows a run at most 3x).
void MapRun(std::string_view run, bool upper, std::string* out) {
  if (run.empty()) return;
  UCaseMap* map = RootCaseMap();
  if (map == nullptr) {
    out->append(run);  // ICU could not open the root case map: the text unchanged
    return;
  }
  std::string buf(3 * run.size() + 16, '\0');
  for (int attempt = 0; attempt < 2; ++attempt) {
    UErrorCode err = U_ZERO_ERROR;
    const int32_t n =
        upper ? ucasemap_utf8ToUpper(map, buf.data(), static_cast<int32_t>(buf.size()), run.data(),
                                     static_cast<int32_t>(run.size()), &err)
              : ucasemap_utf8ToLower(map, buf.data(), static_cast<int32_t>(buf.size()), run.data(),
                                     static_cast<int32_t>(run.size()), &err);
    if (err == U_BUFFER_OVERFLOW_ERROR && n > 0) {
      buf.assign(static_cast<size_t>(n), '\0');
      continue;
    }
    if (U_FAILURE(err)) break;
    out->append(buf.data(), static_cast<size_t>(n));
    return;
  }
  out->append(run);  // ICU failed: the text unchanged
}

void AppendMapped(std::string_view s, bool upper, std::string* out) {
  size_t run = 0, i = 0;
  while (i < s.size()) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      ++i;
      continue;
    }
    const ir::Utf8Decoded d = ir::DecodeUtf8(s, i);
    if (d.ok()) {
      i += d.length;
      continue;
    }
    MapRun(s.substr(run, i - run), upper, out);
    out->append(s.substr(i, d.length));
    i += d.length;
    run = i;
  }
  MapRun(s.substr(run), upper, out);
}

}  // namespace

void AppendUpper(std::string_view s, std::string* out) { AppendMapped(s, true, out); }
void AppendLower(std::string_view s, std::string* out) { AppendMapped(s, false, out); }

}  // namespace mty::interp::unicode
