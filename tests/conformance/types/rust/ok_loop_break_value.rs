fn main() {
    let mut i = 0;
    let first_sq = loop {
        i += 1;
        if i * i > 50 { break i * i }
    };
    println!("{}", first_sq + 1);
    let found = 'outer: loop {
        for a in 1..10 {
            for b in 1..10 {
                if a * b == 42 { break 'outer (a, b) }
            }
        }
        break (0, 0)
    };
    println!("{:?}", found);
    println!("{}", found.0 + found.1);
}
