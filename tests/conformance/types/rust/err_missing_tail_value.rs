fn f(x: i64) -> i64 { // <-
    let y = x * 2;
}
fn main() { println!("{}", f(1)) }
