fn main() {
    let mut v = vec![1];
    v.push(2, 3); // <-
    println!("{:?}", v);
}
