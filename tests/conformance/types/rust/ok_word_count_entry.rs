use std::collections::HashMap;
fn main() {
    let text = "the cat and the dog and the bird";
    let mut counts = HashMap::new();
    for w in text.split_whitespace() {
        *counts.entry(w).or_insert(0) += 1;
    }
    let mut keys: Vec<&str> = counts.keys().cloned().collect();
    keys.sort();
    for k in keys {
        println!("{}", format!("{} {}", k, counts[k]));
    }
}
