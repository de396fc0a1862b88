// Internal: the slow paths of the interpreter that do not touch frames —
// arithmetic on non-int operands, casts, builtin functions and methods.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "mty/interp/bytecode.h"
#include "mty/interp/vm.h"

namespace mty::interp {

// What a slow path needs: output, memory charging and a place for a trap.
struct Ctx {
  const Module& m;
  Host* host;
  uint64_t* mem;
  uint64_t mem_limit;
  Meter* scope;  // the task's innermost budget chain (output is charged to it)
  TrapCode code = TrapCode::kNone;
  std::string message;
  bool mem_breach = false;
  std::optional<ir::Breach> breach;  // a limit of the chain gone over (output)

  // Charges n estimated bytes; false (and mem_breach) when over the limit.
  bool Charge(uint64_t n) {
    *mem += n;
    if (*mem > mem_limit) {
      mem_breach = true;
      return false;
    }
    return true;
  }
  bool Trap(TrapCode c, std::string msg) {
    code = c;
    message = std::move(msg);
    return false;
  }
};

enum class CallStatus { kOk, kFail, kUnknown };

// Binary operators on any operands (the VM handles Int op Int inline).
bool Arith(Ctx& cx, Op op, const Value& a, const Value& b, Value& out);
bool Unary(Ctx& cx, Op op, const Value& a, Value& out);
bool DoCast(Ctx& cx, const Value& v, CastKind k, Value& out);
CallStatus BuiltinFn(Ctx& cx, std::string_view name, std::vector<Value>& args, Value& out);
// `recv` is the receiver in place (already made unique for mutating
// methods). *est_delta receives the change of recv's size estimate.
CallStatus BuiltinMethod(Ctx& cx, Value& recv, std::string_view name, std::vector<Value>& args,
                         Value& out, int64_t* est_delta);
bool IsMutatingMethod(std::string_view name);
std::string KindName(const Module& m, const Value& v);

}  // namespace mty::interp
