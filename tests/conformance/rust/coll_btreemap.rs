// BTreeMap: key order for iteration and printing, the entry API, get_mut.
use std::collections::BTreeMap;

fn main() {
    let mut m: BTreeMap<&str, i32> = BTreeMap::new();
    for w in "the cat saw the dog and the cat ran".split(' ') {
        *m.entry(w).or_insert(0) += 1;
    }
    println!("{:?}", m);
    println!("{} {:?} {:?}", m.len(), m.get("the"), m.get("cow"));
    for (k, v) in &m {
        if *v > 1 {
            println!("{} {}", k, v);
        }
    }
    let keys: Vec<&str> = m.keys().cloned().collect();
    let total: i32 = m.values().sum();
    println!("{:?} {}", keys, total);
    println!("{:?} {:?}", m.insert("dog", 7), m.insert("emu", 1));
    println!("{:?} {:?}", m.remove("saw"), m.remove("saw"));
    if let Some(v) = m.get_mut("ran") {
        *v += 100;
    }
    println!("{:?} {:?}", m.first_key_value(), m.last_key_value());
    println!("{} {}", m.contains_key("ran"), m.contains_key("saw"));
    let mut g: BTreeMap<u32, Vec<&str>> = BTreeMap::new();
    g.entry(3).or_insert_with(Vec::new).push("c");
    g.entry(1).or_insert_with(Vec::new).push("a");
    g.entry(3).or_insert_with(Vec::new).push("cc");
    println!("{:?}", g);
    let sq: BTreeMap<i64, i64> = (1..5).rev().map(|x| (x, x * x)).collect();
    println!("{:?} {:?}", sq, sq.iter().map(|(k, v)| k + v).collect::<Vec<i64>>());
    let mut p = sq.clone();
    println!("{:?} {:?} {}", p.pop_first(), p.pop_last(), p.len());
}
