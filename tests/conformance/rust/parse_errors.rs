// str::parse into integers of each width and f64: the values and Rust's error messages.
fn main() {
    for s in ["", "+", "-", "-0", "+5", "12a", "300", "-129", "255", " 1", "18446744073709551615", "18446744073709551616", "-9223372036854775809"] {
        println!("{:?}: u8 {:?} i8 {:?} u64 {:?} i64 {:?}", s, s.parse::<u8>().map_err(|e| e.to_string()), s.parse::<i8>().map_err(|e| e.to_string()), s.parse::<u64>().map_err(|e| e.to_string()), s.parse::<i64>().map_err(|e| e.to_string()));
    }
    for s in ["", "+1.5", "inf", "-Infinity", "NaN", ".5", "5.", "1e3", "1e", "abc", "nan(1)", "0x1p3", " 1"] {
        println!("{:?}: {:?}", s, s.parse::<f64>().map_err(|e| e.to_string()));
    }
}
