fn main() {
    let x: u64 = -1; // <-
    println!("{}", x);
}
