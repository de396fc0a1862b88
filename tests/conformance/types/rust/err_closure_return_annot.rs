fn main() {
    let f = |x: i64| -> i64 { format!("{}", x) }; // <-
    println!("{}", f(1));
}
