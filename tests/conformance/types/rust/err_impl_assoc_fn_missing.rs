trait Monoid {
    fn empty() -> Self;
    fn combine(self, o: Self) -> Self;
}
struct S { v: i64 }
impl Monoid for S { // <-
    fn combine(self, o: S) -> S { S { v: self.v + o.v } }
}
fn main() { println!("{}", S { v: 1 }.combine(S { v: 2 }).v) }
