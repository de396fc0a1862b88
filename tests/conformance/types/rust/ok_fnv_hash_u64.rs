fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 14695981039346656037;
    for b in s.bytes() {
        h = (h ^ (b as u64)).wrapping_mul(1099511628211);
    }
    h
}
fn main() {
    println!("{}", fnv1a(""));
    println!("{}", fnv1a("a"));
    println!("{}", fnv1a("mighty"));
    println!("{}", fnv1a("mighty") % 1000);
}
