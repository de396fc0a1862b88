fn min_opt<T: Ord + Copy>(v: Vec<T>) -> Option<T> {
    let mut best: Option<T> = None;
    for x in v {
        best = match best {
            None => Some(x),
            Some(b) => if x < b { Some(x) } else { Some(b) },
        };
    }
    best
}
fn main() {
    println!("{:?}", min_opt(vec![5, 2, 8]));
    println!("{:?}", min_opt(vec!['z', 'c']));
    let e: Vec<i64> = Vec::new();
    println!("{:?}", min_opt(e));
    println!("{:?}", min_opt(vec!["pear", "apple"]));
}
