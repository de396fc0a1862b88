struct Celsius { deg: f64 }
impl From<f64> for Celsius {
    fn from(d: f64) -> Celsius { Celsius { deg: d } }
}
fn show(c: Celsius) -> String { format!("{}C", c.deg) }
fn widen(x: i32) -> i64 { x.into() }
fn main() {
    let small: i32 = 40;
    let big: i64 = small.into();
    println!("{}", big + 2);
    println!("{}", widen(7));
    let s: String = "owned".into();
    println!("{}", s);
    let c: Celsius = 21.5.into();
    println!("{}", show(c));
    println!("{}", show(Celsius::from(3.0)));
}
