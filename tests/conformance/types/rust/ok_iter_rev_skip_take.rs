fn main() {
    let v: Vec<i64> = (1..=10).rev().skip(2).take(4).collect();
    println!("{:?}", v);
    let w: Vec<i64> = (0..20).step_by(5).chain(v.iter().map(|x| x * 100)).collect();
    println!("{:?}", w);
    let s = w.iter().map(|x| x.to_string()).collect::<Vec<String>>().join(",");
    println!("{}", s);
}
