fn check(n: i64) -> i64 {
    if n < 0 {
        return format!("negative {}", n) // <-
    }
    n
}
fn main() { println!("{}", check(3)) }
