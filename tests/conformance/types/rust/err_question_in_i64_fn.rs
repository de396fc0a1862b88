fn get(r: Result<i64, String>) -> i64 {
    let v = r?; // <-
    v + 1
}
fn main() { println!("{}", get(Ok(1))) }
