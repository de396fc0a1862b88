trait Shape { fn area(&self) -> f64; }
struct Sq { s: f64 }
struct Blob { mass: f64 }
impl Shape for Sq { fn area(&self) -> f64 { self.s * self.s } }
fn main() {
    let shapes: Vec<Box<dyn Shape>> = vec![Box::new(Sq { s: 1.0 }),
        Box::new(Blob { mass: 2.0 })]; // <-
    println!("{}", shapes.len());
}
