use std::collections::HashMap;
fn main() {
    let names = ["ada", "grace", "alan"];
    let lens: HashMap<String, i64> = names.iter().map(|n| (n.to_string(), n.len() as i64)).collect();
    println!("{:?}", lens.get("grace"));
    println!("{:?}", lens.get("bob"));
    println!("{}", lens.len());
    let by_len: HashMap<i64, String> = names.iter().map(|n| (n.len() as i64, n.to_uppercase())).collect();
    println!("{}", by_len.get(&4).unwrap());
}
