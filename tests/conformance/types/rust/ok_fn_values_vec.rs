fn inc(x: i64) -> i64 { x + 1 }
fn dbl(x: i64) -> i64 { x * 2 }
fn main() {
    let steps: Vec<fn(i64) -> i64> = vec![inc, dbl, |x| x - 3, dbl];
    let out = steps.iter().fold(5, |acc, f| f(acc));
    println!("{}", out);
    let names = ["inc", "dbl", "sub3", "dbl"];
    let mut v = 5;
    for (i, f) in steps.iter().enumerate() {
        v = f(v);
        println!("{}", format!("{} -> {}", names[i], v));
    }
}
