// The builtin table's lookups by name (builtins.def).
#include "mty/ir/builtins.h"

#include "mty/ir/host_fns.h"

namespace mty::ir {

const BuiltinFnInfo* FindBuiltinFn(std::string_view name) {
  for (const BuiltinFnInfo& f : kBuiltinFns)
    if (name == f.name) return &f;
  return nullptr;
}

const BuiltinFnInfo* FindSourceBuiltin(std::string_view name) {
  for (const BuiltinFnInfo& f : kBuiltinFns)
    if (f.source[0] != '\0' && name == f.source) return &f;
  return nullptr;
}

std::optional<MethodName> FindMethodName(std::string_view name) {
  for (size_t i = 0; i < kNumMethodNames; ++i)
    if (name == kMethodNames[i]) return static_cast<MethodName>(i);
  return std::nullopt;
}

const CapMethodInfo* FindCapMethod(std::string_view type, MethodName name) {
  for (const CapMethodInfo& m : kCapMethods)
    if (m.name == name && type == m.type) return &m;
  return nullptr;
}

const CapMethodInfo* FindCapMethod(MethodName name) {
  for (const CapMethodInfo& m : kCapMethods)
    if (m.name == name) return &m;
  return nullptr;
}

bool CapFamilyFits(const CapMethodInfo& m, std::string_view family) {
  const CapInfo* c = FindCapFamily(family);
  return c && std::string_view(c->type) == m.type;
}

bool IsNativeMethod(MethodName name) {
  for (size_t r = 0; r < kNumRecv; ++r)
    if (kMethodRows.row[r][static_cast<size_t>(name)] >= 0) return true;
  return false;
}

const PreludeInfo* FindPreludeMethod(std::optional<Recv> recv, MethodName name) {
  for (const PreludeInfo& p : kPreludeMethods)
    if (p.name == name && (!recv || p.recv == *recv)) return &p;
  return nullptr;
}

const EffectInfo* FindEffect(std::string_view path) {
  for (const EffectInfo& e : kEffects)
    if (path == e.path) return &e;
  return nullptr;
}

int FindHostFn(const HostFnTable* table, std::string_view path) {
  if (!table) return -1;
  for (size_t i = 0; i < table->size(); ++i)
    if ((*table)[i].path == path) return static_cast<int>(i);
  return -1;
}

bool IsHostPath(std::string_view path) {
  if (path.substr(0, 5) != "host.") return false;
  std::string_view rest = path.substr(5);
  if (rest.empty() || rest.front() == '.' || rest.back() == '.') return false;
  bool at_start = true;
  for (char c : rest) {
    if (c == '.') {
      if (at_start) return false;
      at_start = true;
      continue;
    }
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (!alpha && !(c >= '0' && c <= '9' && !at_start)) return false;
    at_start = false;
  }
  return true;
}

bool IntTypeRange(std::string_view name, __int128* lo, __int128* hi) {
  struct B {
    std::string_view n;
    __int128 lo, hi;
  };
  static constexpr B k[] = {{"I8", INT8_MIN, INT8_MAX},
                            {"I16", INT16_MIN, INT16_MAX},
                            {"I32", INT32_MIN, INT32_MAX},
                            {"I64", INT64_MIN, INT64_MAX},
                            {"ISize", INT64_MIN, INT64_MAX},
                            {"I128", INT64_MIN, INT64_MAX},
                            {"U8", 0, UINT8_MAX},
                            {"U16", 0, UINT16_MAX},
                            {"U32", 0, UINT32_MAX},
                            {"U64", 0, UINT64_MAX},
                            {"USize", 0, UINT64_MAX},
                            {"U128", 0, UINT64_MAX}};
  for (const B& b : k)
    if (name == b.n) {
      *lo = b.lo;
      *hi = b.hi;
      return true;
    }
  return false;
}

const CastInfo* FindCast(std::string_view name) {
  for (const CastInfo& c : kCasts)
    if (name == c.name) return &c;
  return nullptr;
}

}  // namespace mty::ir
