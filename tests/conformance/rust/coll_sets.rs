// HashSet and BTreeSet: insert/contains/remove, set algebra, printing, collect.
use std::collections::{BTreeSet, HashSet};

fn main() {
    let mut h: HashSet<i32> = HashSet::new();
    println!("{} {}", h.insert(3), h.insert(3));
    h.insert(1);
    h.insert(2);
    println!("{} {} {}", h.len(), h.contains(&2), h.contains(&7));
    println!("{} {} {}", h.remove(&2), h.remove(&2), h.len());
    let other: HashSet<i32> = vec![3, 4, 5].into_iter().collect();
    let mut u: Vec<i32> = h.union(&other).cloned().collect();
    u.sort();
    let mut s: Vec<i32> = h.symmetric_difference(&other).cloned().collect();
    s.sort();
    println!("{:?} {:?}", u, s);
    let small: HashSet<i32> = HashSet::from([3]);
    println!("{} {} {}", small.is_subset(&h), h.is_subset(&small), h.is_superset(&small));
    let one: HashSet<&str> = ["x"].iter().cloned().collect();
    println!("{:?}", one);

    let mut b = BTreeSet::new();
    for w in ["pear", "apple", "fig", "apple", "kiwi"] {
        b.insert(w);
    }
    println!("{:?} {}", b, b.len());
    println!("{:?} {:?}", b.first(), b.last());
    println!("{} {}", b.contains("fig"), b.remove("fig"));
    for w in &b {
        print!("{} ", w);
    }
    println!();
    let odd: BTreeSet<u32> = (1..10).filter(|x| x % 2 == 1).collect();
    let small: BTreeSet<u32> = (1..6).collect();
    println!("{:?}", odd.intersection(&small).collect::<Vec<_>>());
    println!("{:?}", odd.difference(&small).collect::<Vec<_>>());
    println!("{:?}", odd.union(&small).collect::<Vec<_>>());
    println!("{:?}", odd.symmetric_difference(&small).collect::<Vec<_>>());
    let mut e: BTreeSet<(i32, char)> = BTreeSet::new();
    e.extend(vec![(2, 'b'), (1, 'z'), (2, 'a')]);
    println!("{:?} {:?}", e, e.first());
    let mut p = BTreeSet::from([5, 1, 3]);
    println!("{:?} {:?} {:?}", p.pop_first(), p.pop_last(), p);
    let empty: BTreeSet<i64> = BTreeSet::new();
    println!("{:?} {} {:?}", empty, empty.is_empty(), empty.first());
}
