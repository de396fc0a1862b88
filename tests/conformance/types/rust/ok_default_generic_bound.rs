#[derive(Debug, Default, Clone)]
struct Stats { count: i64, mean: f64 }
fn pad<T: Default + Clone>(v: Vec<T>, n: usize) -> Vec<T> {
    let mut out = v.clone();
    while out.len() < n {
        out.push(T::default());
    }
    out
}
fn fresh<T: Default>() -> T { Default::default() }
fn main() {
    println!("{:?}", pad(vec![1, 2], 4));
    println!("{:?}", pad(vec!["a".to_string()], 3));
    println!("{:?}", pad(vec![Stats { count: 2, mean: 1.5 }], 2));
    let v: Vec<i64> = fresh();
    println!("{}", v.len());
    let s: String = fresh();
    println!("{}", s.is_empty());
}
