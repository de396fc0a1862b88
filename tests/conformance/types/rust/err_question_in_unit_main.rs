fn main() {
    let v = vec![1, 2];
    let x = v.first()?; // <-
    println!("{}", x);
}
