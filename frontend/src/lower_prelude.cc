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
  if __type_name(r) == "Option" {
    return match r {
      Option::Some(x) => if f(x) { Option::Some(x) } else { Option::None },
      _ => Option::None,
    }
  }
  let mut out = []
  for x in r {
    if f(x) { out.push(x) }
  }
  out
}

fn __mty_or_else(r, f) {
  if __type_name(r) == "Option" {
    return match r {
      Option::Some(x) => Option::Some(x),
      _ => f(),
    }
  }
  match r {
    Result::Ok(x) => Result::Ok(x),
    Result::Err(e) => f(e),
  }
}

fn __mty_is_some_and(r, f) {
  match r {
    Option::Some(x) => f(x),
    _ => false,
  }
}

fn __mty_is_none_or(r, f) {
  match r {
    Option::Some(x) => f(x),
    _ => true,
  }
}

fn __mty_is_ok_and(r, f) {
  match r {
    Result::Ok(x) => f(x),
    _ => false,
  }
}

fn __mty_is_err_and(r, f) {
  match r {
    Result::Err(e) => f(e),
    _ => false,
  }
}

fn __mty_map_or(r, d, f) {
  if __type_name(r) == "Option" {
    return match r {
      Option::Some(x) => f(x),
      _ => d,
    }
  }
  match r {
    Result::Ok(x) => f(x),
    _ => d,
  }
}

fn __mty_map_or_else(r, d, f) {
  if __type_name(r) == "Option" {
    return match r {
      Option::Some(x) => f(x),
      _ => d(),
    }
  }
  match r {
    Result::Ok(x) => f(x),
    Result::Err(e) => d(e),
  }
}

fn __mty_ok_or_else(r, f) {
  match r {
    Option::Some(x) => Result::Ok(x),
    _ => Result::Err(f()),
  }
}

fn __mty_retain(r, f) {
  // The elements (an array) or the entries (a map: f(key, value)) for
  // which f is true, in their order; written back to the receiver.
  if __type_name(r) == "Map" {
    let mut kept = Map.new()
    for (k, v) in r {
      if f(k, v) { kept.insert(k, v) }
    }
    return kept
  }
  let mut out = []
  for x in r {
    if f(x) { out.push(x) }
  }
  out
}

fn __mty_flat_map(r, f) {
  let mut out = []
  for x in r {
    for y in f(x) { out.push(y) }
  }
  out
}

fn __mty_min_by_key(r, f) {
  // The first element of the smallest key (Rust's min_by_key).
  let mut best = Option::None
  let mut best_key = Option::None
  for x in r {
    let k = f(x)
    let better = match best_key {
      Option::Some(b) => k < b,
      _ => true,
    }
    if better {
      best = Option::Some(x)
      best_key = Option::Some(k)
    }
  }
  best
}

fn __mty_max_by_key(r, f) {
  // The last element of the largest key (Rust's max_by_key).
  let mut best = Option::None
  let mut best_key = Option::None
  for x in r {
    let k = f(x)
    let better = match best_key {
      Option::Some(b) => k >= b,
      _ => true,
    }
    if better {
      best = Option::Some(x)
      best_key = Option::Some(k)
    }
  }
  best
}

fn __mty_sort_by_key(r, f) {
  // Stable: the keys computed once (n calls of f), then the bottom-up merge
  // sort of sort_by over (key, element) pairs.
  let mut v = []
  for x in r { v.push((f(x), x)) }
  let n = v.len()
  let mut buf = v
  let mut width = 1
  while width < n {
    let mut lo = 0
    while lo < n {
      let mid = if lo + width < n { lo + width } else { n }
      let hi = if mid + width < n { mid + width } else { n }
      let mut i = lo
      let mut j = mid
      let mut k = lo
      while k < hi {
        // A key with its own order (`impl Ord`, `std::cmp::Reverse`) by its cmp.
        let later_first = i < mid && j < hi && (if __has_method(v[j].0, "cmp") {
          __ord_sign(v[j].0.cmp(v[i].0)) < 0
        } else {
          v[j].0 < v[i].0
        })
        if i < mid && !later_first {
          buf[k] = v[i]
          i += 1
        } else {
          buf[k] = v[j]
          j += 1
        }
        k += 1
      }
      lo = hi
    }
    let done = buf
    buf = v
    v = done
    width *= 2
  }
  let mut out = []
  for p in v { out.push(p.1) }
  out
}

fn __mty_take_while(r, f) {
  // The elements before the first one f rejects (f is not called after it).
  let mut out = []
  for x in r {
    if !f(x) { return out }
    out.push(x)
  }
  out
}

fn __mty_range_take_while(lo, hi, incl, f) {
  // `(lo..hi).take_while(f)`: the range's elements up to the first one f
  // rejects, walked without building the range (an open `lo..` has hi
  // I64::MAX, inclusive).
  let mut out = []
  let mut i = lo
  while i < hi || (incl && i == hi) {
    if !f(i) { return out }
    out.push(i)
    if i == hi { return out }
    i += 1
  }
  out
}

fn __mty_skip_while(r, f) {
  // The elements from the first one f rejects on.
  let mut out = []
  let mut skipping = true
  for x in r {
    if skipping && f(x) { continue }
    skipping = false
    out.push(x)
  }
  out
}

fn __mty_scan(r, init, f) {
  // Rust's scan: f(&mut state, x) gives Some(y) to go on, None to stop.
  let mut st = init
  let mut out = []
  for x in r {
    match f(&mut st, x) {
      Option::Some(y) => out.push(y),
      _ => return out,
    }
  }
  out
}

fn __mty_partition(r, f) {
  // (the elements f accepts, the others), each in order.
  let mut yes = []
  let mut no = []
  for x in r {
    if f(x) { yes.push(x) } else { no.push(x) }
  }
  (yes, no)
}

fn __mty_filter_map(r, f) {
  let mut out = []
  for x in r {
    match f(x) {
      Option::Some(y) => out.push(y),
      _ => {}
    }
  }
  out
}

fn __mty_partition_point(r, f) {
  // The first index where f turns false (f true on a prefix): a binary
  // search, O(log n) calls of f.
  let mut lo = 0
  let mut hi = r.len()
  while lo < hi {
    let mid = lo + (hi - lo) / 2
    if f(r[mid]) { lo = mid + 1 } else { hi = mid }
  }
  lo
}

fn __mty_max_by(r, f) {
  // The last of the largest, as Rust's max_by.
  let mut best = Option::None
  for x in r {
    best = match best {
      Option::Some(b) => if __ord_sign(f(x, b)) >= 0 { Option::Some(x) } else { Option::Some(b) },
      _ => Option::Some(x),
    }
  }
  best
}

fn __mty_min_by(r, f) {
  // The first of the smallest, as Rust's min_by.
  let mut best = Option::None
  for x in r {
    best = match best {
      Option::Some(b) => if __ord_sign(f(x, b)) < 0 { Option::Some(x) } else { Option::Some(b) },
      _ => Option::Some(x),
    }
  }
  best
}

fn __mty_then_with(o, f) {
  // Ordering::then_with: f() only when o is Equal.
  match o {
    Ordering::Equal => f(),
    _ => o,
  }
}

fn __mty_cmp_max(a, b) {
  // std::cmp::max: b when they are equal.
  if b < a { a } else { b }
}

fn __mty_cmp_min(a, b) {
  // std::cmp::min: a when they are equal.
  if b < a { b } else { a }
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
    // A Str or Char pattern: the native find; a closure: the byte index of
    // the first char it accepts.
    let s: Str = r
    let k = __type_name(f)
    if k == "Str" || k == "Char" { return s.find(f) }
    for (i, c) in s.char_indices() {
      if f(c) { return Option::Some(i) }
    }
    return Option::None
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

fn __mty_rposition(r, f) {
  // The index of the last element f accepts.
  let mut i = r.len()
  while i > 0 {
    i -= 1
    if f(r[i]) { return Option::Some(i) }
  }
  Option::None
}

fn __mty_find_map(r, f) {
  // The first Some(y) that f gives.
  for x in r {
    let y = f(x)
    if y.is_some() { return y }
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
  // A stable bottom-up merge sort: ceil(log2 n) passes of n moves and at
  // most n comparisons each; f(a, b) returns an Ordering or a negative,
  // zero or positive Int, and of two elements that compare equal the
  // earlier stays first.
  let mut v = r
  let n = v.len()
  let mut buf = v
  let mut width = 1
  while width < n {
    let mut lo = 0
    while lo < n {
      let mid = if lo + width < n { lo + width } else { n }
      let hi = if mid + width < n { mid + width } else { n }
      let mut i = lo
      let mut j = mid
      let mut k = lo
      while k < hi {
        if i < mid && (j >= hi || __ord_sign(f(v[i], v[j])) <= 0) {
          buf[k] = v[i]
          i += 1
        } else {
          buf[k] = v[j]
          j += 1
        }
        k += 1
      }
      lo = hi
    }
    let done = buf
    buf = v
    v = done
    width *= 2
  }
  v
}

fn __mty_collect_map(r) {
  // `collect()` of pairs into a Map: a later key replaces an earlier one.
  let mut m = Map.new()
  for p in r { m.insert(p.0, p.1) }
  m
}

fn __mty_collect_option(r, into) {
  // `collect()` of Options: None at the first None, else Some of the
  // payloads as a Vec (into 0), a Str (1) or a Map (2).
  let mut out = []
  for x in r {
    match x {
      Option::Some(v) => out.push(v),
      _ => return Option::None,
    }
  }
  if into == 1 { return Option::Some(out.join("")) }
  if into == 2 {
    let mut m = Map.new()
    for p in out { m.insert(p.0, p.1) }
    return Option::Some(m)
  }
  Option::Some(out)
}

fn __mty_collect_result(r, into) {
  // `collect()` of Results: the first Err, else Ok of the payloads.
  let mut out = []
  for x in r {
    match x {
      Result::Ok(v) => out.push(v),
      Result::Err(e) => return Result::Err(e),
    }
  }
  if into == 1 { return Result::Ok(out.join("")) }
  if into == 2 {
    let mut m = Map.new()
    for p in out { m.insert(p.0, p.1) }
    return Result::Ok(m)
  }
  Result::Ok(out)
}

fn __mty_parse_bool(s) {
  // Rust's `str::parse::<bool>`: exactly "true" or "false".
  if s == "true" { return Result::Ok(true) }
  if s == "false" { return Result::Ok(false) }
  Result::Err("provided string was not `true` or `false`")
}

fn __mty_parse_char(s) {
  // Rust's `str::parse::<char>`: exactly one char.
  let cs = s.chars()
  if cs.len() == 1 { return Result::Ok(cs[0]) }
  if cs.len() == 0 { return Result::Err("cannot parse char from empty string") }
  Result::Err("too many characters in string")
}

fn __mty_array_repeat(x, n) {
  // `[x; n]`: each push is charged its steps and memory as it is made.
  if n < 0 {
    panic(format!("array repeat `[x; n]` with a negative count {n}"))
  }
  let mut out = []
  let mut i = 0
  while i < n {
    out.push(x)
    i += 1
  }
  out
}
)MTY";

}  // namespace

void Globals::LowerPrelude() {
  if (prelude_needed.empty()) return;
  SourceFile src{"<prelude>", kPrelude};
  Diagnostics pd;
  Module m = Parse(src, pd);
  if (pd.HasErrors()) {
    diags.Error("MT9999", Loc{},
                absl::StrCat("internal compiler error: the prelude does not parse: ",
                             pd.list()[0].message));
    return;
  }
  // Prelude functions use no user names; lower the needed ones with the
  // program's tables (they refer to Option/Result by qualified names).
  std::set<std::string> done;
  quiet_warnings = true;  // its code never warns the user
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
  quiet_warnings = false;
  for (const std::string& n : prelude_needed)
    if (!done.count(n))
      diags.Error("MT9999", Loc{},
                  absl::StrCat("internal compiler error: no prelude function ", n));
}

}  // namespace mty::frontend
