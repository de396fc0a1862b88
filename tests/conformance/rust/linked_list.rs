// A singly linked list with Option<Box<Node>>: push, pop, reverse, iterate.
struct Node {
    val: i32,
    next: Option<Box<Node>>,
}

struct List {
    head: Option<Box<Node>>,
    len: usize,
}

impl List {
    fn new() -> Self {
        List { head: None, len: 0 }
    }
    fn push(&mut self, v: i32) {
        let old = self.head.take();
        self.head = Some(Box::new(Node { val: v, next: old }));
        self.len += 1;
    }
    fn pop(&mut self) -> Option<i32> {
        self.head.take().map(|n| {
            self.head = n.next;
            self.len -= 1;
            n.val
        })
    }
    fn reverse(&mut self) {
        let mut prev: Option<Box<Node>> = None;
        let mut cur = self.head.take();
        while let Some(mut n) = cur {
            cur = n.next.take();
            n.next = prev;
            prev = Some(n);
        }
        self.head = prev;
    }
    fn to_vec(&self) -> Vec<i32> {
        let mut out = Vec::new();
        let mut cur = &self.head;
        while let Some(n) = cur {
            out.push(n.val);
            cur = &n.next;
        }
        out
    }
}

fn main() {
    let mut l = List::new();
    for i in 1..=5 {
        l.push(i * 10);
    }
    println!("{:?} len {}", l.to_vec(), l.len);
    l.reverse();
    println!("{:?}", l.to_vec());
    println!("{:?} {:?}", l.pop(), l.pop());
    println!("{:?} len {}", l.to_vec(), l.len);
}
