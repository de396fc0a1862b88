// Text statistics: word counts in a BTreeMap, the longest words, letter frequencies.
use std::collections::BTreeMap;

fn main() {
    let text = "the quick brown fox jumps over the lazy dog the dog barks and the fox runs";
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for w in text.split_whitespace() {
        *counts.entry(w).or_insert(0) += 1;
    }
    for (w, c) in &counts {
        if *c > 1 {
            println!("{}: {}", w, c);
        }
    }
    let mut words: Vec<&str> = counts.keys().cloned().collect();
    words.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    println!("longest: {:?}", &words[..3]);
    let letters = text.chars().filter(|c| c.is_alphabetic()).count();
    let vowels = text.chars().filter(|c| "aeiou".contains(*c)).count();
    println!("letters {} vowels {} words {}", letters, vowels, text.split_whitespace().count());
    let upper: String = text.split(' ').map(|w| {
        let mut cs = w.chars();
        match cs.next() {
            Some(f) => f.to_uppercase().collect::<String>() + cs.as_str(),
            None => String::new(),
        }
    }).collect::<Vec<String>>().join(" ");
    println!("{}", upper);
}
