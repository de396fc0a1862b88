fn id<T>(x: T) -> T {
    5 // <-
}
fn main() { println!("{}", id(1)) }
