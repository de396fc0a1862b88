struct User { name: String, email: String }
fn main() {
    let users = [User { name: "ann".to_string(), email: "a@x".to_string() }];
    let e = users.iter().map(|u| u.emial.len() as i64).collect::<Vec<i64>>(); // <-
    println!("{:?} {} {}", e, users[0].name, users[0].email);
}
