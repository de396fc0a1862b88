enum Color { Red, Green }
enum Size { Small, Large }
fn f(c: Color) -> i64 {
    match c {
        Color::Red => 1,
        Size::Small => 2, // <-
        _ => 0,
    }
}
fn main() { println!("{}", f(Color::Green)); let _ = Size::Large; }
