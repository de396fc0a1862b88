trait Shape { fn area(&self) -> f64; }
struct Blob { m: f64 }
fn report(s: &dyn Shape) -> f64 { s.area() }
fn main() {
    let b = Blob { m: 1.0 };
    println!("{}", report(&b)); // <-
}
