struct User { name: String }
fn main() {
    let u = "ann".parse::<User>(); // <-
    println!("{}", u.is_ok());
}
