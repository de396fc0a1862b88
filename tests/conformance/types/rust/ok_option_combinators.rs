fn half(n: i64) -> Option<i64> { if n % 2 == 0 { Some(n / 2) } else { None } }
fn main() {
    let s: Option<&str> = Some("hello");
    let n = s.map(|t| t.len() as i64);
    println!("{:?}", n);
    println!("{:?}", n.map(|x| x > 3));
    println!("{:?}", Some(12).and_then(half).and_then(half));
    println!("{:?}", Some(12).and_then(half).and_then(half).and_then(half));
    println!("{}", Some(7).filter(|x| *x > 5).map_or("none".to_string(), |x| format!("got {}", x)));
    let r: Result<i64, String> = None.ok_or("missing".to_string());
    println!("{:?}", r);
}
