fn outer(r: Result<i64, String>) -> Result<i64, i64> {
    let v = r?; // <-
    Ok(v * 2)
}
fn main() { println!("{:?}", outer(Ok(2))) }
