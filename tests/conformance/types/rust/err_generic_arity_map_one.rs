use std::collections::HashMap;
fn keys(m: HashMap<String>) -> usize { m.len() } // <-
fn main() { println!("1") }
