// Rust's full std paths of built-in things: std::cmp, std::collections, std::mem, std::i64.
use std::cmp::Ordering;

#[derive(Debug, Default)]
struct Buf {
    items: Vec<i32>,
    name: String,
}

fn main() {
    println!("{} {} {}", std::cmp::max(3, 9), std::cmp::min(3, 9), std::cmp::max(-4i64, -4));
    let o = std::cmp::Ordering::Less;
    println!("{:?} {:?}", o, 5.cmp(&2) == Ordering::Greater);
    let v = vec![std::cmp::Reverse(3), std::cmp::Reverse(7), std::cmp::Reverse(1)];
    println!("{:?} {}", v.iter().map(|r| r.0).collect::<Vec<_>>(), std::cmp::Reverse(2) < std::cmp::Reverse(1));
    let mut m: std::collections::HashMap<i32, i32> = std::collections::HashMap::new();
    m.insert(1, 2);
    println!("{}", m.len());
    let mut a = 1;
    let mut b = 2;
    std::mem::swap(&mut a, &mut b);
    println!("{} {} {} {}", a, b, std::i64::MAX, std::u8::MAX);
    let mut buf = Buf { items: vec![1, 2, 3], name: "first".to_string() };
    let old = std::mem::take(&mut buf.items);
    let old_name = std::mem::replace(&mut buf.name, "second".to_string());
    println!("{:?} {:?} {} {:?}", old, buf.items, old_name, buf);
    let mut grid = vec![vec![1, 2], vec![3, 4]];
    let row = std::mem::take(&mut grid[0]);
    println!("{:?} {:?}", row, grid);
}
