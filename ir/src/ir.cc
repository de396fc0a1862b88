// MtyIR helpers: operator spellings (kinds.def), lookups and the implicit
// prelude ADTs.
#include "mty/ir/ir.h"

#include <iterator>

#include "mty/ir/kinds.h"

namespace mty::ir {

const char* BinOpText(BinOp op) {
  return static_cast<size_t>(op) < std::size(kBinOps) ? Info(op).text : "?";
}

const char* UnOpText(UnOp op) {
  return static_cast<size_t>(op) < std::size(kUnOps) ? Info(op).text : "?";
}

const Function* Program::FindFunction(std::string_view name) const {
  int i = FindFunctionIndex(name);
  return i < 0 ? nullptr : &functions[i];
}

int Program::FindFunctionIndex(std::string_view name) const {
  for (size_t i = 0; i < functions.size(); ++i)
    if (functions[i].name == name) return static_cast<int>(i);
  return -1;
}

ProgramIndex::ProgramIndex(const Program& p) {
  // The first of equal names wins, as with the scans.
  for (size_t i = 0; i < p.functions.size(); ++i)
    functions_.try_emplace(p.functions[i].name, static_cast<int>(i));
  for (const struct Adt& a : p.adts) adts_.try_emplace(a.name, &a);
  for (const struct Adt& a : PreludeAdts()) adts_.try_emplace(a.name, &a);
}

int ProgramIndex::Function(std::string_view name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? -1 : it->second;
}

const Adt* ProgramIndex::Adt(std::string_view name) const {
  auto it = adts_.find(name);
  return it == adts_.end() ? nullptr : it->second;
}

int Program::FindAdtIndex(std::string_view name) const {
  for (size_t i = 0; i < adts.size(); ++i)
    if (adts[i].name == name) return static_cast<int>(i);
  return -1;
}

const SandboxDecl* Program::FindSandbox(std::string_view name) const {
  for (const SandboxDecl& s : sandboxes)
    if (s.name == name) return &s;
  return nullptr;
}

const Adt* Program::FindAdt(std::string_view name) const {
  int i = FindAdtIndex(name);
  if (i >= 0) return &adts[i];
  for (const Adt& a : PreludeAdts())
    if (a.name == name) return &a;
  return nullptr;
}

const std::vector<Adt>& PreludeAdts() {
  static const std::vector<Adt>* table = [] {
    namespace p = prelude;
    auto* v = new std::vector<Adt>(p::kCount);
    Type t = Type::Named("T"), e = Type::Named("E");
    Type i64 = Type::Named("I64"), b = Type::Named("Bool"), str = Type::Named("Str");
    Type map = Type::Named("Map");
    map.args = {str, str};
    auto adt = [&](uint32_t index, bool is_enum, const char* name, size_t variants) -> Adt& {
      Adt& a = (*v)[index];
      a.is_enum = is_enum;
      a.name = name;
      a.variants.resize(variants);
      return a;
    };
    Adt& option = adt(p::kOption, true, "Option", 2);
    option.variants[p::kSome] = {"Some", {{"", t}}};
    option.variants[p::kNone] = {"None", {}};
    Adt& result = adt(p::kResult, true, "Result", 2);
    result.variants[p::kOk] = {"Ok", {{"", t}}};
    result.variants[p::kErr] = {"Err", {{"", e}}};
    // Values of the standard library (language.md §6).
    adt(p::kMetadata, false, "Metadata", 1).variants[0] = {
        "Metadata", {{"size", i64}, {"is_file", b}, {"is_dir", b}, {"mtime_ms", i64}}};
    adt(p::kResponse, false, "Response", 1).variants[0] = {
        "Response", {{"status", i64}, {"body", str}, {"headers", map}}};
    // Why an ask with a deadline (`h?Msg(x) @d`) got no reply (runtime.md §5).
    Adt& ask = adt(p::kAskError, true, "AskError", p::kAskErrorVariants);
    ask.variants[p::kDeadlineExceeded] = {"DeadlineExceeded", {}};
    ask.variants[p::kAgentFailed] = {"AgentFailed", {{"", str}}};
    ask.variants[p::kDeadAgent] = {"DeadAgent", {}};
    ask.variants[p::kMailboxFull] = {"MailboxFull", {}};
    // What `a.cmp(&b)` gives (language.md §5, Ordering).
    Adt& ord = adt(p::kOrdering, true, "Ordering", p::kOrderingVariants);
    ord.variants[p::kLess] = {"Less", {}};
    ord.variants[p::kEqual] = {"Equal", {}};
    ord.variants[p::kGreater] = {"Greater", {}};
    return v;
  }();
  return *table;
}

}  // namespace mty::ir
