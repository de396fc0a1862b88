fn main() {
    let t = (1, "a");
    println!("{}", t.1 + 1); // <-
}
