fn main() {
    let v = vec![1, 2];
    let t = v.iter().fold("", |acc, x| x + 1); // <-
    println!("{}", t);
}
