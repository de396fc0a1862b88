// FnMut closures: counters, a closure that pushes, one passed to a generic-free helper, nested writers.
fn run(f: &mut dyn FnMut(i32), n: i32) {
    for i in 0..n {
        f(i);
    }
}

fn main() {
    let mut count = 0;
    let mut inc = || {
        count += 1;
        count
    };
    inc();
    inc();
    println!("{}", inc());
    println!("{}", count);
    let mut seen = Vec::new();
    run(&mut |i| seen.push(i * i), 4);
    println!("{:?}", seen);
    let mut total = 0;
    (1..=4).for_each(|i| total += i);
    println!("{}", total);
    let mut log = String::new();
    let mut outer = |tag: &str| {
        let mut add = |s: &str| log.push_str(s);
        add(tag);
        add(";");
    };
    outer("a");
    outer("b");
    println!("{}", log);
    let mut state: u64 = 7;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % 100
    };
    let v: Vec<u64> = (0..4).map(|_| next()).collect();
    println!("{:?} {}", v, state);
}
