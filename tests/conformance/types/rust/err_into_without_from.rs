fn main() {
    let n: i64 = "5".into(); // <-
    println!("{}", n);
}
