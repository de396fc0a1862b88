// The methods of Char: Unicode properties and case mappings from ICU
// (unicode.h: the Unicode version of the linked libicu, docs/language.md
// §5), ASCII ones by their ranges, digits in a radix.
#include "../unicode.h"
#include "methods.h"
#include "mty/vocab/utf8.h"

namespace mty::interp::methods {

namespace {

uint32_t Char(const MethodCall& c) { return static_cast<uint32_t>(c.recv.i()); }

bool AsciiDigit(uint32_t ch) { return ch >= '0' && ch <= '9'; }
bool AsciiLetter(uint32_t ch) { return (ch | 0x20) >= 'a' && (ch | 0x20) <= 'z'; }
uint32_t AsciiLower(uint32_t ch) { return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch; }

// The value of the receiver as a digit of the radix argument (-1 when it
// is not one); false after a trap.
bool Digit(MethodCall& c, int* d) {
  uint32_t radix;
  if (!NeedRadix(c.cx, c.args[0], c.name(), &radix)) return false;
  *d = DigitValue(Char(c), radix);
  return true;
}

}  // namespace

CallStatus CharIsAlphabetic(MethodCall& c) { return c.Bool(unicode::IsAlphabetic(Char(c))); }

CallStatus CharIsNumeric(MethodCall& c) { return c.Bool(unicode::IsNumeric(Char(c))); }

CallStatus CharIsAlphanumeric(MethodCall& c) {
  return c.Bool(unicode::IsAlphabetic(Char(c)) || unicode::IsNumeric(Char(c)));
}

CallStatus CharIsWhitespace(MethodCall& c) { return c.Bool(unicode::IsWhitespace(Char(c))); }

CallStatus CharIsUppercase(MethodCall& c) { return c.Bool(unicode::IsUppercase(Char(c))); }

CallStatus CharIsLowercase(MethodCall& c) { return c.Bool(unicode::IsLowercase(Char(c))); }

CallStatus CharIsControl(MethodCall& c) { return c.Bool(unicode::IsControl(Char(c))); }

CallStatus CharIsAscii(MethodCall& c) { return c.Bool(Char(c) < 0x80); }

CallStatus CharIsAsciiDigit(MethodCall& c) { return c.Bool(AsciiDigit(Char(c))); }

CallStatus CharIsAsciiHexdigit(MethodCall& c) {
  return c.Bool(Char(c) < 0x80 && DigitValue(Char(c), 16) >= 0);
}

CallStatus CharIsAsciiAlphabetic(MethodCall& c) { return c.Bool(AsciiLetter(Char(c))); }

CallStatus CharIsAsciiAlphanumeric(MethodCall& c) {
  return c.Bool(AsciiDigit(Char(c)) || AsciiLetter(Char(c)));
}

CallStatus CharIsAsciiUppercase(MethodCall& c) { return c.Bool(Char(c) >= 'A' && Char(c) <= 'Z'); }

CallStatus CharIsAsciiLowercase(MethodCall& c) { return c.Bool(Char(c) >= 'a' && Char(c) <= 'z'); }

// Rust's: space, tab, LF, FF, CR (not VT).
CallStatus CharIsAsciiWhitespace(MethodCall& c) {
  const uint32_t ch = Char(c);
  return c.Bool(ch == ' ' || ch == '\t' || ch == '\n' || ch == '\f' || ch == '\r');
}

CallStatus CharIsAsciiPunctuation(MethodCall& c) {
  const uint32_t ch = Char(c);
  return c.Bool((ch >= 0x21 && ch <= 0x2F) || (ch >= 0x3A && ch <= 0x40) ||
                (ch >= 0x5B && ch <= 0x60) || (ch >= 0x7B && ch <= 0x7E));
}

CallStatus CharIsAsciiGraphic(MethodCall& c) { return c.Bool(Char(c) >= 0x21 && Char(c) <= 0x7E); }

CallStatus CharIsAsciiControl(MethodCall& c) { return c.Bool(Char(c) < 0x20 || Char(c) == 0x7F); }

CallStatus CharToAsciiUppercase(MethodCall& c) {
  const uint32_t ch = Char(c);
  return c.Return(Value::Char(ch >= 'a' && ch <= 'z' ? ch - 32 : ch));
}

CallStatus CharToAsciiLowercase(MethodCall& c) {
  return c.Return(Value::Char(AsciiLower(Char(c))));
}

CallStatus CharEqIgnoreAsciiCase(MethodCall& c) {
  if (!c.args[0].Is(Tag::kChar))
    return c.Trap(TrapCode::kType, absl::StrCat("eq_ignore_ascii_case needs a Char, found ",
                                                KindName(c.cx.m, c.args[0])));
  return c.Bool(AsciiLower(Char(c)) == AsciiLower(static_cast<uint32_t>(c.args[0].i())));
}

// to_uppercase, to_lowercase: a Str (a mapping may give several chars).
CallStatus CharChangeCase(MethodCall& c) {
  std::string one, r;
  ir::AppendUtf8(one, Char(c));
  if (c.id() == N::kToUppercase)
    unicode::AppendUpper(one, &r);
  else
    unicode::AppendLower(one, &r);
  return c.NewStr(std::move(r));
}

// is_digit(radix).
CallStatus CharIsDigit(MethodCall& c) {
  int d;
  if (!Digit(c, &d)) return Fail();
  return c.Bool(d >= 0);
}

// to_digit(radix): Some(its value), or None.
CallStatus CharToDigit(MethodCall& c) {
  int d;
  if (!Digit(c, &d)) return Fail();
  Value v = Value::Int(d);
  return c.Opt(d >= 0 ? &v : nullptr);
}

CallStatus CharLenUtf8(MethodCall& c) {
  const uint32_t ch = Char(c);
  return c.Int(ch < 0x80 ? 1 : ch < 0x800 ? 2 : ch < 0x10000 ? 3 : 4);
}

}  // namespace mty::interp::methods
