// 0/1 knapsack and the longest increasing subsequence (n log n with partition_point).
fn knapsack(items: &[(usize, u64)], cap: usize) -> u64 {
    let mut best = vec![0u64; cap + 1];
    for &(w, v) in items {
        for c in (w..=cap).rev() {
            best[c] = best[c].max(best[c - w] + v);
        }
    }
    best[cap]
}

fn lis(v: &[i32]) -> usize {
    let mut tails: Vec<i32> = Vec::new();
    for &x in v {
        let i = tails.partition_point(|&t| t < x);
        if i == tails.len() {
            tails.push(x);
        } else {
            tails[i] = x;
        }
    }
    tails.len()
}

fn main() {
    let items = [(12, 4), (2, 2), (1, 1), (1, 2), (4, 10)];
    println!("{}", knapsack(&items, 15));
    println!("{}", knapsack(&items, 3));
    println!("{}", lis(&[10, 9, 2, 5, 3, 7, 101, 18]));
    println!("{}", lis(&[0, 1, 0, 3, 2, 3]));
}
