fn main() {
    let o: Option<i64, i64> = None; // <-
    println!("{}", o.is_none());
}
