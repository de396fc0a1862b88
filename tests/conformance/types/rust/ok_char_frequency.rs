use std::collections::HashMap;
fn main() {
    let mut freq = HashMap::new();
    for c in "mississippi".chars() {
        *freq.entry(c).or_insert(0) += 1;
    }
    let mut pairs: Vec<(char, i64)> = freq.iter().map(|(k, v)| (*k, *v)).collect();
    pairs.sort_by_key(|p| (-p.1, p.0));
    println!("{:?}", pairs);
    let top = pairs.iter().map(|p| p.0).take(2).collect::<String>();
    println!("{}", top);
}
