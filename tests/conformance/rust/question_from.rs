// `?` converts an error by the caller's `impl From`, and unwrap_err/expect_err.
#[derive(Debug)]
struct Low(i32);

#[derive(Debug)]
enum High {
    Wrapped(Low),
}

impl From<Low> for High {
    fn from(l: Low) -> Self {
        High::Wrapped(l)
    }
}

fn inner(x: i32) -> Result<i32, Low> {
    if x > 0 { Ok(x) } else { Err(Low(x)) }
}

fn outer(x: i32) -> Result<i32, High> {
    let v = inner(x)?;
    let w = inner(v - 5)?;
    Ok(v * 2 + w)
}

fn main() {
    println!("{:?} {:?} {:?}", outer(30), outer(-1), outer(3));
    let e: High = Low(5).into();
    println!("{:?}", e);
    println!("{:?}", inner(-7).unwrap_err());
    println!("{:?}", outer(2).expect_err("should fail"));
    println!("{}", "x".parse::<i32>().unwrap_err());
}
