fn parse_int(s: &str) -> Result<i64, String> {
    s.parse::<i64>().map_err(|e| e.to_string())
}
fn parse_all(xs: Vec<&str>) -> Result<Vec<i64>, String> {
    let v = xs.iter().map(|s| parse_int(s)).collect::<Result<Vec<i64>, String>>()?;
    Ok(v.iter().map(|n| n * 10).collect())
}
fn main() {
    let good: Option<Vec<i64>> = vec![Some(1), Some(2)].into_iter().collect();
    println!("{:?}", good);
    let bad: Option<Vec<i64>> = vec![Some(1), None].into_iter().collect();
    println!("{:?}", bad);
    println!("{:?}", parse_all(vec!["1", "22"]));
    println!("{}", parse_all(vec!["1", "x"]).is_err());
}
