// BinaryHeap: a max-heap by Ord, Reverse for a min-heap, a custom Ord.
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

#[derive(Debug, PartialEq, Eq)]
struct Job {
    pri: i64,
    name: String,
}

impl Ord for Job {
    fn cmp(&self, other: &Self) -> Ordering {
        if self.pri < other.pri {
            Ordering::Less
        } else if self.pri > other.pri {
            Ordering::Greater
        } else if self.name.len() > other.name.len() {
            Ordering::Less
        } else if self.name.len() < other.name.len() {
            Ordering::Greater
        } else {
            Ordering::Equal
        }
    }
}

impl PartialOrd for Job {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

fn main() {
    let mut h = BinaryHeap::new();
    for x in [5, 1, 8, 3, 9, 2] {
        h.push(x);
    }
    println!("{:?} {} {:?}", h.peek(), h.len(), h);
    let mut out = Vec::new();
    while let Some(x) = h.pop() {
        out.push(x);
    }
    println!("{:?} {:?} {}", out, h.pop(), h.is_empty());
    let mut m = BinaryHeap::new();
    for (d, n) in [(4, 'a'), (1, 'b'), (7, 'c'), (1, 'a')] {
        m.push(Reverse((d, n)));
    }
    println!("{:?}", m.peek());
    while let Some(Reverse((d, n))) = m.pop() {
        print!("{}{} ", d, n);
    }
    println!();
    let mut jobs = BinaryHeap::new();
    jobs.push(Job { pri: 2, name: "b".to_string() });
    jobs.push(Job { pri: 5, name: "long".to_string() });
    jobs.push(Job { pri: 5, name: "x".to_string() });
    jobs.push(Job { pri: 1, name: "a".to_string() });
    println!("{:?}", jobs.peek().map(|j| j.name.clone()));
    while let Some(j) = jobs.pop() {
        println!("{} {}", j.pri, j.name);
    }
    let v = BinaryHeap::from(vec![3, 1, 4, 1, 5, 9, 2, 6]);
    println!("{:?}", v.clone().into_vec());
    println!("{:?}", v.into_sorted_vec());
    let mut w: BinaryHeap<(u32, &str)> = vec![(2, "b"), (2, "a"), (3, "z")].into_iter().collect();
    w.extend(vec![(1, "q")]);
    println!("{:?} {:?}", w.pop(), w.into_sorted_vec());
    let r: Vec<Reverse<i32>> = BinaryHeap::from(vec![Reverse(3), Reverse(1)]).into_sorted_vec();
    println!("{:?}", r);
}
