struct User { name: String, age: i64 }
struct Account { id: i64, email: String }
fn main() {
    let users = [User { name: "ann".to_string(), age: 31 }];
    let accts = [Account { id: 1, email: "a@b".to_string() }];
    let emails: Vec<String> = users.iter().map(|u| u.email.clone()).collect(); // <-
    println!("{:?}", emails);
    println!("{} {} {} {}", accts.len(), accts[0].id, accts[0].email, users[0].name.len() as i64 + users[0].age);
}
