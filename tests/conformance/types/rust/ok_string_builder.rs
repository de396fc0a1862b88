fn main() {
    let mut s = String::new();
    for (i, c) in "abc".chars().enumerate() {
        if i > 0 { s.push('-') }
        s.push(c.to_ascii_uppercase());
    }
    s.push_str("!");
    println!("{}", s);
    println!("{}", s.len());
    let mut t = String::from("x");
    t.push_str(&s);
    println!("{}", t);
}
