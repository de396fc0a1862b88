fn main() {
    let n = 5;
    println!("{}", n.x); // <-
}
