fn f(n: i64) -> &'static str {
    match n { // <-
        x if x < 0 => "neg",
        x if x >= 0 => "non-neg",
    }
}
fn main() { println!("{}", f(1)) }
