fn main() {
    let p = (1, 2);
    let (0, y) = p; // <-
    println!("{}", y);
}
