fn main() {
    let t = "seven";
    let y: i64 = t; // <-
    println!("{}", y);
}
