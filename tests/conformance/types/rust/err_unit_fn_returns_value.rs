fn f(x: i64) {
    x * 2 // <-
}
fn main() { f(1) }
