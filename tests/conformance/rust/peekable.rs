// Peekable over a token stream: grouping runs of equal numbers, and a digit-run scanner.
fn runs(v: &[i32]) -> Vec<(i32, usize)> {
    let mut out = Vec::new();
    let mut it = v.iter().peekable();
    while let Some(&x) = it.next() {
        let mut n = 1;
        while let Some(&&y) = it.peek() {
            if y != x {
                break;
            }
            it.next();
            n += 1;
        }
        out.push((x, n));
    }
    out
}

fn numbers(s: &str) -> Vec<u64> {
    let mut out = Vec::new();
    let mut cs = s.chars().peekable();
    while let Some(c) = cs.next() {
        if let Some(d) = c.to_digit(10) {
            let mut n = d as u64;
            while let Some(nd) = cs.peek().and_then(|c| c.to_digit(10)) {
                n = n * 10 + nd as u64;
                cs.next();
            }
            out.push(n);
        }
    }
    out
}

fn main() {
    println!("{:?}", runs(&[1, 1, 2, 3, 3, 3, 1]));
    println!("{:?}", runs(&[]));
    println!("{:?}", numbers("a12b3cc456 7"));
    let mut it = [10, 20].iter().peekable();
    let a = it.peek().copied();
    let b = it.next().copied();
    let c = it.next().copied();
    println!("{:?} {:?} {:?} {:?}", a, b, c, it.peek());
}
