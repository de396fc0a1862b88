trait Make {
    fn make(n: i64) -> Self;
    fn label(&self) -> String;
}
struct Dot { n: i64 }
struct Bar { width: i64 }
impl Make for Dot {
    fn make(n: i64) -> Dot { Dot { n } }
    fn label(&self) -> String { ".".repeat(self.n as usize) }
}
impl Make for Bar {
    fn make(n: i64) -> Bar { Bar { width: n * 2 } }
    fn label(&self) -> String { "=".repeat(self.width as usize) }
}
fn build_all<T: Make>(ns: Vec<i64>) -> Vec<T> { ns.iter().map(|n| T::make(*n)).collect() }
fn main() {
    let dots: Vec<Dot> = build_all(vec![1, 3]);
    let bars: Vec<Bar> = build_all(vec![2]);
    for d in dots { println!("{}", d.label()) }
    for b in bars { println!("{}", b.label()) }
}
