// Rust twin of ok_u64_first_param.mty.
fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}
fn mix(a: usize, b: i64, c: u64) -> u64 { a as u64 + b as u64 + c }
struct Acc { total: u64 }
impl Acc {
    fn add2(&mut self, a: u64, b: u64) { self.total = self.total + a + b }
}
fn main() {
    println!("{}", gcd(48, 18));
    println!("{}", mix(1, 2, 3));
    let f = gcd;
    println!("{}", f(100, 75));
    let add = |a: u64, b: u64| a + b;
    println!("{}", add(2, 3));
    let mut acc = Acc { total: 0 };
    acc.add2(4, 5);
    println!("{}", acc.total);
}
