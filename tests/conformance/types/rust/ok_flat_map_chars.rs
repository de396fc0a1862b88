fn main() {
    let words = ["ab", "cde", "f"];
    let all: Vec<char> = words.iter().flat_map(|w| w.chars()).collect();
    println!("{:?}", all);
    let pos = all.iter().position(|c| *c == 'd');
    println!("{:?}", pos);
    let longest = words.iter().map(|w| (w.len(), w.to_string())).max_by_key(|p| p.0);
    println!("{:?}", longest);
    let first_digit = ["x", "7", "9"].iter().find_map(|s| s.parse::<i64>().ok());
    println!("{:?}", first_digit);
}
