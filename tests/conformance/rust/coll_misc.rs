// Equality and indexing of the std collections: by their elements, not their layout.
use std::collections::{BTreeMap, BTreeSet, HashSet, VecDeque};
fn main() {
    let mut d: VecDeque<i32> = VecDeque::new();
    d.push_back(2);
    d.push_front(1);
    let e = VecDeque::from(vec![1, 2]);
    println!("{}", d == e);
    let a: HashSet<i32> = [1, 2, 3].iter().cloned().collect();
    let b: HashSet<i32> = [3, 2, 1].iter().cloned().collect();
    println!("{}", a == b);
    let mut m = BTreeMap::new();
    m.insert(2, "b");
    m.insert(1, "a");
    let mut n = BTreeMap::new();
    n.insert(1, "a");
    n.insert(2, "b");
    println!("{} {}", m == n, m[&1]);
    let s1: BTreeSet<i32> = [1, 2].iter().cloned().collect();
    let s2: BTreeSet<i32> = [2, 1].iter().cloned().collect();
    println!("{}", s1 == s2);
    let mut h = HashSet::new();
    h.insert((1, 'x'));
    println!("{} {}", h.contains(&(1, 'x')), a != b);
    let mut q: VecDeque<i32> = (1..4).collect();
    q.push_front(0);
    println!("{} {} {}", q[0], q[3], q != e);
    let total: i32 = e.iter().sum();
    println!("{} {:?}", total, e.iter().rev().collect::<Vec<_>>());
}
