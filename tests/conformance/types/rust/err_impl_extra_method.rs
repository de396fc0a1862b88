trait Shape { fn area(&self) -> f64; }
struct Sq { s: f64 }
impl Shape for Sq {
    fn area(&self) -> f64 { self.s * self.s }
    fn volume(&self) -> f64 { 0.0 } // <-
}
fn main() { println!("{}", Sq { s: 1.0 }.area()) }
