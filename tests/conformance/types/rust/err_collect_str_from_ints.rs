fn main() {
    let s: String = [1i64, 2, 3].iter().map(|x| x * 2).collect(); // <-
    println!("{}", s);
}
