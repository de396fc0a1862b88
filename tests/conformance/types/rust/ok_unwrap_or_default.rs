use std::collections::HashMap;
fn first_word(s: &str) -> Option<String> {
    s.split_whitespace().next().map(|w| w.to_string())
}
fn count_of(m: &HashMap<String, i64>, k: &str) -> i64 {
    m.get(k).copied().unwrap_or_default()
}
fn main() {
    let mut m = HashMap::new();
    m.insert("a".to_string(), 3);
    println!("{}", count_of(&m, "a"));
    println!("{}", count_of(&m, "zz"));
    let w = first_word("").unwrap_or_default();
    println!("{}", format!("[{}]", w));
    println!("{}", first_word("hi there").unwrap_or_default());
}
