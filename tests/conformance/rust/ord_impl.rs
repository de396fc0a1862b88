// A type ordered by its own impl Ord (by version, newest first): sort, max, min, <, sort_by_key with Reverse.
use std::cmp::{Ordering, Reverse};

#[derive(Debug, Clone, PartialEq, Eq)]
struct Release {
    name: String,
    major: u32,
    minor: u32,
}

impl Ord for Release {
    fn cmp(&self, other: &Self) -> Ordering {
        other.major.cmp(&self.major).then(other.minor.cmp(&self.minor))
    }
}

impl PartialOrd for Release {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

fn rel(name: &str, major: u32, minor: u32) -> Release {
    Release { name: name.to_string(), major, minor }
}

fn main() {
    let mut v = vec![rel("b", 1, 2), rel("a", 2, 0), rel("c", 1, 10), rel("d", 0, 9)];
    v.sort();
    println!("{:?}", v.iter().map(|r| r.name.as_str()).collect::<Vec<_>>());
    println!("{:?}", v.iter().max().map(|r| &r.name));
    println!("{:?}", v.iter().min().map(|r| &r.name));
    println!("{} {}", rel("x", 3, 0) < rel("y", 2, 0), rel("x", 1, 1) >= rel("y", 1, 1));
    let mut w = vec![5, 1, 4];
    w.sort_by_key(|&x| Reverse(x));
    let mut names = vec!["bob", "al", "christine"];
    names.sort_by_key(|n| Reverse(n.len()));
    println!("{:?} {:?}", w, names);
    let mut rs = vec![Reverse(2), Reverse(9), Reverse(4)];
    rs.sort();
    println!("{:?}", rs.iter().map(|r| r.0).collect::<Vec<_>>());
}
