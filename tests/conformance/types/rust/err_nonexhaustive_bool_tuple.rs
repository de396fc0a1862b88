fn f(a: bool, b: bool) -> i64 {
    match (a, b) { // <-
        (true, _) => 1,
        (false, true) => 2,
    }
}
fn main() { println!("{}", f(false, false)) }
