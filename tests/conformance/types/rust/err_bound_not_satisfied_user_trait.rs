trait Shape { fn area(&self) -> f64; }
struct Sq { s: f64 }
impl Shape for Sq { fn area(&self) -> f64 { self.s * self.s } }
fn report<T: Shape>(x: T) -> f64 { x.area() }
fn main() {
    println!("{}", report(Sq { s: 2.0 }));
    println!("{}", report(5)); // <-
}
