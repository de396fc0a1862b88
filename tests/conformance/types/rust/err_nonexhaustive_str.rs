fn f(s: &str) -> i64 {
    match s { // <-
        "a" => 1,
        "b" => 2,
    }
}
fn main() { println!("{}", f("a")) }
