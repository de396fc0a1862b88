fn main() {
    let v = vec![1, 2];
    println!("{}", v["a"]); // <-
}
