trait Shape {
    fn area(&self) -> f64;
    fn perimeter(&self) -> f64;
}
struct Sq { s: f64 }
impl Shape for Sq { // <-
    fn area(&self) -> f64 { self.s * self.s }
}
fn main() { println!("{}", Sq { s: 1.0 }.area()) }
