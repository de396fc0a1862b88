// &mut references into collections: iter_mut, get_mut, first_mut, last_mut,
// values_mut, Option::as_mut, and zip/enumerate over iter_mut.
use std::collections::HashMap;

fn scale(v: &mut Vec<i64>, k: i64) {
    for x in v.iter_mut() {
        *x *= k;
    }
}

fn main() {
    let mut v = vec![1, 2, 3, 4];
    scale(&mut v, 10);
    for x in v.iter_mut() {
        *x += 1;
    }
    println!("{:?}", v);
    let mut grid = vec![vec![0; 3]; 2];
    for (r, row) in grid.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = r * 3 + c;
        }
        row.push(99);
    }
    println!("{:?}", grid);
    if let Some(x) = v.get_mut(1) {
        *x = -5;
    }
    *v.last_mut().unwrap() += 1000;
    *v.first_mut().unwrap() -= 1;
    println!("{:?} {}", v, v.get(9).is_none());
    let mut totals = vec![0; 3];
    for row in [[1, 2, 3], [4, 5, 6]] {
        for (t, n) in totals.iter_mut().zip(row.iter()) {
            *t += n;
        }
    }
    println!("{:?}", totals);
    let mut m: HashMap<String, i32> = HashMap::new();
    m.insert("a".to_string(), 1);
    m.insert("b".to_string(), 2);
    for val in m.values_mut() {
        *val *= 10;
    }
    if let Some(x) = m.get_mut("a") {
        *x += 1;
    }
    let mut pairs: Vec<(String, i32)> = m.into_iter().collect();
    pairs.sort();
    println!("{:?}", pairs);
    let mut o = Some(3);
    if let Some(x) = o.as_mut() {
        *x *= 7;
    }
    let mut empty: Vec<i32> = Vec::new();
    println!("{:?} {:?}", o, empty.last_mut());
    println!("{:?}", empty.first_mut());
}
