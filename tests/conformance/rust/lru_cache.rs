// An LRU cache over a HashMap and a VecDeque of keys.
use std::collections::HashMap;
use std::collections::VecDeque;

struct Lru {
    cap: usize,
    map: HashMap<i32, String>,
    order: VecDeque<i32>,
}

impl Lru {
    fn new(cap: usize) -> Lru {
        Lru { cap, map: HashMap::new(), order: VecDeque::new() }
    }
    fn touch(&mut self, k: i32) {
        if let Some(pos) = self.order.iter().position(|&x| x == k) {
            self.order.remove(pos);
        }
        self.order.push_back(k);
    }
    fn get(&mut self, k: i32) -> Option<String> {
        if self.map.contains_key(&k) {
            self.touch(k);
            self.map.get(&k).cloned()
        } else {
            None
        }
    }
    fn put(&mut self, k: i32, v: &str) {
        if !self.map.contains_key(&k) && self.map.len() == self.cap {
            if let Some(old) = self.order.pop_front() {
                self.map.remove(&old);
                println!("evict {}", old);
            }
        }
        self.map.insert(k, v.to_string());
        self.touch(k);
    }
}

fn main() {
    let mut c = Lru::new(2);
    c.put(1, "one");
    c.put(2, "two");
    println!("{:?}", c.get(1));
    c.put(3, "three");
    println!("{:?}", c.get(2));
    c.put(4, "four");
    println!("{:?} {:?} {:?}", c.get(1), c.get(3), c.get(4));
    println!("{:?}", c.order);
}
