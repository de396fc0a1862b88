fn swap<A, B>(p: (A, B)) -> (B, A) { (p.1, p.0) }
fn dup<T: Clone>(x: T) -> (T, T) { (x.clone(), x) }
fn main() {
    let p = swap((1, "one"));
    println!("{}", p.0.len() + p.1);
    let d = dup(vec![1.5]);
    println!("{:?}", d);
    let q = swap(swap(('a', true)));
    println!("{:?}", q);
}
