#[derive(Debug, Default)]
struct Config {
    retries: i64,
    name: String,
    verbose: bool,
    tags: Vec<String>,
    limit: Option<i64>,
}
fn main() {
    let c: Config = Default::default();
    println!("{:?}", c);
    let d = Config { retries: 3, ..Default::default() };
    println!("{}", d.retries);
    println!("{}", d.tags.len());
    let n: i64 = Default::default();
    println!("{}", n);
}
