trait Shape { fn area(&self) -> i64; }
struct Sq { s: i64 }
struct Line { len: i64 }
impl Shape for Sq { fn area(&self) -> i64 { self.s * self.s } }
impl Shape for Line { fn area(&self) -> i64 { 0 * self.len } }
fn pick(big: bool) -> Box<dyn Shape> {
    if big { Box::new(Sq { s: 6 }) } else { Box::new(Line { len: 9 }) }
}
fn twice(s: Box<dyn Shape>) -> i64 { s.area() * 2 }
fn main() {
    println!("{}", twice(pick(true)));
    println!("{}", twice(pick(false)));
}
