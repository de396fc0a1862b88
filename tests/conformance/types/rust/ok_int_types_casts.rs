fn scale(x: i32, k: i32) -> i32 { x * k }
fn low_byte(x: i64) -> u8 { x as u8 }
fn idx(v: Vec<i64>, i: usize) -> i64 { v[i] }
fn main() {
    let a: i32 = 300;
    println!("{}", scale(a, 2));
    println!("{}", low_byte(513));
    println!("{}", low_byte(-1));
    println!("{}", idx(vec![4, 5, 6], 2));
    let big: u64 = 18446744073709551615;
    println!("{}", big);
    println!("{}", big / 5);
    println!("{}", (a as i64) * 1000000000);
}
