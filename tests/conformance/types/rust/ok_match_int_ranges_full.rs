fn bucket(n: i64) -> &'static str {
    match n {
        i64::MIN..=-1 => "negative",
        0 => "zero",
        1..=9 => "digit",
        10..=i64::MAX => "big",
    }
}
fn both(a: bool, b: bool) -> i64 {
    match (a, b) {
        (true, true) => 3,
        (true, false) => 2,
        (false, true) => 1,
        (false, false) => 0,
    }
}
fn main() {
    for n in [-5, 0, 7, 1000] {
        println!("{}", bucket(n));
    }
    println!("{}", both(true, false) + both(false, true));
}
