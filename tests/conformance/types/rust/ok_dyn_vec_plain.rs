trait Shape { fn area(&self) -> i64; }
struct Sq { s: i64 }
struct Tri { b: i64, h: i64 }
impl Shape for Sq { fn area(&self) -> i64 { self.s * self.s } }
impl Shape for Tri { fn area(&self) -> i64 { self.b * self.h / 2 } }
fn make() -> Vec<Box<dyn Shape>> {
    let mut v: Vec<Box<dyn Shape>> = Vec::new();
    v.push(Box::new(Sq { s: 3 }));
    v.push(Box::new(Tri { b: 4, h: 5 }));
    v.push(Box::new(Sq { s: 1 }));
    v
}
fn biggest(v: Vec<Box<dyn Shape>>) -> i64 { v.iter().map(|s| s.area()).max().unwrap() }
fn main() {
    let v = make();
    println!("{}", v.len());
    println!("{}", biggest(v));
}
