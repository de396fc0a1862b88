fn pick(c: bool) -> i64 {
    let v = if c { Vec::new() } else { vec![1, 2, 3] };
    v.len() as i64
}
fn double_nonzero(n: i64) -> Option<i64> {
    let r = match n {
        0 => None,
        k => Some(k * 2),
    };
    r
}
fn main() {
    println!("{}", pick(true));
    println!("{}", pick(false));
    println!("{:?}", double_nonzero(0));
    println!("{:?}", double_nonzero(21));
}
