fn same<T: PartialEq>(a: T, b: T) -> bool { a == b }
fn main() {
    println!("{}", same(1, "a")); // <-
}
