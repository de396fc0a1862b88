#[derive(Debug, Clone)]
struct P { x: i64 }
fn id<T>(x: T) -> T { x }
fn pair<A, B>(a: A, b: B) -> (A, B) { (a, b) }
fn inc(x: i64) -> i64 { x + 1 }
fn main() {
    println!("{}", id(1) + 1);
    println!("{}", id(1.5) * 2.0);
    println!("{}", id("s").len());
    println!("{}", id('c'));
    println!("{}", !id(false));
    println!("{}", id((1, "a")).1);
    println!("{}", id(vec![1, 2]).len());
    println!("{}", id(Some(3)).unwrap());
    println!("{}", id(P { x: 4 }).x);
    println!("{}", id(inc)(5));
    let deep = pair(pair(pair(pair(1, "a"), 2.5), 'z'), vec![true]);
    println!("{:?}", deep);
    println!("{}", (((deep.0).0).0).1.len() as i64 + (((deep.0).0).0).0);
}
