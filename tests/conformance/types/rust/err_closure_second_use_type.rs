fn main() {
    let inc = |x| x + 1;
    println!("{}", inc(1));
    println!("{}", inc("a")); // <-
}
