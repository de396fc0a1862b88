use std::collections::HashMap;
fn main() {
    let mut v = Vec::new();
    let mut m = HashMap::new();
    for i in 0..5 {
        v.push(i * i);
    }
    m.insert("squares", v.len());
    println!("{:?}", v);
    println!("{:?}", m.get("squares"));
    let mut names = Vec::new();
    names.push("ada");
    names.push("bob");
    println!("{}", names.join("+"));
}
