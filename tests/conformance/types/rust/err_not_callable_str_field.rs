struct Tool { name: &'static str }
fn main() {
    let t = Tool { name: "saw" };
    println!("{}", (t.name)()); // <-
}
