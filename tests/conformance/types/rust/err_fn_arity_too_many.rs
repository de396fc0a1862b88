fn add(a: i64, b: i64) -> i64 { a + b }
fn main() {
    let f = add;
    println!("{}", f(1, 2, 3)); // <-
}
