fn apply(f: fn(i64, i64) -> i64) -> i64 { f(1, 2) }
fn main() {
    println!("{}", apply(|x| x * 2)); // <-
}
