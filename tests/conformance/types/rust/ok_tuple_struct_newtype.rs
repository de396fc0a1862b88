#[derive(Debug, Clone, Copy)]
struct Meters(f64);
struct Id(i64);
impl Meters {
    fn add(self, o: Meters) -> Meters { Meters(self.0 + o.0) }
}
fn main() {
    let a = Meters(1.5);
    let b = a.add(Meters(2.25));
    println!("{:?}", b);
    let Meters(raw) = b;
    println!("{}", raw * 2.0);
    let id = Id(41);
    println!("{}", id.0 + 1);
}
