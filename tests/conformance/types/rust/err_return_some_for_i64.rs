fn one() -> i64 {
    Some(1) // <-
}
fn main() { println!("{}", one()) }
