fn get(o: Option<i64>) -> i64 {
    match o { // <-
        Some(x) => x,
    }
}
fn main() { println!("{}", get(None)) }
