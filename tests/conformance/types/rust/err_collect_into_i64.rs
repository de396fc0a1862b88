fn main() {
    let v = vec![1i64, 2];
    let n: i64 = v.iter().map(|x| x + 1).collect(); // <-
    println!("{}", n);
}
