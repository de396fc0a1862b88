// Classic array problems: two-sum with a HashMap, merging intervals, max subarray.
use std::collections::HashMap;

fn two_sum(v: &[i32], target: i32) -> Option<(usize, usize)> {
    let mut seen: HashMap<i32, usize> = HashMap::new();
    for (i, &x) in v.iter().enumerate() {
        if let Some(&j) = seen.get(&(target - x)) {
            return Some((j, i));
        }
        seen.insert(x, i);
    }
    None
}

fn merge(mut iv: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
    iv.sort();
    let mut out: Vec<(i32, i32)> = Vec::new();
    for (s, e) in iv {
        if let Some(last) = out.last_mut() {
            if s <= last.1 {
                last.1 = last.1.max(e);
                continue;
            }
        }
        out.push((s, e));
    }
    out
}

fn max_subarray(v: &[i64]) -> i64 {
    let mut best = v[0];
    let mut cur = v[0];
    for &x in &v[1..] {
        cur = x.max(cur + x);
        best = best.max(cur);
    }
    best
}

fn main() {
    println!("{:?}", two_sum(&[2, 7, 11, 15], 9));
    println!("{:?}", two_sum(&[3, 2, 4], 6));
    println!("{:?}", two_sum(&[1, 2], 7));
    println!("{:?}", merge(vec![(1, 3), (8, 10), (2, 6), (15, 18), (17, 20)]));
    println!("{}", max_subarray(&[-2, 1, -3, 4, -1, 2, 1, -5, 4]));
}
