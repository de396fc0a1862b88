struct User { name: String, manager: Option<String> }
fn manager_len(u: User) -> Option<i64> {
    let m = u.manager?;
    Some(m.len() as i64)
}
fn lookup(id: i64) -> Result<Option<User>, String> {
    if id < 0 { return Err(format!("bad id {}", id)) }
    if id == 0 { return Ok(None) }
    Ok(Some(User { name: "ann".to_string(), manager: if id > 1 { Some("boss".to_string()) } else { None } }))
}
fn describe(id: i64) -> Result<String, String> {
    let found = lookup(id)?;
    let text = match found {
        Some(u) => { let n = u.name.clone(); format!("{} {:?}", n, manager_len(u)) }
        None => "nobody".to_string(),
    };
    Ok(text)
}
fn main() {
    println!("{:?}", describe(2));
    println!("{:?}", describe(1));
    println!("{:?}", describe(0));
    println!("{:?}", describe(-3));
}
