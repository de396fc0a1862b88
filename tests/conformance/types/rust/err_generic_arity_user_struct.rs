struct Pair<A, B> { a: A, b: B }
fn first(p: Pair<i64>) -> i64 { p.a } // <-
fn main() { let p = Pair { a: 1, b: 2 }; println!("{} {}", p.b, first(p)) }
