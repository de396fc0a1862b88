use std::collections::HashMap;
fn count(m: HashMap<&str, i64>) -> usize { m.len() }
fn main() {
    let mut m = HashMap::new();
    m.insert("k", "v");
    println!("{}", count(m)); // <-
}
