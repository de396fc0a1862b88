trait Monoid { fn empty() -> Self; }
fn zero<T: Clone>() -> T {
    T::empty() // <-
}
fn main() { let x: i64 = zero(); println!("{}", x) }
