use std::collections::HashMap;
fn longest<'a>(words: &Vec<&'a str>) -> Option<&'a str> {
    let mut best: Option<&str> = None;
    for w in words.iter() {
        match best {
            Some(b) if b.len() >= w.len() => {}
            _ => best = Some(w),
        }
    }
    best
}
fn main() {
    let mut v: Vec<i64> = Vec::new();
    v.push(3);
    v.push(4);
    let mut m = HashMap::new();
    m.insert(String::from("sum"), v.iter().sum::<i64>());
    println!("{:?}", m.get("sum"));
    let words = vec!["a", "abc", "ab"];
    println!("{:?}", longest(&words));
    let n: usize = words.len();
    println!("{}", n * 2);
}
