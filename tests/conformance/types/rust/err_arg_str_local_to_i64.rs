fn square(x: i64) -> i64 { x * x }
fn main() {
    let s = "4";
    println!("{}", square(s)); // <-
}
