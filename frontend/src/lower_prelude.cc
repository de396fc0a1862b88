// The Mighty prelude: library methods that call guest closures (map,
// filter, fold, ...). They are written in Mighty, compiled with the program
// when it uses them, and run as ordinary guest code (their steps count).
#include "absl/strings/str_cat.h"
#include "lower_internal.h"
#include "mty/frontend/parser.h"

namespace mty::frontend {

namespace {

constexpr const char* kPrelude = R"MTY(
fn __mty_map(r, f) {
  let k = __type_name(r)
  if k == "Array" {
    let mut out = []
    for x in r { out.push(f(x)) }
    return out
  }
  if k == "Option" {
    return match r {
      Option::Some(x) => Option::Some(f(x)),
      _ => Option::None,
    }
  }
  match r {
    Result::Ok(x) => Result::Ok(f(x)),
    Result::Err(e) => Result::Err(e),
  }
}

fn __mty_map_err(r, f) {
  match r {
    Result::Ok(x) => Result::Ok(x),
    Result::Err(e) => Result::Err(f(e)),
  }
}

fn __mty_and_then(r, f) {
  if __type_name(r) == "Option" {
    return match r {
      Option::Some(x) => f(x),
      _ => Option::None,
    }
  }
  match r {
    Result::Ok(x) => f(x),
    Result::Err(e) => Result::Err(e),
  }
}

fn __mty_unwrap_or_else(r, f) {
  if __type_name(r) == "Option" {
    return match r {
      Option::Some(x) => x,
      _ => f(),
    }
  }
  match r {
    Result::Ok(x) => x,
    Result::Err(e) => f(e),
  }
}

fn __mty_filter(r, f) {
  let mut out = []
  for x in r {
    if f(x) { out.push(x) }
  }
  out
}

fn __mty_fold(r, init, f) {
  let mut acc = init
  for x in r { acc = f(acc, x) }
  acc
}

fn __mty_any(r, f) {
  for x in r {
    if f(x) { return true }
  }
  false
}

fn __mty_all(r, f) {
  for x in r {
    if !f(x) { return false }
  }
  true
}

fn __mty_find(r, f) {
  if __type_name(r) == "Str" {
    let s: Str = r
    return s.find(f)
  }
  for x in r {
    if f(x) { return Option::Some(x) }
  }
  Option::None
}

fn __mty_position(r, f) {
  let mut i = 0
  for x in r {
    if f(x) { return Option::Some(i) }
    i += 1
  }
  Option::None
}

fn __mty_count(r, f) {
  let mut n = 0
  for x in r {
    if f(x) { n += 1 }
  }
  n
}

fn __mty_for_each(r, f) {
  for x in r { f(x) }
}

fn __mty_sort_by(r, f) {
  // A stable insertion sort; f(a, b) returns a negative, zero or positive Int.
  let mut v = r
  let n = v.len()
  let mut i = 1
  while i < n {
    let x = v[i]
    let mut j = i
    while j > 0 && f(v[j - 1], x) > 0 {
      v[j] = v[j - 1]
      j -= 1
    }
    v[j] = x
    i += 1
  }
  v
}
)MTY";

}  // namespace

void Globals::LowerPrelude() {
  if (prelude_needed.empty()) return;
  SourceFile src{"<prelude>", kPrelude};
  Diagnostics pd;
  static thread_local const Module* cached = nullptr;
  Module m = Parse(src, pd);
  if (pd.HasErrors()) {
    diags.Error("MT9999", Loc{},
                absl::StrCat("internal compiler error: the prelude does not parse: ",
                             pd.list()[0].message));
    return;
  }
  (void)cached;
  // Prelude functions use no user names; lower the needed ones with the
  // program's tables (they refer to Option/Result by qualified names).
  std::set<std::string> done;
  for (const Item& it : m.items) {
    if (it.kind != Item::Kind::kFn || !prelude_needed.count(it.fn.name)) continue;
    FnDef d;
    d.ir_name = it.fn.name;
    d.decl = &it.fn;
    for (size_t i = 0; i < it.fn.params.size(); ++i) d.params.push_back(Ty::Unknown());
    d.ret = Ty::Unknown();
    LowerFn(d, it.fn);
    done.insert(it.fn.name);
  }
  for (const std::string& n : prelude_needed)
    if (!done.count(n))
      diags.Error("MT9999", Loc{},
                  absl::StrCat("internal compiler error: no prelude function ", n));
}

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
