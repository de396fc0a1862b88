fn f() -> Result<i64> { Ok(1) } // <-
fn main() { println!("{:?}", f()) }
