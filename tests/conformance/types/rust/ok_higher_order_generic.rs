fn map_vec<T, U>(v: Vec<T>, f: impl Fn(T) -> U) -> Vec<U> {
    let mut out = Vec::new();
    for x in v {
        out.push(f(x));
    }
    out
}
fn apply_n<T>(f: fn(T) -> T, n: i64, x: T) -> T {
    let mut acc = x;
    for _ in 0..n {
        acc = f(acc);
    }
    acc
}
fn compose_apply<A, B, C>(f: fn(A) -> B, g: fn(B) -> C, x: A) -> C { g(f(x)) }
fn len_of(s: &str) -> i64 { s.len() as i64 }
fn main() {
    println!("{:?}", map_vec(vec!["a", "bcd"], len_of));
    println!("{:?}", map_vec(vec![1, 2, 3], |x| x % 2 == 0));
    println!("{}", apply_n(|x| x * 3, 4, 1));
    println!("{}", apply_n(|s: String| s + "!", 2, "hey".to_string()));
    println!("{}", compose_apply(len_of, |n| n as f64 / 2.0, "abcde"));
}
