fn show(x: u64) -> String { format!("{}", x) }
fn main() {
    let big = 18446744073709551615;
    println!("{}", show(big));
    let mut acc = 0;
    for _ in 0..64 {
        acc = acc * 2 + 1;
    }
    println!("{}", show(acc));
    let half = big / 2 + 1;
    println!("{}", show(half));
}
