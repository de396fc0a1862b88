fn main() {
    let c = false;
    let x: i64 = if c { 1 }; // <-
    println!("{}", x);
}
