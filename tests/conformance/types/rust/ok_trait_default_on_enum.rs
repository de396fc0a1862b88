trait Priced {
    fn cents(&self) -> i64;
    fn label(&self) -> String { format!("{}.{:02}", self.cents() / 100, self.cents() % 100) }
}
enum Coin { Penny, Quarter }
struct Bill { dollars: i64 }
impl Priced for Coin {
    fn cents(&self) -> i64 {
        match self {
            Coin::Penny => 1,
            Coin::Quarter => 25,
        }
    }
}
impl Priced for Bill { fn cents(&self) -> i64 { self.dollars * 100 } }
fn sum_label<T: Priced>(xs: Vec<T>) -> i64 { xs.iter().map(|x| x.cents()).sum() }
fn main() {
    println!("{}", Coin::Quarter.label());
    println!("{}", Bill { dollars: 5 }.label());
    println!("{}", sum_label(vec![Coin::Penny, Coin::Quarter, Coin::Quarter]));
}
