fn size<T>(x: T) -> i64 {
    x.len() // <-
}
fn main() { println!("{}", size("abc")) }
