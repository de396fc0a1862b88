// Rust's views and iterator comparisons: as_ref/as_deref on Option and Result, Iterator::eq, chars().rev(), sort_unstable_by, min_by, into, None::<T>.
fn main() {
    let r: Result<String, String> = Ok("a".to_string());
    let o: Option<String> = Some("b".to_string());
    println!("{:?} {:?} {:?}", r.as_ref().map(|s| s.len()), o.as_ref().map(|s| s.len()), o.as_deref());
    let v = vec![3, 1, 2];
    println!("{} {:?}", v.iter().eq([3, 1, 2].iter()), "abc".chars().rev().collect::<String>());
    let mut w = vec![5, 4, 9];
    w.sort_unstable_by(|a, b| b.cmp(a));
    println!("{:?} {:?}", w, w.iter().min_by(|a, b| a.cmp(b)));
    let x: i64 = 5i32.into();
    println!("{} {:?}", x, None::<i32>);
}
