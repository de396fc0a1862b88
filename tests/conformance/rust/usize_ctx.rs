// Lengths, indices, counts and bytes typed by their context, as Rust's usize and u8.
use std::collections::HashMap;

fn search(v: &[i32], target: i32) -> Option<usize> {
    let mut lo = 0usize;
    let mut hi = v.len();
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if v[mid] == target {
            return Some(mid);
        } else if v[mid] < target {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    None
}

fn count_eq(s: &str) -> usize {
    let mut n = 0;
    for c in s.bytes() {
        if c == b'=' {
            n += 1;
        }
    }
    n
}

fn main() {
    let v: Vec<i32> = (0..10).map(|x| x * 2).collect();
    println!("{:?} {:?}", search(&v, 8), search(&v, 9));
    let mut pos: HashMap<i32, usize> = HashMap::new();
    for (i, &x) in v.iter().enumerate() {
        pos.insert(x, i);
    }
    println!("{:?}", pos.get(&6));
    let n: usize = v.len();
    let m: u64 = "hello".len() as u64 + 1;
    let k = "a=b==c".find('=').unwrap();
    let idx: Vec<usize> = (0..n).filter(|i| i % 3 == 0).collect();
    println!("{} {} {} {:?} {}", n, m, k, idx, count_eq("a=b==c"));
    let total: usize = v.iter().filter(|x| **x > 4).count() + n;
    let ones: u32 = 255u8.count_ones();
    let digit: u32 = '7'.to_digit(10).unwrap();
    println!("{} {} {}", total, ones, digit);
    let bytes = "AZ".as_bytes();
    let first: u8 = bytes[0];
    println!("{} {}", first, bytes[1] - b'A');
    let big = n * 1_000_000_000_000_000_000 + 4;
    println!("{}", big);
}
