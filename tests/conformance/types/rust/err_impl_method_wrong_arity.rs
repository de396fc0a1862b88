trait Scale { fn scale(&self, k: i64) -> i64; }
struct N { v: i64 }
impl Scale for N {
    fn scale(&self, k: i64, extra: i64) -> i64 { self.v * k + extra } // <-
}
fn main() { println!("{}", N { v: 2 }.scale(3, 1)) }
