fn map_vec<T, U>(v: Vec<T>, f: fn(T) -> U) -> Vec<U> {
    let mut out = Vec::new();
    for x in v { out.push(f(x)) }
    out
}
fn len_of(s: &str) -> i64 { s.len() as i64 }
fn main() {
    let v: Vec<&str> = map_vec(vec!["ab"], len_of); // <-
    println!("{:?}", v);
}
