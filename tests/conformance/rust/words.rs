// Text processing: word frequencies, longest words, capitalisation, palindromes.
use std::collections::HashMap;

fn capitalize(w: &str) -> String {
    let mut cs = w.chars();
    match cs.next() {
        Some(f) => f.to_uppercase().collect::<String>() + cs.as_str(),
        None => String::new(),
    }
}

fn is_palindrome(s: &str) -> bool {
    let cleaned: Vec<char> = s.chars().filter(|c| c.is_alphanumeric()).map(|c| c.to_ascii_lowercase()).collect();
    let n = cleaned.len();
    (0..n / 2).all(|i| cleaned[i] == cleaned[n - 1 - i])
}

fn main() {
    let text = "the quick brown fox jumps over the lazy dog the fox barks";
    let mut freq: HashMap<&str, usize> = HashMap::new();
    for w in text.split_whitespace() {
        *freq.entry(w).or_insert(0) += 1;
    }
    let mut pairs: Vec<(&str, usize)> = freq.into_iter().collect();
    pairs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    for (w, c) in pairs.iter().take(4) {
        println!("{:>6} {}", w, c);
    }
    let longest = text.split(' ').fold("", |best, w| if w.len() > best.len() { w } else { best });
    println!("longest: {}", longest);
    let caps: Vec<String> = text.split_whitespace().take(4).map(capitalize).collect();
    println!("{}", caps.join(" "));
    for s in ["A man, a plan, a canal: Panama", "hello", "Was it a car or a cat I saw?"] {
        println!("{:?} -> {}", s, is_palindrome(s));
    }
    let vowels = text.chars().filter(|c| "aeiou".contains(*c)).count();
    println!("vowels: {}", vowels);
    let acronym: String = "portable network graphics".split(' ').map(|w| w.chars().next().unwrap().to_ascii_uppercase()).collect();
    println!("{}", acronym);
    let reversed: String = "stressed".chars().rev().collect();
    println!("{}", reversed);
}
