fn show(o: Option<Option<i64>>) -> String {
    match o {
        Some(Some(n)) => format!("value {}", n),
        Some(None) => "inner none".to_string(),
        None => "outer none".to_string(),
    }
}
fn flag(r: Result<bool, String>) -> i64 {
    match r {
        Ok(true) => 1,
        Ok(false) => 0,
        Err(e) => -(e.len() as i64),
    }
}
fn main() {
    println!("{}", show(Some(Some(4))));
    println!("{}", show(Some(None)));
    println!("{}", show(None));
    println!("{}", flag(Ok(true)) + flag(Ok(false)) + flag(Err("bad".to_string())));
}
