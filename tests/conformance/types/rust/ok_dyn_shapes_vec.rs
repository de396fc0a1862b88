trait Shape {
    fn area(&self) -> f64;
    fn name(&self) -> String { "shape".to_string() }
}
struct Circle { r: f64 }
struct Rect { w: f64, h: f64 }
impl Shape for Circle {
    fn area(&self) -> f64 { 3.0 * self.r * self.r }
    fn name(&self) -> String { "circle".to_string() }
}
impl Shape for Rect {
    fn area(&self) -> f64 { self.w * self.h }
}
fn report(s: &dyn Shape) -> String { format!("{} {}", s.name(), s.area()) }
fn main() {
    let shapes: Vec<Box<dyn Shape>> = vec![Box::new(Circle { r: 1.0 }), Box::new(Rect { w: 2.0, h: 3.5 })];
    let total: f64 = shapes.iter().map(|s| s.area()).sum();
    println!("{}", total);
    for s in shapes.iter() {
        println!("{}", report(s.as_ref()));
    }
}
