fn read_num(s: &str) -> Option<i64> {
    s.trim().parse().ok()
}
fn main() {
    let a = "42".parse::<i64>().unwrap();
    let b: i64 = "-7".parse().unwrap();
    let c: f64 = "2.5".parse().unwrap();
    println!("{}", a + b);
    println!("{}", c * 2.0);
    println!("{}", read_num(" 19 ").unwrap());
    println!("{}", read_num("x1").is_none());
}
