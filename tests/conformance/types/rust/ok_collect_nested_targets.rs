use std::collections::HashMap;
fn word_lengths(ws: Vec<&str>) -> Result<HashMap<String, i64>, String> {
    ws.iter().map(|w| if w.is_empty() { Err("empty word".to_string()) } else { Ok((w.to_string(), w.len() as i64)) }).collect()
}
fn initials(ws: Vec<&str>) -> Option<String> {
    ws.iter().map(|w| w.chars().next()).collect()
}
fn main() {
    let m = word_lengths(vec!["ab", "cde"]).unwrap();
    println!("{:?}", m.get("cde"));
    println!("{:?}", word_lengths(vec!["ab", ""]));
    println!("{:?}", initials(vec!["grace", "hopper"]));
    println!("{:?}", initials(vec!["grace", ""]));
    let last: HashMap<i64, String> = [(1, "a"), (1, "b"), (2, "c")].iter().map(|p| (p.0, p.1.to_string())).collect();
    println!("{:?}", last.get(&1));
    println!("{}", last.len());
    let joined: String = ["ab", "c", ""].iter().map(|s| s.to_uppercase()).collect();
    println!("{}", joined);
    let none: Vec<i64> = Vec::new();
    let s: i64 = none.iter().sum();
    let p: i64 = none.iter().product();
    println!("{}", s + p);
    let fs: Vec<f64> = Vec::new();
    let fsum: f64 = fs.iter().sum();
    println!("{}", fsum);
    let e: Option<Vec<i64>> = none.iter().map(|x| Some(*x)).collect();
    println!("{:?}", e);
}
