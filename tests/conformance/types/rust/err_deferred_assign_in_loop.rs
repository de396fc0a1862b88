fn main() {
    let x: i64;
    for i in 0..3 {
        x = i; // <-
    }
}
