fn main() {
    let c = true;
    let x = if c { 1 } else { "one" }; // <-
    println!("{}", x);
}
