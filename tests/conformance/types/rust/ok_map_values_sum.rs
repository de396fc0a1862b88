use std::collections::BTreeMap;
fn total(m: &BTreeMap<&str, i64>) -> i64 { m.values().sum() }
fn main() {
    let mut m = BTreeMap::new();
    m.insert("x", 4);
    m.insert("y", 6);
    m.insert("z", -3);
    println!("{}", total(&m));
    let pos: Vec<&str> = m.iter().filter(|(_, v)| **v > 0).map(|(k, _)| *k).collect();
    println!("{:?}", pos);
}
