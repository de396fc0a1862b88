fn main() {
    let lens = ["a", "bbb", "cc"].iter().map(|s| s.len() as i64).collect::<Vec<i64>>();
    println!("{:?}", lens);
    let s = ['h', 'i'].iter().collect::<String>();
    println!("{}", s);
    println!("{}", s.len() + lens.len());
}
