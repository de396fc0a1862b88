fn main() {
    let t = (1, 2, 3);
    let (a, b) = t; // <-
    println!("{}", a + b);
}
