fn first_len(v: Vec<&str>) -> Result<i64, String> {
    let s = v.first()?; // <-
    Ok(s.len() as i64)
}
fn main() { println!("{:?}", first_len(vec!["ab"])) }
