// Rust twin of ok_deref_iter_values.mty.
fn show(m: &[i64]) -> i64 {
    let mut s = 0;
    for x in m { s += *x }
    s
}

fn words(s: &str) -> i64 {
    s.len() as i64
}

fn bump(m: &mut [i64]) {
    m[0] = m[0] + 1
}

fn main() {
    let v = vec![1i64, 2, 3];
    let big: Vec<i64> = v.iter().filter(|&x| *x > 1).copied().collect();
    println!("{:?}", big);
    let mut s = 0;
    for x in v.iter() { s += *x }
    println!("{}", s);
    let d: Vec<i64> = v.iter().map(|x| *x * 2).collect();
    println!("{:?}", d);
    let c = v.iter().filter(|&&x| x > 1).count();
    println!("{}", c);
    let t: i64 = v.iter().map(|&x| x * 10).sum();
    println!("{}", t);
    let names = ["ab", "c"];
    let lens: Vec<i64> = names.iter().map(|n| n.len() as i64).collect();
    println!("{:?}", lens);
    let mut m = 0;
    for &x in v.iter() { if x > m { m = x } }
    println!("{}", m);
    println!("{}", show(&v));
    println!("{}", words("abc"));
    let mut w = vec![5i64, 6];
    bump(&mut w);
    println!("{:?}", w);
}
