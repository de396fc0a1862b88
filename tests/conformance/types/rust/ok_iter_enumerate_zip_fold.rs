fn main() {
    let words = ["apple", "fig", "banana"];
    let pairs = words.iter().enumerate().map(|(i, w)| (i as i64, w.len() as i64)).collect::<Vec<(i64, i64)>>();
    println!("{:?}", pairs);
    let weights = [0.5, 1.0, 2.0];
    let score = pairs.iter().zip(weights.iter()).fold(0.0, |acc, (p, w)| acc + (p.1 as f64) * w);
    println!("{}", score);
    let idx: Vec<i64> = pairs.iter().filter(|p| p.1 > 3).map(|p| p.0).collect();
    println!("{:?}", idx);
}
