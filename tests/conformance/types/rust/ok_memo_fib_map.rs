use std::collections::HashMap;
fn fib(n: i64, memo: &mut HashMap<i64, u64>) -> u64 {
    if n < 2 { return 1 }
    if let Some(v) = memo.get(&n) { return *v }
    let r = fib(n - 1, memo) + fib(n - 2, memo);
    memo.insert(n, r);
    r
}
fn main() {
    let mut memo = HashMap::new();
    println!("{}", fib(10, &mut memo));
    println!("{}", fib(90, &mut memo));
    println!("{}", memo.len());
}
