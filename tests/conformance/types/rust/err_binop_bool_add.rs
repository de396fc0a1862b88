fn main() {
    let t = true;
    println!("{}", t + 1); // <-
}
