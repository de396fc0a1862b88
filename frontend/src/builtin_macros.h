// The built-in macros (docs/language.md "Macros"), listed once: the parser
// accepts exactly these names (else MT1010 with a suggestion from this list),
// the checker types them by their kind and the lowering expands them by it.
#ifndef MTY_FRONTEND_BUILTIN_MACROS_H_
#define MTY_FRONTEND_BUILTIN_MACROS_H_

#include <string_view>

namespace mty::frontend {

struct BuiltinMacro {
  enum class Kind {
    kFormat,    // format!(f, ..): the Str
    kPrint,     // println!/print!/eprintln!/eprint!: `builtin` of the formatted Str
    kPanic,     // panic!/todo!/unimplemented!/unreachable!(f, ..): trap MT5001
    kAssert,    // assert!(c) / assert!(c, f, ..)
    kAssertEq,  // assert_eq!(a, b) / assert_eq!(a, b, f, ..)
    kAssertNe,  // assert_ne!(a, b) / assert_ne!(a, b, f, ..)
    kVec,       // vec![a, b] / vec![x; n]: the array literal (parsed as one)
    kWrite,     // write!(dst, f, ..) / writeln!: appends to the Str dst, gives Ok(())
  };
  std::string_view name;
  Kind kind;
  // kPrint: the builtin function that writes; kPanic: the message alone
  // (without arguments), which a formatted message follows after ": ".
  const char* text = "";
  bool newline = false;  // kPrint, kWrite: a newline added to the text (`log` adds its own)
  // kPanic: with a format string, the message is the formatted text alone
  // (panic!), not `text` followed by it.
  bool message_alone = false;
};

inline constexpr BuiltinMacro kBuiltinMacros[] = {
    {"format", BuiltinMacro::Kind::kFormat},
    {"println", BuiltinMacro::Kind::kPrint, "log"},
    {"print", BuiltinMacro::Kind::kPrint, "print"},
    {"eprintln", BuiltinMacro::Kind::kPrint, "eprint", true},
    {"eprint", BuiltinMacro::Kind::kPrint, "eprint"},
    {"panic", BuiltinMacro::Kind::kPanic, "explicit panic", false, true},
    {"todo", BuiltinMacro::Kind::kPanic, "not yet implemented"},
    {"unimplemented", BuiltinMacro::Kind::kPanic, "not implemented"},
    {"unreachable", BuiltinMacro::Kind::kPanic, "internal error: entered unreachable code"},
    {"assert", BuiltinMacro::Kind::kAssert},
    {"assert_eq", BuiltinMacro::Kind::kAssertEq},
    {"assert_ne", BuiltinMacro::Kind::kAssertNe},
    {"vec", BuiltinMacro::Kind::kVec},
    {"write", BuiltinMacro::Kind::kWrite},
    {"writeln", BuiltinMacro::Kind::kWrite, "", true},
};

inline const BuiltinMacro* FindBuiltinMacro(std::string_view name) {
  for (const BuiltinMacro& m : kBuiltinMacros)
    if (m.name == name) return &m;
  return nullptr;
}

// The argument that is the format string, for the kinds that take one.
inline size_t FormatArgIndex(BuiltinMacro::Kind k) {
  switch (k) {
    case BuiltinMacro::Kind::kAssert:
    case BuiltinMacro::Kind::kWrite: return 1;
    case BuiltinMacro::Kind::kAssertEq:
    case BuiltinMacro::Kind::kAssertNe: return 2;
    default: return 0;
  }
}

}  // namespace mty::frontend

#endif  // MTY_FRONTEND_BUILTIN_MACROS_H_
