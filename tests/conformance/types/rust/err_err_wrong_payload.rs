fn check(n: i64) -> Result<i64, String> {
    if n < 0 {
        return Err(5) // <-
    }
    Ok(n)
}
fn main() { println!("{:?}", check(1)) }
