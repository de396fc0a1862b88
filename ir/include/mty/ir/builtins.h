// The builtin table (builtins.def) as enums and rows: builtin functions,
// methods on built-in values per receiver kind, prelude methods, effects
// with their capability family, cast targets. Names are looked up here once,
// at compile time; everything after works with the ids.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace mty::ir {

enum class BuiltinFnId : uint8_t {
#define FN(id, name, min, max, source, doc) k##id,
#include "mty/ir/builtins.def"
#undef FN
};

// The kind of a method's receiver (what a value's tag, or a static type,
// picks the row by).
enum class Recv : uint8_t {
  kStr,
  kArray,
  kMap,
  kTuple,
  kOption,
  kResult,
  kInt,
  kFloat,
  kDuration,
  kSize,
  kBool,
  kChar,
  kCap,
  kOrdering,  // the prelude's Ordering (what `cmp` gives)
};
inline constexpr size_t kNumRecv = 14;

// The type name a program's methods on a built-in kind are declared under
// (`impl Area for I64` defines the function `I64::area`), and back: the one
// table the front end and the interpreter's dispatch share.
inline constexpr const char* kRecvTypeNames[kNumRecv] = {
    "Str", "Array",    "Map",  "Tuple", "Option", "Result", "I64",
    "F64", "Duration", "Size", "Bool",  "Char",   "Cap",    "Ordering"};
inline const char* RecvTypeName(Recv r) { return kRecvTypeNames[static_cast<size_t>(r)]; }
inline std::optional<Recv> RecvOfTypeName(std::string_view n) {
  for (size_t i = 0; i < kNumRecv; ++i)
    if (n == kRecvTypeNames[i]) return static_cast<Recv>(i);
  return std::nullopt;
}

enum class CostClass : uint8_t { kConst, kLinear, kSort };

// The static result type of a method, for the front end's inference.
enum class ResultShape : uint8_t {
  kUnknown,
  kUnit,
  kBool,
  kInt,
  kFloat,
  kStr,
  kSelf,            // the receiver's type
  kElem,            // the receiver's first type argument (array element, Some/Ok value)
  kOptElem,         // Option of it
  kOptInt,          // Option[I64]
  kOptChar,         // Option[Char]
  kOptValue,        // Option of a map's value type
  kArrayStr,        // [Str]
  kArrayChar,       // [Char]
  kArrayInt,        // [I64]
  kArrayKey,        // [a map's key type]
  kArrayValue,      // [a map's value type]
  kArrayUnknown,    // [?]
  kResultIntStr,    // Result[I64, Str]
  kResultFloatStr,  // Result[F64, Str]
  kResultElemArg,   // Result[the receiver's value, the first argument's type]
  kChar,            // Char
  kOptStr,          // Option[Str]
  kArrayIntChar,    // [(I64, Char)]
  kValue,           // a map's value type
  kOptErr,          // Option of a Result's error type
  kArrayPair,       // [(a map's key type, its value type)]
  kOptSelf,         // Option of the receiver's type (`checked_add` on a U64 is Option[U64])
};

// Every method name (of built-in values and of the prelude), once.
enum class MethodName : uint16_t {
#define METHOD_NAME(id, name) k##id,
#include "mty/ir/builtins.def"
#undef METHOD_NAME
};
inline constexpr const char* kMethodNames[] = {
#define METHOD_NAME(id, name) name,
#include "mty/ir/builtins.def"
#undef METHOD_NAME
};
inline constexpr size_t kNumMethodNames = sizeof(kMethodNames) / sizeof(kMethodNames[0]);
inline const char* MethodNameText(MethodName n) { return kMethodNames[static_cast<size_t>(n)]; }

enum class EffectId : uint16_t {
#define EFFECT(id, path, family, min, max, handler, sig) k##id,
#include "mty/ir/builtins.def"
#undef EFFECT
};

// The conversion a cast makes.
enum class CastKind : int32_t {
  kI8,
  kI16,
  kI32,
  kI64,
  kU8,
  kU16,
  kU32,
  kU64,
  kF64,
  kChar,
  kBool,
  kStr,
  kDuration,
  kSize,
};

struct BuiltinFnInfo {
  BuiltinFnId id;
  const char* name;
  int min, max;        // max -1: any number
  const char* source;  // what Mighty source calls it ("" for none)
  const char* doc;
};
inline constexpr BuiltinFnInfo kBuiltinFns[] = {
#define FN(id, name, min, max, source, doc) {BuiltinFnId::k##id, name, min, max, source, doc},
#include "mty/ir/builtins.def"
#undef FN
};

// One method of one receiver kind.
struct MethodInfo {
  Recv recv;
  MethodName name;
  int min, max;  // arguments besides the receiver
  bool mutates;
  CostClass cost;
  ResultShape result;
};
inline constexpr MethodInfo kMethods[] = {
#define METHOD(recv, name, min, max, mut, cost, result, handler) \
  {Recv::k##recv, MethodName::k##name, min, max, mut, CostClass::cost, ResultShape::result},
#include "mty/ir/builtins.def"
#undef METHOD
};
inline constexpr size_t kNumMethods = sizeof(kMethods) / sizeof(kMethods[0]);

// kMethodRow[recv][name]: the row of kMethods, or -1 when that receiver kind
// has no such native method.
struct MethodRows {
  int16_t row[kNumRecv][kNumMethodNames];
};
inline constexpr MethodRows MakeMethodRows() {
  MethodRows r{};
  for (size_t i = 0; i < kNumRecv; ++i)
    for (size_t j = 0; j < kNumMethodNames; ++j) r.row[i][j] = -1;
  for (size_t k = 0; k < kNumMethods; ++k)
    r.row[static_cast<size_t>(kMethods[k].recv)][static_cast<size_t>(kMethods[k].name)] =
        static_cast<int16_t>(k);
  return r;
}
inline constexpr MethodRows kMethodRows = MakeMethodRows();
inline const MethodInfo* FindMethod(Recv recv, MethodName name) {
  int16_t i = kMethodRows.row[static_cast<size_t>(recv)][static_cast<size_t>(name)];
  return i < 0 ? nullptr : &kMethods[i];
}

struct PreludeInfo {
  Recv recv;
  MethodName name;
  int min, max;
  bool mutates;  // the result is written back to the receiver
  ResultShape result;
};
inline constexpr PreludeInfo kPreludeMethods[] = {
#define PRELUDE(recv, name, min, max, mut, result) \
  {Recv::k##recv, MethodName::k##name, min, max, mut, ResultShape::result},
#include "mty/ir/builtins.def"
#undef PRELUDE
};

// A method the front end rewrites (FORM rows).
struct FormInfo {
  Recv recv;
  MethodName name;
  int min, max;
  bool mutates;  // writes its receiver
  ResultShape result;
};
inline constexpr FormInfo kFormMethods[] = {
#define FORM(recv, name, min, max, mut, result) \
  {Recv::k##recv, MethodName::k##name, min, max, mut, ResultShape::result},
#include "mty/ir/builtins.def"
#undef FORM
};
inline const FormInfo* FindFormMethod(Recv recv, MethodName name) {
  for (const FormInfo& f : kFormMethods)
    if (f.recv == recv && f.name == name) return &f;
  return nullptr;
}

struct CapMethodInfo {
  const char* type;  // "Fs", "Net"
  MethodName name;
  const char* family;  // "fs", "net"
};
inline constexpr CapMethodInfo kCapMethods[] = {
#define CAP_METHOD(type, name, family) {#type, MethodName::k##name, family},
#include "mty/ir/builtins.def"
#undef CAP_METHOD
};
// The capability method `name` of the capability type `type` ("Fs"), or
// nullptr (another type's method, or none).
const CapMethodInfo* FindCapMethod(std::string_view type, MethodName name);
// The row of a capability method whatever the type, or nullptr.
const CapMethodInfo* FindCapMethod(MethodName name);
// Whether a capability value of run-time family `family` ("fs.read") has
// the row's method.
bool CapFamilyFits(const CapMethodInfo& m, std::string_view family);

struct EffectInfo {
  EffectId id;
  const char* path;
  const char* family;  // "" for none
  int min, max;        // arguments, a leading capability value included
  const char* sig;     // "(Str) -> Result[Str, Str]": after the capability
};
inline constexpr EffectInfo kEffects[] = {
#define EFFECT(id, path, family, min, max, handler, sig) \
  {EffectId::k##id, path, family, min, max, sig},
#include "mty/ir/builtins.def"
#undef EFFECT
};
inline constexpr size_t kNumEffects = sizeof(kEffects) / sizeof(kEffects[0]);

struct CastInfo {
  const char* name;
  CastKind kind;
};
inline constexpr CastInfo kCasts[] = {
#define CAST(id, name, kind) {name, CastKind::kind},
#include "mty/ir/builtins.def"
#undef CAST
};

// Lookups by name (compile time; nullptr when there is none).
const BuiltinFnInfo* FindBuiltinFn(std::string_view name);
// The builtin Mighty source calls `name` (log, print, ...), if any.
const BuiltinFnInfo* FindSourceBuiltin(std::string_view name);
// A method name's id (builtin or prelude); nullopt for any other name.
std::optional<MethodName> FindMethodName(std::string_view name);
// Whether any receiver kind has a native method of this name.
bool IsNativeMethod(MethodName name);
// The prelude method `name` of a receiver kind; any receiver kind's when
// `recv` is nullopt.
const PreludeInfo* FindPreludeMethod(std::optional<Recv> recv, MethodName name);
const EffectInfo* FindEffect(std::string_view path);
// The range of an integer type name (`I8` ... `U128`, `ISize`, `USize`):
// 128-bit names hold 64 bits at run time (docs/language.md §4). False for
// a name that is not an integer type.
bool IntTypeRange(std::string_view name, __int128* lo, __int128* hi);
const CastInfo* FindCast(std::string_view name);
inline const EffectInfo& Effect(EffectId id) { return kEffects[static_cast<size_t>(id)]; }

}  // namespace mty::ir
