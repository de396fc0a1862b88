fn bucket(n: i64) -> &'static str {
    match n { // <-
        0 => "zero",
        1..=9 => "digit",
    }
}
fn main() { println!("{}", bucket(5)) }
