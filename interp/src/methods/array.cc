// The methods of arrays (and the len of tuples, the same items): reading,
// editing in place, sorting, and the eager adapters that build a new array
// (docs/language.md §5). An array held as bytes reaches these widened
// (bytes.cc).
#include <algorithm>

#include "methods.h"
#include "mty/vocab/utf8.h"

namespace mty::interp::methods {

namespace {

ArrayObj* Obj(MethodCall& c) { return static_cast<ArrayObj*>(c.recv.h()); }
const std::vector<Value>& Items(MethodCall& c) { return Obj(c)->items; }
// The receiver made unique (a shared array is copied) before an edit.
ArrayObj* Unique(MethodCall& c) { return static_cast<ArrayObj*>(MakeUnique(c.recv)); }

// Comparing `x` with each element (contains, index_of).
uint64_t CompareAll(const std::vector<Value>& items, const Value& x) {
  MTY_WORK(items.size());
  uint64_t units = items.size();
  for (const Value& v : items) units += cost::Compare(v, x);
  return units;
}

// A stable bottom-up merge sort: ceil(log2 n) passes over a buffer, each
// moving every element once (what the charge of `sort` counts).
void MergeSort(std::vector<Value>& v) {
  const size_t n = v.size();
  if (n < 2) return;
  std::vector<Value> buf(n);
  std::vector<Value>* from = &v;
  std::vector<Value>* to = &buf;
  uint64_t moved = 0;
  for (size_t width = 1; width < n; width *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * width) {
      size_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      size_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        // Stable: an element of the right run goes first only when smaller.
        if (CompareValues((*from)[j], (*from)[i]) < 0)
          (*to)[k++] = std::move((*from)[j++]);
        else
          (*to)[k++] = std::move((*from)[i++]);
      }
      while (i < mid) (*to)[k++] = std::move((*from)[i++]);
      while (j < hi) (*to)[k++] = std::move((*from)[j++]);
    }
    moved += n;
    std::swap(from, to);
  }
  if (from != &v) v = std::move(*from);
  MTY_WORK(moved);
}

// The array argument of extend, zip and chain (bytes widened for the call:
// the copy must fit, it is not charged).
bool OtherArray(MethodCall& c, Value* o) {
  if (!IsArray(c.args[0]))
    return c.cx.Trap(TrapCode::kType, absl::StrCat(c.name(), " needs an array, found ",
                                                   KindName(c.cx.m, c.args[0])));
  *o = c.args[0];
  if (o->Is(Tag::kBytes)) {
    const uint64_t m = static_cast<BytesObj*>(o->h())->b.size();
    if (!c.Work(m) || !c.Fits(cost::ArrayBytes(m))) return false;
    Widen(*o);
  }
  return true;
}

// A new array of `count` elements, the i-th make(i), `units` of work
// charged first.
template <typename F>
CallStatus Build(MethodCall& c, uint64_t units, uint64_t count, F make) {
  if (!c.Work(units)) return Fail();
  MTY_WORK(units);
  std::vector<Value> r;
  r.reserve(count);
  for (uint64_t i = 0; i < count; ++i) r.push_back(make(i));
  return c.NewArray(std::move(r));
}

}  // namespace

bool SliceBounds(Ctx& cx, const std::vector<Value>& args, size_t n, int64_t* lo, int64_t* hi) {
  if (!NeedInt(cx, args[0], lo) || !NeedInt(cx, args[1], hi)) return false;
  if (*lo >= 0 && *hi >= *lo && static_cast<uint64_t>(*hi) <= n) return true;
  cx.Trap(TrapCode::kIndex, absl::StrCat("slice ", *lo, "..", *hi, " out of range for length ", n));
  return false;
}

// len, count() without a closure, and a tuple's len.
CallStatus ArrayLen(MethodCall& c) { return c.Int(static_cast<int64_t>(Items(c).size())); }

CallStatus ArrayIsEmpty(MethodCall& c) { return c.Bool(Items(c).empty()); }

// iter, collect: the array itself (the adapters are eager).
CallStatus ArrayIter(MethodCall& c) { return c.Return(c.recv); }

CallStatus ArrayPush(MethodCall& c) {
  if (!PushOnto(c.cx, Unique(c), std::move(c.args[0]), c.delta)) return Fail();
  return c.Unit();
}

CallStatus ArrayPop(MethodCall& c) {
  if (Items(c).empty()) return c.Opt(nullptr);
  ArrayObj* a = Unique(c);
  Value last = std::move(a->items.back());
  a->items.pop_back();
  const uint64_t e = Estimate(last);
  a->est -= e;
  *c.delta = -static_cast<int64_t>(e);
  return c.Opt(&last);
}

CallStatus ArrayGet(MethodCall& c) {
  const std::vector<Value>& items = Items(c);
  int64_t i;
  if (!NeedInt(c.cx, c.args[0], &i)) return Fail();
  const bool in = i >= 0 && static_cast<uint64_t>(i) < items.size();
  return c.Opt(in ? &items[i] : nullptr);
}

// first, last.
CallStatus ArrayFirstLast(MethodCall& c) {
  const std::vector<Value>& items = Items(c);
  if (items.empty()) return c.Opt(nullptr);
  return c.Opt(c.id() == N::kLast ? &items.back() : &items.front());  // first, peek
}

CallStatus ArrayContains(MethodCall& c) {
  const std::vector<Value>& items = Items(c);
  if (!c.Work(CompareAll(items, c.args[0]))) return Fail();
  for (const Value& v : items)
    if (ValuesEqual(v, c.args[0])) return c.Bool(true);
  return c.Bool(false);
}

CallStatus ArrayIndexOf(MethodCall& c) {
  const std::vector<Value>& items = Items(c);
  if (!c.Work(CompareAll(items, c.args[0]))) return Fail();
  for (size_t i = 0; i < items.size(); ++i)
    if (ValuesEqual(items[i], c.args[0])) {
      Value idx = Value::Int(static_cast<int64_t>(i));
      return c.Opt(&idx);
    }
  return c.Opt(nullptr);
}

CallStatus ArrayInsert(MethodCall& c) {
  const uint64_t n = Items(c).size();
  int64_t i;
  if (!NeedInt(c.cx, c.args[0], &i)) return Fail();
  if (i < 0 || static_cast<uint64_t>(i) > n)
    return c.Trap(TrapCode::kIndex,
                  absl::StrCat("insert index ", i, " out of range for length ", n));
  if (!c.Work(n - static_cast<uint64_t>(i))) return Fail();  // the shift
  MTY_WORK(n - static_cast<uint64_t>(i));
  const uint64_t e = Estimate(c.args[1]);
  if (!c.Charge(e)) return Fail();
  ArrayObj* a = Unique(c);
  a->items.insert(a->items.begin() + i, std::move(c.args[1]));
  a->est += e;
  *c.delta = static_cast<int64_t>(e);
  return c.Unit();
}

CallStatus ArrayRemove(MethodCall& c) {
  const uint64_t n = Items(c).size();
  int64_t i;
  if (!NeedInt(c.cx, c.args[0], &i)) return Fail();
  if (i < 0 || static_cast<uint64_t>(i) >= n)
    return c.Trap(TrapCode::kIndex,
                  absl::StrCat("remove index ", i, " out of range for length ", n));
  if (!c.Work(n - static_cast<uint64_t>(i))) return Fail();  // the shift
  MTY_WORK(n - static_cast<uint64_t>(i));
  ArrayObj* a = Unique(c);
  c.out = std::move(a->items[i]);
  a->items.erase(a->items.begin() + i);
  const uint64_t e = Estimate(c.out);
  a->est -= e;
  *c.delta = -static_cast<int64_t>(e);
  return Ok();
}

CallStatus ArrayReverse(MethodCall& c) {
  if (!c.Work(Items(c).size())) return Fail();
  MTY_WORK(Items(c).size());
  ArrayObj* a = Unique(c);
  std::reverse(a->items.begin(), a->items.end());
  return c.Unit();
}

CallStatus ArrayClear(MethodCall& c) {
  ArrayObj* a = Unique(c);
  a->items.clear();
  *c.delta = -static_cast<int64_t>(a->est - cost::kHeader);
  a->est = cost::kHeader;
  return c.Unit();
}

// n for checking the kinds, then ceil(log2 n) merge passes, each moving
// every element and comparing at most n pairs (a pair costs at most the
// smaller element, and a pass outputs each element once).
CallStatus ArraySort(MethodCall& c) {
  const std::vector<Value>& items = Items(c);
  const uint64_t n = items.size();
  uint64_t sizes = 0;
  for (const Value& x : items) sizes += cost::Size(x);
  MTY_WORK(n);
  if (!c.Work(n + sizes + cost::Log2Ceil(n) * (2 * n + sizes))) return Fail();
  for (size_t i = 1; i < items.size(); ++i)
    if (CompareValues(items[0], items[i]) == 2)
      return c.Trap(TrapCode::kType, "sort needs elements of one ordered kind");
  MergeSort(Unique(c)->items);
  return c.Unit();
}

// All strings (the common case): their bytes, known before, charged at
// once; otherwise each element is printed and charged as written.
CallStatus ArrayJoin(MethodCall& c) {
  const std::vector<Value>& items = Items(c);
  if (!c.args[0].Is(Tag::kStr)) {
    if (c.cx.fail.code == TrapCode::kNone) c.cx.Trap(TrapCode::kType, "join needs a Str separator");
    return Fail();
  }
  std::string r;
  const std::string& sep = static_cast<StrObj*>(c.args[0].h())->s;
  if (!c.Work(items.size() * (sep.size() + 1))) return Fail();
  MTY_WORK(items.size() * (sep.size() + 1));
  uint64_t bytes = 0;
  bool all_str = true;
  for (const Value& x : items) {
    if (!x.Is(Tag::kStr)) {
      all_str = false;
      break;
    }
    bytes += static_cast<StrObj*>(x.h())->s.size();
  }
  if (all_str) {
    if (!c.Work(bytes)) return Fail();
    MTY_WORK(bytes);
    r.reserve(bytes + items.size() * sep.size());
  }
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) r += sep;
    if (all_str)
      r += static_cast<StrObj*>(items[i].h())->s;
    else if (!Render::To(c.cx, items[i], false, &r))
      return Fail();
  }
  return c.NewStr(std::move(r));
}

CallStatus ArraySlice(MethodCall& c) {
  const std::vector<Value>& items = Items(c);
  int64_t lo, hi;
  if (!SliceBounds(c.cx, c.args, items.size(), &lo, &hi)) return Fail();
  if (!c.Work(static_cast<uint64_t>(hi - lo))) return Fail();
  MTY_WORK(hi - lo);
  auto* r = new ArrayObj(Tag::kArray);
  Value v = Value::Heap(r);
  r->est = cost::kHeader;
  r->items.reserve(static_cast<size_t>(hi - lo));
  for (int64_t i = lo; i < hi; ++i) {
    r->items.push_back(items[i]);
    r->est += Estimate(items[i]);
  }
  if (!c.Charge(r->est)) return Fail();
  return c.Return(std::move(v));
}

CallStatus ArrayExtend(MethodCall& c) {
  Value other;
  if (!OtherArray(c, &other)) return Fail();
  const auto& items = static_cast<ArrayObj*>(other.h())->items;
  if (!c.Work(2 * items.size())) return Fail();
  MTY_WORK(2 * items.size());
  uint64_t e = 0;
  for (const Value& x : items) e += Estimate(x);
  if (!c.Charge(e)) return Fail();
  ArrayObj* a = Unique(c);
  for (const Value& x : items) a->items.push_back(x);
  a->est += e;
  *c.delta = static_cast<int64_t>(e);
  return c.Unit();
}

// sum, product: the front end gives the start (0 or 1 of the static
// element type) when it knows it; else an Int, a Float when the first
// element is one.
CallStatus ArraySumProduct(MethodCall& c) {
  const std::vector<Value>& items = Items(c);
  if (!c.Work(items.size())) return Fail();
  MTY_WORK(items.size());
  const bool sum = c.id() == N::kSum;
  Value acc = c.args.empty() ? Value::Int(sum ? 0 : 1) : c.args[0];
  bool first = c.args.empty();
  for (const Value& x : items) {
    if (first && x.Is(Tag::kFloat)) acc = Value::Float(sum ? 0 : 1);
    first = false;
    Value next;
    if (!Arith(c.cx, sum ? Op::Add : Op::Mul, acc, x, next)) return Fail();
    acc = std::move(next);
  }
  return c.Return(std::move(acc));
}

// min, max: of elements of one ordered kind.
CallStatus ArrayMinMax(MethodCall& c) {
  const std::vector<Value>& items = Items(c);
  uint64_t sizes = 0;
  for (const Value& x : items) sizes += cost::Size(x);
  MTY_WORK(items.size());
  if (!c.Work(items.size() + sizes)) return Fail();
  const bool min = c.id() == N::kMin;
  const Value* best = nullptr;
  for (const Value& x : items) {
    if (!best) {
      best = &x;
      continue;
    }
    const int order = CompareValues(x, *best);
    if (order == 2)
      return c.Trap(TrapCode::kType,
                    absl::StrCat(std::string(c.name()), " needs elements of one ordered kind"));
    if ((min && order < 0) || (!min && order > 0)) best = &x;
  }
  return c.Opt(best);
}

CallStatus ArrayEnumerate(MethodCall& c) {
  const std::vector<Value>& v = Items(c);
  return Build(c, 2 * v.size(), v.size(),
               [&](uint64_t i) { return Pair(Value::Int(static_cast<int64_t>(i)), v[i]); });
}

CallStatus ArrayZip(MethodCall& c) {
  const std::vector<Value>& v = Items(c);
  Value o;
  if (!OtherArray(c, &o)) return Fail();
  const auto& w = static_cast<ArrayObj*>(o.h())->items;
  const uint64_t k = std::min<uint64_t>(v.size(), w.size());
  return Build(c, 2 * k, k, [&](uint64_t i) { return Pair(v[i], w[i]); });
}

CallStatus ArrayChain(MethodCall& c) {
  const std::vector<Value>& v = Items(c);
  Value o;
  if (!OtherArray(c, &o)) return Fail();
  const auto& w = static_cast<ArrayObj*>(o.h())->items;
  const uint64_t n = v.size(), m = n + w.size();
  return Build(c, m, m, [&](uint64_t i) { return i < n ? v[i] : w[i - n]; });
}

CallStatus ArrayRev(MethodCall& c) {
  const std::vector<Value>& v = Items(c);
  const uint64_t n = v.size();
  return Build(c, n, n, [&](uint64_t i) { return v[n - 1 - i]; });
}

// take(k), skip(k): the first k elements, or the others.
CallStatus ArrayTakeSkip(MethodCall& c) {
  const std::vector<Value>& v = Items(c);
  uint64_t k;
  if (!NeedCount(c.cx, c.args[0], c.name(), &k)) return Fail();
  k = std::min<uint64_t>(k, v.size());
  const bool take = c.id() == N::kTake;
  const uint64_t lo = take ? 0 : k, hi = take ? k : v.size();
  return Build(c, hi - lo, hi - lo, [&](uint64_t i) { return v[lo + i]; });
}

CallStatus ArrayStepBy(MethodCall& c) {
  const std::vector<Value>& v = Items(c);
  const uint64_t n = v.size();
  uint64_t k;
  if (!NeedSize(c.cx, c.args[0], c.name(), &k)) return Fail();
  const uint64_t m = n == 0 ? 0 : (n - 1) / k + 1;
  return Build(c, m, m, [&](uint64_t i) { return v[i * k]; });
}

// windows(k), chunks(k): the pieces and the elements copied into them:
// windows copies each element up to k times, so the total is known (and
// charged) first.
CallStatus ArrayWindowsChunks(MethodCall& c) {
  const std::vector<Value>& v = Items(c);
  const uint64_t n = v.size();
  const bool chunks = c.id() == N::kChunks;
  uint64_t k;
  if (!NeedSize(c.cx, c.args[0], c.name(), &k)) return Fail();
  const uint64_t pieces = chunks ? (n == 0 ? 0 : (n - 1) / k + 1) : (n >= k ? n - k + 1 : 0);
  const uint64_t elems = chunks ? n : pieces * k;  // <= n * n / 4 + n
  if (!c.Work(pieces + elems)) return Fail();
  MTY_WORK(pieces + elems);
  // Estimates by prefix sums: each piece 24 + its elements'.
  std::vector<uint64_t> pre(n + 1, 0);
  for (uint64_t i = 0; i < n; ++i) pre[i + 1] = pre[i] + Estimate(v[i]);
  auto bounds = [&](uint64_t p, uint64_t* lo, uint64_t* hi) {
    *lo = chunks ? p * k : p;
    *hi = std::min(n, *lo + k);
  };
  uint64_t est = cost::kHeader, lo, hi;
  for (uint64_t p = 0; p < pieces; ++p) {
    bounds(p, &lo, &hi);
    est += cost::kHeader + pre[hi] - pre[lo];
  }
  if (!c.Charge(est)) return Fail();
  auto* a = new ArrayObj(Tag::kArray);
  Value av = Value::Heap(a);
  a->est = est;
  a->items.reserve(pieces);
  for (uint64_t p = 0; p < pieces; ++p) {
    bounds(p, &lo, &hi);
    auto* w = new ArrayObj(Tag::kArray);
    Value wv = Value::Heap(w);
    w->items.assign(v.begin() + lo, v.begin() + hi);
    w->est = cost::kHeader + pre[hi] - pre[lo];
    a->items.push_back(std::move(wv));
  }
  return c.Return(std::move(av));
}

// Strings (or chars) join into a Str; arrays flatten one level.
CallStatus ArrayConcat(MethodCall& c) {
  const std::vector<Value>& v = Items(c);
  const uint64_t n = v.size();
  bool all_str = true, all_arr = true;
  uint64_t total = 0;
  for (const Value& x : v) {
    all_str &= x.Is(Tag::kStr) || x.Is(Tag::kChar);
    all_arr &= x.Is(Tag::kArray);
    if (x.Is(Tag::kStr)) total += static_cast<StrObj*>(x.h())->s.size();
    if (x.Is(Tag::kChar)) total += 4;
    if (x.Is(Tag::kArray)) total += static_cast<ArrayObj*>(x.h())->items.size();
  }
  if (n > 0 && !all_str && !all_arr)
    return c.Trap(TrapCode::kType,
                  "concat needs an array of strings or chars, or an array of arrays");
  if (!c.Work(n + total)) return Fail();
  MTY_WORK(n + total);
  if (n > 0 && all_str) {
    if (!c.cx.StrFits(total, "concat")) return Fail();
    std::string r;
    r.reserve(total);
    for (const Value& x : v) {
      if (x.Is(Tag::kChar))
        ir::AppendUtf8(r, static_cast<uint32_t>(x.i()));
      else
        r += static_cast<StrObj*>(x.h())->s;
    }
    return c.NewStr(std::move(r));
  }
  std::vector<Value> r;
  r.reserve(total);
  for (const Value& x : v)
    for (const Value& y : static_cast<ArrayObj*>(x.h())->items) r.push_back(y);
  return c.NewArray(std::move(r));
}

// Consecutive equal elements collapse to the first (Rust's Vec::dedup).
CallStatus ArrayDedup(MethodCall& c) {
  const std::vector<Value>& v = Items(c);
  const uint64_t n = v.size();
  uint64_t units = n;
  for (uint64_t i = 1; i < n; ++i) units += cost::Compare(v[i - 1], v[i]);
  if (!c.Work(units)) return Fail();
  MTY_WORK(n);
  ArrayObj* a = Unique(c);
  std::vector<Value> kept;
  uint64_t removed = 0;
  for (Value& x : a->items) {
    if (!kept.empty() && ValuesEqual(kept.back(), x)) {
      removed += Estimate(x);
      continue;
    }
    kept.push_back(std::move(x));
  }
  a->items = std::move(kept);
  a->est -= removed;
  *c.delta = -static_cast<int64_t>(removed);
  return c.Unit();
}

// An index argument below n, else MT5017 naming the method.
static bool NeedIndex(MethodCall& c, const Value& v, uint64_t n, uint64_t* i) {
  int64_t x;
  if (!NeedInt(c.cx, v, &x)) return false;
  if (x >= 0 && static_cast<uint64_t>(x) < n) {
    *i = static_cast<uint64_t>(x);
    return true;
  }
  return c.cx.Trap(TrapCode::kIndex,
                   absl::StrCat(c.name(), " index ", x, " out of range for length ", n));
}

CallStatus ArraySwap(MethodCall& c) {
  const uint64_t n = Items(c).size();
  uint64_t i, j;
  if (!NeedIndex(c, c.args[0], n, &i) || !NeedIndex(c, c.args[1], n, &j)) return Fail();
  if (i != j) std::swap(Unique(c)->items[i], Unique(c)->items[j]);
  return c.Unit();
}

// fill(x): every element becomes x.
CallStatus ArrayFill(MethodCall& c) {
  const uint64_t n = Items(c).size();
  if (!c.Work(n)) return Fail();
  MTY_WORK(n);
  const uint64_t e = Estimate(c.args[0]);
  ArrayObj* a = Unique(c);
  const uint64_t before = a->est;
  const uint64_t after = cost::kHeader + n * e;
  if (after > before && !c.Charge(after - before)) return Fail();
  for (Value& x : a->items) x = c.args[0];
  a->est = after;
  *c.delta = static_cast<int64_t>(after) - static_cast<int64_t>(before);
  return c.Unit();
}

// truncate(k): keeps the first k elements (k past the end: nothing).
CallStatus ArrayTruncate(MethodCall& c) {
  uint64_t k;
  if (!NeedCount(c.cx, c.args[0], c.name(), &k)) return Fail();
  if (k >= Items(c).size()) return c.Unit();
  ArrayObj* a = Unique(c);
  uint64_t removed = 0;
  for (uint64_t i = k; i < a->items.size(); ++i) removed += Estimate(a->items[i]);
  MTY_WORK(a->items.size() - k);
  a->items.resize(k);
  a->est -= removed;
  *c.delta = -static_cast<int64_t>(removed);
  return c.Unit();
}

// resize(k, x): truncates, or appends copies of x up to k elements (each
// charged as a push before any is made).
CallStatus ArrayResize(MethodCall& c) {
  uint64_t k;
  if (!NeedCount(c.cx, c.args[0], c.name(), &k)) return Fail();
  const uint64_t n = Items(c).size();
  if (k <= n) {
    std::vector<Value> one{c.args[0]};
    MethodCall t{c.cx, c.recv, c.row, one, c.out, c.delta};
    return ArrayTruncate(t);
  }
  const uint64_t more = k - n, e = Estimate(c.args[1]);
  if (!c.Work(more)) return Fail();
  MTY_WORK(more);
  // A count whose estimate does not fit in 63 bits is a memory breach.
  const uint64_t bytes = e != 0 && more > (UINT64_MAX / 2) / e ? UINT64_MAX / 2 : more * e;
  if (!c.Charge(bytes)) return Fail();
  ArrayObj* a = Unique(c);
  a->items.reserve(k);
  for (uint64_t i = 0; i < more; ++i) a->items.push_back(c.args[1]);
  a->est += more * e;
  *c.delta = static_cast<int64_t>(more * e);
  return c.Unit();
}

// rotate_left(k), rotate_right(k): k at most the length, else a panic (as
// Rust's).
CallStatus ArrayRotate(MethodCall& c) {
  uint64_t k;
  if (!NeedCount(c.cx, c.args[0], c.name(), &k)) return Fail();
  const uint64_t n = Items(c).size();
  if (k > n)
    return c.Trap(TrapCode::kPanic,
                  absl::StrCat(c.name(), ": ", k, " is greater than the length ", n));
  if (!c.Work(n)) return Fail();
  MTY_WORK(n);
  ArrayObj* a = Unique(c);
  const uint64_t by = c.id() == N::kRotateLeft ? k : (n - k) % (n == 0 ? 1 : n);
  std::rotate(a->items.begin(), a->items.begin() + by, a->items.end());
  return c.Unit();
}

// split_at(i): (the first i elements, the rest); i past the length panics.
CallStatus ArraySplitAt(MethodCall& c) {
  const std::vector<Value>& v = Items(c);
  uint64_t i;
  if (!NeedCount(c.cx, c.args[0], c.name(), &i)) return Fail();
  if (i > v.size())
    return c.Trap(TrapCode::kPanic,
                  absl::StrCat("split_at: mid ", i, " is greater than the length ", v.size()));
  Value left, right;
  if (Build(c, i, i, [&](uint64_t j) { return v[j]; }) != Ok()) return Fail();
  left = std::move(c.out);
  if (Build(c, v.size() - i, v.size() - i, [&](uint64_t j) { return v[i + j]; }) != Ok())
    return Fail();
  right = std::move(c.out);
  Value p = Pair(left, right);
  if (!c.Charge(cost::kHeader)) return Fail();
  return c.Return(std::move(p));
}

// binary_search(x) over a sorted array: Ok(an index of x) or Err(where x
// would go), with Rust's probes (so of equal elements the same index):
// ⌈log2 n⌉ + 1 comparisons.
CallStatus ArrayBinarySearch(MethodCall& c) {
  const std::vector<Value>& v = Items(c);
  uint64_t size = v.size(), base = 0;
  if (size == 0) return c.NewResult(false, Value::Int(0));
  auto order = [&](uint64_t i, int* o) {
    if (!c.Work(1 + cost::Compare(v[i], c.args[0]))) return false;
    *o = CompareValues(v[i], c.args[0]);
    if (*o != 2) return true;
    return c.cx.Trap(TrapCode::kType, "binary_search needs elements of the searched kind");
  };
  int o;
  while (size > 1) {
    const uint64_t half = size / 2, mid = base + half;
    if (!order(mid, &o)) return Fail();
    if (o <= 0) base = mid;
    size -= half;
  }
  if (!order(base, &o)) return Fail();
  if (o == 0) return c.NewResult(true, Value::Int(static_cast<int64_t>(base)));
  return c.NewResult(false, Value::Int(static_cast<int64_t>(base + (o < 0 ? 1 : 0))));
}

}  // namespace mty::interp::methods
