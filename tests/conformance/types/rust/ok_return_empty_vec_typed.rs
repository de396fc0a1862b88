use std::collections::HashMap;
fn evens(n: i64) -> Vec<i64> {
    if n <= 0 { return Vec::new() }
    (0..n).filter(|x| x % 2 == 0).collect()
}
fn index(words: Vec<&str>) -> HashMap<String, i64> {
    if words.is_empty() { return HashMap::new() }
    words.iter().enumerate().map(|(i, w)| (w.to_string(), i as i64)).collect()
}
fn main() {
    println!("{:?}", evens(0));
    println!("{:?}", evens(7));
    println!("{}", index(Vec::new()).len());
    println!("{:?}", index(vec!["a", "b"]).get("b"));
}
