// docs/language.md §5 lists every method of the builtin table under its
// receiver kind (a `#### Kind` table per kind), and nothing else: the
// tables and ir/builtins.def cannot drift apart.
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "gtest/gtest.h"
#include "mty/ir/builtins.h"

namespace mty::ir {
namespace {

// The receiver kinds in the order of enum Recv, by their §5 headings.
constexpr const char* kRecvHeadings[kNumRecv] = {
    "Str",   "Array",    "Map",  "Tuple", "Option", "Result", "Int",
    "Float", "Duration", "Size", "Bool",  "Char",   "Cap",    "Ordering",
};

// heading -> method names in the first column of its table.
std::map<std::string, std::set<std::string>> DocumentedMethods() {
  std::ifstream in(MTY_LANGUAGE_MD);
  EXPECT_TRUE(in.good()) << MTY_LANGUAGE_MD;
  std::map<std::string, std::set<std::string>> out;
  std::string line, heading;
  bool in_builtins = false;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) in_builtins = line.rfind("## 5.", 0) == 0;
    if (!in_builtins) continue;
    if (line.rfind("#### ", 0) == 0) {
      heading = line.substr(5);
      out[heading];
      continue;
    }
    if (heading.empty() || line.rfind("| `", 0) != 0) continue;
    const std::string cell = line.substr(2, line.find(" |", 2) - 2);
    // Each `name(args)` in the cell.
    for (size_t at = cell.find('`'); at != std::string::npos;) {
      const size_t end = cell.find('`', at + 1);
      if (end == std::string::npos) break;
      std::string code = cell.substr(at + 1, end - at - 1);
      out[heading].insert(code.substr(0, code.find('(')));
      at = cell.find('`', end + 1);
    }
  }
  return out;
}

TEST(MethodDocs, EveryReceiverTableListsExactlyItsMethods) {
  std::map<std::string, std::set<std::string>> docs = DocumentedMethods();
  std::map<std::string, std::set<std::string>> table;
  for (const MethodInfo& m : kMethods)
    table[kRecvHeadings[static_cast<size_t>(m.recv)]].insert(MethodNameText(m.name));
  for (const PreludeInfo& p : kPreludeMethods)
    table[kRecvHeadings[static_cast<size_t>(p.recv)]].insert(MethodNameText(p.name));
  for (const FormInfo& f : kFormMethods)
    table[kRecvHeadings[static_cast<size_t>(f.recv)]].insert(MethodNameText(f.name));
  for (const auto& [kind, names] : table) {
    ASSERT_TRUE(docs.count(kind)) << "docs/language.md §5 has no `#### " << kind << "` table";
    for (const std::string& n : names)
      EXPECT_TRUE(docs[kind].count(n)) << kind << "." << n << " is not documented in §5";
    for (const std::string& n : docs[kind])
      EXPECT_TRUE(names.count(n)) << kind << "." << n << " is documented but not in builtins.def";
  }
  for (const auto& [kind, names] : docs)
    EXPECT_TRUE(table.count(kind)) << "§5 documents `" << kind << "`, which has no methods";
}

}  // namespace
}  // namespace mty::ir
