enum Shape {
    Circle(f64),
    Rect { w: f64, h: f64 },
    Square(f64),
    Empty,
}
fn area(s: Shape) -> f64 {
    match s {
        Shape::Circle(r) => 3.0 * r * r,
        Shape::Rect { w, h } => w * h,
        Shape::Square(a) => a * a,
        Shape::Empty => 0.0,
    }
}
fn main() {
    let shapes = [Shape::Circle(2.0), Shape::Rect { w: 1.5, h: 2.0 }, Shape::Square(3.0), Shape::Empty];
    for s in shapes {
        println!("{}", area(s));
    }
}
