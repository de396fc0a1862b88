// More iterator adapters: take_while, skip_while, scan, partition,
// filter_map, step_by, eq, rev over chars, nth, last, product and sum by type.
fn main() {
    let v: Vec<i32> = (1..=12).collect();
    let small: Vec<i32> = v.iter().cloned().take_while(|&x| x * x < 30).collect();
    let big: Vec<i32> = v.iter().cloned().skip_while(|&x| x < 9).collect();
    println!("{:?} {:?}", small, big);
    let running: Vec<i32> = v.iter().scan(0, |acc, &x| {
        *acc += x;
        if *acc > 40 { None } else { Some(*acc) }
    }).collect();
    println!("{:?}", running);
    let (even, odd): (Vec<i32>, Vec<i32>) = v.iter().partition(|&&x| x % 2 == 0);
    println!("{:?} {:?}", even, odd);
    let nums: Vec<i32> = ["1", "x", "3", "", "5"].iter().filter_map(|s| s.parse().ok()).collect();
    println!("{:?}", nums);
    let every3: Vec<i32> = v.iter().cloned().step_by(3).collect();
    println!("{:?}", every3);
    let word = "level";
    println!("{} {}", word.chars().eq(word.chars().rev()), "abc".chars().eq("abd".chars()));
    let rev: String = "hello".chars().rev().collect();
    println!("{} {:?} {:?}", rev, "hello".chars().next(), "hello".chars().last());
    println!("{:?} {:?}", v.iter().nth(3), v.iter().last());
    let p: u64 = (1..=10u64).product();
    let s: f64 = [0.5, 0.25].iter().sum();
    println!("{} {}", p, s);
    println!("{:?}", "a b  c".split_whitespace().rev().collect::<Vec<_>>());
    println!("{:?}", "xxhixx".trim_matches('x'));
}
