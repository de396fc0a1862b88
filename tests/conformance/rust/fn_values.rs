// Library functions as values: Vec::new, String::from, i64::max, char::is_alphanumeric, str::len.
use std::collections::HashMap;

fn main() {
    let mut groups: HashMap<u32, Vec<String>> = HashMap::new();
    for w in ["apple", "bob", "cat", "dune", "egg"] {
        groups.entry(w.len() as u32).or_insert_with(Vec::new).push(w.to_string());
    }
    let mut keys: Vec<_> = groups.keys().copied().collect();
    keys.sort();
    for k in keys {
        println!("{} {:?}", k, groups[&k]);
    }
    let names: Vec<String> = vec!["x", "yy"].into_iter().map(String::from).collect();
    println!("{:?}", names);
    let best = [3i64, -9, 14, 2].iter().copied().fold(i64::MIN, i64::max);
    let least = [3i64, -9, 14, 2].iter().copied().fold(i64::MAX, i64::min);
    println!("{} {}", best, least);
    let alnum = "a-b_c1!".chars().filter(|c| c.is_alphanumeric()).count();
    let upper: Vec<bool> = "aBc".chars().map(char::is_uppercase).collect();
    let lens: Vec<usize> = vec!["ab", "cde"].into_iter().map(str::len).collect();
    let abs: Vec<i32> = vec![-1, 2, -3].into_iter().map(i32::abs).collect();
    println!("{} {:?} {:?} {:?}", alnum, upper, lens, abs);
    let empty: Vec<String> = (0..2).map(|_| String::new()).collect();
    println!("{:?}", empty);
}
