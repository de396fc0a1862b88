struct User { name: String, id: i64 }
struct Account { id: i64, owner: String }
fn main() {
    let get_id = |u: User| u.id;
    println!("{}", get_id(Account { id: 5, owner: "x".to_string() })); // <-
}
