fn main() {
    let rows: Vec<Option<(&str, Vec<i64>)>> = vec![Some(("a", vec![1, 2])), None, Some(("b", vec![10]))];
    let mut totals: Vec<(&str, i64)> = Vec::new();
    for r in rows {
        if let Some((name, xs)) = r {
            totals.push((name, xs.iter().sum()));
        }
    }
    println!("{:?}", totals);
    let flat: Vec<i64> = totals.iter().map(|t| t.1).collect();
    println!("{:?}", flat);
}
