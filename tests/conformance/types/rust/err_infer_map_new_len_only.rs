use std::collections::HashMap;
fn main() {
    let m = HashMap::new(); // <-
    println!("{}", m.len());
}
