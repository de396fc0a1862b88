trait Zero {
    fn zero() -> Self;
    fn describe(&self) -> String;
}
impl Zero for i64 {
    fn zero() -> i64 { 0 }
    fn describe(&self) -> String { format!("int {}", self) }
}
impl Zero for String {
    fn zero() -> String { String::new() }
    fn describe(&self) -> String { format!("str '{}'", self) }
}
#[derive(Debug, Clone)]
struct Point { x: i64, y: i64 }
impl Zero for Point {
    fn zero() -> Point { Point { x: 0, y: 0 } }
    fn describe(&self) -> String { format!("point {},{}", self.x, self.y) }
}
fn fill<T: Zero>(n: i64) -> Vec<T> {
    let mut v: Vec<T> = Vec::new();
    for _ in 0..n { v.push(T::zero()) }
    v
}
fn pair_of<U: Zero, V: Zero>(n: i64) -> (Vec<U>, Vec<V>) { (fill::<U>(n), fill(n + 1)) }
fn first_or_zero<T: Zero + Clone>(xs: Vec<T>) -> T {
    if xs.is_empty() { T::zero() } else { xs[0].clone() }
}
fn main() {
    let ints: Vec<i64> = fill(3);
    println!("{:?}", ints);
    let (ps, ss): (Vec<Point>, Vec<String>) = pair_of(1);
    println!("{}", ps.len());
    println!("{}", ss.len());
    println!("{}", first_or_zero(Vec::<i64>::new()).describe());
    println!("{}", first_or_zero(vec![5, 6]).describe());
    println!("{}", first_or_zero(Vec::<Point>::new()).describe());
    let make = |n: i64| fill::<String>(n).len();
    println!("{}", make(4));
    println!("{}", first_or_zero(vec![String::from("a")]).describe());
}
