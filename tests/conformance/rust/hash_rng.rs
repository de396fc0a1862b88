// FNV-1a hashing and a xorshift64 generator, with wrapping arithmetic.
fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

struct XorShift {
    state: u64,
}

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.state = x;
        x
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn main() {
    for s in ["", "a", "foobar", "mighty"] {
        println!("fnv1a({:?}) = {:016x}", s, fnv1a(s));
    }
    let mut r = XorShift { state: 88172645463325252 };
    let v: Vec<u64> = (0..5).map(|_| r.next()).collect();
    println!("{:?}", v);
    let mut hist = [0u32; 6];
    for _ in 0..6000 {
        hist[r.below(6) as usize] += 1;
    }
    println!("{:?}", hist);
}
