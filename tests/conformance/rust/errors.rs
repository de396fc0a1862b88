// Error handling: a custom error enum, From conversions used by `?`, Option/Result combinators.
use std::num::ParseIntError;

#[derive(Debug)]
enum ConfigError {
    Missing(String),
    BadNumber(ParseIntError),
    OutOfRange { key: String, value: i64 },
}

impl From<ParseIntError> for ConfigError {
    fn from(e: ParseIntError) -> Self {
        ConfigError::BadNumber(e)
    }
}

fn lookup<'a>(pairs: &'a [(&'a str, &'a str)], key: &str) -> Result<&'a str, ConfigError> {
    pairs
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, v)| *v)
        .ok_or_else(|| ConfigError::Missing(key.to_string()))
}

fn port(pairs: &[(&str, &str)]) -> Result<i64, ConfigError> {
    let raw = lookup(pairs, "port")?;
    let n: i64 = raw.trim().parse()?;
    if !(1..=65535).contains(&n) {
        return Err(ConfigError::OutOfRange { key: "port".to_string(), value: n });
    }
    Ok(n)
}

fn describe(r: &Result<i64, ConfigError>) -> String {
    match r {
        Ok(p) => format!("port {}", p),
        Err(ConfigError::Missing(k)) => format!("missing {}", k),
        Err(ConfigError::BadNumber(e)) => format!("bad number: {}", e),
        Err(ConfigError::OutOfRange { key, value }) => format!("{} out of range: {}", key, value),
    }
}

fn main() {
    let cases: Vec<Vec<(&str, &str)>> = vec![
        vec![("host", "a"), ("port", " 8080 ")],
        vec![("host", "a")],
        vec![("port", "80x")],
        vec![("port", "70000")],
        vec![("port", "")],
    ];
    for c in &cases {
        println!("{}", describe(&port(c)));
    }
    let total: Result<Vec<i64>, _> = ["1", "2", "3"].iter().map(|s| s.parse::<i64>()).collect();
    println!("{:?}", total);
    let bad: Result<Vec<i64>, _> = ["1", "x"].iter().map(|s| s.parse::<i64>()).collect();
    println!("{}", bad.is_err());
    let halves: Vec<Option<i32>> = [4, 7, 10].iter().map(|&x| if x % 2 == 0 { Some(x / 2) } else { None }).collect();
    println!("{:?}", halves);
    let all: Option<Vec<i32>> = halves.iter().cloned().collect();
    println!("{:?}", all);
    let v = "42".parse::<u8>().ok().and_then(|x| x.checked_mul(7)).map(|x| x as u32 + 1).unwrap_or_default();
    println!("{}", v);
}
