trait Monoid {
    fn empty() -> Self;
    fn combine(self, other: Self) -> Self;
    fn twice(self) -> Self where Self: Clone + Sized { self.clone().combine(self) }
}
impl Monoid for i64 {
    fn empty() -> i64 { 0 }
    fn combine(self, other: i64) -> i64 { self + other }
}
impl Monoid for String {
    fn empty() -> String { String::new() }
    fn combine(self, other: String) -> String { self + &other }
}
#[derive(Clone, Debug)]
struct MaxI { v: i64 }
impl Monoid for MaxI {
    fn empty() -> MaxI { MaxI { v: i64::MIN } }
    fn combine(self, other: MaxI) -> MaxI { if self.v >= other.v { self } else { other } }
}
fn concat_all<T: Monoid + Clone>(xs: Vec<T>) -> T {
    let mut acc = T::empty();
    for x in xs {
        acc = acc.combine(x);
    }
    acc
}
fn main() {
    println!("{}", concat_all(vec![1i64, 2, 3]));
    println!("{}", concat_all(vec!["a".to_string(), "b".to_string(), "c".to_string()]));
    println!("{:?}", concat_all(vec![MaxI { v: 4 }, MaxI { v: 9 }, MaxI { v: 2 }]));
    println!("{}", concat_all(Vec::<i64>::new()));
    println!("{}", 5i64.twice());
}
