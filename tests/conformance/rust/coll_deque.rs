// VecDeque: both ends, indexing, iteration, printing, collect and From.
use std::collections::VecDeque;

fn main() {
    let mut d: VecDeque<i32> = VecDeque::new();
    println!("{:?} {} {}", d, d.len(), d.is_empty());
    d.push_back(1);
    d.push_back(2);
    d.push_front(0);
    d.push_front(-1);
    println!("{:?} len {}", d, d.len());
    println!("{:?} {:?}", d.front(), d.back());
    println!("{:?} {:?}", d.pop_front(), d.pop_back());
    println!("{:?} {} {}", d, d.contains(&1), d.contains(&5));
    let mut total = 0;
    for x in &d {
        total += x;
    }
    println!("total {}", total);
    let v: Vec<i32> = d.iter().map(|x| x * 10).collect();
    println!("{:?}", v);
    let mut q: VecDeque<(usize, char)> = VecDeque::with_capacity(4);
    q.push_back((1, 'a'));
    q.push_back((2, 'b'));
    while let Some((n, c)) = q.pop_front() {
        println!("{} {}", n, c);
    }
    println!("{:?} {:?}", q.pop_front(), q.pop_back());
    let words: VecDeque<&str> = "a b c".split(' ').collect();
    println!("{:?} {:?}", words, words.get(1));
    let mut f = VecDeque::from(vec![3, 4, 5]);
    f.push_front(2);
    f.clear();
    f.push_back(9);
    println!("{:?}", f);
    // A long queue: pop_front stays cheap.
    let mut big: VecDeque<u64> = VecDeque::new();
    for i in 0..100000 {
        big.push_back(i);
    }
    let mut sum = 0u64;
    while let Some(x) = big.pop_front() {
        sum += x;
        if x % 3 == 0 && x < 300 {
            big.push_front(1000000 + x);
        }
    }
    println!("sum {}", sum);
}
