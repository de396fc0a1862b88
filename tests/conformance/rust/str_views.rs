// Views and conversions that are values here: as_str, as_slice, a map's into_iter, collecting chars into a String.
use std::collections::HashMap;

fn shout(s: &str) -> String {
    s.to_uppercase()
}

fn main() {
    let owned = String::from("hello world");
    let view: &str = owned.as_str();
    println!("{} {}", shout(view), view.len());
    let rev: String = view.chars().rev().collect();
    let first_up: String = 'q'.to_uppercase().collect();
    println!("{} {}", rev, first_up);
    let v = vec![3, 1, 2];
    let s: &[i32] = v.as_slice();
    println!("{:?} {}", s, s.len());
    let mut m: HashMap<&str, usize> = HashMap::new();
    for w in view.split(' ') {
        m.insert(w, w.len());
    }
    let mut pairs: Vec<(&str, usize)> = m.into_iter().collect();
    pairs.sort();
    println!("{:?}", pairs);
}
