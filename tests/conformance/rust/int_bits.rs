// Integer bit methods at the width of the type: reverse_bits, swap_bytes,
// rotations, counts, powers of two, abs_diff, signum.
fn main() {
    let x: u32 = 0b1011;
    println!("{:032b}", x.reverse_bits());
    println!("{:#x} {:#x}", 0x1234_5678u32.swap_bytes(), 0x12u8.swap_bytes());
    println!("{} {} {}", 0x8000_0001u32.rotate_left(1), 0x8000_0001u32.rotate_right(4), 0x81u8.rotate_left(1));
    println!("{} {} {}", (-1i32).count_ones(), (-1i8).count_zeros(), 1u16.leading_zeros());
    println!("{} {} {}", 0u32.trailing_zeros(), 0u64.leading_zeros(), (-2i8).rotate_left(1));
    println!("{} {} {}", 64u64.is_power_of_two(), 65u32.next_power_of_two(), 0u8.next_power_of_two());
    println!("{} {} {}", 3i64.pow(4), 7u32.abs_diff(10), (-9i64).signum());
    println!("{}", 0x0102_0304_0506_0708u64.swap_bytes());
}
