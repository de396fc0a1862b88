// Floating point statistics: mean, median, standard deviation, rounding and formatting.
fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = s.len();
    if n % 2 == 0 { (s[n / 2 - 1] + s[n / 2]) / 2.0 } else { s[n / 2] }
}

fn stddev(v: &[f64]) -> f64 {
    let m = mean(v);
    (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / v.len() as f64).sqrt()
}

fn main() {
    let v = [2.5, 9.0, 4.0, 7.25, 1.0, 6.5];
    println!("mean {:.3}", mean(&v));
    println!("median {}", median(&v));
    println!("stddev {:.4}", stddev(&v));
    let c = 37.5f64;
    println!("{:.1}F", c * 9.0 / 5.0 + 32.0);
    println!("{} {} {} {}", 2.5f64.round(), (-2.5f64).floor(), 2.0f64.powf(0.5), (10.0f64).ln().exp());
    println!("{:e} {:8.2}| {:<8.2}|", 1234.5, 3.14159, 2.5);
    let mx = v.iter().cloned().fold(f64::MIN, f64::max);
    println!("max {} min {}", mx, v.iter().cloned().fold(f64::INFINITY, f64::min));
}
