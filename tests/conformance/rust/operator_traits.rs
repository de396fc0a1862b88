// Operator traits (Add, Sub, Neg, AddAssign, PartialEq), Display and Debug impls, write!/writeln! into a Formatter and a String, to_string().
use std::fmt;
use std::fmt::Write;
use std::ops::{Add, AddAssign, Neg, Sub};

#[derive(Debug, Clone, Copy, PartialEq)]
struct V { x: i64, y: i64 }

impl Add for V { type Output = V; fn add(self, o: V) -> V { V { x: self.x + o.x, y: self.y + o.y } } }
impl Sub for V { type Output = Self; fn sub(self, o: Self) -> Self::Output { V { x: self.x - o.x, y: self.y - o.y } } }
impl Neg for V { type Output = V; fn neg(self) -> V { V { x: -self.x, y: -self.y } } }
impl AddAssign for V { fn add_assign(&mut self, o: V) { self.x += o.x; self.y += o.y; } }
impl fmt::Display for V {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "<{}, {}>", self.x, self.y) }
}
struct Name(String);
impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "Name:")?; write!(f, "{}", self.0) }
}
impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { writeln!(f, "[{}]", self.0) }
}

fn main() {
    let a = V { x: 1, y: 2 };
    let b = V { x: 10, y: 20 };
    println!("{} {} {}", a + b, b - a, -a);
    let mut c = a;
    c += b;
    c += b;
    println!("{} {:?} {}", c, c, c == V { x: 21, y: 42 });
    println!("{}", a != b);
    let s = a.to_string();
    println!("{} {}", s, s.len());
    let n = Name("ann".to_string());
    print!("{}", n);
    println!("{:?}", n);
    let mut out = String::new();
    write!(out, "{}-{}", 1, 2).unwrap();
    writeln!(out, "!").unwrap();
    write!(&mut out, "{}", a).unwrap();
    println!("{:?}", out);
    println!("[{:>10}]", a);
}
