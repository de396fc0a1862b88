trait Shape { fn area(&self) -> f64; }
struct Sq { s: i64 }
impl Shape for Sq {
    fn area(&self) -> i64 { self.s * self.s } // <-
}
fn main() { println!("{}", Sq { s: 2 }.area()) }
