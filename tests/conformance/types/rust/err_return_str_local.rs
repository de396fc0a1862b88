fn total() -> i64 {
    let s = "sum";
    s // <-
}
fn main() { println!("{}", total()) }
