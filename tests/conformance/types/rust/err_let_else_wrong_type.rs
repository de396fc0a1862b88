fn f(o: Option<i64>) -> i64 {
    let Ok(x) = o else { return 0 }; // <-
    x
}
fn main() { println!("{}", f(Some(1))) }
