// f64 methods and constants: powi/powf, exp/ln/log, trig, hypot, mul_add,
// rounding, classification, the consts module, f64::max as a function.
use std::f64::consts::PI;

fn main() {
    let x = 2.0f64;
    println!("{:.4} {:.4} {:.4} {:.4}", x.powi(10), x.powf(0.5), x.exp(), x.ln());
    println!("{:.4} {:.4} {:.4}", 1000f64.log10(), 8f64.log2(), 27f64.cbrt());
    println!("{:.4} {:.4} {:.4}", (PI / 6.0).sin(), (PI / 3.0).cos(), (PI / 4.0).tan());
    println!("{:.4} {:.4} {:.4}", 1f64.atan2(1.0), 0.5f64.asin(), 0.5f64.acos());
    println!("{} {} {:.1}", 3f64.hypot(4.0), 2f64.mul_add(3.0, 4.0), PI.to_degrees());
    println!("{} {} {} {}", (-2.7f64).trunc(), 2.5f64.round(), (-2.5f64).floor(), 2.1f64.ceil());
    println!("{:.2} {}", 3.75f64.fract(), 180f64.to_radians() == PI);
    println!("{} {} {}", f64::NAN.is_nan(), f64::INFINITY.is_finite(), (1.0f64 / 0.0).is_infinite());
    println!("{} {}", f64::EPSILON < 1e-15, f64::NEG_INFINITY < f64::MIN);
    println!("{:.5} {:.5}", std::f64::consts::E, std::f64::consts::SQRT_2);
    let v = [1.5, -2.0, 9.25, 0.5];
    let mx = v.iter().cloned().fold(f64::MIN, f64::max);
    let mn = v.iter().cloned().fold(f64::INFINITY, f64::min);
    println!("{} {}", mx, mn);
    let a: Vec<i64> = vec![-3, 4, -5].into_iter().map(i64::abs).collect();
    println!("{:?}", a);
}
