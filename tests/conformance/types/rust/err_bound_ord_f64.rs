fn biggest<T: Ord + Copy>(v: Vec<T>) -> T {
    let mut b = v[0];
    for x in v { if x > b { b = x } }
    b
}
fn main() {
    println!("{}", biggest(vec![1.5, 2.5])); // <-
}
