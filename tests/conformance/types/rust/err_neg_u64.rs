fn main() {
    let x: u64 = 5;
    println!("{}", -x); // <-
}
