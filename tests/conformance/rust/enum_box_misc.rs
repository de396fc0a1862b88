// Recursive enums in Box, use Enum::* (also inside a function), Default, parse, into, Box<dyn Trait>, None::<T>.
#[derive(Debug)]
enum Expr {
    Num(i64),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
}
use Expr::*;

fn eval(e: &Expr) -> i64 {
    match e {
        Num(n) => *n,
        Add(a, b) => eval(a) + eval(b),
        Mul(a, b) => eval(a) * eval(b),
    }
}

#[derive(Debug, Default, Clone, PartialEq)]
struct Config {
    name: String,
    retries: u32,
    verbose: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Light {
    Red,
    Green,
}
#[derive(Debug, Clone, Copy, PartialEq)]
enum Suit {
    Red,
    Black,
}

fn light_name(l: Light) -> &'static str {
    use Light::*;
    match l {
        Red => "stop",
        Green => "go",
    }
}

fn suit_of(n: u32) -> Suit {
    use Suit::Black;
    if n % 2 == 0 { Suit::Red } else { Black }
}

trait Shape {
    fn area(&self) -> f64;
}
struct Sq(f64);
struct Circle(f64);
impl Shape for Sq {
    fn area(&self) -> f64 { self.0 * self.0 }
}
impl Shape for Circle {
    fn area(&self) -> f64 { 3.0 * self.0 * self.0 }
}

fn main() {
    let e = Add(Box::new(Num(2)), Box::new(Mul(Box::new(Num(3)), Box::new(Num(4)))));
    println!("{} {:?}", eval(&e), e);
    let c = Config::default();
    println!("{:?}", c);
    let c2 = Config { retries: 3, ..Default::default() };
    println!("{:?} {}", c2, c == c2);
    let n: i64 = "42".parse().unwrap();
    let m = "17".parse::<u32>().unwrap();
    let f: f64 = "2.5".parse().unwrap();
    let bad = "x1".parse::<i32>().is_err();
    println!("{} {} {} {}", n, m, f, bad);
    let s: String = "hi".into();
    let big: i64 = 7i32.into();
    let x: f64 = 3i32.into();
    println!("{} {} {}", s, big, x);
    let shapes: Vec<Box<dyn Shape>> = vec![Box::new(Sq(2.0)), Box::new(Circle(1.0))];
    let total: f64 = shapes.iter().map(|s| s.area()).sum();
    println!("{}", total);
    let none = None::<i32>;
    println!("{:?} {}", none, none.unwrap_or(5));
    println!("{} {} {:?} {:?}", light_name(Light::Red), light_name(Light::Green), suit_of(2), suit_of(3));
    let t = String::from("abc");
    let u = t.clone() + "def";
    println!("{} {}", u, u.len());
}
