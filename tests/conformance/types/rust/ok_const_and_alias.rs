type Score = i64;
const LIMIT: u64 = 10000000000000000000;
const RATE: f64 = 0.25;
const TAG: &str = "v";
fn bump(s: Score) -> Score { s + 1 }
fn main() {
    println!("{}", LIMIT / 2);
    println!("{}", RATE * 8.0);
    println!("{}", format!("{}{}", TAG, bump(41)));
    let s: Score = 9;
    println!("{}", bump(s) * 2);
}
