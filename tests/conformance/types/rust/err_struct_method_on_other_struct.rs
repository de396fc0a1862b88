struct User { name: String }
struct Account { id: i64 }
impl Account { fn close(&self) -> i64 { self.id } }
fn main() {
    let u = User { name: "ann".to_string() };
    println!("{}", u.close()); // <-
}
