fn main() {
    let d = Default::default(); // <-
    println!("{:?}", d);
}
