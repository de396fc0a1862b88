struct User { name: &'static str, age: i64 }
fn main() {
    let mut u = User { name: "ann", age: 30 };
    u.age = "old"; // <-
    println!("{} {}", u.name, u.age);
}
