fn shout(s: &str) -> String {
    s.chars().map(|c| c.to_ascii_uppercase()).collect()
}
fn main() {
    let rev: String = "stressed".chars().rev().collect();
    println!("{}", rev);
    println!("{}", shout("quiet"));
    let digits: String = "a1b2c3".chars().filter(|c| c.is_ascii_digit()).collect();
    println!("{}", digits);
    println!("{}", digits.len());
}
