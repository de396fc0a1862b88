fn id<T>(x: T) -> T { x }
fn main() {
    println!("{}", id::<i64, String>(1)); // <-
}
