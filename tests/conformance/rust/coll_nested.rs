// The std collections nested in maps and vectors, their Default.
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
fn main() {
    let mut g: HashMap<u32, HashSet<u32>> = HashMap::new();
    g.entry(1).or_insert_with(HashSet::new).insert(2);
    g.entry(1).or_default().insert(3);
    let mut s: Vec<u32> = g[&1].iter().cloned().collect();
    s.sort();
    println!("{:?}", s);
    let mut t: BTreeMap<&str, BTreeSet<u32>> = BTreeMap::new();
    t.entry("a").or_default().insert(5);
    t.entry("a").or_default().insert(1);
    println!("{:?}", t);
    let qs: Vec<VecDeque<i32>> = vec![VecDeque::new(); 2];
    println!("{:?}", qs);
    let d: VecDeque<i32> = Default::default();
    println!("{:?}", d);
}
