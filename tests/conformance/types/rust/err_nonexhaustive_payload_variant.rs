enum Shape { Circle(f64), Rect(f64, f64), Empty }
fn area(s: Shape) -> f64 {
    match s { // <-
        Shape::Circle(r) => r * r,
        Shape::Empty => 0.0,
    }
}
fn main() { println!("{}", area(Shape::Rect(1.0, 2.0))) }
