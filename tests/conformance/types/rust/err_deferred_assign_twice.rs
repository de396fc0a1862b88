fn main() {
    let x: i64;
    x = 1;
    x = 2; // <-
    println!("{}", x);
}
