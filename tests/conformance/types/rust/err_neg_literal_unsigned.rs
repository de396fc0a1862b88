fn main() {
    let big: u64 = 18446744073709551615;
    let below = big > -1; // <-
    println!("{}", below);
}
