use std::collections::HashMap;
fn main() {
    let mut m: HashMap<String, i64> = HashMap::new();
    m.insert(5, 1); // <-
    println!("{}", m.len());
}
