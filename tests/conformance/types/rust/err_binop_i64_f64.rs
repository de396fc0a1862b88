fn main() {
    let a: i64 = 1;
    let b: f64 = 2.5;
    println!("{}", a + b); // <-
}
