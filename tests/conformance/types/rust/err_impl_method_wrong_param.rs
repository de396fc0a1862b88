trait Scale { fn scale(&self, k: i64) -> i64; }
struct N { v: i64 }
impl Scale for N {
    fn scale(&self, k: &str) -> i64 { self.v * k.len() as i64 } // <-
}
fn main() { println!("{}", N { v: 2 }.scale("ab")) }
