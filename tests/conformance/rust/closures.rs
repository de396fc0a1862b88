// Closures: returning impl Fn, boxed closures in a Vec, FnMut counters, composition.
fn adder(n: i32) -> impl Fn(i32) -> i32 {
    move |x| x + n
}

fn compose<A, B, C>(f: impl Fn(A) -> B, g: impl Fn(B) -> C) -> impl Fn(A) -> C {
    move |x| g(f(x))
}

fn apply_n(f: &dyn Fn(i64) -> i64, n: usize, x: i64) -> i64 {
    let mut v = x;
    for _ in 0..n {
        v = f(v);
    }
    v
}

fn main() {
    let add5 = adder(5);
    println!("{}", add5(10));
    let f = compose(|x: i32| x * 2, |y: i32| format!("<{}>", y));
    println!("{}", f(21));
    let ops: Vec<Box<dyn Fn(i32) -> i32>> = vec![Box::new(|x| x + 1), Box::new(|x| x * x), Box::new(adder(-3))];
    println!("{:?}", ops.iter().map(|op| op(7)).collect::<Vec<_>>());
    let mut count = 0;
    let mut inc = || {
        count += 1;
        count
    };
    inc();
    inc();
    println!("{}", inc());
    println!("{}", apply_n(&|x| x * 3 + 1, 4, 1));
}
