trait Shape { fn area(&self) -> f64; }
struct Sq { s: f64 }
impl Sq { fn side(&self) -> f64 { self.s } }
impl Shape for Sq { fn area(&self) -> f64 { self.s * self.s } }
fn f(s: Box<dyn Shape>) -> f64 {
    s.side() // <-
}
fn main() { println!("{}", f(Box::new(Sq { s: 2.0 }))) }
