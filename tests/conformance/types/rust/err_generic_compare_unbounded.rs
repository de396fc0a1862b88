fn max_of<T>(a: T, b: T) -> T {
    if a > b { a } else { b } // <-
}
fn main() { println!("{}", max_of(1, 2)) }
