use std::collections::HashMap;
fn main() {
    let mut m = HashMap::new();
    m.insert("a", 1);
    m.insert("b", "two"); // <-
    println!("{}", m.len());
}
