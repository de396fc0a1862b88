// Internal: the slow paths of the interpreter that do not touch frames —
// arithmetic on non-int operands, casts, builtin functions and methods.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "mty/interp/bytecode.h"
#include "mty/interp/vm.h"
#include "mty/ir/builtins.h"

namespace mty::interp {

// What a slow path needs: output, memory and work charging, and where its
// failure goes (`fail`: a trap, a breach of the chain, or a limit of the
// budget cache: memory, or steps when a work charge could not be paid).
struct Ctx {
  const Module& m;
  Host* host;
  uint64_t* mem;
  uint64_t mem_limit;
  Meter* scope;          // the task's innermost budget chain (output is charged to it)
  Task* task = nullptr;  // whose step counter work charges go to (its saved counter)
  Failure fail = {};

  // Charges the work of an operation: `units` bytes or elements it will
  // touch, one step per 64 (the statement's own step is charged as usual).
  // Called before the work; false (and fail.over = steps) when the steps
  // left cannot pay it, and the operation then does nothing.
  bool Work(uint64_t units);
  // The most units the steps left could pay for (UINT64_MAX when steps are
  // not counted).
  uint64_t Affordable() const;

  // Whether n more bytes that live only for this call (and so are not
  // charged) fit in what the budget has left; false (and fail.over =
  // memory) if not.
  // When they do not fit this is a breach like Charge's: n is added to the
  // counter, so the run stops over its limit (a memory Stop::kLimit with the
  // counter still under it would be taken for an empty cache and retried).
  bool Fits(uint64_t n) {
    if (*mem + n <= mem_limit && *mem + n >= *mem) return true;
    return Charge(n);
  }
  // Charges n estimated bytes; false (and fail.over = memory) when over the
  // limit.
  bool Charge(uint64_t n) {
    *mem += n;
    if (*mem > mem_limit) {
      fail.over = ir::LimitId::kMemory;
      return false;
    }
    return true;
  }
  bool Trap(TrapCode c, std::string msg) { return fail.Trap(c, std::move(msg)); }
  // A string of `bytes` bytes the call `what` is about to build: first the
  // memory budget must hold it (Fits: the memory breach when not), then it
  // must be within the most a string holds, 4 GiB (MT5009 when not).
  bool StrFits(uint64_t bytes, const char* what) {
    if (!Fits(bytes)) return false;
    if (bytes <= kMaxStrBytes) return true;
    return Trap(TrapCode::kBudget,
                absl::StrCat(what, " would build a string over 4 GiB (", bytes, " bytes)"));
  }
  static constexpr uint64_t kMaxStrBytes = uint64_t{1} << 32;
};

enum class CallStatus { kOk, kFail };

// `a.push(v)` on a uniquely owned array (runtime.md §2: PushCharge): false,
// with nothing appended, when the memory budget cannot pay it; *delta is
// what the array's estimate grew by.
inline bool PushOnto(Ctx& cx, ArrayObj* a, Value v, int64_t* delta) {
  const uint64_t e = Estimate(v);
  if (!cx.Charge(PushCharge(*a, e))) return false;
  a->items.push_back(std::move(v));
  a->est += e;
  *delta = static_cast<int64_t>(e);
  return true;
}

// Printing a value with its work charged (runtime.md §2): one unit per node,
// per byte written and per byte of a quoted string scanned. The size is
// known only as it is written, so the writer stops as soon as the step
// budget could not pay for more (limit); then the charge fails (fail.over =
// steps).
struct Render {
  uint64_t limit = UINT64_MAX;
  uint64_t units = 0;
  bool over = false;
  // Appends the Display (or Debug) form of v to *out, charged to cx.
  static bool To(Ctx& cx, const Value& v, bool debug, std::string* out);
};

// Printing helpers (print.cc) the methods share: a string's chars appended
// to an array, a string in Debug quotes, a value formatted by a format spec.
void AppendChars(const std::string& s, ArrayObj* a);
std::string QuoteDebug(std::string_view s);
// `panic: <v>`, a message for people: at most 4 KiB of the value's Display.
std::string PanicMessage(const Module& m, const Value& v);
bool FormatSpec(Ctx& cx, const Value& v, std::string_view spec, std::string* out);

// Binary operators on any operands (the VM handles Int op Int inline).
bool Arith(Ctx& cx, Op op, const Value& a, const Value& b, Value& out);
bool Unary(Ctx& cx, Op op, const Value& a, Value& out);
bool DoCast(Ctx& cx, const Value& v, CastKind k, Value& out);
// A value reaching a place declared U64 (`to_unsigned`) or signed: the same
// integer of that kind; MT5004 when it does not fit, MT5016 for a non-integer
// (`@into_u64`, `@into_i64`: language.md §4).
bool DoInto(Ctx& cx, const Value& v, bool to_unsigned, Value& out);
// A builtin function (methods/fns.cc).
CallStatus BuiltinFn(Ctx& cx, ir::BuiltinFnId id, std::vector<Value>& args, Value& out);
// The row of the builtin table for a method of this receiver (nullptr when
// the receiver's kind has none: MT5008).
std::optional<ir::Recv> RecvOf(const Value& v);
// Gives `out`, an fs capability narrowed to `path`, its grants: resolved now
// beneath `from`'s (a narrowed value) or else the run's (the root of
// `scope`'s chain), so it can never name what those could not open.
void ResolveFsCap(const Meter& scope, const CapObj* from, std::string_view path, CapObj* out);
const ir::MethodInfo* MethodFor(const Value& recv, ir::MethodName name);
// A built-in method (methods/common.cc: the handler the row names).
// `recv` is the receiver in place (already made unique when the row
// mutates). *est_delta receives the change of recv's size estimate.
CallStatus BuiltinMethod(Ctx& cx, Value& recv, const ir::MethodInfo& row, std::vector<Value>& args,
                         Value& out, int64_t* est_delta);
std::string KindName(const Module& m, const Value& v);

// Some(*some) or None (some == nullptr); *est is its size estimate, for
// the caller to charge.
Value MakeOption(const Value* some, uint64_t* est);
// v as an Int, else a trap MT5016 (false).
bool NeedInt(Ctx& cx, const Value& v, int64_t* out);

}  // namespace mty::interp
