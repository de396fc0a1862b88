fn f(r: Result<i64, String>) -> i64 {
    match r { // <-
        Ok(n) => n,
    }
}
fn main() { println!("{}", f(Ok(1))) }
