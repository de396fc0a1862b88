fn main() {
    let mut v = Vec::new();
    v.push(1);
    v.push("a"); // <-
    println!("{:?}", v);
}
