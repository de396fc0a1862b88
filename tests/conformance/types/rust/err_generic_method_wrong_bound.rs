trait Shape { fn area(&self) -> f64; }
fn twice<T: Clone>(x: T) -> f64 {
    x.area() * 2.0 // <-
}
fn main() { println!("{}", twice(1.0)) }
