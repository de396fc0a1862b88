fn add_all<T>(a: T, b: T) -> T {
    a + b // <-
}
fn main() { println!("{}", add_all(1, 2)) }
