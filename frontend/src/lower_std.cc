// Rust's standard collections (VecDeque, HashSet, BTreeSet, BTreeMap,
// BinaryHeap) and `std::cmp::{Ordering, Reverse}`, written
// as typed generic structs in Mighty source (Rust spelling) over arrays and
// maps. The items a program names are added to it before it is checked, so
// they are type-checked, lowered and budgeted as its own code; a program that
// declares a type of the same name keeps its own. Each struct's first field
// is named `__deque`, `__set`, `__map_keys` or `__heap`: the printer shows
// such a struct as Rust's Debug does (interp/src/print.cc), and `for` walks
// what its `iter()` gives. docs/language.md §11 lists what they have.
#include <string_view>

#include "absl/strings/str_cat.h"
#include "lower_internal.h"
#include "mty/frontend/parser.h"
#include "mty/ir/ir.h"

namespace mty::frontend {

namespace {

// Rust's names and what each needs besides itself.
struct StdType {
  const char* name;
  const char* needs[4];
};
constexpr StdType kStdTypes[] = {
    {"VecDeque", {"__std_eq"}},
    {"HashSet", {}},
    {"BTreeSet", {"__std_cmp", "Ordering"}},
    {"BTreeMap", {"BTreeEntry", "__std_cmp", "Ordering"}},
    {"BinaryHeap", {"__std_cmp", "Ordering"}},
    {"Reverse", {"__std_cmp", "Ordering"}},
    {"Ordering", {}},
};

constexpr const char* kStdSource = R"MTY(
enum Ordering { Less, Equal, Greater }

impl Ordering {
    fn reverse(self) -> Ordering {
        match self { Ordering::Less => Ordering::Greater, Ordering::Greater => Ordering::Less, _ => Ordering::Equal }
    }
    fn is_lt(self) -> bool { self == Ordering::Less }
    fn is_gt(self) -> bool { self == Ordering::Greater }
    fn is_eq(self) -> bool { self == Ordering::Equal }
    fn is_ne(self) -> bool { self != Ordering::Equal }
    fn is_le(self) -> bool { self != Ordering::Greater }
    fn is_ge(self) -> bool { self != Ordering::Less }
}

// Rust's order and equality for the collections' elements.
// The order: a value's own `cmp` (an `impl Ord`, Reverse),: a value's own `cmp` (an `impl Ord`, Reverse),
// else the built-in order of `<`; -1, 0 or 1.
fn __std_cmp(a: Any, b: Any) -> i64 {
    if __has_method(a, "__std_rev") { return __std_cmp(b.__std_rev(), a.__std_rev()); }
    if __has_method(a, "cmp") {
        return match a.cmp(b) { Ordering::Less => -1, Ordering::Equal => 0, Ordering::Greater => 1 };
    }
    if a < b { -1 } else if b < a { 1 } else { 0 }
}

fn __std_eq(a: Any, b: Any) -> bool { a == b }

struct Reverse<T>(T);

impl<T> Reverse<T> {
    fn __std_rev(&self) -> T { self.0 }
    fn cmp(&self, other: &Reverse<T>) -> Ordering {
        let c = __std_cmp(other.0, self.0);
        if c < 0 { Ordering::Less } else if c > 0 { Ordering::Greater } else { Ordering::Equal }
    }
}

// A deque: the live elements are __deque[head..]; pop_front moves head and
// compacts once half the array is dead, push_front fills a gap made at the
// front (amortised O(1) each).
struct VecDeque<T> { __deque: Vec<T>, head: i64 }

impl<T> Default for VecDeque<T> {
    fn default() -> VecDeque<T> { VecDeque::new() }
}

impl<T> VecDeque<T> {
    fn new() -> VecDeque<T> { VecDeque { __deque: Vec::new(), head: 0 } }
    fn with_capacity(_n: usize) -> VecDeque<T> { VecDeque { __deque: Vec::new(), head: 0 } }
    fn from(v: Vec<T>) -> VecDeque<T> { VecDeque { __deque: v, head: 0 } }
    fn len(&self) -> usize { (self.__deque.len() as i64 - self.head) as usize }
    fn is_empty(&self) -> bool { self.__deque.len() as i64 == self.head }
    fn push_back(&mut self, x: T) { self.__deque.push(x); }
    fn push_front(&mut self, x: T) {
        if self.head == 0 {
            let n = self.__deque.len() as i64 + 4;
            let mut grown: Vec<T> = Vec::new();
            let mut i = 0;
            while i < n { grown.push(x); i += 1; }
            grown.extend(self.__deque);
            self.__deque = grown;
            self.head = n;
        }
        self.head -= 1;
        self.__deque[self.head] = x;
    }
    fn pop_front(&mut self) -> Option<T> {
        if self.is_empty() { return None; }
        let x = self.__deque[self.head];
        self.head += 1;
        let n = self.__deque.len() as i64;
        if self.head == n {
            self.__deque = Vec::new();
            self.head = 0;
        } else if self.head >= 16 && self.head * 2 >= n {
            self.__deque = self.__deque.slice(self.head, n);
            self.head = 0;
        }
        Some(x)
    }
    fn pop_back(&mut self) -> Option<T> {
        if self.is_empty() { return None; }
        let x = self.__deque.pop();
        if self.__deque.len() as i64 == self.head {
            self.__deque = Vec::new();
            self.head = 0;
        }
        x
    }
    fn front(&self) -> Option<T> { self.get(0) }
    fn back(&self) -> Option<T> {
        if self.is_empty() { None } else { self.__deque.last() }
    }
    fn get(&self, i: usize) -> Option<T> {
        let k = i as i64;
        if k < 0 || k >= self.len() as i64 { None } else { Some(self.__deque[self.head + k]) }
    }
    fn index(&self, i: usize) -> T {
        let k = i as i64;
        if k < 0 || k >= self.len() as i64 {
            panic!("Out of bounds access");
        }
        self.__deque[self.head + k]
    }
    fn contains(&self, x: &T) -> bool {
        let mut i = self.head;
        while i < self.__deque.len() as i64 {
            if __std_eq(self.__deque[i], *x) { return true; }
            i += 1;
        }
        false
    }
    fn iter(&self) -> Vec<T> { self.__deque.slice(self.head, self.__deque.len() as i64) }
    fn eq(&self, other: &VecDeque<T>) -> bool { __std_eq(self.iter(), other.iter()) }
    fn into_iter(self) -> Vec<T> { self.iter() }
    fn clear(&mut self) { self.__deque = Vec::new(); self.head = 0; }
    fn extend(&mut self, v: Vec<T>) { self.__deque.extend(v); }
    fn retain(&mut self, f: fn(&T) -> bool) {
        let mut kept: Vec<T> = Vec::new();
        for x in self.iter() { if f(&x) { kept.push(x); } }
        self.__deque = kept;
        self.head = 0;
    }
    fn remove(&mut self, i: usize) -> Option<T> {
        let k = i as i64;
        if k < 0 || k >= self.len() as i64 { return None; }
        Some(self.__deque.remove(self.head + k))
    }
    fn insert(&mut self, i: usize, x: T) {
        let k = i as i64;
        if k < 0 || k > self.len() as i64 { panic!("index out of bounds"); }
        self.__deque.insert(self.head + k, x);
    }
}

// A hash set: the keys of a map (insertion order; Rust's is unspecified).
struct HashSet<T> { __set: HashMap<T, ()> }

impl<T> Default for HashSet<T> {
    fn default() -> HashSet<T> { HashSet::new() }
}

impl<T> HashSet<T> {
    fn new() -> HashSet<T> { HashSet { __set: HashMap::new() } }
    fn with_capacity(_n: usize) -> HashSet<T> { HashSet { __set: HashMap::new() } }
    fn from(v: Vec<T>) -> HashSet<T> {
        let mut s = HashSet::new();
        for x in v { s.__set.insert(x, ()); }
        s
    }
    fn len(&self) -> usize { self.__set.len() as usize }
    fn is_empty(&self) -> bool { self.__set.is_empty() }
    fn insert(&mut self, x: T) -> bool {
        if self.__set.contains_key(&x) { return false; }
        self.__set.insert(x, ());
        true
    }
    fn contains(&self, x: &T) -> bool { self.__set.contains_key(x) }
    fn remove(&mut self, x: &T) -> bool { self.__set.remove(x).is_some() }
    fn iter(&self) -> Vec<T> { self.__set.keys() }
    fn into_iter(self) -> Vec<T> { self.__set.keys() }
    fn clear(&mut self) { self.__set = HashMap::new(); }
    fn extend(&mut self, v: Vec<T>) {
        for x in v { self.__set.insert(x, ()); }
    }
    fn union(&self, other: &HashSet<T>) -> Vec<T> {
        let mut out = self.__set.keys();
        for x in other.__set.keys() {
            if !self.__set.contains_key(&x) { out.push(x); }
        }
        out
    }
    fn intersection(&self, other: &HashSet<T>) -> Vec<T> {
        let mut out: Vec<T> = Vec::new();
        for x in self.__set.keys() {
            if other.__set.contains_key(&x) { out.push(x); }
        }
        out
    }
    fn difference(&self, other: &HashSet<T>) -> Vec<T> {
        let mut out: Vec<T> = Vec::new();
        for x in self.__set.keys() {
            if !other.__set.contains_key(&x) { out.push(x); }
        }
        out
    }
    fn symmetric_difference(&self, other: &HashSet<T>) -> Vec<T> {
        let mut out = self.difference(other);
        out.extend(other.difference(self));
        out
    }
    fn is_subset(&self, other: &HashSet<T>) -> bool {
        for x in self.__set.keys() {
            if !other.__set.contains_key(&x) { return false; }
        }
        true
    }
    fn is_superset(&self, other: &HashSet<T>) -> bool { other.is_subset(self) }
    fn is_disjoint(&self, other: &HashSet<T>) -> bool { self.intersection(other).is_empty() }
    fn retain(&mut self, f: fn(&T) -> bool) {
        let mut kept: HashMap<T, ()> = HashMap::new();
        for x in self.__set.keys() { if f(&x) { kept.insert(x, ()); } }
        self.__set = kept;
    }
}

// A sorted set: its elements in order, found by binary search.
struct BTreeSet<T> { __set: Vec<T> }

impl<T> Default for BTreeSet<T> {
    fn default() -> BTreeSet<T> { BTreeSet::new() }
}

impl<T> BTreeSet<T> {
    fn new() -> BTreeSet<T> { BTreeSet { __set: Vec::new() } }
    fn from(v: Vec<T>) -> BTreeSet<T> {
        let mut s = BTreeSet::new();
        for x in v { s.insert(x); }
        s
    }
    // Where x is or would go: (found, index).
    fn __find(&self, x: &T) -> (bool, i64) {
        let mut lo = 0;
        let mut hi = self.__set.len() as i64;
        while lo < hi {
            let mid = (lo + hi) / 2;
            let c = __std_cmp(self.__set[mid], *x);
            if c == 0 { return (true, mid); }
            if c < 0 { lo = mid + 1; } else { hi = mid; }
        }
        (false, lo)
    }
    fn len(&self) -> usize { self.__set.len() as usize }
    fn is_empty(&self) -> bool { self.__set.is_empty() }
    fn insert(&mut self, x: T) -> bool {
        let (found, i) = self.__find(&x);
        if found { return false; }
        if i == self.__set.len() as i64 { self.__set.push(x); } else { self.__set.insert(i, x); }
        true
    }
    fn contains(&self, x: &T) -> bool { self.__find(x).0 }
    fn remove(&mut self, x: &T) -> bool {
        let (found, i) = self.__find(x);
        if found { self.__set.remove(i); }
        found
    }
    fn first(&self) -> Option<T> { self.__set.first() }
    fn last(&self) -> Option<T> { self.__set.last() }
    fn pop_first(&mut self) -> Option<T> {
        if self.__set.is_empty() { None } else { Some(self.__set.remove(0)) }
    }
    fn pop_last(&mut self) -> Option<T> { self.__set.pop() }
    fn iter(&self) -> Vec<T> { self.__set }
    fn into_iter(self) -> Vec<T> { self.__set }
    fn clear(&mut self) { self.__set = Vec::new(); }
    fn extend(&mut self, v: Vec<T>) {
        for x in v { self.insert(x); }
    }
    fn union(&self, other: &BTreeSet<T>) -> Vec<T> {
        let mut s = BTreeSet { __set: self.__set };
        s.extend(other.__set);
        s.__set
    }
    fn intersection(&self, other: &BTreeSet<T>) -> Vec<T> {
        let mut out: Vec<T> = Vec::new();
        for x in self.__set { if other.contains(&x) { out.push(x); } }
        out
    }
    fn difference(&self, other: &BTreeSet<T>) -> Vec<T> {
        let mut out: Vec<T> = Vec::new();
        for x in self.__set { if !other.contains(&x) { out.push(x); } }
        out
    }
    fn symmetric_difference(&self, other: &BTreeSet<T>) -> Vec<T> {
        let mut s = BTreeSet { __set: self.difference(other) };
        s.extend(other.difference(self));
        s.__set
    }
    fn is_subset(&self, other: &BTreeSet<T>) -> bool {
        for x in self.__set { if !other.contains(&x) { return false; } }
        true
    }
    fn is_superset(&self, other: &BTreeSet<T>) -> bool { other.is_subset(self) }
    fn is_disjoint(&self, other: &BTreeSet<T>) -> bool { self.intersection(other).is_empty() }
    fn retain(&mut self, f: fn(&T) -> bool) {
        let mut kept: Vec<T> = Vec::new();
        for x in self.__set { if f(&x) { kept.push(x); } }
        self.__set = kept;
    }
}

// A sorted map: its keys in order (binary search) and a map for the values.
struct BTreeMap<K, V> { __map_keys: Vec<K>, map: HashMap<K, V> }

struct BTreeEntry<'a, K, V> { m: &'a mut BTreeMap<K, V>, k: K }

impl<K, V> Default for BTreeMap<K, V> {
    fn default() -> BTreeMap<K, V> { BTreeMap::new() }
}

impl<K, V> BTreeMap<K, V> {
    fn new() -> BTreeMap<K, V> { BTreeMap { __map_keys: Vec::new(), map: HashMap::new() } }
    fn from(v: Vec<(K, V)>) -> BTreeMap<K, V> {
        let mut m = BTreeMap::new();
        for (k, x) in v { m.insert(k, x); }
        m
    }
    fn __add_key(&mut self, k: &K) {
        let mut lo = 0;
        let mut hi = self.__map_keys.len() as i64;
        while lo < hi {
            let mid = (lo + hi) / 2;
            if __std_cmp(self.__map_keys[mid], *k) < 0 { lo = mid + 1; } else { hi = mid; }
        }
        if lo == self.__map_keys.len() as i64 { self.__map_keys.push(*k); } else { self.__map_keys.insert(lo, *k); }
    }
    fn __drop_key(&mut self, k: &K) {
        let mut lo = 0;
        let mut hi = self.__map_keys.len() as i64;
        while lo < hi {
            let mid = (lo + hi) / 2;
            if __std_cmp(self.__map_keys[mid], *k) < 0 { lo = mid + 1; } else { hi = mid; }
        }
        self.__map_keys.remove(lo);
    }
    fn len(&self) -> usize { self.__map_keys.len() as usize }
    fn is_empty(&self) -> bool { self.__map_keys.is_empty() }
    fn insert(&mut self, k: K, v: V) -> Option<V> {
        if !self.map.contains_key(&k) { self.__add_key(&k); }
        self.map.insert(k, v)
    }
    fn get(&self, k: &K) -> Option<V> { self.map.get(k) }
    fn index(&self, k: &K) -> V {
        match self.map.get(k) { Some(v) => v, None => panic!("key not found in BTreeMap") }
    }
    fn get_mut(&mut self, k: &K) -> Option<&mut V> {
        if !self.map.contains_key(k) { return None; }
        Some(self.map.entry(*k).or_insert_with(|| panic!("get_mut")))
    }
    fn contains_key(&self, k: &K) -> bool { self.map.contains_key(k) }
    fn remove(&mut self, k: &K) -> Option<V> {
        if !self.map.contains_key(k) { return None; }
        self.__drop_key(k);
        self.map.remove(k)
    }
    fn keys(&self) -> Vec<K> { self.__map_keys }
    fn values(&self) -> Vec<V> {
        let mut out: Vec<V> = Vec::new();
        for k in self.__map_keys { out.push(self.map.get(&k).unwrap()); }
        out
    }
    fn iter(&self) -> Vec<(K, V)> {
        let mut out: Vec<(K, V)> = Vec::new();
        for k in self.__map_keys { out.push((k, self.map.get(&k).unwrap())); }
        out
    }
    fn into_iter(self) -> Vec<(K, V)> { self.iter() }
    fn first_key_value(&self) -> Option<(K, V)> {
        match self.__map_keys.first() { Some(k) => Some((k, self.map.get(&k).unwrap())), None => None }
    }
    fn last_key_value(&self) -> Option<(K, V)> {
        match self.__map_keys.last() { Some(k) => Some((k, self.map.get(&k).unwrap())), None => None }
    }
    fn pop_first(&mut self) -> Option<(K, V)> {
        if self.__map_keys.is_empty() { return None; }
        let k = self.__map_keys.remove(0);
        Some((k, self.map.remove(&k).unwrap()))
    }
    fn pop_last(&mut self) -> Option<(K, V)> {
        match self.__map_keys.pop() { Some(k) => Some((k, self.map.remove(&k).unwrap())), None => None }
    }
    fn clear(&mut self) { self.__map_keys = Vec::new(); self.map = HashMap::new(); }
    fn extend(&mut self, v: Vec<(K, V)>) {
        for (k, x) in v { self.insert(k, x); }
    }
    fn entry(&mut self, k: K) -> BTreeEntry<K, V> { BTreeEntry { m: self, k: k } }
    fn retain(&mut self, f: fn(&K, &mut V) -> bool) {
        let mut keys: Vec<K> = Vec::new();
        let mut map: HashMap<K, V> = HashMap::new();
        for k in self.__map_keys {
            let mut v = self.map.get(&k).unwrap();
            if f(&k, &mut v) {
                keys.push(k);
                map.insert(k, v);
            }
        }
        self.__map_keys = keys;
        self.map = map;
    }
    fn __slot(&mut self, k: K, v: V) -> &mut V {
        if !self.map.contains_key(&k) { self.__add_key(&k); }
        self.map.entry(k).or_insert(v)
    }
}

impl<'a, K, V> BTreeEntry<'a, K, V> {
    fn or_insert(self, v: V) -> &'a mut V { self.m.__slot(self.k, v) }
    fn or_insert_with(self, f: fn() -> V) -> &'a mut V {
        if self.m.map.contains_key(&self.k) {
            return self.m.map.entry(self.k).or_insert_with(|| panic!("entry"));
        }
        self.m.__slot(self.k, f())
    }
    fn and_modify(self, f: fn(&mut V)) -> BTreeEntry<'a, K, V> {
        if self.m.map.contains_key(&self.k) { self.m.map.entry(self.k).and_modify(f); }
        self
    }
    fn key(&self) -> K { self.k }
    // The checker reads this signature; the front end lowers each call as
    // or_insert(the default of V), which it knows there (lower_call.cc).
    fn or_default(self) -> &'a mut V { panic!("or_default without a known value type") }
}

// A max-heap, by the order of __std_cmp, with Rust's sift algorithms (so
// into_vec and the debug form show Rust's layout).
struct BinaryHeap<T> { __heap: Vec<T> }

impl<T> Default for BinaryHeap<T> {
    fn default() -> BinaryHeap<T> { BinaryHeap::new() }
}

impl<T> BinaryHeap<T> {
    fn new() -> BinaryHeap<T> { BinaryHeap { __heap: Vec::new() } }
    fn with_capacity(_n: usize) -> BinaryHeap<T> { BinaryHeap { __heap: Vec::new() } }
    fn from(v: Vec<T>) -> BinaryHeap<T> {
        let mut h = BinaryHeap { __heap: v };
        let mut n = h.__heap.len() as i64 / 2;
        while n > 0 {
            n -= 1;
            let end = h.__heap.len() as i64;
            h.__sift_down_range(n, end);
        }
        h
    }
    fn len(&self) -> usize { self.__heap.len() as usize }
    fn is_empty(&self) -> bool { self.__heap.is_empty() }
    fn peek(&self) -> Option<T> { self.__heap.first() }
    fn push(&mut self, x: T) {
        self.__heap.push(x);
        let end = self.__heap.len() as i64 - 1;
        self.__sift_up(0, end);
    }
    fn pop(&mut self) -> Option<T> {
        let last = self.__heap.pop();
        match last {
            Some(x) => {
                if self.__heap.is_empty() { return Some(x); }
                let top = self.__heap[0];
                self.__heap[0] = x;
                self.__sift_down_to_bottom(0);
                Some(top)
            }
            None => None,
        }
    }
    fn __sift_up(&mut self, start: i64, pos: i64) -> i64 {
        let x = self.__heap[pos];
        let mut hole = pos;
        while hole > start {
            let parent = (hole - 1) / 2;
            if __std_cmp(x, self.__heap[parent]) <= 0 { break; }
            self.__heap[hole] = self.__heap[parent];
            hole = parent;
        }
        self.__heap[hole] = x;
        hole
    }
    fn __sift_down_range(&mut self, pos: i64, end: i64) {
        let x = self.__heap[pos];
        let mut hole = pos;
        let mut child = 2 * hole + 1;
        while child <= end - 2 {
            if __std_cmp(self.__heap[child], self.__heap[child + 1]) <= 0 { child += 1; }
            if __std_cmp(x, self.__heap[child]) >= 0 {
                self.__heap[hole] = x;
                return;
            }
            self.__heap[hole] = self.__heap[child];
            hole = child;
            child = 2 * hole + 1;
        }
        if child == end - 1 && __std_cmp(x, self.__heap[child]) < 0 {
            self.__heap[hole] = self.__heap[child];
            hole = child;
        }
        self.__heap[hole] = x;
    }
    fn __sift_down_to_bottom(&mut self, pos: i64) {
        let end = self.__heap.len() as i64;
        let x = self.__heap[pos];
        let mut hole = pos;
        let mut child = 2 * hole + 1;
        while child <= end - 2 {
            if __std_cmp(self.__heap[child], self.__heap[child + 1]) <= 0 { child += 1; }
            self.__heap[hole] = self.__heap[child];
            hole = child;
            child = 2 * hole + 1;
        }
        if child == end - 1 {
            self.__heap[hole] = self.__heap[child];
            hole = child;
        }
        self.__heap[hole] = x;
        self.__sift_up(pos, hole);
    }
    fn into_sorted_vec(self) -> Vec<T> {
        let mut h = self;
        let mut end = h.__heap.len() as i64;
        while end > 1 {
            end -= 1;
            let t = h.__heap[0];
            h.__heap[0] = h.__heap[end];
            h.__heap[end] = t;
            h.__sift_down_range(0, end);
        }
        h.__heap
    }
    fn into_vec(self) -> Vec<T> { self.__heap }
    fn iter(&self) -> Vec<T> { self.__heap }
    fn into_iter(self) -> Vec<T> { self.__heap }
    fn clear(&mut self) { self.__heap = Vec::new(); }
    fn extend(&mut self, v: Vec<T>) {
        for x in v { self.push(x); }
    }
}
)MTY";

// The name an item declares (an impl: the type it is for).
std::string ItemName(const Item& it) {
  switch (it.kind) {
    case Item::Kind::kFn: return it.fn.name;
    case Item::Kind::kStruct: return it.struct_decl->name;
    case Item::Kind::kEnum: return it.enum_decl->name;
    case Item::Kind::kImpl: return it.impl_decl->self_type.name;
    case Item::Kind::kTrait: return it.trait_decl->name;
    case Item::Kind::kTypeAlias: return it.alias_decl->name;
    case Item::Kind::kConst: return it.const_decl->name;
    default: return "";
  }
}

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Whether `word` occurs in text as a whole identifier.
bool Mentions(std::string_view text, std::string_view word) {
  for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const size_t end = at + word.size();
    if ((at == 0 || !IsWordChar(text[at - 1])) && (end == text.size() || !IsWordChar(text[end])))
      return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> AddStdTypes(Module& m, std::string_view text, Diagnostics& diags) {
  std::set<std::string> own;
  for (const Item& it : m.items)
    if (it.kind != Item::Kind::kImpl && it.kind != Item::Kind::kFn) own.insert(ItemName(it));
  std::set<std::string> want;
  for (const StdType& t : kStdTypes) {
    if (own.count(t.name) || !Mentions(text, t.name)) continue;
    want.insert(t.name);
    for (const char* n : t.needs)
      if (n && !own.count(n)) want.insert(n);
  }
  // A type the IR's prelude already has (ir::PreludeAdts) is not added.
  for (const ir::Adt& a : ir::PreludeAdts()) want.erase(a.name);
  if (want.empty()) return {};
  SourceFile src{"<std>", kStdSource, true};
  Diagnostics pd;
  Module std_m = Parse(src, pd);
  if (pd.HasErrors()) {
    diags.Error("MT9999", Loc{},
                absl::StrCat("internal compiler error: the std collections do not parse: ",
                             pd.list()[0].message));
    return {};
  }
  for (Item& it : std_m.items)
    if (want.count(ItemName(it))) m.items.push_back(std::move(it));
  return {want.begin(), want.end()};
}

}  // namespace mty::frontend
