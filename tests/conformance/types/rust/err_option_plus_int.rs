fn main() {
    let o = [5].first().copied();
    println!("{:?}", o + 1); // <-
}
