// Rust twin of ok_shared_ref_params.mty.
enum Sh { Circle(i64), Rect(i64, i64), Empty }
struct P { x: i64, y: i64 }
fn area(s: &Sh) -> i64 {
    match s {
        Sh::Circle(r) => 3 * r * r,
        Sh::Rect(w, h) => w * h,
        Sh::Empty => 0,
    }
}
fn total(v: &Vec<i64>) -> i64 {
    let mut s = 0;
    for x in v {
        s += *x;
    }
    s
}
fn biggest(v: &Vec<i64>) -> i64 {
    let mut b = v[0];
    for &x in v.iter() {
        if x > b {
            b = x;
        }
    }
    b
}
fn norm1(p: &P) -> i64 { p.x.abs() + p.y.abs() }
fn bump(p: &mut P, by: &i64) {
    p.x += *by;
}
fn main() {
    let shapes = vec![Sh::Circle(2), Sh::Rect(3, 4), Sh::Empty];
    let mut sum = 0;
    for s in shapes.iter() {
        sum += area(s);
    }
    println!("{}", sum);
    println!("{}", area(&shapes[1]));
    let v = vec![3, -1, 7, 2];
    println!("{}", total(&v));
    println!("{}", biggest(&v));
    let mut p = P { x: -2, y: 5 };
    bump(&mut p, &10);
    println!("{}", norm1(&p));
}
