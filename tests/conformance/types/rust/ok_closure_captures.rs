fn main() {
    let prefix = "ab";
    let banned = ["abx".to_string()];
    let factor = 1.5;
    let keep = |w: String| w.starts_with(prefix) && !banned.contains(&w);
    let words = ["abc", "abx", "zab", "ab"];
    let kept: Vec<String> = words.iter().filter(|w| keep(w.to_string())).map(|w| w.to_string()).collect();
    println!("{:?}", kept);
    let scaled = kept.iter().map(|w| (w.len() as f64) * factor).collect::<Vec<f64>>();
    println!("{:?}", scaled);
}
