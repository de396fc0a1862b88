// Generic parameters bounded by Fn, FnMut and FnOnce, and &mut dyn FnMut parameters.
fn apply<F: FnMut(i32)>(mut f: F) {
    f(1);
    f(2);
}
fn apply2(f: &mut dyn FnMut(i32)) {
    f(3);
}
fn apply3(mut f: impl FnMut() -> i32) -> i32 {
    f();
    f()
}
fn apply_twice<F: Fn(i64) -> i64>(f: F, x: i64) -> i64 {
    f(f(x))
}
fn each<T: Copy, F: FnMut(T)>(v: &[T], mut f: F) {
    for &x in v {
        f(x);
    }
}
fn make<F: FnOnce() -> String>(f: F) -> String {
    f()
}

fn main() {
    let mut s = 0;
    apply(|x| s += x);
    apply2(&mut |x| s += x);
    let mut k = 10;
    let r = apply3(|| {
        k += 1;
        k
    });
    println!("{} {} {}", s, r, k);
    println!("{}", apply_twice(|x| x * 3, 2));
    let mut sum = 0;
    each(&[1, 2, 3], |x| sum += x);
    println!("{}", sum);
    println!("{}", make(|| "done".to_string()));
}
