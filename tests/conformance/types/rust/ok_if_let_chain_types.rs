fn classify(a: Option<i64>, b: Result<&str, i64>) -> String {
    if let Some(n) = a {
        format!("some {}", n)
    } else if let Ok(s) = b {
        format!("ok {}", s.to_uppercase())
    } else if let Err(code) = b {
        format!("err {}", code * 10)
    } else {
        "none".to_string()
    }
}
fn main() {
    println!("{}", classify(Some(3), Ok("x")));
    println!("{}", classify(None, Ok("hey")));
    println!("{}", classify(None, Err(4)));
}
