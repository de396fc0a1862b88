fn parse(s: &str) -> Result<i64, String> { s.parse::<i64>().map_err(|e| e.to_string()) }
fn main() {
    let s: String = parse("4").unwrap(); // <-
    println!("{}", s);
}
