struct Cfg { n: i64 }
fn main() {
    let c: Cfg = Default::default(); // <-
    println!("{}", c.n);
}
