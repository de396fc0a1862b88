// Iterator adapters: map, filter, zip, enumerate, take_while, skip_while, fold, any/all, max_by_key, chain, windows.
fn main() {
    let v: Vec<i32> = (1..=10).collect();
    let evens: Vec<i32> = v.iter().filter(|&&x| x % 2 == 0).cloned().collect();
    println!("{:?}", evens);
    let sq: Vec<i32> = v.iter().map(|x| x * x).take_while(|&x| x < 50).collect();
    println!("{:?}", sq);
    let rest: Vec<&i32> = v.iter().skip_while(|&&x| x < 8).collect();
    println!("{:?}", rest);
    let dot: i32 = v.iter().zip(v.iter().rev()).map(|(a, b)| a * b).sum();
    println!("{}", dot);
    println!("{}", v.iter().fold(String::new(), |acc, x| acc + &x.to_string()));
    println!("{} {}", v.iter().any(|&x| x > 9), v.iter().all(|&x| x > 0));
    let words = ["apple", "fig", "banana", "kiwi"];
    println!("{:?}", words.iter().max_by_key(|w| w.len()));
    println!("{:?}", words.iter().enumerate().filter(|(i, _)| i % 2 == 1).map(|(_, w)| *w).collect::<Vec<_>>());
    let all: Vec<i32> = (1..3).chain(7..9).collect();
    println!("{:?}", all);
    let sums: Vec<i32> = v.windows(3).map(|w| w.iter().sum()).collect();
    println!("{:?}", sums);
    println!("{:?}", v.iter().position(|&x| x == 7));
    println!("{}", (1..=5).product::<u64>());
}
