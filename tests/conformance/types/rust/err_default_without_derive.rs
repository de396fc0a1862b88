struct Point { x: i64, y: i64 }
fn main() {
    let p: Point = Default::default(); // <-
    println!("{}", p.x + p.y);
}
