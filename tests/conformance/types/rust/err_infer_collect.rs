fn main() {
    let v = vec![1, 2, 3];
    let c = v.iter().map(|x| x * 2).collect(); // <-
    println!("{}", c.len());
}
