#[derive(Debug)]
enum AppError { Parse(String), Range(i64) }
fn parse_int(s: &str) -> Result<i64, String> { s.parse::<i64>().map_err(|e| e.to_string()) }
fn parse_pair(s: &str) -> Result<(i64, i64), AppError> {
    let parts: Vec<&str> = s.split(",").collect();
    let a = parse_int(parts[0].trim()).map_err(|e| AppError::Parse(e))?;
    let b = parse_int(parts[1].trim()).map_err(|e| AppError::Parse(e))?;
    if b < a { return Err(AppError::Range(b)) }
    Ok((a, b))
}
fn main() {
    println!("{:?}", parse_pair("1, 5"));
    println!("{:?}", parse_pair("9,2"));
    match parse_pair("q,2") {
        Ok(p) => println!("{:?}", p),
        Err(AppError::Parse(_)) => println!("parse error"),
        Err(AppError::Range(n)) => println!("{}", n),
    }
}
