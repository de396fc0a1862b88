fn f(o: Option<Option<i64>>) -> i64 {
    match o { // <-
        Some(Some(n)) => n,
        None => 0,
    }
}
fn main() { println!("{}", f(None)) }
