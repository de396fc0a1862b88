// Dynamic programming: longest common subsequence, edit distance, coin change.
fn lcs(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut dp = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            dp[i][j] = if a[i - 1] == b[j - 1] {
                dp[i - 1][j - 1] + 1
            } else {
                dp[i - 1][j].max(dp[i][j - 1])
            };
        }
    }
    dp[a.len()][b.len()]
}

fn edit(a: &str, b: &str) -> usize {
    let a = a.as_bytes();
    let b = b.as_bytes();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = if a[i - 1] == b[j - 1] { 0 } else { 1 };
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}

fn coins(amount: usize, coins: &[usize]) -> u64 {
    let mut ways = vec![0u64; amount + 1];
    ways[0] = 1;
    for &c in coins {
        for x in c..=amount {
            ways[x] += ways[x - c];
        }
    }
    ways[amount]
}

fn main() {
    println!("{}", lcs("AGGTAB", "GXTXAYB"));
    println!("{}", edit("kitten", "sitting"));
    println!("{}", edit("", "abc"));
    println!("{}", coins(100, &[1, 5, 10, 25, 50]));
}
