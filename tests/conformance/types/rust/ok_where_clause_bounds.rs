#[derive(Debug, Clone)]
struct Pt { x: i64, y: i64 }
fn twice_debug<T>(x: T) -> String where T: std::fmt::Debug + Clone {
    let y = x.clone();
    format!("{:?} {:?}", x, y)
}
fn main() {
    println!("{}", twice_debug(Pt { x: 1, y: 2 }));
    println!("{}", twice_debug((1, "a")));
    println!("{}", twice_debug(vec![1.5]));
}
