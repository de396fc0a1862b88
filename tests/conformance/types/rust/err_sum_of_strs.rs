fn main() {
    let s: String = ["a".to_string(), "b".to_string()].into_iter().sum(); // <-
    println!("{}", s);
}
