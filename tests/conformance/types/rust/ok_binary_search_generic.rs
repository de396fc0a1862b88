fn bsearch<T: Ord>(v: Vec<T>, x: T) -> Result<i64, i64> {
    let mut lo = 0;
    let mut hi = v.len();
    while lo < hi {
        let mid = (lo + hi) / 2;
        if v[mid] == x { return Ok(mid as i64) }
        if v[mid] < x { lo = mid + 1 } else { hi = mid }
    }
    Err(lo as i64)
}
fn main() {
    let v = vec![1, 3, 5, 7, 9];
    println!("{:?}", bsearch(v.clone(), 7));
    println!("{:?}", bsearch(v, 4));
    println!("{:?}", bsearch(vec!["ant", "bee", "cat"], "bee"));
    println!("{:?}", bsearch(vec!["ant", "bee", "cat"], "zebra"));
}
