// Binary search written by hand and with the library, on sorted data.
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

fn main() {
    let v: Vec<i32> = (0..20).map(|x| x * 3).collect();
    for t in [0, 9, 10, 57, 60] {
        match search(&v, t) {
            Some(i) => println!("{} found at {}", t, i),
            None => println!("{} not found", t),
        }
    }
    println!("{:?}", v.binary_search(&27));
    println!("{:?}", v.binary_search(&28));
}
