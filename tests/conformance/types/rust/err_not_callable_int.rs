fn main() {
    let x = 5;
    let y = x(1); // <-
    println!("{}", y);
}
