fn total(xs: Vec<&str>) -> Result<i64, String> {
    let mut t = 0;
    for x in xs {
        let n: i64 = match x.parse() {
            Ok(v) => v,
            Err(_) => return Err(format!("bad number: {}", x)),
        };
        t += n;
    }
    Ok(t)
}
fn main() {
    let b: bool = "true".parse().unwrap();
    println!("{}", b);
    println!("{}", "yes".parse::<bool>().is_err());
    let c = "x".parse::<char>().unwrap();
    println!("{}", c);
    println!("{}", "xy".parse::<char>().is_err());
    println!("{}", "".parse::<char>().is_err());
    let f: f64 = "0.25".parse().unwrap();
    println!("{}", f * 4.0);
    let s: String = "same".parse().unwrap();
    println!("{}", s);
    let small = "200".parse::<u8>().unwrap();
    println!("{}", small);
    let wide: u64 = "9000".parse().unwrap();
    println!("{}", wide + 1);
    println!("{:?}", total(vec!["1", "2", "39"]));
    println!("{:?}", total(vec!["1", "two"]));
    println!("{}", "12a".parse::<i64>().is_err());
}
