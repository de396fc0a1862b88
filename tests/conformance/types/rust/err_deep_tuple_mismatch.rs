fn main() {
    let t: (((i64, i64), i64), i64) = (((1, "two"), 3), 4); // <-
    println!("{}", t.1);
}
