fn main() {
    let v = vec![3, 4];
    let n: i64 = v.first(); // <-
    println!("{}", n);
}
