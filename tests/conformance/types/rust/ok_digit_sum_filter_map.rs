fn main() {
    let s = "a1b22c333";
    let total: i64 = s.chars().filter_map(|c| c.to_digit(10)).map(|d| d as i64).sum();
    println!("{}", total);
    let n = s.chars().filter(|c| c.is_alphabetic()).count();
    println!("{}", n);
    let digits: Vec<i64> = s.chars().filter_map(|c| c.to_digit(10)).map(|d| d as i64).collect();
    println!("{:?}", digits);
}
