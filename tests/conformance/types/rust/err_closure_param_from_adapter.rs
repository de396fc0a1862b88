fn main() {
    let v = vec![10i64, 200];
    let lens: Vec<i64> = v.iter().map(|x| x.len()).collect(); // <-
    println!("{:?}", lens);
}
