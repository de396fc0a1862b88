#[derive(Debug, Clone)]
struct Pair<A, B> { a: A, b: B }
impl<A: Clone, B: Clone> Pair<A, B> {
    fn swap(&self) -> Pair<B, A> { Pair { a: self.b.clone(), b: self.a.clone() } }
}
fn firsts<A: Clone, B>(v: Vec<Pair<A, B>>) -> Vec<A> { v.iter().map(|p| p.a.clone()).collect() }
fn main() {
    let p = Pair { a: 1, b: "one" };
    println!("{:?}", p.swap());
    println!("{}", p.swap().swap().a + 1);
    println!("{:?}", firsts(vec![Pair { a: 'x', b: 1.5 }, Pair { a: 'y', b: 2.5 }]));
}
