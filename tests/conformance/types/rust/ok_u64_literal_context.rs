fn main() {
    let mut acc: u64 = 0;
    for i in [0, 5, 63] {
        acc = acc | (1 << i);
    }
    println!("{}", acc);
    let mut mask = 0;
    let top: u64 = 1 << 63;
    mask = mask | top;
    println!("{}", mask);
    println!("{}", acc.count_ones());
}
