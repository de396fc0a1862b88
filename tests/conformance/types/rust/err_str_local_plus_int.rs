fn main() {
    let s = "a";
    println!("{}", s + 1); // <-
}
