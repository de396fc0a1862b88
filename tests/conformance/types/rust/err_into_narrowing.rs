fn main() {
    let big: i64 = 5;
    let small: i32 = big.into(); // <-
    println!("{}", small);
}
