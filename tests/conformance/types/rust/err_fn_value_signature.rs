fn len_of(s: &str) -> i64 { s.len() as i64 }
fn apply(f: fn(i64) -> i64, x: i64) -> i64 { f(x) }
fn main() {
    println!("{}", apply(len_of, 3)); // <-
}
