fn wrap_all<T: Clone>(v: Vec<T>) -> Vec<Option<T>> { v.iter().map(|x| Some(x.clone())).collect() }
fn main() {
    let w: Vec<Option<&str>> = wrap_all(vec![1, 2]); // <-
    println!("{:?}", w);
}
