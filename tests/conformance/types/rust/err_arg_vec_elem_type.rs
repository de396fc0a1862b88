fn total(v: Vec<i64>) -> i64 { v.iter().sum() }
fn main() {
    let names = vec!["a", "b"];
    println!("{}", total(names)); // <-
}
