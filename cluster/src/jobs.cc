#include "jobs.h"

#include <random>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nlohmann/json.hpp"

namespace mty {

std::string ProgramHash(std::string_view text) { return cluster::Sha256Hex(text); }

absl::StatusOr<JobResult> ParseJobResult(std::string_view json) {
  nlohmann::json j = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return absl::InvalidArgumentError("a result is not a JSON object");
  JobResult r;
  try {
    r.id = j.at("id").get<std::string>();
    r.outcome = j.at("outcome").get<std::string>();
    r.exit_code = j.at("exit_code").get<int>();
    r.code = j.value("code", "");
    r.message = j.value("message", "");
    if (j.contains("returned") && j["returned"].is_string())
      r.returned = j["returned"].get<std::string>();
    r.stdout_text = j.value("stdout", "");
    r.stderr_text = j.value("stderr", "");
    r.diagnostics = j.value("diagnostics", "");
    r.report = j.value("report", "");
    r.breach = j.value("breach", "");
    const nlohmann::json& u = j.at("usage");
    r.steps = u.value("steps", uint64_t{0});
    r.memory_bytes = u.value("memory_bytes", uint64_t{0});
    r.heap_peak_bytes = u.value("heap_peak_bytes", uint64_t{0});
    r.output_bytes = u.value("output_bytes", uint64_t{0});
    r.wall_ns = u.value("wall_ns", uint64_t{0});
    r.cpu_ns = u.value("cpu_ns", uint64_t{0});
    r.agents_spawned = u.value("agents_spawned", uint64_t{0});
    r.worker = j.value("worker", "");
    r.attempt = j.value("attempt", 0);
    r.job_hash = j.value("job_hash", "");
    r.signer = j.value("signer", "");
  } catch (const nlohmann::json::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("a malformed result: ", e.what()));
  }
  r.json = std::string(json);
  return r;
}

}  // namespace mty

namespace mty::cluster {

absl::Status CheckJobId(std::string_view id) {
  if (id.empty() || id.size() > 128)
    return absl::InvalidArgumentError("a job id has 1 to 128 characters");
  for (char c : id)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'))
      return absl::InvalidArgumentError(
          absl::StrCat("job id \"", std::string(id), "\": only letters, digits, `_` and `-`"));
  return absl::OkStatus();
}

std::string NewJobId() {
  static thread_local std::mt19937_64 rng(std::random_device{}() ^
                                          (uint64_t{std::random_device{}()} << 32));
  return absl::StrFormat("%016x%016x", rng(), rng());
}

std::string JobJson(const Job& job) {
  nlohmann::json j = {{"id", job.id}, {"file", job.file}, {"args", job.args}};
  if (!job.program.empty()) {
    // Text that is not UTF-8 (a program with a stray byte, which the
    // compiler reports) cannot be a JSON string as it is: sent in base64.
    try {
      (void)nlohmann::json(job.program).dump();
      j["program"] = job.program;
    } catch (const nlohmann::json::type_error&) {
      j["program_base64"] = absl::Base64Escape(job.program);
    }
  }
  if (!job.program_hash.empty()) j["program_hash"] = job.program_hash;
  if (!job.manifest.empty()) j["manifest"] = job.manifest;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

absl::StatusOr<Job> ParseJob(std::string_view json, std::string* id) {
  nlohmann::json j = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return absl::InvalidArgumentError("the job is not a JSON object");
  Job job;
  auto str = [&j](const char* key, std::string* out, bool required) -> absl::Status {
    auto it = j.find(key);
    if (it == j.end()) {
      if (required) return absl::InvalidArgumentError(absl::StrCat("the job has no `", key, "`"));
      return absl::OkStatus();
    }
    if (!it->is_string())
      return absl::InvalidArgumentError(absl::StrCat("the job's `", key, "` is not a string"));
    *out = it->get<std::string>();
    return absl::OkStatus();
  };
  if (absl::Status s = str("id", &job.id, true); !s.ok()) return s;
  if (absl::Status s = CheckJobId(job.id); !s.ok()) return s;
  if (id) *id = job.id;
  for (const auto& [key, out] :
       {std::pair{"program", &job.program}, std::pair{"program_hash", &job.program_hash},
        std::pair{"file", &job.file}, std::pair{"manifest", &job.manifest}})
    if (absl::Status s = str(key, out, false); !s.ok()) return s;
  if (auto it = j.find("program_base64"); it != j.end()) {
    if (!it->is_string() || !job.program.empty() ||
        !absl::Base64Unescape(it->get<std::string>(), &job.program))
      return absl::InvalidArgumentError("the job's `program_base64` is not base64 text");
  }
  if (job.program.empty() == job.program_hash.empty())
    return absl::InvalidArgumentError("a job has either `program` or `program_hash`");
  if (auto it = j.find("args"); it != j.end()) {
    if (!it->is_array()) return absl::InvalidArgumentError("the job's `args` is not an array");
    for (const nlohmann::json& a : *it) {
      if (!a.is_string())
        return absl::InvalidArgumentError("the job's `args` holds a value that is not a string");
      job.args.push_back(a.get<std::string>());
    }
  }
  for (const auto& [key, value] : j.items())
    if (key != "id" && key != "program" && key != "program_base64" && key != "program_hash" &&
        key != "file" && key != "manifest" && key != "args")
      return absl::InvalidArgumentError(absl::StrCat("the job has an unknown field `", key, "`"));
  return job;
}

namespace {

// The document's text (one form for signing and checking).
std::string Dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

constexpr char kSignedPrefix[] = "mty-result-v1\n";

nlohmann::json ResultDocument(const JobResult& r) {
  nlohmann::json j = {{"id", r.id},
                      {"outcome", r.outcome},
                      {"exit_code", r.exit_code},
                      {"stdout", r.stdout_text},
                      {"stderr", r.stderr_text},
                      {"worker", r.worker},
                      {"attempt", r.attempt},
                      {"usage",
                       {{"steps", r.steps},
                        {"memory_bytes", r.memory_bytes},
                        {"heap_peak_bytes", r.heap_peak_bytes},
                        {"output_bytes", r.output_bytes},
                        {"wall_ns", r.wall_ns},
                        {"cpu_ns", r.cpu_ns},
                        {"agents_spawned", r.agents_spawned}}},
                      {"job_hash", r.job_hash}};
  j["returned"] = r.returned ? nlohmann::json(*r.returned) : nlohmann::json(nullptr);
  if (!r.code.empty()) j["code"] = r.code;
  if (!r.message.empty()) j["message"] = r.message;
  if (!r.diagnostics.empty()) j["diagnostics"] = r.diagnostics;
  if (!r.report.empty()) j["report"] = r.report;
  if (!r.breach.empty()) j["breach"] = r.breach;
  return j;
}

}  // namespace

std::string SignedResultJson(const JobResult& r, const SigningKey& key) {
  nlohmann::json j = ResultDocument(r);
  j["signer"] = key.fingerprint();
  j["signature"] = key.Sign(absl::StrCat(kSignedPrefix, Dump(j)));
  return Dump(j);
}

absl::StatusOr<JobResult> CheckedResult(std::string_view json, const VerifyKeys& keys,
                                        std::string_view id, std::string_view job_hash) {
  const std::string what = absl::StrCat("the result stored for job ", std::string(id), ": ");
  auto fail = [&what](const auto& why) {
    return absl::UnauthenticatedError(absl::StrCat(what, std::string(why)));
  };
  nlohmann::json j = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return fail("not a JSON object");
  std::string signature, signer;
  if (auto it = j.find("signature"); it != j.end() && it->is_string()) signature = *it;
  if (auto it = j.find("signer"); it != j.end() && it->is_string()) signer = *it;
  j.erase("signature");
  if (absl::Status s = keys.Verify(signer, absl::StrCat(kSignedPrefix, Dump(j)), signature);
      !s.ok())
    return fail(s.message());
  auto r = ParseJobResult(json);
  if (!r.ok()) return fail(r.status().message());
  if (r->id != id) return fail(absl::StrCat("written for job \"", r->id, "\""));
  if (r->job_hash != job_hash)
    return fail(absl::StrCat("written for another job submitted under this id (job ",
                             r->job_hash.substr(0, 16), ", claimed ",
                             std::string(job_hash).substr(0, 16), ")"));
  return r;
}

}  // namespace mty::cluster
