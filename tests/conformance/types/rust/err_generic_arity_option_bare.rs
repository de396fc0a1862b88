fn f(o: Option) -> i64 { 0 } // <-
fn main() { println!("{}", f(None)) }
