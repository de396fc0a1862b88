// Generic functions with trait bounds, a generic struct with impl blocks, trait default methods.
use std::fmt::Debug;

fn largest<T: PartialOrd + Copy>(v: &[T]) -> T {
    let mut best = v[0];
    for &x in v {
        if x > best {
            best = x;
        }
    }
    best
}

#[derive(Debug, Clone)]
struct Pair<T> {
    a: T,
    b: T,
}

impl<T: PartialOrd + Debug + Clone> Pair<T> {
    fn new(a: T, b: T) -> Self {
        Pair { a, b }
    }
    fn bigger(&self) -> T {
        if self.a > self.b { self.a.clone() } else { self.b.clone() }
    }
    fn swap(self) -> Pair<T> {
        Pair { a: self.b, b: self.a }
    }
}

trait Describe {
    fn name(&self) -> String;
    fn describe(&self) -> String {
        format!("<{}>", self.name())
    }
}

struct Dog;
struct Robot {
    id: u32,
}

impl Describe for Dog {
    fn name(&self) -> String {
        "dog".to_string()
    }
}

impl Describe for Robot {
    fn name(&self) -> String {
        format!("robot-{}", self.id)
    }
    fn describe(&self) -> String {
        format!("[{}]", self.name())
    }
}

fn show_all(items: &[&dyn Describe]) -> Vec<String> {
    items.iter().map(|d| d.describe()).collect()
}

fn print_twice<T: Debug>(x: T) {
    println!("{:?} {:?}", x, x);
}

fn main() {
    println!("{}", largest(&[3, 9, 2, 7]));
    println!("{}", largest(&[1.5, -2.0, 0.25]));
    println!("{}", largest(&['x', 'b', 'z', 'a']));
    let p = Pair::new(4, 11);
    println!("{} {:?}", p.bigger(), p.clone().swap());
    let q = Pair::new("pear".to_string(), "apple".to_string());
    println!("{}", q.bigger());
    let d = Dog;
    let r = Robot { id: 7 };
    println!("{:?}", show_all(&[&d, &r]));
    print_twice(vec![1, 2]);
    print_twice(("a", 3));
    let words = vec!["delta", "alpha", "charlie"];
    println!("{}", largest(&words));
}
