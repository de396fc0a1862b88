fn main() {
    let o = Some(1);
    println!("{:?}", o.map(|s: String| s.len())); // <-
}
