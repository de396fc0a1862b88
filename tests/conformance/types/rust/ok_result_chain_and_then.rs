fn parse(s: &str) -> Result<i64, String> { s.parse::<i64>().map_err(|e| e.to_string()) }
fn positive(n: i64) -> Result<i64, String> { if n > 0 { Ok(n) } else { Err(format!("{} is not positive", n)) } }
fn main() {
    for s in ["16", "-4", "q"] {
        let r = parse(s).and_then(positive).map(|n| (n as f64).sqrt());
        println!("{}", r.clone().unwrap_or_else(|e| if e.contains("positive") { -1.0 } else { -2.0 }));
        println!("{}", r.is_ok());
    }
}
