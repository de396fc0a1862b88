// Record and replay: the Recording's JSON lines, values as JSON, and the
// tap (RunTap) that logs or serves every effect result and scheduler clock
// reading of a run.
#include "replay.h"

#include <cmath>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "api_internal.h"
#include "mty/ir/builtins.h"
#include "mty/runtime/output.h"
#include "mty/vocab/utf8.h"

namespace mty {

using nlohmann::json;

// ---- Recording ----------------------------------------------------------

Recording::Recording() : impl_(std::make_unique<Impl>()) {}
Recording::~Recording() = default;
Recording::Recording(const Recording& o) : impl_(std::make_unique<Impl>(*o.impl_)) {}
Recording& Recording::operator=(const Recording& o) {
  if (this != &o) impl_ = std::make_unique<Impl>(*o.impl_);
  return *this;
}
Recording::Recording(Recording&& o) noexcept : impl_(std::move(o.impl_)) {
  o.impl_ = std::make_unique<Impl>();
}
Recording& Recording::operator=(Recording&& o) noexcept {
  std::swap(impl_, o.impl_);
  return *this;
}

const std::string& Recording::program_hash() const { return impl_->program_hash; }
const std::string& Recording::file() const { return impl_->file; }
const std::string& Recording::entry() const { return impl_->entry; }
const std::vector<std::string>& Recording::args() const { return impl_->args; }
const std::vector<Value>& Recording::params() const { return impl_->params; }
const Policy& Recording::policy() const { return impl_->policy; }
size_t Recording::inputs() const { return impl_->inputs.size(); }
bool Recording::ended() const { return impl_->end.has_value(); }
bool Recording::Records(const Program& program) const {
  return impl_->program_hash == internal::ProgramHash(program.IrText());
}

namespace {

constexpr int kFormat = 1;  // the header's `mty_recording`

std::string Line(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

json PolicyJson(const Policy& p) {
  json limits = json::object(), grants = json::object();
  for (const ir::LimitInfo& l : ir::kLimits)
    if (std::optional<uint64_t> v = p.limits.Get(l.id)) limits[l.key] = *v;
  for (const ir::GrantInfo& g : ir::kGrants)
    if (const auto& list = p.grants.Get(g.id)) grants[g.key] = *list;
  json j = {{"limits", limits}, {"grants", grants}};
  if (p.limits.mb_policy) j["mb_policy"] = ir::MailboxPolicyName(*p.limits.mb_policy);
  return j;
}

absl::StatusOr<Policy> PolicyFromJson(const json& j) {
  Policy p;
  if (!j.is_object()) return absl::InvalidArgumentError("policy: not an object");
  if (j.contains("limits"))
    for (const auto& [key, v] : j["limits"].items()) {
      std::optional<ir::Key> k = ir::FindKey(key);
      if (!k || k->kind != ir::Key::Kind::kLimit || !v.is_number_unsigned())
        return absl::InvalidArgumentError(absl::StrCat("policy: limit `", key, "`"));
      p.limits.Set(k->limit, v.get<uint64_t>());
    }
  if (j.contains("grants"))
    for (const auto& [key, v] : j["grants"].items()) {
      std::optional<ir::Key> k = ir::FindKey(key);
      if (!k || k->kind != ir::Key::Kind::kGrant || !v.is_array())
        return absl::InvalidArgumentError(absl::StrCat("policy: grant `", key, "`"));
      std::vector<std::string> list;
      for (const json& e : v) {
        if (!e.is_string()) return absl::InvalidArgumentError(absl::StrCat("policy: `", key, "`"));
        list.push_back(e.get<std::string>());
      }
      p.grants.Set(k->grant, std::move(list));
    }
  if (j.contains("mb_policy")) {
    if (!j["mb_policy"].is_string()) return absl::InvalidArgumentError("policy: mb_policy");
    p.limits.mb_policy = ir::ParseMailboxPolicy(j["mb_policy"].get<std::string>());
    if (!p.limits.mb_policy) return absl::InvalidArgumentError("policy: mb_policy");
  }
  return p;
}

// The shape a replay relies on (every field it reads has its type), so
// that no recording, however edited, can make it misread one.
absl::Status CheckInput(const json& j) {
  auto bad = [](const char* why) { return absl::InvalidArgumentError(why); };
  if (j.contains("clock")) {
    if (!j["clock"].is_number_integer()) return bad("`clock`: not an integer");
    return absl::OkStatus();
  }
  if (!j.contains("effect") || !j["effect"].is_string() || !j.contains("args") ||
      !j["args"].is_array() || (j.contains("value") == j.contains("error")))
    return bad("neither an effect result (effect, args, value or error) nor a clock reading");
  for (const char* key : {"line", "column", "output"})
    if (j.contains(key) && !j[key].is_number_unsigned())
      return absl::InvalidArgumentError(absl::StrCat("`", key, "`: not a count"));
  if (j.contains("error")) {
    const json& x = j["error"];
    if (!x.is_object()) return bad("`error`: not an object");
    for (const char* key : {"code", "message", "unrecorded"})
      if (x.contains(key) && !x[key].is_string())
        return absl::InvalidArgumentError(absl::StrCat("`error.", key, "`: not a string"));
    if (x.contains("memory_needed") && !x["memory_needed"].is_number_unsigned())
      return bad("`error.memory_needed`: not a count");
    if (x.contains("sleep_ns") && !x["sleep_ns"].is_number_integer())
      return bad("`error.sleep_ns`: not an integer");
    if (x.contains("breach")) {
      const json& b = x["breach"];
      if (!b.is_object() || !b.value("key", json()).is_string() ||
          !b.value("observed", json(0)).is_number_unsigned() ||
          !b.value("bound", json(0)).is_number_unsigned() ||
          !b.value("subject", json("")).is_string() || !b.value("sandbox", json("")).is_string())
        return bad("`error.breach`: malformed");
      std::optional<ir::Key> k = ir::FindKey(b["key"].get<std::string>());
      if (!k || (k->kind != ir::Key::Kind::kLimit && k->kind != ir::Key::Kind::kGrant))
        return bad("`error.breach.key`: not a limit or grant");
    }
  }
  return absl::OkStatus();
}

absl::Status CheckEnd(const json& end) {
  if (!end.is_object()) return absl::InvalidArgumentError("`end`: not an object");
  for (const char* key : {"stdout", "stderr"})
    if (end.contains(key) &&
        (!end[key].is_object() || !end[key].value("bytes", json(0)).is_number_unsigned() ||
         !end[key].value("crc32", json("")).is_string()))
      return absl::InvalidArgumentError(absl::StrCat("`end.", key, "`: malformed"));
  return absl::OkStatus();
}

}  // namespace

std::string Recording::ToJsonLines() const {
  json params = json::array();
  for (const Value& v : impl_->params) params.push_back(internal::ValueToJson(v));
  std::string out = Line({{"mty_recording", kFormat},
                          {"program", impl_->program_hash},
                          {"file", impl_->file},
                          {"entry", impl_->entry},
                          {"args", impl_->args},
                          {"params", params},
                          {"policy", PolicyJson(impl_->policy)}});
  for (const json& j : impl_->inputs) out += Line(j);
  if (impl_->end) out += Line({{"end", *impl_->end}});
  return out;
}

absl::StatusOr<Recording> Recording::FromJsonLines(std::string_view text) {
  Recording r;
  Impl& impl = *r.impl_;
  size_t line_no = 0;
  bool header = false;
  auto bad = [&](const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat("line ", line_no, ": ", why));
  };
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    if (line.empty()) continue;
    json j = json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object()) return bad("not a JSON object");
    if (!header) {
      if (!j.contains("mty_recording"))
        return bad("not a recording of mty run --record (no `mty_recording` header)");
      if (j["mty_recording"] != kFormat)
        return bad(absl::StrCat("recording format ", j["mty_recording"].dump(),
                                " (this mty reads format ", kFormat, ")"));
      if (!j.value("program", json()).is_string() || !j.value("entry", json()).is_string() ||
          !j.value("args", json()).is_array() || !j.value("params", json()).is_array() ||
          !j.contains("policy"))
        return bad("the header needs program, entry, args, params and policy");
      impl.program_hash = j["program"].get<std::string>();
      impl.file = j.value("file", "");
      impl.entry = j["entry"].get<std::string>();
      for (const json& a : j["args"]) {
        if (!a.is_string()) return bad("args: not a string");
        impl.args.push_back(a.get<std::string>());
      }
      for (const json& v : j["params"]) {
        absl::StatusOr<Value> p = internal::ValueFromJson(v);
        if (!p.ok()) return bad(absl::StrCat("params: ", p.status().message()));
        impl.params.push_back(std::move(*p));
      }
      absl::StatusOr<Policy> p = PolicyFromJson(j["policy"]);
      if (!p.ok()) return bad(std::string(p.status().message()));
      impl.policy = std::move(*p);
      header = true;
      continue;
    }
    if (impl.end) return bad("a line after the end line");
    if (j.contains("end")) {
      if (absl::Status st = CheckEnd(j["end"]); !st.ok()) return bad(std::string(st.message()));
      impl.end = j["end"];
      continue;
    }
    if (absl::Status st = CheckInput(j); !st.ok()) return bad(std::string(st.message()));
    impl.inputs.push_back(std::move(j));
  }
  if (!header) return absl::InvalidArgumentError("empty recording (no header line)");
  return r;
}

// ---- Values as JSON -------------------------------------------------------

namespace internal {

std::string ProgramHash(const std::string& ir_text) {
  // CRC-64/XZ: a content hash to tell a changed program, not a security one.
  boost::crc_optimal<64, 0x42F0E1EBA9EA3693ULL, ~0ULL, ~0ULL, true, true> crc;
  crc.process_bytes(ir_text.data(), ir_text.size());
  return absl::StrFormat("%016x", crc.checksum());
}

namespace {

// A value nested deeper than kMaxValueDepth (which no run takes as a
// parameter or returns) is written as far as it may be read back, its part
// below as an opaque value saying so.
json ToJson(const Value& v, int depth) {
  if (depth >= kMaxValueDepth && (!v.items().empty() || !v.entries().empty()))
    return {{"opaque", std::string(TooDeep().message())}};
  using K = Value::Kind;
  switch (v.kind()) {
    case K::kUnit: return nullptr;
    case K::kBool: return v.as_bool();
    case K::kInt: return v.as_int();
    case K::kFloat: {
      const double d = v.as_float();
      if (std::isnan(d)) return {{"f", "nan"}};
      if (std::isinf(d)) return {{"f", d > 0 ? "inf" : "-inf"}};
      return {{"f", d}};
    }
    case K::kChar: return {{"c", static_cast<uint32_t>(v.as_char())}};
    case K::kStr:
      if (ir::ValidUtf8(v.as_str())) return v.as_str();
      return {{"s64", absl::Base64Escape(v.as_str())}};
    case K::kBytes: return {{"b64", absl::Base64Escape(v.as_str())}};
    case K::kVec: {
      json a = json::array();
      for (const Value& x : v.items()) a.push_back(ToJson(x, depth + 1));
      return a;
    }
    case K::kMap: {
      json a = json::array();
      for (const auto& [k, x] : v.entries())
        a.push_back(json::array({ToJson(k, depth + 1), ToJson(x, depth + 1)}));
      return {{"map", a}};
    }
    case K::kTuple: {
      json a = json::array();
      for (const Value& x : v.items()) a.push_back(ToJson(x, depth + 1));
      return {{"tuple", a}};
    }
    case K::kStruct:
    case K::kEnum: {
      json fields = json::array();
      for (const Value& x : v.items()) fields.push_back(ToJson(x, depth + 1));
      json j = v.is(K::kStruct) ? json{{"struct", v.type_name()}}
                                : json{{"enum", v.type_name()}, {"variant", v.variant()}};
      j["fields"] = fields;
      if (!v.field_names().empty()) j["names"] = v.field_names();
      return j;
    }
    case K::kOpaque: return {{"opaque", v.as_str()}};
  }
  return nullptr;
}

}  // namespace

json ValueToJson(const Value& v) { return ToJson(v, 0); }

namespace {
absl::StatusOr<Value> FromJson(const json& j, int depth);
}  // namespace

absl::StatusOr<Value> ValueFromJson(const json& j) { return FromJson(j, 0); }

namespace {

absl::StatusOr<Value> FromJson(const json& j, int depth) {
  if (depth > kMaxValueDepth) return TooDeep();
  auto list = [depth](const json& a) -> absl::StatusOr<std::vector<Value>> {
    if (!a.is_array()) return absl::InvalidArgumentError("a value list is not an array");
    std::vector<Value> out;
    for (const json& x : a) {
      absl::StatusOr<Value> v = FromJson(x, depth + 1);
      if (!v.ok()) return v.status();
      out.push_back(std::move(*v));
    }
    return out;
  };
  if (j.is_null()) return Value::Unit();
  if (j.is_boolean()) return Value::Bool(j.get<bool>());
  if (j.is_number_integer()) return Value::Int(j.get<int64_t>());
  if (j.is_string()) return Value::Str(j.get<std::string>());
  if (j.is_array()) {
    absl::StatusOr<std::vector<Value>> items = list(j);
    if (!items.ok()) return items.status();
    return Value::Vec(std::move(*items));
  }
  if (!j.is_object()) return absl::InvalidArgumentError(absl::StrCat("not a value: ", j.dump()));
  if (j.contains("f")) {
    const json& f = j["f"];
    if (f.is_number()) return Value::Float(f.get<double>());
    if (f == "nan") return Value::Float(std::nan(""));
    if (f == "inf") return Value::Float(HUGE_VAL);
    if (f == "-inf") return Value::Float(-HUGE_VAL);
  }
  if (j.contains("c") && j["c"].is_number_unsigned())
    return Value::Char(static_cast<char32_t>(j["c"].get<uint32_t>()));
  for (const char* key : {"s64", "b64"})
    if (j.contains(key) && j[key].is_string()) {
      std::string bytes;
      if (!absl::Base64Unescape(j[key].get<std::string>(), &bytes))
        return absl::InvalidArgumentError("malformed base64");
      return key[0] == 's' ? Value::Str(std::move(bytes)) : Value::Bytes(std::move(bytes));
    }
  if (j.contains("map") && j["map"].is_array()) {
    std::vector<std::pair<Value, Value>> entries;
    for (const json& e : j["map"]) {
      if (!e.is_array() || e.size() != 2) return absl::InvalidArgumentError("a map entry");
      absl::StatusOr<Value> k = FromJson(e[0], depth + 1);
      if (!k.ok()) return k.status();
      absl::StatusOr<Value> v = FromJson(e[1], depth + 1);
      if (!v.ok()) return v.status();
      entries.emplace_back(std::move(*k), std::move(*v));
    }
    return Value::Map(std::move(entries));
  }
  if (j.contains("tuple")) {
    absl::StatusOr<std::vector<Value>> items = list(j["tuple"]);
    if (!items.ok()) return items.status();
    return Value::Tuple(std::move(*items));
  }
  if ((j.contains("struct") || j.contains("enum")) && j.contains("fields")) {
    absl::StatusOr<std::vector<Value>> items = list(j["fields"]);
    if (!items.ok()) return items.status();
    std::vector<std::string> names;
    if (j.contains("names")) {
      if (!j["names"].is_array() || j["names"].size() != items->size())
        return absl::InvalidArgumentError("field names do not match the fields");
      for (const json& n : j["names"]) {
        if (!n.is_string()) return absl::InvalidArgumentError("a field name");
        names.push_back(n.get<std::string>());
      }
    }
    if (j.contains("struct")) {
      if (!j["struct"].is_string()) return absl::InvalidArgumentError("a struct name");
      std::vector<std::pair<std::string, Value>> fields;
      for (size_t i = 0; i < items->size(); ++i)
        fields.emplace_back(i < names.size() ? names[i] : absl::StrCat(i), std::move((*items)[i]));
      return Value::Struct(j["struct"].get<std::string>(), std::move(fields));
    }
    if (!j["enum"].is_string() || !j.value("variant", json()).is_string())
      return absl::InvalidArgumentError("an enum needs its type and variant");
    return Value::Enum(j["enum"].get<std::string>(), j["variant"].get<std::string>(),
                       std::move(*items));
  }
  if (j.contains("opaque")) return absl::InvalidArgumentError("an opaque value cannot be replayed");
  return absl::InvalidArgumentError(absl::StrCat("not a value: ", j.dump()));
}

}  // namespace

// ---- The tap ----------------------------------------------------------------

namespace {

// Long strings in arguments (the data of a write) are compared by length
// and CRC-32 instead of being copied into the log.
constexpr size_t kMaxArgText = 256;

json Digest(json j) {
  if (j.is_string() && j.get_ref<const std::string&>().size() > kMaxArgText) {
    const std::string& s = j.get_ref<const std::string&>();
    boost::crc_32_type crc;
    crc.process_bytes(s.data(), s.size());
    return {{"len", s.size()}, {"crc32", absl::StrFormat("%08x", crc.checksum())}};
  }
  if (j.is_array())
    for (json& x : j) x = Digest(std::move(x));
  if (j.is_object())
    for (auto& [k, x] : j.items()) x = Digest(std::move(x));
  return j;
}

json BreachJson(const ir::Breach& b) {
  json j = {{"key", b.Key()},
            {"observed", b.observed},
            {"bound", b.bound},
            {"subject", b.subject},
            {"sandbox", b.sandbox}};
  return j;
}

std::optional<ir::Breach> BreachFromJson(const json& j) {
  if (!j.is_object() || !j.value("key", json()).is_string()) return std::nullopt;
  std::optional<ir::Key> k = ir::FindKey(j["key"].get<std::string>());
  if (!k) return std::nullopt;
  ir::Breach b;
  if (k->kind == ir::Key::Kind::kLimit) {
    b.limit = k->limit;
  } else if (k->kind == ir::Key::Kind::kGrant) {
    b.grant = k->grant;
  } else {
    return std::nullopt;
  }
  b.observed = j.value("observed", uint64_t{0});
  b.bound = j.value("bound", uint64_t{0});
  b.subject = j.value("subject", "");
  b.sandbox = j.value("sandbox", "");
  return b;
}

}  // namespace

RunTap::RunTap(interp::Host* inner, std::shared_ptr<const interp::Module> module,
               std::string program_hash, Recording::Impl* record, const Recording::Impl* replay)
    : inner_(inner),
      module_(std::move(module)),
      program_hash_(std::move(program_hash)),
      record_(record),
      replay_(replay) {}

void RunTap::Bind(const runtime::BudgetTracker* root, std::function<void()> stop) {
  root_ = root;
  stop_ = std::move(stop);
}

void RunTap::Stdout(std::string_view text) {
  out_.bytes += text.size();
  out_.crc.process_bytes(text.data(), text.size());
  inner_->Stdout(text);
}

void RunTap::Stderr(std::string_view text) {
  err_.bytes += text.size();
  err_.crc.process_bytes(text.data(), text.size());
  inner_->Stderr(text);
}

json RunTap::ArgsJson(const std::vector<interp::Value>& args) const {
  json a = json::array();
  for (const interp::Value& v : args) {
    absl::StatusOr<Value> pv = FromGuest(*module_, v, UINT64_MAX);
    a.push_back(pv.ok() ? Digest(ValueToJson(*pv)) : json{{"opaque", "?"}});
  }
  return a;
}

std::string RunTap::Where(uint32_t line, uint32_t col, bool recorded) const {
  return absl::StrCat(recorded && replay_ ? replay_->file : module_->source, ":", line, ":", col);
}

std::string RunTap::Describe(const json& input) const {
  if (input.contains("clock")) return "a reading of the scheduler's clock";
  std::vector<std::string> args;
  for (const json& a : input["args"]) args.push_back(a.dump());
  return absl::StrCat(input["effect"].get<std::string>(), "(", absl::StrJoin(args, ", "), ") at ",
                      Where(input.value("line", 0u), input.value("column", 0u), true));
}

const json* RunTap::Next() {
  if (!divergence_.empty() || next_ >= replay_->inputs.size()) return nullptr;
  return &replay_->inputs[next_++];
}

void RunTap::Diverge(const json* had, const std::string& now) {
  if (!divergence_.empty()) return;
  // `had` is the input just taken (number next_), or null: the log ended.
  divergence_ = had ? absl::StrCat("input ", next_, " (line ", next_ + 1, ") of the recording is ",
                                   Describe(*had))
                    : absl::StrCat("the recording ends after ", replay_->inputs.size(), " inputs");
  absl::StrAppend(&divergence_, "; the run asked for ", now);
  if (replay_->program_hash != program_hash_)
    absl::StrAppend(&divergence_, " (the program changed since the recording)");
  if (stop_) stop_();
}

template <typename F>
std::optional<interp::Value> RunTap::Tap(std::string_view name, std::vector<interp::Value>& args,
                                         interp::Meter& scope, interp::HostError* err, F&& call) {
  json args_json = ArgsJson(args);  // before the call, which may take them
  if (replay_) return Serve(name, args_json, scope, err);
  const uint64_t output0 = root_->Used(ir::LimitId::kOutput);
  std::optional<interp::Value> v = call();
  json e = {
      {"effect", name}, {"line", err->loc.line}, {"column", err->loc.col}, {"args", args_json}};
  if (const uint64_t out = root_->Used(ir::LimitId::kOutput) - output0) e["output"] = out;
  if (v) {
    absl::StatusOr<Value> pv = FromGuest(*module_, *v, UINT64_MAX);
    e["value"] = pv.ok() ? ValueToJson(*pv) : json{{"opaque", std::string(pv.status().message())}};
  } else {
    json x = json::object();
    if (err->code != ir::TrapCode::kNone) x["code"] = ir::TrapText(err->code);
    if (!err->message.empty()) x["message"] = err->message;
    if (err->breach) x["breach"] = BreachJson(*err->breach);
    if (err->memory_needed) x["memory_needed"] = err->memory_needed;
    if (err->wait) {
      if (err->sleep_ns >= 0) {
        x["sleep_ns"] = err->sleep_ns;
      } else {
        x["unrecorded"] = "a host function that completes later";
      }
    }
    e["error"] = x;
  }
  record_->inputs.push_back(std::move(e));
  return v;
}

std::optional<interp::Value> RunTap::Serve(std::string_view name, const json& args,
                                           interp::Meter& scope, interp::HostError* err) {
  auto diverged = [&](const std::string& why) -> std::optional<interp::Value> {
    err->code = ir::TrapCode::kHost;
    err->message = absl::StrCat("replay diverged: ", why);
    return std::nullopt;
  };
  std::vector<std::string> shown;
  for (const json& a : args) shown.push_back(a.dump());
  const std::string asked = absl::StrCat(std::string(name), "(", absl::StrJoin(shown, ", "),
                                         ") at ", Where(err->loc.line, err->loc.col, false));
  if (!divergence_.empty()) return diverged(divergence_);
  const json* e = Next();
  if (!e || !e->contains("effect") || (*e)["effect"] != name || (*e)["args"] != args) {
    Diverge(e, asked);
    return diverged(divergence_);
  }
  if (e->contains("output"))
    if (std::optional<ir::Breach> b = scope.ChargeOutput((*e)["output"].get<uint64_t>())) {
      err->breach = std::move(b);
      return std::nullopt;
    }
  if (e->contains("value")) {
    absl::StatusOr<Value> pv = ValueFromJson((*e)["value"]);
    absl::StatusOr<interp::Value> v = pv.ok() ? ToGuest(*module_, *pv) : pv.status();
    if (!v.ok()) {
      Diverge(e, absl::StrCat(asked,
                              ", whose recorded result cannot be rebuilt: ", v.status().message()));
      return diverged(divergence_);
    }
    return std::move(*v);
  }
  const json& x = (*e)["error"];
  if (x.contains("unrecorded")) {
    Diverge(e, absl::StrCat(asked, ", whose result was not recorded (",
                            x["unrecorded"].get<std::string>(), ")"));
    return diverged(divergence_);
  }
  if (x.contains("code"))
    if (std::optional<ir::TrapCode> c = ir::ParseTrapCode(x["code"].get<std::string>()))
      err->code = *c;
  err->message = x.value("message", "");
  if (x.contains("breach")) err->breach = BreachFromJson(x["breach"]);
  err->memory_needed = x.value("memory_needed", uint64_t{0});
  if (x.contains("sleep_ns")) {
    err->wait = true;
    err->sleep_ns = x["sleep_ns"].get<int64_t>();
  }
  return std::nullopt;
}

std::optional<interp::Value> RunTap::InvokeEffect(ir::EffectId id, std::vector<interp::Value>& args,
                                                  interp::Meter& scope, interp::HostError* err) {
  return Tap(ir::Effect(id).path, args, scope, err,
             [&] { return inner_->InvokeEffect(id, args, scope, err); });
}

std::optional<interp::Value> RunTap::InvokeHostFn(uint32_t index, std::vector<interp::Value>& args,
                                                  interp::Meter& scope, interp::HostError* err) {
  const std::string name = index < module_->host_fns.size() ? module_->host_fns[index].path
                                                            : absl::StrCat("host#", index);
  return Tap(name, args, scope, err, [&] { return inner_->InvokeHostFn(index, args, scope, err); });
}

int64_t RunTap::Now() {
  if (!replay_) {
    const int64_t now = runtime::SteadyNowNs();
    record_->inputs.push_back({{"clock", now - root_->start_ns()}});
    return now;
  }
  if (!divergence_.empty()) return last_clock_;
  const json* e = Next();
  if (!e || !e->contains("clock")) {
    Diverge(e, "a reading of the scheduler's clock (a sleep, an ask deadline or a restart)");
    return last_clock_;
  }
  last_clock_ = root_->start_ns() + (*e)["clock"].get<int64_t>();
  return last_clock_;
}

void RunTap::End(RunResult& r) {
  const json end = {
      {"outcome", ir::OutcomeName(r.outcome)},
      {"exit_code", r.exit_code},
      {"steps", r.steps_used},
      {"stdout", {{"bytes", out_.bytes}, {"crc32", absl::StrFormat("%08x", out_.crc.checksum())}}},
      {"stderr", {{"bytes", err_.bytes}, {"crc32", absl::StrFormat("%08x", err_.crc.checksum())}}}};
  if (record_) {
    record_->end = end;
    return;
  }
  // A replay stopped because its own stdout or stderr refused a write
  // (MT5023, MT5024) ended for the host's reason: its end is not compared.
  const bool compared = r.code != ir::TrapCode::kOutput && r.code != ir::TrapCode::kOutputClosed;
  if (divergence_.empty() && compared && next_ < replay_->inputs.size()) {
    divergence_ = absl::StrCat("the run ended without asking for input ", next_ + 1, " (line ",
                               next_ + 2, ") of the recording, ", Describe(replay_->inputs[next_]));
    if (replay_->program_hash != program_hash_)
      absl::StrAppend(&divergence_, " (the program changed since the recording)");
  }
  if (divergence_.empty() && compared && replay_->end) {
    const json& want = *replay_->end;
    std::vector<std::string> diffs;
    for (const char* key : {"outcome", "exit_code", "steps"})
      if (want.value(key, json()) != end[key])
        diffs.push_back(absl::StrCat(key, " ", want.value(key, json()).dump(),
                                     " in the recording, ", end[key].dump(), " now"));
    for (const char* key : {"stdout", "stderr"}) {
      const json had = want.value(key, json::object());
      if (had != end[key])
        diffs.push_back(absl::StrCat(key, " ", had.value("bytes", uint64_t{0}), " B (crc32 ",
                                     had.value("crc32", ""), ") in the recording, ",
                                     end[key]["bytes"].get<uint64_t>(), " B (crc32 ",
                                     end[key]["crc32"].get<std::string>(), ") now"));
    }
    if (!diffs.empty()) {
      divergence_ = absl::StrCat("the run ended differently: ", absl::StrJoin(diffs, "; "));
      if (replay_->program_hash != program_hash_)
        absl::StrAppend(&divergence_, " (the program changed since the recording)");
    }
  }
  r.divergence = divergence_;
}

}  // namespace internal
}  // namespace mty
