// Union-find with path compression and union by rank; counts components.
struct Dsu {
    parent: Vec<usize>,
    rank: Vec<u32>,
}

impl Dsu {
    fn new(n: usize) -> Self {
        Dsu { parent: (0..n).collect(), rank: vec![0; n] }
    }
    fn find(&mut self, x: usize) -> usize {
        if self.parent[x] != x {
            let r = self.find(self.parent[x]);
            self.parent[x] = r;
        }
        self.parent[x]
    }
    fn union(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        if self.rank[ra] < self.rank[rb] {
            self.parent[ra] = rb;
        } else if self.rank[ra] > self.rank[rb] {
            self.parent[rb] = ra;
        } else {
            self.parent[rb] = ra;
            self.rank[ra] += 1;
        }
        true
    }
}

fn main() {
    let mut d = Dsu::new(10);
    let pairs = [(0, 1), (2, 3), (1, 3), (5, 6), (7, 8), (8, 9), (0, 3)];
    for (a, b) in pairs {
        println!("union({}, {}) = {}", a, b, d.union(a, b));
    }
    let mut roots: Vec<usize> = (0..10).map(|i| d.find(i)).collect();
    roots.sort();
    roots.dedup();
    println!("components: {}", roots.len());
    println!("{}", d.find(2) == d.find(0));
}
