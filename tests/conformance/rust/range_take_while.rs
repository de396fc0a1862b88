// take_while over a huge or open range walks it: nothing past the first rejected element is built.
fn main() {
    println!("{}", (0..1u64 << 40).take_while(|x| *x < 5).count());
    let sq: Vec<u64> = (1..).take_while(|x| x * x < 50).collect();
    println!("{:?}", sq);
    println!("{:?}", (3..=5).take_while(|x| *x < 100).collect::<Vec<i32>>());
    println!("{}", (0..1i64 << 40).take_while(|x| *x < 7).map(|x| x * 2).sum::<i64>());
}
