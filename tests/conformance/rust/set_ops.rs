// HashSet and BTreeSet: union, intersection, difference, dedup of words, sorted output.
use std::collections::{BTreeSet, HashSet};

fn main() {
    let a: HashSet<i32> = [1, 2, 3, 4, 5].iter().cloned().collect();
    let b: HashSet<i32> = [4, 5, 6, 7].iter().cloned().collect();
    let mut u: Vec<i32> = a.union(&b).cloned().collect();
    u.sort();
    let mut i: Vec<&i32> = a.intersection(&b).collect();
    i.sort();
    let mut d: Vec<i32> = a.difference(&b).copied().collect();
    d.sort();
    println!("{:?} {:?} {:?}", u, i, d);
    println!("{} {}", a.contains(&3), b.contains(&3));
    let text = "one two three two one four";
    let uniq: BTreeSet<&str> = text.split(' ').collect();
    println!("{:?}", uniq);
    let mut seen = HashSet::new();
    let firsts: Vec<&str> = text.split(' ').filter(|w| seen.insert(*w)).collect();
    println!("{:?}", firsts);
    let s2: BTreeSet<char> = "mississippi".chars().collect();
    println!("{:?} {}", s2, s2.len());
}
