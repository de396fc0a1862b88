// Host functions (runtime.md §7): functions an embedder gives the guest
// under a capability family of its own. The front end checks calls against
// these declarations; the compiler resolves `effect host.kv.get(...)` to
// the declaration's index; the run's host checks the family against the
// grants (`host = ["kv"]`) and calls the embedder's code.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "mty/ir/ir.h"

namespace mty::ir {

struct HostFnDecl {
  std::string path;          // `host.kv.get`: `host.` then dotted names
  std::string family;        // the grant entry a run needs (`kv`)
  std::vector<Type> params;  // I64, F64, Bool, Char, Str, Bytes, Vec[T], Map[K, V], ...
  Type result;
};

// The declarations of one compile, in definition order (the index is what
// the compiled effect call carries).
using HostFnTable = std::vector<HostFnDecl>;

// The index of `path` in `table`, or -1.
int FindHostFn(const HostFnTable* table, std::string_view path);

// Whether `path` names a host function's place: `host.` followed by at
// least one dotted identifier.
bool IsHostPath(std::string_view path);

}  // namespace mty::ir
