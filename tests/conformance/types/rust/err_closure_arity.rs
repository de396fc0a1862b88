fn main() {
    let f = |a, b| a + b;
    println!("{}", f(1)); // <-
}
