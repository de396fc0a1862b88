// Range slicing: &v[a..b], &v[..m], &v[m..], &v[..], &v[a..=b], v[1..].iter(), &s[a..b] by bytes.
fn sum(v: &[i64]) -> i64 { v.iter().sum() }
fn main() {
    let v = vec![1, 2, 3, 4, 5, 6];
    println!("{:?} {:?} {:?} {:?} {:?}", &v[1..3], &v[..2], &v[4..], &v[..], &v[1..=2]);
    println!("{}", sum(&v[2..]));
    let w: Vec<i64> = v[1..].iter().map(|x| x * 10).collect();
    println!("{:?}", w);
    let s = "héllo world";
    println!("[{}] [{}] [{}] [{}]", &s[0..1], &s[1..3], &s[7..], &s[..6]);
    let t = String::from("abcdef");
    let u = &t[2..4];
    println!("{} {}", u, u.len());
    println!("{:?}", &v[6..]);
    let e: &[i64] = &v[3..3];
    println!("{:?}", e);
}
