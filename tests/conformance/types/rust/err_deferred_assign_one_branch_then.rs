fn main() {
    let c = 3;
    let x: i64;
    if c > 2 { x = 1 }
    x = 2; // <-
    println!("{}", x);
}
