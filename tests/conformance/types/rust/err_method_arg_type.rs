fn main() {
    let s = "ab";
    let n = "3";
    println!("{}", s.repeat(n)); // <-
}
