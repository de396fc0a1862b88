fn main() {
    let o: Option<i64> = None;
    let Some(x) = o; // <-
    println!("{}", x);
}
