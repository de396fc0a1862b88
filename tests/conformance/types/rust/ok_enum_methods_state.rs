#[derive(Debug, Clone, PartialEq)]
enum Light { Red, Green, Yellow }
impl Light {
    fn next(&self) -> Option<Light> {
        match self {
            Light::Red => Some(Light::Green),
            Light::Green => Some(Light::Yellow),
            Light::Yellow => None,
        }
    }
}
fn main() {
    let mut cur = Light::Red;
    let mut steps = 0;
    while let Some(n) = cur.next() {
        cur = n;
        steps += 1;
    }
    println!("{:?}", cur);
    println!("{}", steps);
    println!("{}", matches!(cur, Light::Yellow));
    println!("{}", cur == Light::Red);
}
