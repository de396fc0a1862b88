fn main() {
    let mut s = String::from("a");
    s += 1; // <-
    println!("{}", s);
}
