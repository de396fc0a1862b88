// Bit manipulation on u32/u64: popcount, trailing zeros, rotations, masks, binary formatting.
fn main() {
    let x: u32 = 0b1011_0000;
    println!("{} {} {}", x.count_ones(), x.trailing_zeros(), x.leading_zeros());
    println!("{:#b} {:#x} {:o}", x, x, x);
    let y: u64 = 0xDEAD_BEEF;
    println!("{:x} {:x}", y.rotate_left(8), y >> 4);
    let mut subsets = Vec::new();
    let items = ['a', 'b', 'c'];
    for mask in 0..(1u32 << items.len()) {
        let s: String = (0..items.len()).filter(|i| mask & (1 << i) != 0).map(|i| items[i]).collect();
        subsets.push(s);
    }
    println!("{:?}", subsets);
    let mut n = 40u64;
    let mut steps = 0;
    while n != 1 {
        n = if n & 1 == 0 { n >> 1 } else { 3 * n + 1 };
        steps += 1;
    }
    println!("collatz(40) steps {}", steps);
    println!("{}", (1u64 << 63) - 1 == i64::MAX as u64);
    println!("{:032b}", 5u32.reverse_bits());
}
