fn main() {
    let double = |x| x * 2;
    println!("{}", double(21));
    let greet = |name| format!("hello {}", name);
    println!("{}", greet("ada"));
    let add = |a, b| a + b;
    println!("{}", add(2.5, 0.25));
    let v: Vec<_> = [1, 2, 3].iter().map(|&n| double(n) + 1).collect();
    println!("{:?}", v);
}
