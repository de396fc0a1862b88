// Knuth-Morris-Pratt substring search over bytes.
fn prefix_function(p: &[u8]) -> Vec<usize> {
    let mut pi = vec![0; p.len()];
    let mut k = 0;
    for i in 1..p.len() {
        while k > 0 && p[i] != p[k] {
            k = pi[k - 1];
        }
        if p[i] == p[k] {
            k += 1;
        }
        pi[i] = k;
    }
    pi
}

fn find_all(text: &str, pat: &str) -> Vec<usize> {
    let t = text.as_bytes();
    let p = pat.as_bytes();
    let pi = prefix_function(p);
    let mut out = Vec::new();
    let mut k = 0;
    for (i, &c) in t.iter().enumerate() {
        while k > 0 && c != p[k] {
            k = pi[k - 1];
        }
        if c == p[k] {
            k += 1;
        }
        if k == p.len() {
            out.push(i + 1 - k);
            k = pi[k - 1];
        }
    }
    out
}

fn main() {
    println!("{:?}", prefix_function(b"abacaba"));
    println!("{:?}", find_all("abababcabababab", "abab"));
    println!("{:?}", find_all("aaaaa", "aa"));
    println!("{:?}", find_all("hello", "xyz"));
}
