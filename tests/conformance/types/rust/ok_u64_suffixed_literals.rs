// Rust twin of ok_u64_suffixed_literals.mty.
fn main() {
    let x: u64 = 18446744073709551615_u64;
    let d: u64 = 0xCAFE_BABE_DEAD_BEEF_u64;
    let e: u64 = 0xCAFE_BABE_DEAD_BEEF;
    let f = 0xFFFF_FFFF_FFFF_FFFF_u64;
    let g: usize = 18446744073709551615_usize;
    let o: u64 = 0o1777777777777777777777_u64;
    let b: u64 = 0b1000000000000000000000000000000000000000000000000000000000000001_u64;
    println!("{}", x);
    println!("{}", d);
    println!("{}", e);
    println!("{}", f);
    println!("{}", g);
    println!("{}", o);
    println!("{}", b);
    println!("{}", x == f);
    println!("{}", d % 1000);
    println!("{}", 255_u8);
    println!("{}", -2147483648_i32);
    println!("{}", 2147483647_i32);
}
