struct User { name: String, id: i64 }
struct Account { id: i64, email: String }
fn parse_int(s: &str) -> Result<i64, String> { s.parse::<i64>().map_err(|e| e.to_string()) }
fn nums(xs: Vec<&str>) -> Result<Vec<i64>, String> {
    let v = xs.iter().map(|s| parse_int(s)).collect::<Result<Vec<_>, _>>()?;
    Ok(v)
}
fn main() {
    let it = ['o', 'k'];
    let s: String = it.iter().collect();
    println!("{}", s);
    println!("{}", ['a', 'b'].iter().collect::<String>());
    println!("{:?}", nums(vec!["1", "2"]));
    println!("{}", nums(vec!["1", "z"]).is_err());
    println!("{}", (|u: User| u.id)(User { name: "ann".to_string(), id: 7 }));
    let a = Account { id: 1, email: "e".to_string() };
    println!("{}", a.email.len() as i64 + a.id);
}
