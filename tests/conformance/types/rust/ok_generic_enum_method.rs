#[derive(Debug)]
enum Maybe<T> { Just(T), Nothing }
impl<T> Maybe<T> {
    fn map<U>(self, f: fn(T) -> U) -> Maybe<U> {
        match self {
            Maybe::Just(x) => Maybe::Just(f(x)),
            Maybe::Nothing => Maybe::Nothing,
        }
    }
    fn or(self, d: T) -> T {
        match self {
            Maybe::Just(x) => x,
            Maybe::Nothing => d,
        }
    }
}
fn main() {
    let a = Maybe::Just(20);
    println!("{:?}", a.map(|x| x + 1));
    let b: Maybe<&str> = Maybe::Nothing;
    println!("{}", b.map(|s| s.len() as i64).or(-1));
    println!("{}", Maybe::Just("abc").map(|s| s.len()).or(0));
}
