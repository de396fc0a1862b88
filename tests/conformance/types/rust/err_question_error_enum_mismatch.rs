enum ParseErr { Bad }
enum IoErr { Gone }
fn parse(s: &str) -> Result<i64, ParseErr> { if s == "" { Err(ParseErr::Bad) } else { Ok(1) } }
fn load(s: &str) -> Result<i64, IoErr> {
    let n = parse(s)?; // <-
    Ok(n)
}
fn main() { let _ = IoErr::Gone; println!("{}", load("x").is_ok()) }
