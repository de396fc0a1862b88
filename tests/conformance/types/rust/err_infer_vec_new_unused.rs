fn main() {
    let v = Vec::new(); // <-
    println!("done");
}
