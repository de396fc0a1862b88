enum Either<L, R> { Left(L), Right(R) }
fn either<L, R, T>(e: Either<L, R>, f: fn(L) -> T, g: fn(R) -> T) -> T {
    match e {
        Either::Left(l) => f(l),
        Either::Right(r) => g(r),
    }
}
fn main() {
    let a: Either<i64, &str> = Either::Right("four");
    println!("{}", either(a, |n| n, |s| s.len() as i64));
    let b: Either<String, f64> = Either::Left("x".to_string());
    println!("{}", either(b, |s| s + "!", |f| format!("{}", f)));
    let mixed = [Either::Left(1), Either::Right("b"), Either::Left(3)];
    let mut nums = Vec::new();
    for e in mixed {
        match e {
            Either::Left(n) => nums.push(n),
            Either::Right(_) => {}
        }
    }
    println!("{:?}", nums);
}
