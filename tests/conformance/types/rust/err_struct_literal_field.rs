struct User { name: &'static str, age: i64 }
fn main() {
    let a = "forty";
    let u = User { name: "ann", age: a }; // <-
    println!("{} {}", u.name, u.age);
}
