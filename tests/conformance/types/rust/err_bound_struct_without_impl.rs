trait Describe { fn describe(&self) -> String; }
struct A { n: i64 }
struct B { n: i64 }
impl Describe for A { fn describe(&self) -> String { format!("A{}", self.n) } }
fn show<T: Describe>(x: T) -> String { x.describe() }
fn main() {
    println!("{}", show(A { n: 1 }));
    println!("{}", show(B { n: 2 })); // <-
}
