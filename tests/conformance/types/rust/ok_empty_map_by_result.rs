use std::collections::HashMap;
fn group(words: Vec<&str>) -> HashMap<i64, Vec<&str>> {
    let mut m = HashMap::new();
    for w in words {
        m.entry(w.len() as i64).or_insert(Vec::new()).push(w);
    }
    m
}
fn main() {
    let g = group(vec!["a", "bb", "cc", "d", "eee"]);
    println!("{:?}", g.get(&1));
    println!("{:?}", g.get(&2));
    println!("{:?}", g.get(&3));
    println!("{:?}", g.get(&4));
}
