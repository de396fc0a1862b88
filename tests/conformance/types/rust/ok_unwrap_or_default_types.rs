fn s(o: Option<String>) -> String { o.unwrap_or_default() }
fn f(o: Option<f64>) -> f64 { o.unwrap_or_default() }
fn v(o: Option<Vec<i64>>) -> Vec<i64> { o.unwrap_or_default() }
fn b(r: Result<bool, String>) -> bool { r.unwrap_or_default() }
fn t(o: Option<(i64, String)>) -> (i64, String) { o.unwrap_or_default() }
fn main() {
    println!("{}", format!("[{}]", s(None)));
    println!("{}", f(None) + 1.0);
    println!("{}", v(None).len());
    println!("{}", b(Err("x".to_string())));
    println!("{:?}", t(None));
    println!("{:?}", t(Some((2, "z".to_string()))));
}
