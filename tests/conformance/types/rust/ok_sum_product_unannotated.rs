fn total(v: Vec<i64>) -> i64 {
    v.iter().sum()
}
fn fact(n: i64) -> i64 {
    (1..=n).product()
}
fn mean(v: Vec<f64>) -> f64 {
    let s: f64 = v.iter().sum();
    s / (v.len() as f64)
}
fn main() {
    println!("{}", total(vec![4, 5, 6]));
    println!("{}", fact(10));
    println!("{}", mean(vec![1.0, 2.0, 4.5]));
}
