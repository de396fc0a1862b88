fn f(n: i64) -> Option<i64> {
    let m = n?; // <-
    Some(m)
}
fn main() { println!("{:?}", f(1)) }
