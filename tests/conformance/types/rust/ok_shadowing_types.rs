fn main() {
    let x = "12";
    let x: i64 = x.parse().unwrap();
    let x = x as f64 / 8.0;
    println!("{}", x);
    let x = format!("{}", x).chars().collect::<Vec<char>>();
    println!("{:?}", x);
    println!("{}", x.len());
}
