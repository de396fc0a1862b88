fn main() {
    let big: i64 = 3;
    let f: f64 = big.into(); // <-
    println!("{}", f);
}
