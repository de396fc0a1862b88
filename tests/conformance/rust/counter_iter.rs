// A struct implementing Iterator, used with for loops and adapters.
struct Countdown {
    n: u32,
}

impl Iterator for Countdown {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        if self.n == 0 {
            None
        } else {
            self.n -= 1;
            Some(self.n + 1)
        }
    }
}

struct Fib {
    a: u64,
    b: u64,
}

impl Iterator for Fib {
    type Item = u64;
    fn next(&mut self) -> Option<u64> {
        let r = self.a;
        self.a = self.b;
        self.b += r;
        Some(r)
    }
}

fn main() {
    for i in (Countdown { n: 3 }) {
        println!("{}", i);
    }
    let total: u32 = Countdown { n: 10 }.sum();
    println!("{}", total);
    let evens: Vec<u64> = Fib { a: 0, b: 1 }.filter(|x| x % 2 == 0).take(6).collect();
    println!("{:?}", evens);
    let mut c = Countdown { n: 2 };
    println!("{:?} {:?} {:?}", c.next(), c.next(), c.next());
}
