fn main() {
    let f: f64 = 1; // <-
    println!("{}", f);
}
