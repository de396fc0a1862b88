fn main() {
    let x = None; // <-
    println!("{}", x.is_none());
}
