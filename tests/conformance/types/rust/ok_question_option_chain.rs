use std::collections::HashMap;
fn describe(v: &Vec<&str>, m: &HashMap<&str, &str>, i: usize) -> Option<String> {
    let key = v.get(i)?;
    let raw = m.get(key)?;
    let n = raw.parse::<i64>().ok()?;
    Some(format!("{} = {}", key, n * 2))
}
fn main() {
    let v = vec!["a", "b", "c"];
    let mut m = HashMap::new();
    m.insert("a", "21");
    m.insert("b", "x");
    println!("{:?}", describe(&v, &m, 0));
    println!("{:?}", describe(&v, &m, 1));
    println!("{:?}", describe(&v, &m, 2));
    println!("{:?}", describe(&v, &m, 9));
}
