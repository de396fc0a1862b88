// Internals of the embedding API shared by its source files (not
// installed): typed values to and from guest values, the host-function
// table a Linker snapshots, and the per-run dispatch of host functions.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "mty/interp/bytecode.h"
#include "mty/interp/value.h"
#include "mty/interp/vm.h"
#include "mty/ir/host_fns.h"
#include "mty/mty.h"
#include "mty/stdlib/host.h"

namespace mty {

struct ValueAccess {
  static Value& Make(Value& v, Value::Kind k) {
    v.kind_ = k;
    return v;
  }
  static int64_t& Int(Value& v) { return v.i_; }
  static double& Float(Value& v) { return v.f_; }
  static std::string& Text(Value& v) { return v.s_; }
  static std::string& TypeName(Value& v) { return v.type_; }
  static std::string& Variant(Value& v) { return v.variant_; }
  static std::vector<Value>& Items(Value& v) { return v.items_; }
  static std::vector<std::string>& Names(Value& v) { return v.names_; }
  static std::vector<std::pair<Value, Value>>& Entries(Value& v) { return v.entries_; }
};

namespace internal {

// The deepest nesting a value may have to cross the boundary (either way):
// deeper ones are refused with an error rather than recursing without bound.
inline constexpr int kMaxValueDepth = 512;
// The error for a value nested deeper than that.
absl::Status TooDeep();

// The largest copy (estimated bytes, runtime.md §2) that crosses to the
// host when no memory limit bounds it: a shared structure (`v = [v, v]`
// 34 times) is small in the guest and exponential as a tree.
inline constexpr uint64_t kMaxCrossingBytes = uint64_t{256} << 20;

// A guest value as a host value (a copy). Closures, agent handles and
// capabilities become kOpaque with their debug text. A value whose
// estimate passes `max_bytes` is refused (kResourceExhausted) before any
// of it is copied.
absl::StatusOr<Value> FromGuest(const interp::Module& m, const interp::Value& v,
                                uint64_t max_bytes = kMaxCrossingBytes);
// A host value as a guest value of module `m` (structs and enums by the
// names `m` declares), with the size estimates the interpreter keeps.
absl::StatusOr<interp::Value> ToGuest(const interp::Module& m, const Value& v);
// Whether guest value `v` has declared type `t` (an entry parameter's).
bool GuestFits(const interp::Module& m, const interp::Value& v, const ir::Type& t);
// The type as the front end and the IR spell it (I64, [U8], Option[T], ...).
ir::Type ToIrType(const Type& t);

}  // namespace internal

struct Linker::Table {
  struct Entry {
    HostSignature signature;
    HostFunction fn;             // synchronous, or
    AsyncHostFunction async_fn;  // completes later
  };
  std::vector<Entry> entries;
  ir::HostFnTable decls;  // the same order
};

namespace internal {

// The host functions of one run: converts arguments, calls the embedder's
// code, checks and converts its result (on the run's thread).
class RunHostFns : public stdlib::HostFnDispatch {
 public:
  RunHostFns(std::shared_ptr<const Linker::Table> table,
             std::shared_ptr<const interp::Module> module, interp::Host* out,
             const std::atomic<bool>* interrupted)
      : table_(std::move(table)),
        module_(std::move(module)),
        out_(out),
        interrupted_(interrupted) {}
  const ir::HostFnDecl* Decl(uint32_t index) const override;
  std::optional<interp::Value> Call(uint32_t index, std::vector<interp::Value>& args,
                                    interp::Meter& scope, interp::HostError* err) override;

  // The result of host function `index` as the guest's value; nullopt with
  // *err set (MT5022) when it is an error or does not fit the signature.
  std::optional<interp::Value> Result(uint32_t index, absl::StatusOr<Value> result,
                                      interp::HostError* err) const;

 private:
  std::shared_ptr<const Linker::Table> table_;
  std::shared_ptr<const interp::Module> module_;
  interp::Host* out_;
  const std::atomic<bool>* interrupted_;
};

}  // namespace internal
}  // namespace mty
