fn parse_line(line: &str) -> Result<i64, String> {
    let parts: Vec<&str> = line.split("=").collect();
    if parts.len() != 2 { return Err(format!("bad line: {}", line)) }
    parts[1].trim().parse::<i64>().map_err(|e| e.to_string())
}
fn total(lines: Vec<&str>) -> Result<i64, String> {
    let mut sum = 0;
    for l in lines {
        sum += parse_line(l)?;
    }
    Ok(sum)
}
fn main() {
    println!("{:?}", total(vec!["a = 1", "b = 20"]));
    println!("{:?}", total(vec!["a = 1", "oops"]));
}
