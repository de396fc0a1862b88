fn main() {
    let mut stack = Vec::new();
    stack.push((1, "a"));
    stack.push((2, "b"));
    let mut out = Vec::new();
    while let Some((n, s)) = stack.pop() {
        out.push(s.repeat(n));
        if n == 2 { stack.push((3, "c")) }
    }
    println!("{:?}", out);
}
