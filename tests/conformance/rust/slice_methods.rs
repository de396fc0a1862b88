// Vec and slice methods: swap, fill, truncate, resize, rotations, split_at,
// binary_search, partition_point, windows, chunks, dedup, extend_from_slice.
fn main() {
    let mut v: Vec<i64> = Vec::with_capacity(8);
    v.extend_from_slice(&[5, 1, 4, 1, 5, 9, 2, 6]);
    v.swap(0, 7);
    println!("{:?}", v);
    v.rotate_left(3);
    println!("{:?}", v);
    v.rotate_right(1);
    println!("{:?}", v);
    let (a, b) = v.split_at(3);
    println!("{:?} {:?}", a, b);
    v.sort_unstable();
    println!("{:?}", v);
    println!("{:?} {:?} {:?}", v.binary_search(&5), v.binary_search(&3), v.binary_search(&100));
    println!("{}", v.partition_point(|&x| x < 5));
    v.dedup();
    println!("{:?}", v);
    v.truncate(4);
    v.resize(6, 0);
    println!("{:?}", v);
    v.fill(7);
    println!("{:?}", v);
    let w: Vec<i64> = (1..=6).collect();
    let sums: Vec<i64> = w.windows(2).map(|p| p[0] * p[1]).collect();
    println!("{:?} {:?}", sums, w.chunks(4).collect::<Vec<_>>());
    let words = vec!["b", "a", "c"];
    let mut sorted = words.clone();
    sorted.sort_unstable_by(|x, y| y.cmp(x));
    println!("{:?} {:?}", sorted, [[1, 2], [3, 4]].concat());
    let mut people = vec![("bo", 30), ("al", 25), ("cy", 30)];
    people.sort_unstable_by_key(|p| p.1);
    println!("{:?}", people);
    println!("{:?} {:?}", w.iter().rev().nth(1), w.last());
}
