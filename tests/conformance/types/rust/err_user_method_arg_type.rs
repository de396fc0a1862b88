struct Acc { total: i64 }
impl Acc { fn add(&mut self, n: i64) { self.total += n } }
fn main() {
    let mut a = Acc { total: 0 };
    let s = "5";
    a.add(s); // <-
    println!("{}", a.total);
}
