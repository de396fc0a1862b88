fn main() {
    let o: Option<i64> = Some("x"); // <-
    println!("{:?}", o);
}
