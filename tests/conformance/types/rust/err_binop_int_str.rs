fn main() {
    let x = 1 + "hi"; // <-
    println!("{}", x);
}
