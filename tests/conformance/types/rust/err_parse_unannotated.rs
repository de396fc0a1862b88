fn main() {
    let n = "5".parse().unwrap(); // <-
    println!("{}", n);
}
