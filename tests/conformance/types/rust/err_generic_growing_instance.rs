fn depth<T: Default>(n: i64) -> i64 {
    let _z: T = T::default();
    if n == 0 { 0 } else { 1 + depth::<Vec<T>>(n - 1) } // <-
}
fn main() { println!("{}", depth::<i64>(3)) }
