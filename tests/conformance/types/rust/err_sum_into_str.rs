fn main() {
    let v = vec![1i64, 2];
    let s: String = v.iter().sum(); // <-
    println!("{}", s);
}
