fn main() {
    let v = vec![1, 2,
             "three"]; // <-
    println!("{:?}", v);
}
