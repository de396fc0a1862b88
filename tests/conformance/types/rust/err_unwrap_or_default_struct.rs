struct P { x: i64 }
fn get(o: Option<P>) -> P {
    o.unwrap_or_default() // <-
}
fn main() { println!("{}", get(None).x) }
