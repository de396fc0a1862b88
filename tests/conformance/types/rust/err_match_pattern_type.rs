fn f(n: i64) -> i64 {
    match n {
        "one" => 1, // <-
        _ => 0,
    }
}
fn main() { println!("{}", f(1)) }
