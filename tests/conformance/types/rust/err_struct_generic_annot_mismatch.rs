struct Pair<A, B> { a: A, b: B }
fn main() {
    let p: Pair<i64, String> = Pair { a: 1, b: 2 }; // <-
    println!("{} {}", p.a, p.b);
}
