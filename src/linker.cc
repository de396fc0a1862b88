// mty::Linker: host functions an embedder gives the guest (include/mty/mty.h),
// and their dispatch during a run (api_internal.h).
#include <exception>
#include <new>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "api_internal.h"
#include "mty/vocab/policy.h"

namespace mty {

Linker::Linker() : table_(std::make_shared<Table>()) {}
Linker::~Linker() = default;
Linker::Linker(const Linker& o) : table_(std::make_shared<Table>(*o.table_)) {}
Linker& Linker::operator=(const Linker& o) {
  if (this != &o) table_ = std::make_shared<Table>(*o.table_);
  return *this;
}

absl::Status Linker::Define(std::string_view path, std::string_view family, HostSignature signature,
                            HostFunction fn) {
  if (!fn)
    return absl::InvalidArgumentError(absl::StrCat(std::string(path), ": no function given"));
  return Add(path, family, std::move(signature), std::move(fn), nullptr);
}

absl::Status Linker::DefineAsync(std::string_view path, std::string_view family,
                                 HostSignature signature, AsyncHostFunction fn) {
  if (!fn)
    return absl::InvalidArgumentError(absl::StrCat(std::string(path), ": no function given"));
  return Add(path, family, std::move(signature), nullptr, std::move(fn));
}

absl::Status Linker::Add(std::string_view path_view, std::string_view family,
                         HostSignature signature, HostFunction fn, AsyncHostFunction async_fn) {
  const std::string path(path_view);
  if (!ir::IsHostPath(path))
    return absl::InvalidArgumentError(absl::StrCat(
        "host function path `", path, "`: it must be `host.` then dotted identifiers"));
  // A family is one entry of the `host` grant: the grant table's rule.
  if (family.empty() || family == "*" || family.find('*') != std::string_view::npos)
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": the family must be a name (not empty, no `*`)"));
  if (absl::Status s = ir::CheckGrantEntry(ir::GrantId::kHost, family); !s.ok())
    return absl::InvalidArgumentError(absl::StrCat(path, ": family: ", s.message()));
  if (ir::FindHostFn(&table_->decls, path) >= 0)
    return absl::AlreadyExistsError(absl::StrCat("host function `", path, "` is defined already"));
  if (table_.use_count() > 1) table_ = std::make_shared<Table>(*table_);  // programs keep theirs
  ir::HostFnDecl d;
  d.path = std::string(path);
  d.family = std::string(family);
  for (const Type& t : signature.params) d.params.push_back(internal::ToIrType(t));
  d.result = internal::ToIrType(signature.result);
  table_->decls.push_back(std::move(d));
  table_->entries.push_back(Table::Entry{std::move(signature), std::move(fn), std::move(async_fn)});
  return absl::OkStatus();
}

std::vector<std::string> Linker::Describe() const {
  std::vector<std::string> out;
  for (size_t i = 0; i < table_->decls.size(); ++i) {
    const HostSignature& sig = table_->entries[i].signature;
    std::vector<std::string> params;
    for (const Type& t : sig.params) params.push_back(t.ToString());
    out.push_back(absl::StrCat(table_->decls[i].path, "(", absl::StrJoin(params, ", "), ") -> ",
                               sig.result.ToString(), "  [", table_->decls[i].family, "]",
                               table_->entries[i].async_fn ? " async" : ""));
  }
  return out;
}

// ---- HostCall ----

struct HostCall::Impl {
  interp::Meter* scope;
  interp::Host* out;
  const std::atomic<bool>* interrupted;
};

// A HostCall made by the host itself (a null Impl: testing a host function
// outside a run) has no budget, no interrupt and no sinks: unlimited, not
// interrupted, and its writes go nowhere (false).
std::optional<uint64_t> HostCall::steps_left() const {
  return impl_ ? impl_->scope->RemainingSteps() : std::nullopt;
}
std::optional<uint64_t> HostCall::memory_left() const {
  return impl_ ? impl_->scope->RemainingMemory() : std::nullopt;
}
std::optional<std::chrono::nanoseconds> HostCall::wall_left() const {
  std::optional<int64_t> d = impl_ ? impl_->scope->WallDeadline() : std::nullopt;
  if (!d) return std::nullopt;
  const int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                          std::chrono::steady_clock::now().time_since_epoch())
                          .count();
  return std::chrono::nanoseconds(std::max<int64_t>(0, *d - now));
}
bool HostCall::interrupted() const {
  return impl_ && impl_->interrupted && impl_->interrupted->load();
}
bool HostCall::Stdout(std::string_view text) {
  if (!impl_ || impl_->scope->ChargeOutput(text.size())) return false;
  impl_->out->Stdout(text);
  return true;
}
bool HostCall::Stderr(std::string_view text) {
  if (!impl_ || impl_->scope->ChargeOutput(text.size())) return false;
  impl_->out->Stderr(text);
  return true;
}

// ---- HostPromise ----

struct HostPromise::State {
  std::shared_ptr<interp::PendingCall> pending;
  const internal::RunHostFns* fns;
  uint32_t index;
};

HostPromise& HostPromise::operator=(HostPromise&& o) noexcept {
  if (this != &o) {
    if (state_) Resolve(absl::InternalError("the promise was replaced before it was resolved"));
    state_ = std::move(o.state_);
  }
  return *this;
}

HostPromise::~HostPromise() {
  if (state_) Resolve(absl::InternalError("the host dropped the promise without resolving it"));
}

void HostPromise::Resolve(absl::StatusOr<Value> result) {
  if (!state_) return;  // resolved already
  std::shared_ptr<State> st = std::move(state_);
  // The guest value is built on the run's thread, when the task resumes.
  st->pending->Complete([fns = st->fns, index = st->index, r = std::move(result)](
                            interp::HostError* err) mutable -> std::optional<interp::Value> {
    return fns->Result(index, std::move(r), err);
  });
}

// ---- the dispatch of one run ----

namespace internal {

const ir::HostFnDecl* RunHostFns::Decl(uint32_t index) const {
  return table_ && index < table_->decls.size() ? &table_->decls[index] : nullptr;
}

namespace {

void Fail(interp::HostError* err, TrapCode code, std::string message) {
  err->code = code;
  err->message = std::move(message);
}

// An exception out of the embedder's function is its error (a trap), never
// the host's crash; running out of memory stays what it is.
template <typename F>
absl::StatusOr<Value> Calling(const std::string& path, F&& f) {
  try {
    return f();
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat("threw ", e.what()));
  } catch (...) {
    return absl::InternalError(absl::StrCat(path, " threw an exception"));
  }
}

}  // namespace

std::optional<interp::Value> RunHostFns::Call(uint32_t index, std::vector<interp::Value>& args,
                                              interp::Meter& scope, interp::HostError* err) {
  const Linker::Table::Entry& e = table_->entries[index];
  const ir::HostFnDecl& d = table_->decls[index];
  const std::vector<Type>& params = e.signature.params;
  if (args.size() != params.size()) {
    Fail(err, TrapCode::kType,
         absl::StrCat(d.path, " takes ", params.size(), " argument(s), given ", args.size()));
    return std::nullopt;
  }
  std::vector<Value> in;
  in.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    absl::StatusOr<Value> v =
        FromGuest(*module_, args[i], std::min(err->memory_left, kMaxCrossingBytes));
    if (!v.ok() || !params[i].Admits(*v)) {
      Fail(err, TrapCode::kType,
           absl::StrCat(d.path, ": argument ", i + 1, " must be ", params[i].ToString(), ", found ",
                        v.ok() ? interp::Debug(*module_, args[i], 200) : v.status().message()));
      return std::nullopt;
    }
    in.push_back(std::move(*v));
  }
  HostCall::Impl impl{&scope, out_, interrupted_};
  HostCall call(d.path, std::move(in), &impl, static_cast<int>(err->loc.line),
                static_cast<int>(err->loc.col));
  if (e.fn) {
    absl::StatusOr<Value> r = Calling(d.path, [&] { return e.fn(call); });
    return Result(index, std::move(r), err);
  }
  auto state = std::make_shared<HostPromise::State>();
  state->pending = std::make_shared<interp::PendingCall>();
  state->fns = this;
  state->index = index;
  std::shared_ptr<interp::PendingCall> pending = state->pending;
  absl::StatusOr<Value> thrown = Calling(d.path, [&]() -> absl::StatusOr<Value> {
    e.async_fn(call, HostPromise(state));
    return Value();
  });
  if (!thrown.ok()) return Result(index, std::move(thrown), err);
  // The task waits; the scheduler resumes it when the promise resolves
  // (runtime/agents.h: late host calls).
  err->wait = true;
  err->pending = std::move(pending);
  return std::nullopt;
}

std::optional<interp::Value> RunHostFns::Result(uint32_t index, absl::StatusOr<Value> result,
                                                interp::HostError* err) const {
  const ir::HostFnDecl& d = table_->decls[index];
  const Type& want = table_->entries[index].signature.result;
  if (!result.ok()) {
    Fail(err, TrapCode::kHost, absl::StrCat(d.path, " failed: ", result.status().message()));
    return std::nullopt;
  }
  if (!want.Admits(*result)) {
    std::string shown = result->Debug();
    if (shown.size() > 200) shown = absl::StrCat(shown.substr(0, 200), "...");
    Fail(err, TrapCode::kHost,
         absl::StrCat(d.path, " returned ", shown, ", which is not ", want.ToString()));
    return std::nullopt;
  }
  absl::StatusOr<interp::Value> g = ToGuest(*module_, *result);
  if (!g.ok()) {
    Fail(err, TrapCode::kHost,
         absl::StrCat(d.path, " returned a bad value: ", g.status().message()));
    return std::nullopt;
  }
  // A result larger than the memory budget has left is the memory breach
  // (the caller charges it).
  const uint64_t est = interp::Estimate(*g);
  if (est > err->memory_left) {
    err->memory_needed = est;
    return std::nullopt;
  }
  return std::move(*g);
}

}  // namespace internal
}  // namespace mty
