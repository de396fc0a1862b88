fn f(b: bool) -> i64 {
    match b { // <-
        true => 1,
    }
}
fn main() { println!("{}", f(false)) }
