// Memoised recursion with a HashMap<u64, u64>; the number of ways to climb stairs.
use std::collections::HashMap;

fn fib(n: u64, memo: &mut HashMap<u64, u64>) -> u64 {
    if n < 2 {
        return n;
    }
    if let Some(&v) = memo.get(&n) {
        return v;
    }
    let v = fib(n - 1, memo) + fib(n - 2, memo);
    memo.insert(n, v);
    v
}

fn stairs(n: usize, steps: &[usize]) -> u64 {
    let mut ways = vec![0u64; n + 1];
    ways[0] = 1;
    for i in 1..=n {
        ways[i] = steps.iter().filter(|&&s| s <= i).map(|&s| ways[i - s]).sum();
    }
    ways[n]
}

fn main() {
    let mut memo = HashMap::new();
    println!("{}", fib(90, &mut memo));
    println!("{}", memo.len());
    println!("{}", stairs(10, &[1, 2]));
    println!("{}", stairs(30, &[1, 3, 5]));
}
