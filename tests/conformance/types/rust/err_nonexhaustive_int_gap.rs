fn sign(n: i64) -> i64 {
    match n { // <-
        i64::MIN..=-1 => -1,
        1..=i64::MAX => 1,
    }
}
fn main() { println!("{}", sign(3)) }
