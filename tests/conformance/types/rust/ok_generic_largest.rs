fn largest<T: PartialOrd + Copy>(v: Vec<T>) -> T {
    let mut best = v[0];
    for x in v {
        if x > best {
            best = x;
        }
    }
    best
}
fn main() {
    println!("{}", largest(vec![3, 9, 2]));
    println!("{}", largest(vec![1.5, -2.0, 0.5]));
    println!("{}", largest(vec!['q', 'z', 'a']));
}
