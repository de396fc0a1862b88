fn main() {
    let mut x = 1;
    println!("{}", x);
    x = "a"; // <-
    println!("{}", x);
}
