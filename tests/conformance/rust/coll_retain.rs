// retain on the std collections, BTreeMap's or_default.
use std::collections::{BTreeMap, BTreeSet, HashSet, VecDeque};

fn main() {
    let mut d: VecDeque<i32> = (1..8).collect();
    d.pop_front();
    d.retain(|x| x % 2 == 0);
    println!("{:?} {}", d, d.len());
    let mut h: HashSet<i32> = (1..8).collect();
    h.retain(|&x| x > 4);
    let mut hv: Vec<i32> = h.into_iter().collect();
    hv.sort();
    println!("{:?}", hv);
    let mut b: BTreeSet<&str> = ["b", "aa", "ccc"].iter().cloned().collect();
    b.retain(|s| s.len() > 1);
    println!("{:?}", b);
    let mut m: BTreeMap<char, usize> = BTreeMap::new();
    for c in "mississippi".chars() {
        *m.entry(c).or_default() += 1;
    }
    println!("{:?}", m);
    m.retain(|_, v| *v > 1);
    println!("{:?}", m);
    let mut w: BTreeMap<&str, Vec<u32>> = BTreeMap::new();
    w.entry("x").or_default().push(1);
    w.entry("x").or_default().push(2);
    w.entry("a").or_default();
    println!("{:?}", w);
}
