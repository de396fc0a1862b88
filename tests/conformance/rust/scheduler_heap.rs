// A task scheduler with a BinaryHeap of structs ordered by a custom Ord.
use std::cmp::Ordering;
use std::collections::BinaryHeap;

#[derive(Debug, PartialEq, Eq)]
struct Task {
    priority: u32,
    id: u32,
    name: String,
}

impl Ord for Task {
    fn cmp(&self, other: &Self) -> Ordering {
        self.priority.cmp(&other.priority).then_with(|| other.id.cmp(&self.id))
    }
}

impl PartialOrd for Task {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

fn main() {
    let mut heap = BinaryHeap::new();
    let specs = [(2, "write"), (5, "deploy"), (2, "test"), (9, "fix"), (5, "review")];
    for (i, (p, n)) in specs.iter().enumerate() {
        heap.push(Task { priority: *p, id: i as u32, name: n.to_string() });
    }
    println!("peek {:?}", heap.peek().map(|t| &t.name));
    while let Some(t) = heap.pop() {
        println!("{} {} {}", t.priority, t.id, t.name);
    }
    let mut nums = BinaryHeap::from(vec![3, 1, 4, 1, 5, 9, 2, 6]);
    nums.push(7);
    println!("{:?}", nums.into_sorted_vec());
}
