// The known library surface the lowering's static checks consult: effect
// calls and their arities, builtin methods per receiver kind, cast targets.
#include <set>
#include <string>

#include "lower_internal.h"

namespace mty::frontend {

bool IsKnownEffect(const std::string& path, int* lo, int* hi) {
  struct E {
    const char* path;
    int lo, hi;
  };
  static const E kEffects[] = {
      {"std.fs.read", 1, 2},           {"std.fs.read_to_string", 1, 2},
      {"std.fs.read_file", 1, 2},      {"std.fs.read_bytes", 1, 2},
      {"std.fs.write", 2, 3},          {"std.fs.write_file", 2, 3},
      {"std.fs.append", 2, 3},         {"std.fs.exists", 1, 2},
      {"std.fs.list_dir", 1, 2},       {"std.fs.read_dir", 1, 2},
      {"std.fs.metadata", 1, 2},       {"std.fs.stat", 1, 2},
      {"std.fs.create_dir_all", 1, 2}, {"std.fs.remove_file", 1, 2},
      {"std.fs.remove_dir_all", 1, 2}, {"std.net.get", 1, 2},
      {"std.net.post", 2, 3},          {"std.http.get", 1, 2},
      {"std.http.post", 2, 3},         {"std.time.now", 0, 1},
      {"std.time.sleep", 1, 2},        {"std.env.args", 0, 0},
      {"std.env.var", 1, 2},
  };
  for (const E& e : kEffects)
    if (path == e.path) {
      *lo = e.lo;
      *hi = e.hi;
      return true;
    }
  return false;
}

bool IsKnownMethod(Ty::Kind k, const std::string& adt, const std::string& name) {
  static const std::set<std::string> kStr = {
      "len",         "is_empty", "contains",  "starts_with", "ends_with", "find",     "rfind",
      "split",       "lines",    "trim",      "trim_start",  "trim_end",  "to_upper", "to_lower",
      "replace",     "repeat",   "chars",     "bytes",       "char_at",   "slice",    "parse_int",
      "parse_float", "to_str",   "to_string", "push_str"};
  static const std::set<std::string> kArr = {
      "len",    "is_empty", "push",     "pop",     "insert",   "remove",  "get",     "first",
      "last",   "contains", "index_of", "reverse", "sort",     "sort_by", "join",    "slice",
      "extend", "iter",     "map",      "filter",  "fold",     "any",     "all",     "find",
      "sum",    "min",      "max",      "clear",   "position", "count",   "for_each"};
  static const std::set<std::string> kMap = {"insert", "get",    "remove", "contains_key",
                                             "keys",   "values", "len",    "is_empty"};
  static const std::set<std::string> kOpt = {
      "is_some",        "is_none", "is_ok",   "is_err",   "unwrap", "expect", "unwrap_or",
      "unwrap_or_else", "map",     "map_err", "and_then", "ok",     "ok_or"};
  static const std::set<std::string> kNum = {"abs",       "min",  "max",   "pow",  "to_str",
                                             "to_string", "sqrt", "floor", "ceil", "round"};
  switch (k) {
    case Ty::Kind::kStr: return kStr.count(name) > 0;
    case Ty::Kind::kArray: return kArr.count(name) > 0;
    case Ty::Kind::kMap: return kMap.count(name) > 0;
    case Ty::Kind::kAdt:
      if (adt == "Option" || adt == "Result") return kOpt.count(name) > 0;
      return false;
    case Ty::Kind::kInt:
    case Ty::Kind::kFloat: return kNum.count(name) > 0;
    case Ty::Kind::kDuration:
      return name == "as_millis" || name == "as_secs" || name == "as_nanos" || name == "to_str";
    case Ty::Kind::kCap: return name == "ro" || name == "path" || name == "host";
    case Ty::Kind::kSize:
    case Ty::Kind::kBool:
    case Ty::Kind::kChar: return name == "to_str" || name == "to_string";
    case Ty::Kind::kUnknown:
      return kStr.count(name) || kArr.count(name) || kMap.count(name) || kOpt.count(name) ||
             kNum.count(name) || name == "as_millis";
    default: return false;
  }
}

bool IsCastTargetName(const std::string& n) {
  static const std::set<std::string> k = {"I8",   "I16",  "I32",   "I64",    "U8",       "U16",
                                          "U32",  "U64",  "ISize", "USize",  "F32",      "F64",
                                          "Char", "Bool", "Str",   "String", "Duration", "Size"};
  return k.count(n) > 0;
}

}  // namespace mty::frontend
